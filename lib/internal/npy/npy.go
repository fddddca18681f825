package npy

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
)

// Magic opens every .npy file.
const Magic = "\x93NUMPY"

// maxHeaderLen bounds the header dictionary's length; NumPy itself refuses
// headers over 10 kB unless told otherwise.
const maxHeaderLen = 1 << 16

// ErrTruncated is wrapped by the errors of input that ends before the header
// (or, for callers, the data) says it should.
var ErrTruncated = errors.New("truncated data")

// Header is a .npy header.
type Header struct {
	// Descr is the array's dtype as NumPy spells it, e.g. "<i4" for
	// little-endian int32, "<f8" for little-endian float64.
	Descr string
	// Fortran is the 'fortran_order' flag: column-major data.
	Fortran bool
	// Shape is the array's shape.
	Shape []int64
	// Len is the number of bytes the header takes in the file, from the
	// magic string to the dictionary's end: the offset of the data.
	Len int64
}

// ReadHeader reads a header from r, leaving r at the start of the data. It
// fails on anything but a dictionary with the keys 'descr' (a string),
// 'fortran_order' (True or False) and 'shape' (a tuple of non-negative
// integers), which numpy.save always writes.
func ReadHeader(r io.Reader) (Header, error) {
	var pre [8]byte
	if err := ReadFull(r, pre[:]); err != nil {
		return Header{}, fmt.Errorf("missing magic: %w", err)
	}
	if string(pre[:6]) != Magic {
		return Header{}, fmt.Errorf("not a .npy file (bad magic %q)", pre[:6])
	}
	var hlen int64
	read := int64(len(pre))
	switch pre[6] {
	case 1:
		var l [2]byte
		if err := ReadFull(r, l[:]); err != nil {
			return Header{}, fmt.Errorf("header length: %w", err)
		}
		hlen, read = int64(binary.LittleEndian.Uint16(l[:])), read+2
	case 2, 3:
		var l [4]byte
		if err := ReadFull(r, l[:]); err != nil {
			return Header{}, fmt.Errorf("header length: %w", err)
		}
		hlen, read = int64(binary.LittleEndian.Uint32(l[:])), read+4
	default:
		return Header{}, fmt.Errorf("unsupported format version %d.%d", pre[6], pre[7])
	}
	if hlen > maxHeaderLen {
		return Header{}, fmt.Errorf("header length %d exceeds %d bytes", hlen, maxHeaderLen)
	}
	text := make([]byte, hlen)
	if err := ReadFull(r, text); err != nil {
		return Header{}, fmt.Errorf("header dictionary: %w", err)
	}
	h, err := parseHeader(text)
	h.Len = read + hlen
	return h, err
}

// parseHeader interprets the header dictionary.
func parseHeader(text []byte) (Header, error) {
	d, err := parseDict(text)
	if err != nil {
		return Header{}, err
	}
	var h Header
	var ok bool
	if h.Descr, ok = d["descr"].(string); !ok {
		return h, errors.New("'descr' missing or not a string")
	}
	if h.Fortran, ok = d["fortran_order"].(bool); !ok {
		return h, errors.New("'fortran_order' missing or not True/False")
	}
	if h.Shape, ok = d["shape"].([]int64); !ok {
		return h, errors.New("'shape' missing or not a tuple of integers")
	}
	return h, nil
}

// Elements returns the number of elements of the array, the product of its
// shape, or an error when that exceeds math.MaxInt64.
func (h Header) Elements() (int64, error) {
	n := int64(1)
	for _, v := range h.Shape {
		if v != 0 && n > math.MaxInt64/v {
			return 0, fmt.Errorf("shape %s is too large", ShapeString(h.Shape))
		}
		n *= v
	}
	return n, nil
}

// DataBytes returns the length of the data for elements of itemSize bytes,
// and checks it against size, the length of the whole file, when size ≥ 0:
// a caller that knows the file's size calls it before allocating anything
// of the header's shape, so that a corrupt or hostile header cannot make it
// allocate more than the file holds.
func (h Header) DataBytes(itemSize int, size int64) (int64, error) {
	n, err := h.Elements()
	if err != nil {
		return 0, err
	}
	if n > math.MaxInt64/int64(itemSize) {
		return 0, fmt.Errorf("shape %s is too large", ShapeString(h.Shape))
	}
	data := n * int64(itemSize)
	if size >= 0 && size-h.Len != data {
		return 0, fmt.Errorf("header says shape %s of %d-byte elements = %d bytes of data, file has %d",
			ShapeString(h.Shape), itemSize, data, size-h.Len)
	}
	return data, nil
}

// WriteHeader writes a format version 1.0 header for a C-order array of
// dtype descr and the given shape, its dictionary as numpy.save writes it.
func WriteHeader(w io.Writer, descr string, shape ...int) error {
	s := make([]int64, len(shape))
	for i, v := range shape {
		s[i] = int64(v)
	}
	return WriteDict(w, fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': %s, }", descr, ShapeString(s)))
}

// WriteDict writes a format version 1.0 header around the dictionary text
// dict, padded with spaces and a newline so that the data starts at a
// multiple of 64 bytes, as NumPy pads it. WriteHeader formats the
// dictionary; tests use WriteDict to write headers NumPy could.
func WriteDict(w io.Writer, dict string) error {
	total := len(Magic) + 2 + 2 + len(dict) + 1
	pad := (64 - total%64) % 64
	if len(dict)+pad+1 > math.MaxUint16 {
		return fmt.Errorf("header of %d bytes does not fit format version 1.0", len(dict)+pad+1)
	}
	header := make([]byte, 0, total+pad)
	header = append(header, Magic...)
	header = append(header, 1, 0)
	header = binary.LittleEndian.AppendUint16(header, uint16(len(dict)+pad+1))
	header = append(header, dict...)
	header = append(header, bytes.Repeat([]byte{' '}, pad)...)
	header = append(header, '\n')
	_, err := w.Write(header)
	return err
}

// ShapeString writes a shape as Python does, e.g. (5, 3) or (4,).
func ShapeString(shape []int64) string {
	var b bytes.Buffer
	b.WriteByte('(')
	for i, v := range shape {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.FormatInt(v, 10))
	}
	if len(shape) == 1 {
		b.WriteByte(',')
	}
	b.WriteByte(')')
	return b.String()
}

// ReadFull is io.ReadFull that reports a short read as ErrTruncated.
func ReadFull(r io.Reader, b []byte) error {
	_, err := io.ReadFull(r, b)
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return ErrTruncated
	}
	return err
}
