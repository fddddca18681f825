package triplets

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strconv"
)

// npyMagic opens every .npy file.
const npyMagic = "\x93NUMPY"

// maxNPYHeader bounds the header length we accept; NumPy itself refuses
// headers over 10 kB unless told otherwise.
const maxNPYHeader = 1 << 16

// ReadNPY reads triplets from a NumPy .npy stream holding an (m, 3) array of
// little-endian int32 or int64 in C order (format versions 1 to 3); name is
// used in errors. n is as for ReadCSV, except that .npy has no place to
// declare it, so n = 0 always means the largest index + 1.
func ReadNPY(r io.Reader, name string, n int) (*Set, error) {
	return readNPY(r, name, n, -1)
}

// readNPY is ReadNPY for a stream of known total size (or -1): with the size
// it checks the header's shape against the data before allocating, and can
// allocate the whole array at once.
func readNPY(r io.Reader, name string, n int, size int64) (*Set, error) {
	if err := checkN(name, n); err != nil {
		return nil, err
	}
	h, headerLen, err := readNPYHeader(r)
	if err != nil {
		return nil, fmt.Errorf("triplets: %s: .npy header: %w", name, err)
	}
	dataLen := int64(h.rows) * 3 * int64(h.width)
	if size >= 0 && size-headerLen != dataLen {
		return nil, fmt.Errorf("triplets: %s: .npy header says shape (%d, 3) of %d-byte integers = %d bytes of data, file has %d", name, h.rows, h.width, dataLen, size-headerLen)
	}
	// Without a known size, trust the header only up to a bound, so that a
	// corrupt header cannot make us allocate gigabytes before the data runs out.
	capacity := h.rows
	if size < 0 {
		capacity = min(capacity, 1<<16)
	}
	idx := make([]int32, 0, 3*capacity)
	limit := int64(n)
	if limit == 0 {
		limit = math.MaxInt32 + 1
	}
	buf := make([]byte, 3*h.width*4096)
	for row := 0; row < h.rows; {
		rows := min(h.rows-row, 4096)
		b := buf[:3*h.width*rows]
		if got, err := io.ReadFull(r, b); err == io.EOF || err == io.ErrUnexpectedEOF {
			return nil, fmt.Errorf("triplets: %s: truncated .npy data: header says %d rows, data ends within row %d", name, h.rows, row+got/(3*h.width))
		} else if err != nil {
			return nil, fmt.Errorf("triplets: %s: %w", name, err)
		}
		for t := 0; t < rows; t++ {
			var v [3]int64
			for c := range 3 {
				o := (3*t + c) * h.width
				if h.width == 4 {
					v[c] = int64(int32(binary.LittleEndian.Uint32(b[o:])))
				} else {
					v[c] = int64(binary.LittleEndian.Uint64(b[o:]))
				}
				if v[c] < 0 || v[c] >= limit {
					return nil, fmt.Errorf("triplets: %s: row %d: index %d out of range [0, %d)", name, row+t, v[c], limit)
				}
			}
			if v[0] == v[1] || v[0] == v[2] || v[1] == v[2] {
				return nil, fmt.Errorf("triplets: %s: row %d: indices (%d, %d, %d) are not distinct", name, row+t, v[0], v[1], v[2])
			}
			idx = append(idx, int32(v[0]), int32(v[1]), int32(v[2]))
		}
		row += rows
	}
	if size < 0 {
		var one [1]byte
		if k, _ := io.ReadFull(r, one[:]); k > 0 {
			return nil, fmt.Errorf("triplets: %s: trailing bytes after the (%d, 3) array the .npy header describes", name, h.rows)
		}
	}
	return finish(name, idx, n, func(row int) string { return fmt.Sprintf(": row %d", row) })
}

// npyHeader is what we need from a .npy header.
type npyHeader struct {
	rows  int // m of shape (m, 3)
	width int // bytes per element: 4 or 8
}

// readNPYHeader reads the magic, version, and header dictionary, and returns
// the header with the total number of bytes read.
func readNPYHeader(r io.Reader) (npyHeader, int64, error) {
	var pre [8]byte
	if err := readFull(r, pre[:]); err != nil {
		return npyHeader{}, 0, fmt.Errorf("missing magic: %w", err)
	}
	if string(pre[:6]) != npyMagic {
		return npyHeader{}, 0, fmt.Errorf("not a .npy file (bad magic %q)", pre[:6])
	}
	var hlen int64
	var read int64 = 8
	switch pre[6] {
	case 1:
		var l [2]byte
		if err := readFull(r, l[:]); err != nil {
			return npyHeader{}, 0, fmt.Errorf("header length: %w", err)
		}
		hlen, read = int64(binary.LittleEndian.Uint16(l[:])), read+2
	case 2, 3:
		var l [4]byte
		if err := readFull(r, l[:]); err != nil {
			return npyHeader{}, 0, fmt.Errorf("header length: %w", err)
		}
		hlen, read = int64(binary.LittleEndian.Uint32(l[:])), read+4
	default:
		return npyHeader{}, 0, fmt.Errorf("unsupported format version %d.%d", pre[6], pre[7])
	}
	if hlen > maxNPYHeader {
		return npyHeader{}, 0, fmt.Errorf("header length %d exceeds %d bytes", hlen, maxNPYHeader)
	}
	text := make([]byte, hlen)
	if err := readFull(r, text); err != nil {
		return npyHeader{}, 0, fmt.Errorf("header dictionary: %w", err)
	}
	h, err := parseNPYDict(text)
	return h, read + hlen, err
}

// parseNPYDict interprets the header dictionary, e.g.
// {'descr': '<i4', 'fortran_order': False, 'shape': (10, 3), }.
func parseNPYDict(text []byte) (npyHeader, error) {
	d, err := parsePyDict(text)
	if err != nil {
		return npyHeader{}, err
	}
	var h npyHeader
	descr, ok := d["descr"].(string)
	if !ok {
		return h, fmt.Errorf("'descr' missing or not a string")
	}
	switch descr {
	case "<i4":
		h.width = 4
	case "<i8":
		h.width = 8
	case ">i4", ">i8":
		return h, fmt.Errorf("dtype %q is big-endian; want little-endian int32 '<i4' or int64 '<i8'", descr)
	default:
		return h, fmt.Errorf("dtype %q is not a triplet index type; want little-endian int32 '<i4' or int64 '<i8'", descr)
	}
	fortran, ok := d["fortran_order"].(bool)
	if !ok {
		return h, fmt.Errorf("'fortran_order' missing or not True/False")
	}
	if fortran {
		return h, fmt.Errorf("array is in Fortran order; want C order (numpy.ascontiguousarray)")
	}
	shape, ok := d["shape"].([]int64)
	if !ok {
		return h, fmt.Errorf("'shape' missing or not a tuple of integers")
	}
	if len(shape) != 2 || shape[1] != 3 {
		return h, fmt.Errorf("shape %s is not (m, 3)", shapeString(shape))
	}
	if shape[0] > math.MaxInt64/(3*8) || int64(int(shape[0])) != shape[0] {
		return h, fmt.Errorf("shape %s is too large", shapeString(shape))
	}
	h.rows = int(shape[0])
	return h, nil
}

// shapeString writes a shape as Python does, e.g. (5, 3) or (4,).
func shapeString(shape []int64) string {
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

// parsePyDict parses the restricted Python literal that .npy headers use:
// a dict with string keys whose values are strings, True/False, or tuples
// of non-negative integers. Values come back as string, bool and []int64.
func parsePyDict(text []byte) (map[string]any, error) {
	p := pyParser{s: text}
	p.space()
	if !p.eat('{') {
		return nil, fmt.Errorf("dictionary does not start with '{'")
	}
	d := map[string]any{}
	for {
		p.space()
		if p.eat('}') {
			break
		}
		key, err := p.str()
		if err != nil {
			return nil, fmt.Errorf("key: %w", err)
		}
		p.space()
		if !p.eat(':') {
			return nil, fmt.Errorf("missing ':' after key %q", key)
		}
		p.space()
		val, err := p.value()
		if err != nil {
			return nil, fmt.Errorf("value of %q: %w", key, err)
		}
		if _, dup := d[key]; dup {
			return nil, fmt.Errorf("duplicate key %q", key)
		}
		d[key] = val
		p.space()
		if p.eat(',') {
			continue
		}
		p.space()
		if !p.eat('}') {
			return nil, fmt.Errorf("missing ',' or '}' after value of %q", key)
		}
		break
	}
	p.space()
	if p.i != len(p.s) {
		return nil, fmt.Errorf("unexpected text after the dictionary")
	}
	return d, nil
}

// pyParser is a cursor over header text.
type pyParser struct {
	s []byte
	i int
}

func (p *pyParser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\n' || p.s[p.i] == '\t' || p.s[p.i] == '\r') {
		p.i++
	}
}

func (p *pyParser) eat(c byte) bool {
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

// str parses a quoted string without escapes, as NumPy writes them.
func (p *pyParser) str() (string, error) {
	if p.i >= len(p.s) || (p.s[p.i] != '\'' && p.s[p.i] != '"') {
		return "", fmt.Errorf("want a quoted string")
	}
	q := p.s[p.i]
	end := bytes.IndexByte(p.s[p.i+1:], q)
	if end < 0 {
		return "", fmt.Errorf("unterminated string")
	}
	v := string(p.s[p.i+1 : p.i+1+end])
	p.i += end + 2
	return v, nil
}

func (p *pyParser) value() (any, error) {
	switch {
	case p.i >= len(p.s):
		return nil, fmt.Errorf("missing value")
	case p.s[p.i] == '\'' || p.s[p.i] == '"':
		return p.str()
	case bytes.HasPrefix(p.s[p.i:], []byte("True")):
		p.i += 4
		return true, nil
	case bytes.HasPrefix(p.s[p.i:], []byte("False")):
		p.i += 5
		return false, nil
	case p.s[p.i] == '(':
		return p.tuple()
	}
	return nil, fmt.Errorf("unsupported value at %q", clip(p.s[p.i:]))
}

// tuple parses "(a, b, ...)" of non-negative integers, including "()" and
// the one-element form "(a,)".
func (p *pyParser) tuple() ([]int64, error) {
	p.i++ // '('
	vals := []int64{}
	for {
		p.space()
		if p.eat(')') {
			return vals, nil
		}
		start := p.i
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
		}
		if start == p.i {
			return nil, fmt.Errorf("want a non-negative integer at %q", clip(p.s[start:]))
		}
		v, err := strconv.ParseInt(string(p.s[start:p.i]), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("dimension %q: %w", p.s[start:p.i], err)
		}
		vals = append(vals, v)
		p.space()
		if p.eat(',') {
			continue
		}
		if !p.eat(')') {
			return nil, fmt.Errorf("missing ',' or ')' in tuple")
		}
		return vals, nil
	}
}

// WriteNPY writes s as a version 1.0 .npy file holding an (m, 3) int32 array
// in C order, loadable with numpy.load.
func WriteNPY(w io.Writer, s *Set) error {
	if err := s.Validate(); err != nil {
		return err
	}
	dict := fmt.Sprintf("{'descr': '<i4', 'fortran_order': False, 'shape': (%d, 3), }", s.Len())
	// Pad with spaces and end with '\n' so that the data starts at a
	// multiple of 64 bytes, as NumPy does.
	total := len(npyMagic) + 2 + 2 + len(dict) + 1
	pad := (64 - total%64) % 64
	header := make([]byte, 0, total+pad)
	header = append(header, npyMagic...)
	header = append(header, 1, 0)
	header = binary.LittleEndian.AppendUint16(header, uint16(len(dict)+pad+1))
	header = append(header, dict...)
	header = append(header, bytes.Repeat([]byte{' '}, pad)...)
	header = append(header, '\n')
	if _, err := w.Write(header); err != nil {
		return err
	}
	buf := make([]byte, 0, 1<<16)
	for _, v := range s.Idx {
		buf = binary.LittleEndian.AppendUint32(buf, uint32(v))
		if len(buf) == cap(buf) {
			if _, err := w.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	_, err := w.Write(buf)
	return err
}
