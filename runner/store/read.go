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

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/runner/job"
)

// Encodings of embeddings.data (the column embeddings.encoding): the
// row-major values, little-endian, gzip-compressed, as float32 (what Put
// writes: an embedding is stored to be drawn, and float32 halves it) or as
// float64 (what databases before it hold; Get reads both).
// embeddings.labels holds the labels as little-endian int32,
// gzip-compressed.
const (
	encodingF32 = "f32le+gzip"
	encodingF64 = "f64le+gzip"
)

// ErrNotFound is returned by Get for a key that is not stored.
var ErrNotFound = errors.New("store: run not found")

// Get reads the stored run with the given key, including its trace and (if
// stored) its embedding.
func (s *Store) Get(ctx context.Context, key string) (*Record, error) {
	var r Record
	var cfg, start, end string
	var threads int
	var stop string
	err := s.db.QueryRowContext(ctx, `SELECT status, error, config, algorithm_version, stop_reason, threads,
		started_at, finished_at, host, os, cpu, cores, gpu, go_version, git_commit FROM runs WHERE key = ?`, key).
		Scan(&r.Status, &r.Error, &cfg, &r.Job.Version, &stop, &threads, &start, &end,
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
	if err := s.readMetrics(ctx, key, o); err != nil {
		return nil, err
	}
	if err := s.readTrace(ctx, key, o); err != nil {
		return nil, err
	}
	var rows, cols int
	var enc string
	var data, labels []byte
	err = s.db.QueryRowContext(ctx, "SELECT rows, cols, encoding, data, labels FROM embeddings WHERE run_key = ?", key).
		Scan(&rows, &cols, &enc, &data, &labels)
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return nil, fmt.Errorf("store: %w", err)
	default:
		if o.Embedding, o.Labels, err = decodeEmbedding(enc, rows, cols, data, labels); err != nil {
			return nil, fmt.Errorf("store: run %s: %w", key, err)
		}
	}
	return &r, nil
}

func (s *Store) readMetrics(ctx context.Context, key string, o *job.Outcome) error {
	rows, err := s.db.QueryContext(ctx, "SELECT name, value FROM metrics WHERE run_key = ?", key)
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

func (s *Store) readTrace(ctx context.Context, key string, o *job.Outcome) error {
	rows, err := s.db.QueryContext(ctx, "SELECT epoch, loss, train_error, elapsed_seconds FROM epochs WHERE run_key = ? ORDER BY epoch", key)
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

// encodeEmbedding returns x's values as encodingF32 and the labels (nil
// without), each gzip-compressed.
func encodeEmbedding(x *mat.Dense, labels []int) (data, lab []byte, err error) {
	rows, cols := x.Dims()
	raw := make([]byte, 0, 4*rows*cols)
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			raw = binary.LittleEndian.AppendUint32(raw, math.Float32bits(float32(x.At(i, j))))
		}
	}
	if data, err = gz(raw); err != nil {
		return nil, nil, err
	}
	if labels == nil {
		return data, nil, nil
	}
	raw = raw[:0]
	for _, l := range labels {
		raw = binary.LittleEndian.AppendUint32(raw, uint32(int32(l)))
	}
	lab, err = gz(raw)
	return data, lab, err
}

// decodeEmbedding reads an embedding of either encoding and its labels.
func decodeEmbedding(enc string, rows, cols int, data, labels []byte) (*mat.Dense, []int, error) {
	var width int
	switch enc {
	case encodingF32:
		width = 4
	case encodingF64:
		width = 8
	default:
		return nil, nil, fmt.Errorf("unknown embedding encoding %q", enc)
	}
	raw, err := gunzip(data)
	if err != nil {
		return nil, nil, err
	}
	if len(raw) != width*rows*cols || rows < 1 || cols < 1 {
		return nil, nil, fmt.Errorf("embedding blob of encoding %s has %d bytes for %d×%d", enc, len(raw), rows, cols)
	}
	vals := make([]float64, rows*cols)
	for i := range vals {
		if width == 4 {
			vals[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:])))
		} else {
			vals[i] = math.Float64frombits(binary.LittleEndian.Uint64(raw[8*i:]))
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
