package triplets

import (
	"bytes"
	"io"
	"slices"
	"testing"
)

// The fuzz targets check that the readers never panic on any input, and
// that whatever they accept is a valid set that survives a round trip
// through the matching writer. Seeds live in testdata/fuzz/.

func FuzzReadCSV(f *testing.F) {
	f.Add([]byte("0,1,2\n2,0,1\n"), 0)
	f.Add([]byte("# n=5\ni,j,k\n0,1,4\n"), 5)
	f.Add([]byte("pear,\"a,b\",fig\n\"#x\",pear, fig \n"), 0)
	f.Add([]byte("Head,left,right,answer,who\nx,y,z,y,1\nx,y,z,right,2\n"), 0)
	f.Add([]byte("# n=4\nhead,left,right,answer\n0,1,3,left\n"), 4)
	f.Fuzz(func(t *testing.T, data []byte, n int) {
		s, err := ReadCSV(bytes.NewReader(data), "fuzz.csv", n)
		if err != nil {
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("accepted set does not validate: %v", err)
		}
		// Both forms read back as the same set.
		for form, write := range map[string]func(io.Writer, *Set) error{"triplets": WriteCSV, "responses": WriteResponsesCSV} {
			var b bytes.Buffer
			if err := write(&b, s); err != nil {
				t.Fatalf("writing %s: %v", form, err)
			}
			back, err := ReadCSV(&b, "back.csv", n)
			if err != nil {
				t.Fatalf("reading back the %s written: %v", form, err)
			}
			if back.N != s.N || !slices.Equal(back.Idx, s.Idx) || !slices.Equal(back.Names, s.Names) {
				t.Fatalf("%s round trip changed the set: N %d → %d, names %q → %q", form, s.N, back.N, s.Names, back.Names)
			}
		}
	})
}

func FuzzReadNPY(f *testing.F) {
	f.Add(npyBytes(1, "{'descr': '<i8', 'fortran_order': False, 'shape': (2, 3), }", le64(0, 1, 2, 3, 0, 1)), 0)
	f.Add(npyBytes(3, "{'descr': '<i4', 'fortran_order': False, 'shape': (1, 3), }", le32(2, 0, 1)), 4)
	f.Fuzz(func(t *testing.T, data []byte, n int) {
		s, err := ReadNPY(bytes.NewReader(data), "fuzz.npy", n)
		if err != nil {
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("accepted set does not validate: %v", err)
		}
		var b bytes.Buffer
		if err := WriteNPY(&b, s); err != nil {
			t.Fatalf("WriteNPY: %v", err)
		}
		back, err := ReadNPY(&b, "back.npy", n)
		if err != nil {
			t.Fatalf("reading back what WriteNPY wrote: %v", err)
		}
		if back.N != s.N || !slices.Equal(back.Idx, s.Idx) {
			t.Fatalf("round trip changed the set: N %d → %d", s.N, back.N)
		}
	})
}

func FuzzReadNames(f *testing.F) {
	f.Add([]byte("silk\nsteel\r\nwool\n"))
	f.Add([]byte("a\n\nb"))
	f.Fuzz(func(t *testing.T, data []byte) {
		names, err := ReadNames(bytes.NewReader(data), "fuzz.txt")
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := WriteNames(&b, names); err != nil {
			t.Fatalf("WriteNames of names ReadNames accepted: %v", err)
		}
		back, err := ReadNames(&b, "back.txt")
		if err != nil || !slices.Equal(back, names) {
			t.Fatalf("round trip: %q, %v; want %q", back, err, names)
		}
	})
}
