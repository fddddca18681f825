package npy

import (
	"bytes"
	"encoding/binary"
	"errors"
	"slices"
	"strings"
	"testing"
)

// header builds a .npy header of the given format version around dict,
// padded as NumPy pads it.
func header(version byte, dict string) []byte {
	lenBytes := 2
	if version > 1 {
		lenBytes = 4
	}
	total := len(Magic) + 2 + lenBytes + len(dict) + 1
	dict += strings.Repeat(" ", (64-total%64)%64) + "\n"
	b := append([]byte(Magic), version, 0)
	if version == 1 {
		b = binary.LittleEndian.AppendUint16(b, uint16(len(dict)))
	} else {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(dict)))
	}
	return append(b, dict...)
}

func TestReadHeader(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []byte
		want Header
	}{
		// The dictionary exactly as numpy.save (NumPy 1.26) writes it.
		{"as numpy writes it", header(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }"),
			Header{Descr: "<f8", Shape: []int64{2, 3}, Len: 128}},
		{"version 3, reordered keys, double quotes", header(3, `{"shape": (7,), "fortran_order": True, "descr": "<i4"}`),
			Header{Descr: "<i4", Fortran: true, Shape: []int64{7}, Len: 128}},
		{"scalar", header(2, "{'descr': '<i8', 'fortran_order': False, 'shape': (), }"),
			Header{Descr: "<i8", Shape: []int64{}, Len: 128}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, err := ReadHeader(bytes.NewReader(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if h.Descr != tc.want.Descr || h.Fortran != tc.want.Fortran || !slices.Equal(h.Shape, tc.want.Shape) || h.Len != tc.want.Len {
				t.Errorf("got %+v, want %+v", h, tc.want)
			}
		})
	}
}

func TestReadHeaderErrors(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		in         []byte
	}{
		{"empty", "missing magic: truncated data", nil},
		{"bad magic", "not a .npy file", []byte("\x93NUMPZ\x01\x00")},
		{"version 9", "unsupported format version 9.0", []byte("\x93NUMPY\x09\x00\x00\x00")},
		{"huge header length", "header length 4294967295 exceeds", []byte("\x93NUMPY\x02\x00\xff\xff\xff\xff")},
		{"truncated dictionary", "header dictionary: truncated data", header(1, "{'descr': '<i4', 'fortran_order': False, 'shape': (1, 3), }")[:20]},
		{"missing descr", "'descr' missing", header(1, "{'fortran_order': False, 'shape': (1, 3), }")},
		{"missing shape", "'shape' missing", header(1, "{'descr': '<i4', 'fortran_order': False, }")},
		{"order not a bool", "'fortran_order' missing or not True/False", header(1, "{'descr': '<i4', 'fortran_order': 'no', 'shape': (1,), }")},
		{"missing colon", "missing ':' after key \"descr\"", header(1, "{'descr' '<i4'}")},
		{"duplicate key", "duplicate key \"descr\"", header(1, "{'descr': '<i4', 'descr': '<i8'}")},
		{"negative dimension", "want a non-negative integer", header(1, "{'descr': '<i4', 'fortran_order': False, 'shape': (-1, 3), }")},
		{"trailing text", "unexpected text after the dictionary", header(1, "{'descr': '<i4'} x")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadHeader(bytes.NewReader(tc.in))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

// TestDataBytes checks the shape against the file size (values by hand:
// elements × item size), and that an overflowing shape is an error rather
// than a wrapped-around size.
func TestDataBytes(t *testing.T) {
	h := Header{Shape: []int64{9, 3}, Len: 64}
	if got, err := h.DataBytes(4, 64+108); err != nil || got != 108 {
		t.Errorf("DataBytes(4, 172) = %d, %v; want 108", got, err)
	}
	if _, err := h.DataBytes(4, 64+12); err == nil || !strings.Contains(err.Error(), "header says shape (9, 3) of 4-byte elements = 108 bytes of data, file has 12") {
		t.Errorf("short file: error %v", err)
	}
	huge := Header{Shape: []int64{1 << 40, 1 << 30}}
	if _, err := huge.DataBytes(8, -1); err == nil || !strings.Contains(err.Error(), "too large") {
		t.Errorf("overflowing shape: error %v", err)
	}
	if _, err := (Header{Shape: []int64{1 << 61}}).DataBytes(8, -1); err == nil {
		t.Error("2⁶¹ elements of 8 bytes: no error")
	}
}

// TestWriteHeader checks the layout numpy.load expects: the data starts at
// a multiple of 64 bytes, the dictionary ends with a newline, and
// ReadHeader reads back what was written.
func TestWriteHeader(t *testing.T) {
	for _, shape := range [][]int{{2, 3}, {5}, {123456789, 30}} {
		var b bytes.Buffer
		if err := WriteHeader(&b, "<f8", shape...); err != nil {
			t.Fatal(err)
		}
		out := b.Bytes()
		if len(out)%64 != 0 || out[len(out)-1] != '\n' {
			t.Errorf("shape %v: header of %d bytes is not 64-aligned and newline-terminated", shape, len(out))
		}
		h, err := ReadHeader(bytes.NewReader(out))
		if err != nil {
			t.Fatal(err)
		}
		want := make([]int64, len(shape))
		for i, v := range shape {
			want[i] = int64(v)
		}
		if h.Descr != "<f8" || h.Fortran || !slices.Equal(h.Shape, want) || h.Len != int64(len(out)) {
			t.Errorf("shape %v: read back %+v", shape, h)
		}
	}
}

// FuzzReadHeader checks that ReadHeader never panics or reads past its
// bound, and that what it accepts survives a round trip through
// WriteHeader.
func FuzzReadHeader(f *testing.F) {
	f.Add(header(1, "{'descr': '<i4', 'fortran_order': False, 'shape': (1, 3), }"))
	f.Add(header(3, "{'descr': '<f8', 'fortran_order': True, 'shape': (999999999999, 3), }"))
	f.Add(header(2, "{'shape': (), 'descr': '|u1', 'fortran_order': False}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := ReadHeader(bytes.NewReader(data))
		if err != nil {
			if errors.Is(err, ErrTruncated) && len(data) > 8+4+maxHeaderLen {
				t.Fatalf("truncated after %d bytes", len(data))
			}
			return
		}
		if h.Len > int64(len(data)) {
			t.Fatalf("header of %d bytes in %d bytes of input", h.Len, len(data))
		}
		if strings.ContainsAny(h.Descr, "'\"") {
			return // WriteHeader quotes with ', so it cannot write these
		}
		shape := make([]int, len(h.Shape))
		for i, v := range h.Shape {
			if int64(int(v)) != v {
				return
			}
			shape[i] = int(v)
		}
		var b bytes.Buffer
		if err := WriteHeader(&b, h.Descr, shape...); err != nil {
			return // too long for format version 1.0
		}
		back, err := ReadHeader(&b)
		if err != nil {
			t.Fatalf("reading back what WriteHeader wrote: %v", err)
		}
		if back.Descr != h.Descr || !slices.Equal(back.Shape, h.Shape) {
			t.Fatalf("round trip changed the header: %+v → %+v", h, back)
		}
	})
}
