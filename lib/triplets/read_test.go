package triplets

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oe-lab/oe/lib/internal/testpoints"
)

func TestReadCSVWith(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		opt       ReadOptions
		wantForm  Form
		wantNames []string // nil: numbered items
		wantN     int
		want      []int32
	}{
		{"named triplets, numbered in byte order", "pear,apple,fig\nfig,pear,apple\n", ReadOptions{}, FormTriplets,
			[]string{"apple", "fig", "pear"}, 3, []int32{2, 0, 1, 1, 2, 0}},
		{"a first line of names is data", "anchor,near,far\n", ReadOptions{}, FormTriplets,
			[]string{"anchor", "far", "near"}, 3, []int32{0, 2, 1}},
		{"i,j,k header then names", "# by hand\ni,j,k\nb,a,c\n", ReadOptions{}, FormTriplets,
			[]string{"a", "b", "c"}, 3, []int32{1, 0, 2}},
		{"byte order: capitals first", "b,B,a\n", ReadOptions{}, FormTriplets,
			[]string{"B", "a", "b"}, 3, []int32{2, 0, 1}},
		{"RFC 4180 quoting", "\"red, dark\",\"say \"\"hi\"\"\", plain \n\"#1\" , \" padded \",plain\n", ReadOptions{}, FormTriplets,
			[]string{" padded ", "#1", "plain", "red, dark", "say \"hi\""}, 5, []int32{3, 4, 2, 1, 0, 2}},
		{"a quoted number is a number", "\"0\",1,2\n", ReadOptions{}, FormTriplets, nil, 3, []int32{0, 1, 2}},
		{"declared n equal to the names", "# n=3\nx,y,z\n", ReadOptions{}, FormTriplets,
			[]string{"x", "y", "z"}, 3, []int32{0, 1, 2}},
		{"responses by name", "head,left,right,answer\nsilk,wool,steel,wool\nsilk,wool,steel,steel\n", ReadOptions{}, FormResponses,
			[]string{"silk", "steel", "wool"}, 3, []int32{0, 2, 1, 0, 1, 2}},
		{"responses by side, columns reordered, extra ignored", "worker,ANSWER,Left,head,right\n7,right,b,a,c\n8,left,b,a,c\n", ReadOptions{}, FormResponses,
			[]string{"a", "b", "c"}, 3, []int32{0, 2, 1, 0, 1, 2}},
		{"a candidate called left wins over the word", "head,left,right,answer\nx,right,left,left\n", ReadOptions{}, FormResponses,
			[]string{"left", "right", "x"}, 3, []int32{2, 0, 1}},
		{"numbered responses", "# n=6\nhead,left,right,answer\n0,5,3,3\n0,5,3,left\n", ReadOptions{}, FormResponses,
			nil, 6, []int32{0, 3, 5, 0, 5, 3}},
		{"columns by option", "ref,a,b,choice\nx,y,z,z\n", ReadOptions{Columns: Columns{Head: "ref", Left: "a", Right: "b", Answer: "choice"}}, FormResponses,
			[]string{"x", "y", "z"}, 3, []int32{0, 2, 1}},
		{"one column by option, the rest default", "head,left,right,choice\nx,y,z,y\n", ReadOptions{Columns: Columns{Answer: "choice"}}, FormResponses,
			[]string{"x", "y", "z"}, 3, []int32{0, 1, 2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, form, err := ReadCSVWith(strings.NewReader(tc.in), "t.csv", tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if form != tc.wantForm || s.N != tc.wantN || !slices.Equal(s.Names, tc.wantNames) || !slices.Equal(s.Idx, tc.want) {
				t.Errorf("got %v N=%d names %q %v, want %v N=%d names %q %v", form, s.N, s.Names, s.Idx, tc.wantForm, tc.wantN, tc.wantNames, tc.want)
			}
			if err := s.Validate(); err != nil {
				t.Errorf("read set does not validate: %v", err)
			}
		})
	}
}

// TestReadCSVWithErrors covers the bad input of issue #20: every message
// names the file, the line and the value.
func TestReadCSVWithErrors(t *testing.T) {
	tests := []struct {
		name string
		in   string
		opt  ReadOptions
		want string
	}{
		{"named then numeric", "a,b,c\na,b,7\n", ReadOptions{}, `t.csv:2: field 3: "7" is a number, but line 1 names its items (named and numeric items cannot mix)`},
		{"numeric then named", "# x\n0,1,2\n\n0,1,two\n", ReadOptions{}, `t.csv:4: field 3: "two" is a name, but line 2 numbers its items`},
		{"mixed within a row", "a,1,c\n", ReadOptions{}, `t.csv:1: field 2: "1" is a number, but line 1 names its items`},
		{"empty name", "a,,c\n", ReadOptions{}, "t.csv:1: field 2: empty item: neither a name nor a number"},
		{"empty quoted name", "a,\"\",c\n", ReadOptions{}, "t.csv:1: field 2: empty item"},
		{"repeated name", "a,b,c\nb,a,b\n", ReadOptions{}, "t.csv:2: items (b, a, b) are not distinct"},
		{"unterminated quote", "a,\"b,c\n", ReadOptions{}, "t.csv:1: unterminated quoted field"},
		{"text after a quote", "a,\"b\"x,c\n", ReadOptions{}, `t.csv:1: "x,c" after a quoted field, want a comma`},
		{"quote in an unquoted field", "a,b\"c,d\n", ReadOptions{}, `t.csv:1: a quote inside the unquoted field "b\"c"`},
		{"invalid UTF-8 name", "a,\xff,c\n", ReadOptions{}, `t.csv:1: field 2: name "\xff" is not valid UTF-8`},
		{"names other than n", "# n=4\nx,y,z\n", ReadOptions{}, "t.csv: n=4 items expected, the file names 3"},
		{"caller n with names", "x,y,z\n", ReadOptions{N: 5}, "t.csv: n=5 items expected, the file names 3"},
		{"answer neither candidate", "head,left,right,answer\nsilk,wool,steel,wool\nsilk,wool,steel,silk\n", ReadOptions{},
			`t.csv:3: field 4 (answer): answer "silk" is neither candidate (left "wool", right "steel") nor the word left or right`},
		{"numbered answer neither candidate", "head,left,right,answer\n0,1,2,3\n", ReadOptions{}, `t.csv:2: field 4 (answer): answer "3" is neither candidate`},
		{"candidates equal", "head,left,right,answer\nx,y,y,left\n", ReadOptions{}, "t.csv:2: items (x, y, y) are not distinct"},
		{"head is a candidate", "head,left,right,answer\n0,0,2,right\n", ReadOptions{}, "t.csv:2: indices (0, 2, 0) are not distinct"},
		{"short responses row", "head,left,right,answer,who\nx,y,z,y\n", ReadOptions{}, "t.csv:2: want 5 fields as in the header, got 4"},
		{"empty head", "head,left,right,answer\n,y,z,y\n", ReadOptions{}, "t.csv:2: field 1 (head): empty item"},
		{"mixed in responses", "head,left,right,answer\nx,y,z,y\n1,y,z,y\n", ReadOptions{}, `t.csv:3: field 1 (head): "1" is a number, but line 2 names its items`},
		{"column twice", "head,left,right,answer,head\n", ReadOptions{}, `t.csv:1: column "head" appears twice in the header`},
		{"header without answer", "head,left,right,choice\nx,y,z,y\n", ReadOptions{}, "t.csv:1: want 3 comma-separated fields i,j,k, or a responses header with the columns head, left, right and answer; got 4 fields"},
		{"responses header only", "head,left,right,answer\n", ReadOptions{}, "t.csv: no triplets"},
		{"columns option clash", "x,y,z\n", ReadOptions{Columns: Columns{Left: "head"}}, `responses columns must have different names, got "head" twice`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := ReadCSVWith(strings.NewReader(tc.in), "t.csv", tc.opt)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

// TestWriteNamedRoundTrip writes named sets in both forms and reads them
// back unchanged, names that need quotes included.
func TestWriteNamedRoundTrip(t *testing.T) {
	s := &Set{N: 5, Idx: []int32{0, 1, 2, 4, 3, 0, 2, 4, 1}, Names: []string{" sp", "#hash", "a,b", "plain", "q\"uote"}}
	for _, tc := range []struct {
		form  Form
		write func(*bytes.Buffer, *Set) error
		want  string
	}{
		{FormTriplets, func(b *bytes.Buffer, s *Set) error { return WriteCSV(b, s) },
			"i,j,k\n\" sp\",\"#hash\",\"a,b\"\n\"q\"\"uote\",plain,\" sp\"\n\"a,b\",\"q\"\"uote\",\"#hash\"\n"},
		{FormResponses, func(b *bytes.Buffer, s *Set) error { return WriteResponsesCSV(b, s) },
			"head,left,right,answer\n\" sp\",\"#hash\",\"a,b\",\"#hash\"\n\"q\"\"uote\",\" sp\",plain,plain\n\"a,b\",\"#hash\",\"q\"\"uote\",\"q\"\"uote\"\n"},
	} {
		t.Run(tc.form.String(), func(t *testing.T) {
			var b bytes.Buffer
			if err := tc.write(&b, s); err != nil {
				t.Fatal(err)
			}
			if b.String() != tc.want {
				t.Errorf("wrote\n%s\nwant\n%s", b.String(), tc.want)
			}
			back, form, err := ReadCSVWith(&b, "back.csv", ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if form != tc.form || back.N != s.N || !slices.Equal(back.Names, s.Names) || !slices.Equal(back.Idx, s.Idx) {
				t.Errorf("read back %v N=%d %q %v, want %v N=%d %q %v", form, back.N, back.Names, back.Idx, tc.form, s.N, s.Names, s.Idx)
			}
		})
	}
}

func TestWriteResponsesCSVNumbered(t *testing.T) {
	var b bytes.Buffer
	if err := WriteResponsesCSV(&b, &Set{N: 6, Idx: []int32{0, 5, 3, 4, 1, 2}}); err != nil {
		t.Fatal(err)
	}
	if want := "# n=6\nhead,left,right,answer\n0,3,5,5\n4,1,2,1\n"; b.String() != want {
		t.Errorf("wrote %q, want %q", b.String(), want)
	}
}

func BenchmarkReadCSV(b *testing.B) {
	const m, n = 200000, 1000
	s, err := Random(testpoints.Uniform(n, 2, 1), m, Noise{}, 1, 0)
	if err != nil {
		b.Fatal(err)
	}
	named := &Set{N: n, Idx: s.Idx, Names: make([]string, n)}
	for i := range named.Names {
		named.Names[i] = fmt.Sprintf("item-%04d", i)
	}
	for _, c := range []struct {
		name string
		s    *Set
	}{{"numbered", s}, {"named", named}} {
		var buf bytes.Buffer
		if err := WriteCSV(&buf, c.s); err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("%s/m=%d", c.name, m), func(b *testing.B) {
			b.SetBytes(int64(buf.Len()))
			for b.Loop() {
				if _, err := ReadCSV(bytes.NewReader(buf.Bytes()), "b.csv", 0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestFileForms(t *testing.T) {
	dir := t.TempDir()
	named := &Set{N: 3, Idx: []int32{0, 1, 2, 2, 1, 0}, Names: []string{"ash", "elm", "oak"}}
	for _, form := range []Form{FormTriplets, FormResponses} {
		path := filepath.Join(dir, form.String()+".csv")
		if err := WriteFileAs(path, named, form); err != nil {
			t.Fatal(err)
		}
		back, gotForm, err := ReadFileWith(path, ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if gotForm != form || !slices.Equal(back.Idx, named.Idx) || !slices.Equal(back.Names, named.Names) {
			t.Errorf("%v: read back %v %v %q", form, gotForm, back.Idx, back.Names)
		}
	}
	for _, tc := range []struct {
		name string
		s    *Set
		form Form
	}{
		{"named .npy", named, FormTriplets},
		{"responses .npy", &Set{N: 3, Idx: []int32{0, 1, 2}}, FormResponses},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, "x.npy")
			err := WriteFileAs(path, tc.s, tc.form)
			if err == nil || !strings.Contains(err.Error(), "x.npy: a .npy file holds numbered triplets, not item names or responses; write .csv") {
				t.Errorf("error %v", err)
			}
			if _, serr := os.Stat(path); !os.IsNotExist(serr) {
				t.Errorf("%s written despite the error", path)
			}
		})
	}
}
