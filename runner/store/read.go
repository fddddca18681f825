package store

import (
	"bytes"
	"compress/gzip"
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"time"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/runner/job"
)

// Encodings of embeddings.data (the column embeddings.encoding): the
// row-major values, little-endian,
//   - as float32, gzip-compressed: what Put writes for an embedding
//     (float32 halves it);
//   - as float64, gzip-compressed: what databases before float32 hold (Get
//     reads them, and Prune re-encodes them as float32);
//   - quantized to 10 bits, after a header of two float64 per column, its
//     minimum and step, the value being minimum + q·step, the codes q packed
//     least significant bit first: what Put writes for a view, which is only
//     drawn. A step of 1/1,023 of the column's range is finer than the
//     pixels of any panel that draws a view (the largest, a 4-inch scatter
//     plot, is 384 pixels wide at 96 dpi), and a view takes 2.5 KB instead
//     of float32's 8 KB (1,000 items' t-SNE coordinates). gzip gains
//     nothing on such codes, so none is applied;
//   - quantized to 16 bits likewise, gzip-compressed: what databases before
//     10-bit views hold (Get reads them, and Prune re-quantizes them).
//
// The labels of an embedding's rows are little-endian int32,
// gzip-compressed, in labels.data; embeddings.labels_id refers to them
// (NULL without labels).
const (
	encodingF32 = "f32le+gzip"
	encodingF64 = "f64le+gzip"
	encodingQ16 = "q16le+gzip"
	encodingQ10 = "q10le"
)

// quantizedBits is the width of the codes of each quantized encoding.
var quantizedBits = map[string]int{encodingQ16: 16, encodingQ10: 10}

// Kinds of stored embeddings (the column embeddings.kind): the run's
// embedding, or the 2-D view of it that a report draws (Record.View).
const (
	kindFull = "full"
	kindView = "view"
)

// ErrNotFound is returned by Get for a key that is not stored.
var ErrNotFound = errors.New("store: run not found")

// Get reads the stored run with the given key, including its trace and (if
// stored) its embedding.
func (s *Store) Get(ctx context.Context, key string) (*Record, error) {
	var r Record
	var id int64
	var cfg, start, end string
	var threads int
	var stop string
	// A run whose host is not known (host_id NULL) reads as the zero Host.
	err := s.db.QueryRowContext(ctx, `SELECT r.id, r.status, r.error, r.config, r.algorithm_version, r.stop_reason, r.threads,
		r.started_at, r.finished_at, coalesce(h.host, ''), coalesce(h.os, ''), coalesce(h.cpu, ''), coalesce(h.cores, 0),
		coalesce(h.gpu, ''), coalesce(h.go_version, ''), coalesce(h.git_commit, '')
		FROM runs r LEFT JOIN hosts h ON h.id = r.host_id WHERE r.key = ?`, key).
		Scan(&id, &r.Status, &r.Error, &cfg, &r.Job.Version, &stop, &threads, &start, &end,
			&r.Host.Name, &r.Host.OS, &r.Host.CPU, &r.Host.Cores, &r.Host.GPU, &r.Host.GoVersion, &r.Host.Commit)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, key)
	}
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	r.Job.Key, r.Job.JSON = key, []byte(cfg)
	if err := json.Unmarshal([]byte(cfg), &r.Job.Config); err != nil {
		return nil, fmt.Errorf("store: run %s: bad config JSON: %w", key, err)
	}
	r.Start, _ = time.Parse(time.RFC3339Nano, start)
	r.End, _ = time.Parse(time.RFC3339Nano, end)
	if r.Status != OK {
		return &r, nil
	}
	o := &job.Outcome{Metrics: map[string]float64{}, StopReason: stop, Threads: threads}
	r.Outcome = o
	if err := s.readMetrics(ctx, id, o); err != nil {
		return nil, err
	}
	if err := s.readTrace(ctx, id, o); err != nil {
		return nil, err
	}
	var rows, cols int
	var kind, enc string
	var data, labels []byte
	err = s.db.QueryRowContext(ctx, `SELECT e.kind, e.rows, e.cols, e.encoding, e.data, l.data FROM embeddings e
		LEFT JOIN labels l ON l.id = e.labels_id WHERE e.run_id = ?`, id).
		Scan(&kind, &rows, &cols, &enc, &data, &labels)
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return nil, fmt.Errorf("store: %w", err)
	default:
		if o.Embedding, o.Labels, err = decodeEmbedding(enc, rows, cols, data, labels); err != nil {
			return nil, fmt.Errorf("store: run %s: %w", key, err)
		}
		r.View = kind == kindView
	}
	return &r, nil
}

func (s *Store) readMetrics(ctx context.Context, id int64, o *job.Outcome) error {
	rows, err := s.db.QueryContext(ctx, "SELECT name, value FROM metrics WHERE run_id = ?", id)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		var v sql.NullFloat64
		if err := rows.Scan(&name, &v); err != nil {
			return err
		}
		o.Metrics[name] = orNaN(v)
	}
	return rows.Err()
}

func (s *Store) readTrace(ctx context.Context, id int64, o *job.Outcome) error {
	rows, err := s.db.QueryContext(ctx, "SELECT epoch, loss, train_error, elapsed_seconds FROM epochs WHERE run_id = ? ORDER BY epoch", id)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var e embed.Epoch
		var loss, trainErr sql.NullFloat64
		var secs float64
		if err := rows.Scan(&e.Epoch, &loss, &trainErr, &secs); err != nil {
			return err
		}
		e.Loss, e.TrainError = orNaN(loss), orNaN(trainErr)
		e.Elapsed = time.Duration(secs * float64(time.Second))
		o.Trace = append(o.Trace, e)
	}
	return rows.Err()
}

func orNaN(v sql.NullFloat64) float64 {
	if !v.Valid {
		return math.NaN()
	}
	return v.Float64
}

// encodeEmbedding returns x's values in the encoding enc (encodingF32 or
// encodingQ10) and the labels (nil without), gzip-compressed.
func encodeEmbedding(x *mat.Dense, labels []int, enc string) (data, lab []byte, err error) {
	rows, cols := x.Dims()
	switch enc {
	case encodingF32:
		raw := make([]byte, 0, 4*rows*cols)
		for i := 0; i < rows; i++ {
			for j := 0; j < cols; j++ {
				raw = binary.LittleEndian.AppendUint32(raw, math.Float32bits(float32(x.At(i, j))))
			}
		}
		if data, err = gz(raw); err != nil {
			return nil, nil, err
		}
	case encodingQ10:
		data = quantize(x, quantizedBits[enc])
	default:
		panic("store: encoding " + enc + " is not written")
	}
	if labels == nil {
		return data, nil, nil
	}
	raw := make([]byte, 0, 4*len(labels))
	for _, l := range labels {
		raw = binary.LittleEndian.AppendUint32(raw, uint32(int32(l)))
	}
	lab, err = gz(raw)
	return data, lab, err
}

// quantize returns, for each column of x, its minimum and step as
// little-endian float64, then the codes q of x's values, row-major, bits
// wide, packed least significant bit first: the value is minimum + q·step,
// the step 1/(2^bits − 1) of the column's range.
func quantize(x *mat.Dense, bits int) []byte {
	rows, cols := x.Dims()
	levels := float64(uint32(1)<<bits - 1)
	out := make([]byte, 16*cols, 16*cols+(bits*rows*cols+7)/8)
	lo, step := make([]float64, cols), make([]float64, cols)
	for j := 0; j < cols; j++ {
		col := mat.Col(nil, j, x)
		lo[j] = floats.Min(col)
		step[j] = (floats.Max(col) - lo[j]) / levels
		binary.LittleEndian.PutUint64(out[16*j:], math.Float64bits(lo[j]))
		binary.LittleEndian.PutUint64(out[16*j+8:], math.Float64bits(step[j]))
	}
	var acc uint32 // bits not yet written, the earliest lowest
	var pending int
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			var q float64
			if step[j] > 0 {
				q = math.Round((x.At(i, j) - lo[j]) / step[j])
			}
			acc |= uint32(q) << pending
			for pending += bits; pending >= 8; pending -= 8 {
				out = append(out, byte(acc))
				acc >>= 8
			}
		}
	}
	if pending > 0 {
		out = append(out, byte(acc))
	}
	return out
}

// decodeEmbedding reads an embedding of any encoding and its labels.
func decodeEmbedding(enc string, rows, cols int, data, labels []byte) (*mat.Dense, []int, error) {
	var raw []byte
	var err error
	if enc == encodingQ10 {
		raw = data
	} else if raw, err = gunzip(data); err != nil {
		return nil, nil, err
	}
	var size int
	switch enc {
	case encodingF32:
		size = 4 * rows * cols
	case encodingF64:
		size = 8 * rows * cols
	case encodingQ16, encodingQ10:
		size = 16*cols + (quantizedBits[enc]*rows*cols+7)/8
	default:
		return nil, nil, fmt.Errorf("unknown embedding encoding %q", enc)
	}
	if len(raw) != size || rows < 1 || cols < 1 {
		return nil, nil, fmt.Errorf("embedding blob of encoding %s has %d bytes for %d×%d", enc, len(raw), rows, cols)
	}
	vals := make([]float64, rows*cols)
	switch enc {
	case encodingF32:
		for i := range vals {
			vals[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:])))
		}
	case encodingF64:
		for i := range vals {
			vals[i] = math.Float64frombits(binary.LittleEndian.Uint64(raw[8*i:]))
		}
	default:
		dequantize(vals, cols, raw, quantizedBits[enc])
	}
	x := mat.NewDense(rows, cols, vals)
	if labels == nil {
		return x, nil, nil
	}
	if raw, err = gunzip(labels); err != nil {
		return nil, nil, err
	}
	if len(raw) != 4*rows {
		return nil, nil, fmt.Errorf("labels blob has %d bytes for %d items", len(raw), rows)
	}
	out := make([]int, rows)
	for i := range out {
		out[i] = int(int32(binary.LittleEndian.Uint32(raw[4*i:])))
	}
	return x, out, nil
}

// dequantize fills dst, row-major with cols columns, from what quantize
// wrote with codes bits wide.
func dequantize(dst []float64, cols int, raw []byte, bits int) {
	codes := raw[16*cols:]
	mask := uint32(1)<<bits - 1
	var acc uint32 // bits read and not yet used, the earliest lowest
	var have int
	for i := range dst {
		for ; have < bits; have += 8 {
			acc |= uint32(codes[0]) << have
			codes = codes[1:]
		}
		j := i % cols
		lo := math.Float64frombits(binary.LittleEndian.Uint64(raw[16*j:]))
		step := math.Float64frombits(binary.LittleEndian.Uint64(raw[16*j+8:]))
		dst[i] = lo + float64(acc&mask)*step
		acc >>= bits
		have -= bits
	}
}

func gz(b []byte) ([]byte, error) {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	if _, err := w.Write(b); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func gunzip(b []byte) ([]byte, error) {
	r, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(r)
}
