package triplets

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"

	"github.com/oe-lab/oe/lib/internal/npy"
)

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
	h, err := npy.ReadHeader(r)
	if err != nil {
		return nil, fmt.Errorf("triplets: %s: .npy header: %w", name, err)
	}
	width, err := indexWidth(h)
	if err != nil {
		return nil, fmt.Errorf("triplets: %s: .npy header: %w", name, err)
	}
	if _, err := h.DataBytes(width, size); err != nil {
		return nil, fmt.Errorf("triplets: %s: .npy %w", name, err)
	}
	rows := int(h.Shape[0])
	// Without a known size, trust the header only up to a bound, so that a
	// corrupt header cannot make us allocate gigabytes before the data runs out.
	capacity := rows
	if size < 0 {
		capacity = min(capacity, 1<<16)
	}
	idx := make([]int32, 0, 3*capacity)
	limit := int64(n)
	if limit == 0 {
		limit = math.MaxInt32 + 1
	}
	buf := make([]byte, 3*width*4096)
	for row := 0; row < rows; {
		cnt := min(rows-row, 4096)
		b := buf[:3*width*cnt]
		if got, err := io.ReadFull(r, b); err == io.EOF || err == io.ErrUnexpectedEOF {
			return nil, fmt.Errorf("triplets: %s: truncated .npy data: header says %d rows, data ends within row %d", name, rows, row+got/(3*width))
		} else if err != nil {
			return nil, fmt.Errorf("triplets: %s: %w", name, err)
		}
		for t := 0; t < cnt; t++ {
			var v [3]int64
			for c := range 3 {
				o := (3*t + c) * width
				if width == 4 {
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
		row += cnt
	}
	if size < 0 {
		var one [1]byte
		if k, _ := io.ReadFull(r, one[:]); k > 0 {
			return nil, fmt.Errorf("triplets: %s: trailing bytes after the (%d, 3) array the .npy header describes", name, rows)
		}
	}
	return finish(name, idx, n, func(row int) string { return fmt.Sprintf(": row %d", row) })
}

// indexWidth checks that a header describes triplets, an (m, 3) C-order
// array of little-endian int32 or int64, and returns the bytes per index.
func indexWidth(h npy.Header) (int, error) {
	var width int
	switch h.Descr {
	case "<i4":
		width = 4
	case "<i8":
		width = 8
	case ">i4", ">i8":
		return 0, fmt.Errorf("dtype %q is big-endian; want little-endian int32 '<i4' or int64 '<i8'", h.Descr)
	default:
		return 0, fmt.Errorf("dtype %q is not a triplet index type; want little-endian int32 '<i4' or int64 '<i8'", h.Descr)
	}
	if h.Fortran {
		return 0, fmt.Errorf("array is in Fortran order; want C order (numpy.ascontiguousarray)")
	}
	if len(h.Shape) != 2 || h.Shape[1] != 3 {
		return 0, fmt.Errorf("shape %s is not (m, 3)", npy.ShapeString(h.Shape))
	}
	if _, err := h.DataBytes(width, -1); err != nil || int64(int(h.Shape[0])) != h.Shape[0] {
		return 0, fmt.Errorf("shape %s is too large", npy.ShapeString(h.Shape))
	}
	return width, nil
}

// WriteNPY writes s as a version 1.0 .npy file holding an (m, 3) int32 array
// in C order, loadable with numpy.load.
func WriteNPY(w io.Writer, s *Set) error {
	if err := s.Validate(); err != nil {
		return err
	}
	if err := npy.WriteHeader(w, "<i4", s.Len(), 3); err != nil {
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
