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
// row-major values, little-endian, gzip-compressed,
//   - as float32: what Put writes for an embedding (float32 halves it);
//   - as float64: what databases before float32 hold (Get reads them, and
//     Prune re-encodes them as float32);
//   - as uint16 q, after a header of two float64 per column, its minimum
//     and step, the value being minimum + q·step: what Put writes for a
//     view, which is only drawn. A step of 1/65,535 of the column's range is
//     finer than the pixels of any figure, and a view takes 12 KB instead
//     of float32's 22 KB (3,000 items' t-SNE coordinates; gzip gains little
//     on float32's mantissas).
//
// embeddings.labels holds the labels as little-endian int32,
// gzip-compressed.
const (
	encodingF32 = "f32le+gzip"
	encodingF64 = "f64le+gzip"
	encodingQ16 = "q16le+gzip"
)

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
	err := s.db.QueryRowContext(ctx, `SELECT id, status, error, config, algorithm_version, stop_reason, threads,
		started_at, finished_at, host, os, cpu, cores, gpu, go_version, git_commit FROM runs WHERE key = ?`, key).
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
	err = s.db.QueryRowContext(ctx, "SELECT kind, rows, cols, encoding, data, labels FROM embeddings WHERE run_id = ?", id).
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
// encodingQ16) and the labels (nil without), each gzip-compressed.
func encodeEmbedding(x *mat.Dense, labels []int, enc string) (data, lab []byte, err error) {
	rows, cols := x.Dims()
	var raw []byte
	switch enc {
	case encodingF32:
		raw = make([]byte, 0, 4*rows*cols)
		for i := 0; i < rows; i++ {
			for j := 0; j < cols; j++ {
				raw = binary.LittleEndian.AppendUint32(raw, math.Float32bits(float32(x.At(i, j))))
			}
		}
	case encodingQ16:
		raw = make([]byte, 16*cols, 16*cols+2*rows*cols)
		lo, step := make([]float64, cols), make([]float64, cols)
		for j := 0; j < cols; j++ {
			col := mat.Col(nil, j, x)
			lo[j] = floats.Min(col)
			step[j] = (floats.Max(col) - lo[j]) / math.MaxUint16
			binary.LittleEndian.PutUint64(raw[16*j:], math.Float64bits(lo[j]))
			binary.LittleEndian.PutUint64(raw[16*j+8:], math.Float64bits(step[j]))
		}
		for i := 0; i < rows; i++ {
			for j := 0; j < cols; j++ {
				var q float64
				if step[j] > 0 {
					q = math.Round((x.At(i, j) - lo[j]) / step[j])
				}
				raw = binary.LittleEndian.AppendUint16(raw, uint16(q))
			}
		}
	default:
		panic("store: encoding " + enc + " is not written")
	}
	if data, err = gz(raw); err != nil {
		return nil, nil, err
	}
	if labels == nil {
		return data, nil, nil
	}
	raw = make([]byte, 0, 4*len(labels))
	for _, l := range labels {
		raw = binary.LittleEndian.AppendUint32(raw, uint32(int32(l)))
	}
	lab, err = gz(raw)
	return data, lab, err
}

// decodeEmbedding reads an embedding of any encoding and its labels.
func decodeEmbedding(enc string, rows, cols int, data, labels []byte) (*mat.Dense, []int, error) {
	var width, header int
	switch enc {
	case encodingF32:
		width = 4
	case encodingF64:
		width = 8
	case encodingQ16:
		width, header = 2, 16*cols
	default:
		return nil, nil, fmt.Errorf("unknown embedding encoding %q", enc)
	}
	raw, err := gunzip(data)
	if err != nil {
		return nil, nil, err
	}
	if len(raw) != header+width*rows*cols || rows < 1 || cols < 1 {
		return nil, nil, fmt.Errorf("embedding blob of encoding %s has %d bytes for %d×%d", enc, len(raw), rows, cols)
	}
	vals := make([]float64, rows*cols)
	body := raw[header:]
	for i := range vals {
		switch enc {
		case encodingF32:
			vals[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(body[4*i:])))
		case encodingF64:
			vals[i] = math.Float64frombits(binary.LittleEndian.Uint64(body[8*i:]))
		case encodingQ16:
			j := i % cols
			lo := math.Float64frombits(binary.LittleEndian.Uint64(raw[16*j:]))
			step := math.Float64frombits(binary.LittleEndian.Uint64(raw[16*j+8:]))
			vals[i] = lo + float64(binary.LittleEndian.Uint16(body[2*i:]))*step
		}
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
