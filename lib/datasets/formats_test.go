package datasets

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// writeFile writes data to name in a fresh temporary folder, gzip-compressed
// when gz is set, and returns its path.
func writeFile(t *testing.T, name string, data []byte, gz bool) string {
	t.Helper()
	if gz {
		var buf bytes.Buffer
		z := gzip.NewWriter(&buf)
		z.Write(data)
		z.Close()
		data = buf.Bytes()
	}
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReadTable(t *testing.T) {
	tests := []struct {
		name    string
		text    string
		sep     byte
		cols    int
		want    []float64
		wantErr string // substring naming the line; "" for success
	}{
		{"whitespace", "1 2\n  3\t4.5 \n", 0, 2, []float64{1, 2, 3, 4.5}, ""},
		{"blank lines and CRLF", "1,2\r\n\r\n-3, 4e2\r\n", ',', 2, []float64{1, 2, -3, 400}, ""},
		{"too few fields", "1 2\n3 4\n5\n", 0, 2, nil, ":3: 1 fields, want 2"},
		{"not a number", "1,2\n3,x\n", ',', 2, nil, `:2: field 2: not a number: "x"`},
		{"NaN rejected", "1 NaN\n", 0, 2, nil, `:1: field 2: not a finite number: "NaN"`},
		{"empty field", "1,,3\n", ',', 3, nil, `:1: field 2: not a number: ""`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, gz := range []bool{false, true} {
				p := writeFile(t, "table.txt", []byte(tc.text), gz)
				tab, err := readTable(p, tc.sep, tc.cols)
				if tc.wantErr != "" {
					if err == nil || !strings.Contains(err.Error(), p+tc.wantErr) {
						t.Fatalf("gz=%v: error %v, want it to contain %q", gz, err, p+tc.wantErr)
					}
					continue
				}
				if err != nil {
					t.Fatalf("gz=%v: %v", gz, err)
				}
				if !slices.Equal(tab.vals, tc.want) {
					t.Errorf("gz=%v: values %v, want %v", gz, tab.vals, tc.want)
				}
			}
		})
	}
}

func TestPointsAndLabels(t *testing.T) {
	load := loadPointsAndLabels(2)
	points := writeFile(t, "p.data.gz", []byte("1 2\n3 4\n5 6\n"), true)
	x, labels, err := load([]string{points, writeFile(t, "p.labels0.gz", []byte("1\n2\n2\n"), true)})
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(x, mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6})) || !slices.Equal(labels, []int{1, 2, 2}) {
		t.Errorf("got %v %v", mat.Formatted(x), labels)
	}
	for _, tc := range []struct{ labels, wantErr string }{
		{"1\n2\n", "has 2 labels for the 3 points"},
		{"1\n2.5\n3\n", ":2: label: not an integer: 2.5"},
	} {
		_, _, err := load([]string{points, writeFile(t, "bad.labels0", []byte(tc.labels), false)})
		if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("labels %q: error %v, want %q", tc.labels, err, tc.wantErr)
		}
	}
}

func TestCSVWithLabel(t *testing.T) {
	// COVTYPE's layout: 54 integer features, then the cover type 1..7.
	row := func(first, label int) string {
		f := make([]string, 55)
		for i := range f {
			f[i] = "0"
		}
		f[0] = strconv.Itoa(first)
		f[54] = strconv.Itoa(label)
		return strings.Join(f, ",") + "\n"
	}
	load := loadCSVWithLabel(54, 1, 7)
	p := writeFile(t, "covtype.data.gz", []byte(row(2596, 5)+row(2590, 7)+row(-3, 1)), true)
	x, labels, err := load([]string{p})
	if err != nil {
		t.Fatal(err)
	}
	if r, c := x.Dims(); r != 3 || c != 54 {
		t.Fatalf("dims %d×%d, want 3×54", r, c)
	}
	if x.At(0, 0) != 2596 || x.At(2, 0) != -3 || !slices.Equal(labels, []int{5, 7, 1}) {
		t.Errorf("got first column %v, labels %v", mat.Col(nil, 0, x), labels)
	}
	p = writeFile(t, "covtype.data", []byte(row(1, 5)+row(1, 8)), false)
	if _, _, err := load([]string{p}); err == nil || !strings.Contains(err.Error(), p+":2: label 8 outside 1..7") {
		t.Errorf("label 8: error %v", err)
	}
}

// idxBytes encodes an unsigned-byte IDX array.
func idxBytes(dims []uint32, data []byte) []byte {
	var b bytes.Buffer
	b.Write([]byte{0, 0, 0x08, byte(len(dims))})
	for _, d := range dims {
		binary.Write(&b, binary.BigEndian, d)
	}
	b.Write(data)
	return b.Bytes()
}

func TestIDXImages(t *testing.T) {
	// Three 2×2 images, as MNIST's train-images/train-labels files hold 60,000 28×28 ones.
	pixels := []byte{0, 1, 2, 3, 10, 20, 30, 40, 255, 254, 253, 252}
	for _, gz := range []bool{true, false} {
		img := writeFile(t, "train-images-idx3-ubyte.gz", idxBytes([]uint32{3, 2, 2}, pixels), gz)
		lab := writeFile(t, "train-labels-idx1-ubyte.gz", idxBytes([]uint32{3}, []byte{7, 0, 9}), gz)
		x, labels, err := loadIDXImages([]string{img, lab})
		if err != nil {
			t.Fatal(err)
		}
		want := mat.NewDense(3, 4, []float64{0, 1, 2, 3, 10, 20, 30, 40, 255, 254, 253, 252})
		if !mat.Equal(x, want) || !slices.Equal(labels, []int{7, 0, 9}) {
			t.Errorf("gz=%v: got %v labels %v", gz, mat.Formatted(x), labels)
		}
	}
	good := idxBytes([]uint32{3}, []byte{1, 2, 3})
	tests := []struct {
		name    string
		images  []byte
		labels  []byte
		wantErr string
	}{
		{"bad magic", append([]byte{1, 2}, idxBytes([]uint32{3, 2, 2}, pixels)[2:]...), good, "not an IDX file"},
		{"float elements", append([]byte{0, 0, 0x0d}, idxBytes([]uint32{3, 2, 2}, pixels)[3:]...), good, "element type 0x0d"},
		{"truncated", idxBytes([]uint32{3, 2, 2}, pixels[:10]), good, "IDX data ends after 10 of 12 bytes"},
		{"trailing bytes", idxBytes([]uint32{3, 2, 2}, append(slices.Clone(pixels), 9)), good, "bytes after the 12 announced"},
		{"not images", idxBytes([]uint32{12}, pixels), good, "want n × rows × cols"},
		{"label count", idxBytes([]uint32{3, 2, 2}, pixels), idxBytes([]uint32{2}, []byte{1, 2}), "has 2 labels for the 3 images"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			img := writeFile(t, "images.gz", tc.images, true)
			lab := writeFile(t, "labels.gz", tc.labels, true)
			_, _, err := loadIDXImages([]string{img, lab})
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("error %v, want %q", err, tc.wantErr)
			}
		})
	}
}

func TestUSPS(t *testing.T) {
	// testdata/usps_tiny.bz2 was made with the bzip2 command from the two
	// lines below (Go can decompress bzip2 but not compress it); the plain
	// copy checks that the loader reads both.
	text := "1 1:-1 2:0 3:1 4:0.5\n10 1:1 3:-0.25 4:-1\n"
	for _, p := range []string{filepath.Join("testdata", "usps_tiny.bz2"), writeFile(t, "usps", []byte(text), false)} {
		x, labels, err := loadUSPS([]string{p})
		if err != nil {
			t.Fatal(err)
		}
		if r, c := x.Dims(); r != 2 || c != 256 {
			t.Fatalf("%s: dims %d×%d, want 2×256", p, r, c)
		}
		// Grey level ⌊(v+1)/2·255⌋; absent entries are 0, hence 127.
		wantRow0 := []float64{0, 127, 255, 191, 127}
		wantRow1 := []float64{255, 127, 95, 0, 127}
		if got := x.RawRowView(0)[:5]; !slices.Equal(got, wantRow0) {
			t.Errorf("%s: row 0 starts %v, want %v", p, got, wantRow0)
		}
		if got := x.RawRowView(1)[:5]; !slices.Equal(got, wantRow1) {
			t.Errorf("%s: row 1 starts %v, want %v", p, got, wantRow1)
		}
		if !slices.Equal(labels, []int{0, 9}) {
			t.Errorf("%s: labels %v, want [0 9]", p, labels)
		}
	}
	// The train file, then the test file (usps.bz2, usps.t.bz2): rows in
	// that order, errors naming the file at fault.
	train, test := writeFile(t, "usps", []byte(text), false), writeFile(t, "usps.t", []byte("5 2:1\n"), false)
	x, labels, err := loadUSPS([]string{train, test})
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := x.Dims(); r != 3 || !slices.Equal(labels, []int{0, 9, 4}) || !slices.Equal(x.RawRowView(2)[:3], []float64{127, 255, 127}) {
		t.Errorf("train+test: %d rows, labels %v, last row starts %v; want 3, [0 9 4], [127 255 127]", r, labels, x.RawRowView(2)[:3])
	}
	if _, _, err := loadUSPS([]string{train, writeFile(t, "usps.t", []byte("0 1:0\n"), false)}); err == nil || !strings.Contains(err.Error(), "usps.t") {
		t.Errorf("a bad test file: error %v, want it named", err)
	}
	tests := []struct{ name, text, wantErr string }{
		{"index too large", "1 1:0 257:0.5\n", ":1: index \"257\" outside 1..256"},
		{"decreasing index", "1 1:0\n2 3:0 2:0\n", ":2: index 2 after 3"},
		{"no colon", "1 1:0 5\n", `:1: "5" is not index:value`},
		{"bad value", "1 1:abc\n", `:1: value "abc" of index 1`},
		{"label 11", "3 1:0\n11 1:0\n", ":2: label 11 outside 1..10"},
		{"value outside [-1, 1]", "1 1:0\n\n1 1:0 2:1.5\n", ":3: value 1.5 of index 2 outside [-1, 1]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := writeFile(t, "usps", []byte(tc.text), false)
			_, _, err := loadUSPS([]string{p})
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("error %v, want %q", err, tc.wantErr)
			}
		})
	}
}
