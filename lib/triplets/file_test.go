package triplets

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oe-lab/oe/lib/internal/npy"
)

func TestReadCSV(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		n     int
		wantN int
		want  []int32
	}{
		{"plain", "0,1,2\n3,2,1\n", 0, 4, []int32{0, 1, 2, 3, 2, 1}},
		{"header comments blanks CRLF spaces", "# made by hand\r\ni,j,k\r\n\r\n 0 , 1,2\r\n#x\n2,1,0", 0, 3, []int32{0, 1, 2, 2, 1, 0}},
		{"explicit n larger than max index", "0,1,2\n", 10, 10, []int32{0, 1, 2}},
		{"declared n", "# n=7\ni,j,k\n0,1,2\n", 0, 7, []int32{0, 1, 2}},
		{"declared n equal to caller's", "#n = 7\n0,1,2\n", 7, 7, []int32{0, 1, 2}},
		{"n= comment after data is just a comment", "0,1,2\n# n=99\n", 0, 3, []int32{0, 1, 2}},
		{"plus sign and -0", "+0,1,2\n-0,2,1\n", 0, 3, []int32{0, 1, 2, 0, 2, 1}},
		{"sparse, few items absent", "0,1,2\n3,1,5000\n", 0, 5001, []int32{0, 1, 2, 3, 1, 5000}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := ReadCSV(strings.NewReader(tc.in), "t.csv", tc.n)
			if err != nil {
				t.Fatal(err)
			}
			if s.N != tc.wantN || !slices.Equal(s.Idx, tc.want) {
				t.Errorf("got N=%d %v, want N=%d %v", s.N, s.Idx, tc.wantN, tc.want)
			}
			if err := s.Validate(); err != nil {
				t.Errorf("read set does not validate: %v", err)
			}
		})
	}
}

func TestReadCSVErrors(t *testing.T) {
	tests := []struct {
		name string
		in   string
		n    int
		want string // substring of the error
	}{
		{"non-integer", "0,1,2\n0,1.5,2\n", 0, "t.csv:2: field 2: \"1.5\" is a name, but line 1 numbers its items (named and numeric items cannot mix)"},
		{"empty field", "0,,2\n", 0, "t.csv:1: field 2: empty item: neither a name nor a number"},
		{"two columns", "# c\n0,1\n", 0, "t.csv:2: want 3 comma-separated fields i,j,k, or a responses header with the columns head, left, right and answer; got 2 fields in \"0,1\""},
		{"four columns", "0,1,2,3\n", 0, "t.csv:1: want 3 comma-separated fields i,j,k, or a responses header with the columns head, left, right and answer; got 4 fields"},
		{"space separated", "0 1 2\n", 0, "t.csv:1: want 3 comma-separated fields"},
		{"index = n", "0,1,2\n0,1,5\n", 5, "t.csv:2: field 3: index 5 out of range [0, 5)"},
		{"index beyond declared n", "# n=4\n0,1,4\n", 0, "t.csv:2: field 3: index 4 out of range [0, 4)"},
		{"negative", "0,-1,2\n", 0, "t.csv:1: field 2: index -1 is negative"},
		{"overflow", "0,1,99999999999\n", 0, "t.csv:1: field 3: index 99999999999 is too large: items are numbered 0 to 2147483646 at most"},
		// The issue's cases (#15): 2^31-1 made n overflow int32 ("index 0
		// out of range [0, -2147483648)"), 2^31-2 an allocation of 16 GiB.
		{"index 2^31-1", "0,1,2\n0,1,2147483647\n", 0, "t.csv:2: field 3: index 2147483647 is too large: items are numbered 0 to 2147483646 at most"},
		{"index 2^31-2 among 4 items", "0,1,2\n# c\n0,2147483646,1\n2,1,0\n", 0,
			"t.csv:3: index 2147483646 makes n = 2147483647 items, but only 4 of them appear in a triplet; give the number of items"},
		{"most items absent", "0,1,2\n3,1,2000000\n", 0, "t.csv:2: index 2000000 makes n = 2000001 items, but only 5 of them appear"},
		{"i=j", "1,1,2\n", 0, "t.csv:1: indices (1, 1, 2) are not distinct"},
		{"i=k", "1,2,1\n", 0, "t.csv:1: indices (1, 2, 1) are not distinct"},
		{"j=k", "0,1,2\n3,2,2\n", 0, "t.csv:2: indices (3, 2, 2) are not distinct"},
		{"header later", "0,1,2\ni,j,k\n", 0, "t.csv:2: field 1: \"i\" is a name, but line 1 numbers its items"},
		{"empty", "# nothing\n\n", 0, "t.csv: no triplets"},
		{"header only", "i,j,k\n", 0, "t.csv: no triplets"},
		{"declared n conflicts", "# n=5\n0,1,2\n", 6, "t.csv:1: file declares n=5 items, caller expects n=6"},
		{"declared n bad", "# n=lots\n0,1,2\n", 0, "t.csv:1: bad item count"},
		{"declared n too small", "# n=2\n0,1,2\n", 0, "declared item count n=2 out of range"},
		{"caller n too small", "0,1,2\n", 2, "need at least 3 items, caller gave n=2"},
		{"caller n negative", "0,1,2\n", -1, "number of items -1 out of range"},
		{"line too long", strings.Repeat("1", maxCSVLine+1), 0, "t.csv:1: line longer than"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadCSV(strings.NewReader(tc.in), "t.csv", tc.n)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestWriteCSV(t *testing.T) {
	s := &Set{N: 5, Idx: []int32{0, 1, 2, 4, 3, 0}}
	var b bytes.Buffer
	if err := WriteCSV(&b, s); err != nil {
		t.Fatal(err)
	}
	want := "# n=5\ni,j,k\n0,1,2\n4,3,0\n"
	if b.String() != want {
		t.Errorf("wrote %q, want %q", b.String(), want)
	}
}

// npyBytes builds a .npy file with the given header dictionary (padded as
// NumPy pads it) followed by data.
func npyBytes(version byte, dict string, data []byte) []byte {
	lenBytes := 2
	if version > 1 {
		lenBytes = 4
	}
	total := 6 + 2 + lenBytes + len(dict) + 1
	dict += strings.Repeat(" ", (64-total%64)%64) + "\n"
	b := []byte(npy.Magic)
	b = append(b, version, 0)
	if version == 1 {
		b = binary.LittleEndian.AppendUint16(b, uint16(len(dict)))
	} else {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(dict)))
	}
	b = append(b, dict...)
	return append(b, data...)
}

func le32(vals ...int32) []byte {
	var b []byte
	for _, v := range vals {
		b = binary.LittleEndian.AppendUint32(b, uint32(v))
	}
	return b
}

func le64(vals ...int64) []byte {
	var b []byte
	for _, v := range vals {
		b = binary.LittleEndian.AppendUint64(b, uint64(v))
	}
	return b
}

func TestReadNPY(t *testing.T) {
	tests := []struct {
		name  string
		in    []byte
		n     int
		wantN int
		want  []int32
	}{
		// The dictionary exactly as numpy.save writes it.
		{"int64 as numpy writes it", npyBytes(1, "{'descr': '<i8', 'fortran_order': False, 'shape': (2, 3), }", le64(0, 1, 2, 3, 0, 1)),
			0, 4, []int32{0, 1, 2, 3, 0, 1}},
		{"int32", npyBytes(1, "{'descr': '<i4', 'fortran_order': False, 'shape': (1, 3), }", le32(2, 0, 1)),
			0, 3, []int32{2, 0, 1}},
		{"version 2, reordered keys, explicit n", npyBytes(2, "{\"shape\": (1,3), \"fortran_order\": False, \"descr\": \"<i4\"}", le32(2, 0, 1)),
			9, 9, []int32{2, 0, 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := ReadNPY(bytes.NewReader(tc.in), "t.npy", tc.n)
			if err != nil {
				t.Fatal(err)
			}
			if s.N != tc.wantN || !slices.Equal(s.Idx, tc.want) {
				t.Errorf("got N=%d %v, want N=%d %v", s.N, s.Idx, tc.wantN, tc.want)
			}
		})
	}
}

func TestReadNPYErrors(t *testing.T) {
	good := func(descr, shape string) string {
		return "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }"
	}
	tests := []struct {
		name string
		in   []byte
		n    int
		want string
	}{
		{"float64", npyBytes(1, good("<f8", "(1, 3)"), le64(0, 1, 2)), 0, "dtype \"<f8\" is not a triplet index type"},
		{"big-endian", npyBytes(1, good(">i4", "(1, 3)"), le32(0, 1, 2)), 0, "dtype \">i4\" is big-endian"},
		{"Fortran order", npyBytes(1, "{'descr': '<i4', 'fortran_order': True, 'shape': (1, 3), }", le32(0, 1, 2)), 0, "Fortran order"},
		{"shape (3,)", npyBytes(1, good("<i4", "(3,)"), le32(0, 1, 2)), 0, "shape (3,) is not (m, 3)"},
		{"shape (3, 1)", npyBytes(1, good("<i4", "(3, 1)"), le32(0, 1, 2)), 0, "shape (3, 1) is not (m, 3)"},
		{"shape (1, 3, 1)", npyBytes(1, good("<i4", "(1, 3, 1)"), le32(0, 1, 2)), 0, "shape (1, 3, 1) is not (m, 3)"},
		{"zero rows", npyBytes(1, good("<i4", "(0, 3)"), nil), 0, "t.npy: no triplets"},
		{"truncated data", npyBytes(1, good("<i4", "(2, 3)"), le32(0, 1, 2, 0, 1)), 0, "truncated .npy data: header says 2 rows, data ends within row 1"},
		{"trailing data", npyBytes(1, good("<i4", "(1, 3)"), le32(0, 1, 2, 7)), 0, "trailing bytes"},
		{"truncated header", npyBytes(1, good("<i4", "(1, 3)"), nil)[:20], 0, "header dictionary: truncated data"},
		{"bad magic", []byte("\x93NUMPZ\x01\x00"), 0, "not a .npy file"},
		{"empty", nil, 0, "missing magic"},
		{"version 9", []byte("\x93NUMPY\x09\x00\x00\x00"), 0, "unsupported format version 9.0"},
		{"missing descr", npyBytes(1, "{'fortran_order': False, 'shape': (1, 3), }", le32(0, 1, 2)), 0, "'descr' missing"},
		{"malformed dict", npyBytes(1, "{'descr' '<i4'}", nil), 0, "missing ':' after key \"descr\""},
		{"index out of range", npyBytes(1, good("<i4", "(1, 3)"), le32(0, 1, 5)), 5, "row 0: index 5 out of range [0, 5)"},
		{"negative index", npyBytes(1, good("<i8", "(1, 3)"), le64(0, -1, 2)), 0, "row 0: index -1 out of range"},
		{"int64 beyond int32", npyBytes(1, good("<i8", "(1, 3)"), le64(0, 1, 1<<40)), 0, "index 1099511627776 out of range"},
		{"index 2^31-1", npyBytes(1, good("<i4", "(2, 3)"), le32(0, 1, 2, 2147483647, 0, 1)), 0, "t.npy: row 1: index 2147483647 is too large"},
		{"index 2^31-2 among 3 items", npyBytes(1, good("<i8", "(2, 3)"), le64(0, 1, 2, 2147483646, 0, 1)), 0,
			"t.npy: row 1: index 2147483646 makes n = 2147483647 items, but only 4 of them appear in a triplet"},
		{"not distinct", npyBytes(1, good("<i4", "(2, 3)"), le32(0, 1, 2, 3, 3, 1)), 0, "row 1: indices (3, 3, 1) are not distinct"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadNPY(bytes.NewReader(tc.in), "t.npy", tc.n)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want it to contain %q", err, tc.want)
			}
			if err != nil && !strings.Contains(err.Error(), "t.npy") {
				t.Errorf("error %v does not name the file", err)
			}
		})
	}
}

func TestWriteNPYLayout(t *testing.T) {
	s := &Set{N: 4, Idx: []int32{0, 1, 2, 3, 2, 1}}
	var b bytes.Buffer
	if err := WriteNPY(&b, s); err != nil {
		t.Fatal(err)
	}
	out := b.Bytes()
	hlen := int(binary.LittleEndian.Uint16(out[8:10]))
	if (10+hlen)%64 != 0 || out[10+hlen-1] != '\n' {
		t.Errorf("header of %d bytes is not 64-aligned and newline-terminated", 10+hlen)
	}
	dict := strings.TrimSpace(string(out[10 : 10+hlen]))
	if want := "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }"; dict != want {
		t.Errorf("header %q, want %q", dict, want)
	}
	if !bytes.Equal(out[10+hlen:], le32(s.Idx...)) {
		t.Errorf("data %v, want little-endian int32 of %v", out[10+hlen:], s.Idx)
	}
}

func TestFileRoundTrip(t *testing.T) {
	dir := t.TempDir()
	s := &Set{N: 6, Idx: []int32{0, 1, 2, 3, 2, 1, 4, 0, 2}} // item 5 unused
	for _, tc := range []struct {
		file  string
		n     int // as passed to ReadFile
		wantN int
	}{
		{"t.csv", 0, 6}, // CSV records n
		{"t.TXT", 6, 6},
		{"t.npy", 0, 5}, // .npy cannot: largest index + 1
		{"t.npy", 6, 6},
	} {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join(dir, tc.file)
			if err := WriteFile(path, s); err != nil {
				t.Fatal(err)
			}
			got, err := ReadFile(path, tc.n)
			if err != nil {
				t.Fatal(err)
			}
			if got.N != tc.wantN || !slices.Equal(got.Idx, s.Idx) {
				t.Errorf("read back N=%d %v, want N=%d %v", got.N, got.Idx, tc.wantN, s.Idx)
			}
		})
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 3 {
		t.Errorf("directory holds %d entries, want the 3 written files and no temporaries", len(entries))
	}
}

func TestWriteFileErrors(t *testing.T) {
	dir := t.TempDir()
	valid := &Set{N: 3, Idx: []int32{0, 1, 2}}
	old := filepath.Join(dir, "old.csv")
	if err := WriteFile(old, valid); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		path string
		s    *Set
		want string
	}{
		{"unknown extension", filepath.Join(dir, "t.json"), valid, "unknown triplet file extension \".json\""},
		{"missing directory", filepath.Join(dir, "no", "t.csv"), valid, "no such file"},
		{"invalid set keeps the old file", old, &Set{N: 3, Idx: []int32{0, 0, 2}}, "not distinct"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := WriteFile(tc.path, tc.s)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
	if got, err := ReadFile(old, 0); err != nil || !slices.Equal(got.Idx, valid.Idx) {
		t.Errorf("old file damaged by a failed write: %v, %v", got, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("directory holds %d entries after failed writes, want 1", len(entries))
	}
}

func TestReadFileErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(bad, []byte("0,1,2\n0,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	short := filepath.Join(dir, "short.npy")
	if err := os.WriteFile(short, npyBytes(1, "{'descr': '<i4', 'fortran_order': False, 'shape': (9, 3), }", le32(0, 1, 2)), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path string
		want string
	}{
		{bad, bad + ":2: want 3 comma-separated fields"},
		{short, short + ": .npy header says shape (9, 3) of 4-byte elements = 108 bytes of data, file has 12"},
		{filepath.Join(dir, "absent.npy"), "no such file"},
		{filepath.Join(dir, "t.dat"), "unknown triplet file extension"},
	}
	for _, tc := range tests {
		_, err := ReadFile(tc.path, 0)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ReadFile(%s): error %v, want it to contain %q", tc.path, err, tc.want)
		}
	}
}
