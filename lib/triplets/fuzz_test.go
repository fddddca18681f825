package triplets

import (
	"bytes"
	"slices"
	"testing"
)

// The fuzz targets check that the readers never panic on any input, and
// that whatever they accept is a valid set that survives a round trip
// through the matching writer. Seeds live in testdata/fuzz/.

func FuzzReadCSV(f *testing.F) {
	f.Add([]byte("0,1,2\n2,0,1\n"), 0)
	f.Add([]byte("# n=5\ni,j,k\n0,1,4\n"), 5)
	f.Fuzz(func(t *testing.T, data []byte, n int) {
		s, err := ReadCSV(bytes.NewReader(data), "fuzz.csv", n)
		if err != nil {
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("accepted set does not validate: %v", err)
		}
		var b bytes.Buffer
		if err := WriteCSV(&b, s); err != nil {
			t.Fatalf("WriteCSV: %v", err)
		}
		back, err := ReadCSV(&b, "back.csv", n)
		if err != nil {
			t.Fatalf("reading back what WriteCSV wrote: %v", err)
		}
		if back.N != s.N || !slices.Equal(back.Idx, s.Idx) {
			t.Fatalf("round trip changed the set: N %d → %d", s.N, back.N)
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
