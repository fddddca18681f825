package store

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/embed"
)

// TestStoredEpochs: Put keeps no trace of the stopping rule's checks (a
// trace with an epoch not measured); of a trace measured at every epoch (a
// convergence curve), epochs 1 to 20, every fifth and the last.
func TestStoredEpochs(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name  string
		train []float64 // train error per epoch 1, 2, ...
		want  []int     // epochs stored
	}{
		{"checks every second epoch: none", []float64{nan, 0.4, nan, 0.3, nan}, nil},
		{"a check at the last epoch once: none", []float64{nan, 0.4, nan, 0.3}, nil},
		{"no check: none", []float64{nan, nan, nan}, nil},
		{"every epoch checked", []float64{0.5, 0.4, 0.3}, []int{1, 2, 3}},
		{"an infinite error counts as not measured: none", []float64{math.Inf(1), 0.2, 0.1}, nil},
		{"no trace", nil, nil},
		{"30 epochs, every one measured", every(30), append(upTo(20), 25, 30)},
		{"27 epochs, every one measured", every(27), append(upTo(20), 25, 27)},
		{"checks every 7th epoch: none", checksEvery(7, 30), nil},
	}
	for _, tc := range tests {
		trace := make([]embed.Epoch, len(tc.train))
		for i, v := range tc.train {
			trace[i] = embed.Epoch{Epoch: i + 1, Loss: 1, TrainError: v}
		}
		var got []int
		for _, e := range storedEpochs(trace) {
			got = append(got, e.Epoch)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: stored epochs %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestEmbeddingEncodings: Put writes float32, and views quantized to 16
// bits; Get reads them and the float64 blobs of databases written before,
// and refuses an unknown encoding or a blob of the wrong size, naming them.
func TestEmbeddingEncodings(t *testing.T) {
	x := mat.NewDense(3, 2, []float64{1.25, -2, 3.5, 1e-3, -7, 0})
	labels := []int{2, 0, 1}
	f64 := make([]byte, 0, 48)
	for _, v := range x.RawMatrix().Data {
		f64 = binary.LittleEndian.AppendUint64(f64, math.Float64bits(v))
	}
	f64gz, err := gz(f64)
	if err != nil {
		t.Fatal(err)
	}
	f32gz, labgz, err := encodeEmbedding(x, labels, encodingF32)
	if err != nil {
		t.Fatal(err)
	}
	q10, _, err := encodeEmbedding(x, labels, encodingQ10)
	if err != nil {
		t.Fatal(err)
	}
	flat := mat.NewDense(3, 2, []float64{1, 5, 2, 5, 3, 5}) // a constant column: step 0
	flatq10, _, err := encodeEmbedding(flat, nil, encodingQ10)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, enc string
		data      []byte
		want      *mat.Dense
		// tol bounds the rounding: float32's of 1e-3, which it does not
		// hold; half a step of 10 or 16 bits over the columns' ranges, 10.5
		// and 2.001 (10.5/1,023/2 = 5.2e-3, 10.5/65,535/2 = 8.0e-5).
		tol     float64
		wantErr string
	}{
		{"float32, as Put writes an embedding", encodingF32, f32gz, x, 1e-7, ""},
		{"10 bits, as Put writes a view", encodingQ10, q10, x, 5.2e-3, ""},
		{"10 bits, a constant column", encodingQ10, flatq10, flat, 9.8e-4, ""}, // 2/1,023/2 in the other
		{"16 bits, as views were written before", encodingQ16, q16Blob(x), x, 8.1e-5, ""},
		{"float64, as written before", encodingF64, f64gz, x, 0, ""},
		{"unknown encoding", "f16le", f32gz, nil, 0, `unknown embedding encoding "f16le"`},
		{"float64 blob read as float32", encodingF32, f64gz, nil, 0, "has 48 bytes for 3×2"},
		{"float32 blob read as 16 bits", encodingQ16, f32gz, nil, 0, "has 24 bytes for 3×2"},
		{"10-bit blob one byte short", encodingQ10, q10[:len(q10)-1], nil, 0, "has 39 bytes for 3×2"},
	}
	for _, tc := range tests {
		got, gotLabels, err := decodeEmbedding(tc.enc, 3, 2, tc.data, labgz)
		switch {
		case tc.wantErr != "":
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s: error %v, want %q", tc.name, err, tc.wantErr)
			}
		case err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case !mat.EqualApprox(got, tc.want, tc.tol) || !slices.Equal(gotLabels, labels):
			t.Errorf("%s: got %v %v, want %v %v", tc.name, mat.Formatted(got), gotLabels, mat.Formatted(tc.want), labels)
		}
	}
	if len(f32gz) >= len(f64gz) {
		t.Errorf("float32 blob %d bytes, float64 %d: not smaller", len(f32gz), len(f64gz))
	}
	if want := 2*16 + 8; len(q10) != want { // 6 codes of 10 bits in 8 bytes
		t.Errorf("10-bit blob of 3×2 values %d bytes, want %d", len(q10), want)
	}
}

// TestQuantizeEveryCode: every 10-bit code survives packing, whatever its
// bit position within the bytes (the codes 0, 1, ..., 1,023 of a column
// from 0 to 1,023 are the values themselves).
func TestQuantizeEveryCode(t *testing.T) {
	for _, cols := range []int{1, 2, 3} {
		x := mat.NewDense(1024, cols, nil)
		for i := 0; i < 1024; i++ {
			for j := 0; j < cols; j++ {
				x.Set(i, j, float64((i*(j+1)*37)%1024))
			}
		}
		for j := 0; j < cols; j++ { // every column spans 0 to 1,023: step 1
			x.Set(0, j, 0)
			x.Set(1, j, 1023)
		}
		got, _, err := decodeEmbedding(encodingQ10, 1024, cols, quantize(x, 10), nil)
		if err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(got, x) {
			t.Errorf("%d columns: codes changed in packing", cols)
		}
	}
}

// TestQuantize16IsUint16: 16-bit codes packed least significant bit first
// are the little-endian uint16s that databases before 10-bit views hold.
func TestQuantize16IsUint16(t *testing.T) {
	vals := []float64{0, 65535, 1, 258, 40000, 7}
	got := quantize(mat.NewDense(len(vals), 1, vals), 16)[16:]
	var want []byte
	for _, v := range vals {
		want = binary.LittleEndian.AppendUint16(want, uint16(v))
	}
	if string(got) != string(want) {
		t.Errorf("16-bit codes % x, want % x", got, want)
	}
}

// q16Blob encodes x as views were stored before 10-bit ones (encodingQ16):
// 16-bit codes packed least significant bit first are little-endian
// uint16s, gzip-compressed.
func q16Blob(x *mat.Dense) []byte {
	blob, err := gz(quantize(x, 16))
	if err != nil {
		panic(err)
	}
	return blob
}

// TestPrune: embeddings that no execution's declarations keep are deleted,
// those of runs no execution lists stay, kept float64 ones become float32,
// the rows of a trace of checks go, and everything else stays.
func TestPrune(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "r.db"))
	for seed := uint64(1); seed <= 4; seed++ {
		r := record(seed, 6, 5)
		for i := range r.Outcome.Trace {
			if i%3 != 2 {
				r.Outcome.Trace[i].TrainError = math.NaN() // checks at epochs 3 and 6
			}
		}
		if err := s.Put(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	// What a database written before holds: run 1's trace of checks at
	// epochs 3 and 6 (which Put no longer stores) and the epochs between,
	// and run 2's embedding as float64.
	for e := 1; e <= 6; e++ {
		var train any
		if e%3 == 0 {
			train = 0.5
		}
		if _, err := s.DB().Exec("INSERT INTO epochs (run_id, epoch, loss, train_error, elapsed_seconds) SELECT id, ?, 1, ?, 0 FROM runs WHERE key = ?", e, train, canonical(1).Key); err != nil {
			t.Fatal(err)
		}
	}
	want := record(2, 1, 5).Outcome.Embedding
	raw := make([]byte, 0, 80)
	for _, v := range want.RawMatrix().Data {
		raw = binary.LittleEndian.AppendUint64(raw, math.Float64bits(v))
	}
	blob, _ := gz(raw)
	if _, err := s.DB().Exec("UPDATE embeddings SET encoding = ?, data = ? WHERE run_id = (SELECT id FROM runs WHERE key = ?)", encodingF64, blob, canonical(2).Key); err != nil {
		t.Fatal(err)
	}
	// and run 4's view 16-bit.
	view := record(4, 1, 5).Outcome.Embedding
	if _, err := s.DB().Exec("UPDATE embeddings SET kind = ?, encoding = ?, data = ? WHERE run_id = (SELECT id FROM runs WHERE key = ?)", kindView, encodingQ16, q16Blob(view), canonical(4).Key); err != nil {
		t.Fatal(err)
	}
	// Runs 1 and 2 are kept by one of their declarations, run 3 by none;
	// run 4 is listed by no execution.
	for _, x := range []struct {
		name  string
		seeds []uint64
		decl  []string
	}{{"general", []uint64{1, 2, 3}, []string{"keep", "", "drop"}}, {"noise", []uint64{2}, []string{"keep"}}} {
		var members []Member
		for i, seed := range x.seeds {
			members = append(members, Member{Key: canonical(seed).Key, Declared: x.decl[i]})
		}
		if err := s.RecordExecution(ctx, x.name, "quick", "h", members); err != nil {
			t.Fatal(err)
		}
	}
	var asked [][]string
	p, err := s.Prune(ctx, PruneRules{Keep: func(declared []string) Keep {
		asked = append(asked, slices.Sorted(slices.Values(declared)))
		if slices.Contains(declared, "keep") {
			return KeepWhole
		}
		return KeepNothing
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(asked) != 3 {
		t.Errorf("keep asked about %v, want the 3 listed runs with embeddings", asked)
	}
	if p.Embeddings != 1 || p.Reencoded != 1 || p.Requantized != 1 || p.Epochs != 6 || p.Before <= 0 || p.After <= 0 {
		t.Errorf("pruned %+v, want 1 embedding deleted, 1 re-encoded, 1 view re-quantized, 6 epochs (1 to 6 of run 1) deleted", p)
	}
	for seed, keep := range map[uint64]bool{1: true, 2: true, 3: false, 4: true} {
		r, err := s.Get(ctx, canonical(seed).Key)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Outcome.Embedding != nil; got != keep {
			t.Errorf("run %d: embedding kept %v, want %v", seed, got, keep)
		}
		if epochs := len(r.Outcome.Trace); epochs != 0 {
			t.Errorf("run %d: %d epochs, want none (a trace of checks)", seed, epochs)
		}
		if r.Outcome.Metrics["test_error"] != 0.125 {
			t.Errorf("run %d: metrics changed: %v", seed, r.Outcome.Metrics)
		}
	}
	r, _ := s.Get(ctx, canonical(2).Key)
	var enc string
	s.DB().QueryRow("SELECT encoding FROM embeddings WHERE run_id = (SELECT id FROM runs WHERE key = ?)", canonical(2).Key).Scan(&enc)
	if enc != encodingF32 || !mat.Equal(r.Outcome.Embedding, want) {
		t.Errorf("run 2: encoding %s, embedding %v; want %s, %v", enc, mat.Formatted(r.Outcome.Embedding), encodingF32, mat.Formatted(want))
	}
	// Run 4's view, 10-bit now: half a 10-bit step of its columns' ranges
	// (4 and 1) plus the 16-bit rounding it had.
	r, _ = s.Get(ctx, canonical(4).Key)
	s.DB().QueryRow("SELECT encoding FROM embeddings WHERE run_id = (SELECT id FROM runs WHERE key = ?)", canonical(4).Key).Scan(&enc)
	if enc != encodingQ10 || !r.View || !mat.EqualApprox(r.Outcome.Embedding, view, 4.0/1023/2+4.0/65535/2) {
		t.Errorf("run 4: encoding %s, view %v, %v; want %s, true, %v", enc, r.View, mat.Formatted(r.Outcome.Embedding), encodingQ10, mat.Formatted(view))
	}
	if res, err := s.IntegrityCheck(ctx); err != nil || res != "ok" {
		t.Errorf("integrity_check = %q, %v", res, err)
	}
}

// TestPruneDeclaredNow: the scripts' declarations now count beside the
// executions': a run an execution lists without keeping it stays where a
// script under way keeps it; one no execution lists goes where the script
// keeps nothing, and stays where no script declares it.
func TestPruneDeclaredNow(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "r.db"))
	for seed := uint64(1); seed <= 4; seed++ {
		if err := s.Put(ctx, record(seed, 1, 5)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.RecordExecution(ctx, "gram_solvers", "paper", "h", []Member{{Key: canonical(1).Key, Declared: "drop"}, {Key: canonical(2).Key, Declared: "drop"}}); err != nil {
		t.Fatal(err)
	}
	now := map[string][]string{canonical(1).Key: {"keep"}, canonical(3).Key: {"drop"}}
	_, err := s.Prune(ctx, PruneRules{Declared: now, Keep: func(declared []string) Keep {
		if slices.Contains(declared, "keep") {
			return KeepWhole
		}
		return KeepNothing
	}})
	if err != nil {
		t.Fatal(err)
	}
	for seed, keep := range map[uint64]bool{1: true, 2: false, 3: false, 4: true} {
		r, err := s.Get(ctx, canonical(seed).Key)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Outcome.Embedding != nil; got != keep {
			t.Errorf("run %d: embedding kept %v, want %v", seed, got, keep)
		}
	}
}

// TestPruneSuperseded: with current, the runs no execution lists that
// another algorithm or evaluation version computed go, with their metrics,
// trace and embedding; listed runs, current ones and those of an algorithm
// current does not know stay.
func TestPruneSuperseded(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "r.db"))
	for seed := uint64(1); seed <= 5; seed++ {
		if err := s.Put(ctx, record(seed, 3, 4)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.RecordExecution(ctx, "general", "quick", "h", []Member{{Key: canonical(1).Key}}); err != nil {
		t.Fatal(err)
	}
	version := canonical(1).Version
	for _, q := range []struct {
		sql  string
		seed uint64
	}{
		{"UPDATE runs SET algorithm_version = algorithm_version + 1 WHERE key = ?", 1}, // listed: stays
		{"UPDATE runs SET algorithm_version = algorithm_version + 1 WHERE key = ?", 3}, // goes
		{"UPDATE runs SET eval_version = eval_version + 1 WHERE key = ?", 4},           // goes
		{"UPDATE runs SET algorithm = 'gone', algorithm_version = 0 WHERE key = ?", 5}, // unknown: stays
	} {
		if _, err := s.DB().Exec(q.sql, canonical(q.seed).Key); err != nil {
			t.Fatal(err)
		}
	}
	p, err := s.Prune(ctx, PruneRules{Current: func(algorithm string) (int, bool) {
		return version, algorithm == "storefake"
	}})
	if err != nil {
		t.Fatal(err)
	}
	if p.Superseded != 2 {
		t.Errorf("pruned %+v, want 2 superseded runs deleted", p)
	}
	for seed, want := range map[uint64]bool{1: true, 2: true, 3: false, 4: false, 5: true} {
		var n int
		s.DB().QueryRow("SELECT count(*) FROM runs WHERE key = ?", canonical(seed).Key).Scan(&n)
		if got := n == 1; got != want {
			t.Errorf("run %d kept %v, want %v", seed, got, want)
		}
	}
	for _, table := range []string{"metric_values", "epochs", "embeddings"} {
		var orphans int
		s.DB().QueryRow("SELECT count(*) FROM " + table + " WHERE run_id NOT IN (SELECT id FROM runs)").Scan(&orphans)
		if orphans != 0 {
			t.Errorf("%s: %d rows of deleted runs left", table, orphans)
		}
	}
}

// TestPruneStoresViews: a whole 2-column embedding that the declarations
// keep as a view, of at most ViewRows rows, becomes its 10-bit view with its
// labels; a larger one, one kept whole and a run no execution lists stay
// whole.
func TestPruneStoresViews(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "r.db"))
	rowsOf := map[uint64]int{1: 5, 2: 5, 3: 9, 4: 5}
	for seed := uint64(1); seed <= 4; seed++ {
		if err := s.Put(ctx, record(seed, 3, rowsOf[seed])); err != nil {
			t.Fatal(err)
		}
	}
	// Runs 1 and 3 are declared as views, run 2 whole; run 4 is unlisted.
	if err := s.RecordExecution(ctx, "noise", "paper", "h", []Member{
		{Key: canonical(1).Key, Declared: "view"}, {Key: canonical(2).Key, Declared: "full"}, {Key: canonical(3).Key, Declared: "view"},
	}); err != nil {
		t.Fatal(err)
	}
	p, err := s.Prune(ctx, PruneRules{ViewRows: 8, Keep: func(declared []string) Keep {
		if slices.Contains(declared, "full") {
			return KeepWhole
		}
		return KeepView
	}})
	if err != nil {
		t.Fatal(err)
	}
	if p.Views != 1 || p.Embeddings != 0 {
		t.Errorf("pruned %+v, want 1 embedding stored as a view and none deleted", p)
	}
	for seed, wantView := range map[uint64]bool{1: true, 2: false, 3: false, 4: false} {
		r, err := s.Get(ctx, canonical(seed).Key)
		if err != nil {
			t.Fatal(err)
		}
		want := record(seed, 3, rowsOf[seed]).Outcome
		if r.View != wantView {
			t.Errorf("run %d: view %v, want %v", seed, r.View, wantView)
		}
		// A view is within half a quantisation step (range/1023) of the
		// embedding; the values of record are exact in float32.
		tol := 0.0
		if wantView {
			tol = 5.0 / 1023
		}
		if !mat.EqualApprox(r.Outcome.Embedding, want.Embedding, tol) || !slices.Equal(r.Outcome.Labels, want.Labels) {
			t.Errorf("run %d: embedding %v labels %v, want %v %v", seed, mat.Formatted(r.Outcome.Embedding), r.Outcome.Labels,
				mat.Formatted(want.Embedding), want.Labels)
		}
	}
}

// TestPruneThinsViews: a view of more than ViewRows rows keeps ViewRows of
// them spread evenly (rows i·m/ViewRows), with their labels; a view of at
// most ViewRows rows and an embedding stored whole stay as they are.
func TestPruneThinsViews(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "r.db"))
	rowsOf := map[uint64]int{1: 12, 2: 4, 3: 12}
	for seed := uint64(1); seed <= 3; seed++ {
		r := record(seed, 3, rowsOf[seed])
		r.View = seed != 3
		if err := s.Put(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	p, err := s.Prune(ctx, PruneRules{ViewRows: 4})
	if err != nil {
		t.Fatal(err)
	}
	if p.Thinned != 1 || p.Views != 0 || p.Embeddings != 0 {
		t.Errorf("pruned %+v, want 1 view thinned, nothing else", p)
	}
	for seed, keep := range map[uint64][]int{1: {0, 3, 6, 9}, 2: {0, 1, 2, 3}, 3: upTo(12)} {
		r, err := s.Get(ctx, canonical(seed).Key)
		if err != nil {
			t.Fatal(err)
		}
		full := record(seed, 3, rowsOf[seed]).Outcome
		want := mat.NewDense(len(keep), 2, nil)
		var labels []int
		for i, k := range keep {
			if seed == 3 {
				k-- // upTo counts from 1
			}
			want.SetRow(i, full.Embedding.RawRowView(k))
			labels = append(labels, full.Labels[k])
		}
		// Half a 10-bit step of the range of the view as stored (11) and
		// as thinned, at most as wide.
		tol := 0.0
		if r.View {
			tol = 11.0 / 1023
		}
		if r.View != (seed != 3) || !mat.EqualApprox(r.Outcome.Embedding, want, tol) || !slices.Equal(r.Outcome.Labels, labels) {
			t.Errorf("run %d: view %v, %v labels %v; want %v labels %v", seed, r.View, mat.Formatted(r.Outcome.Embedding),
				r.Outcome.Labels, mat.Formatted(want), labels)
		}
	}
	var orphans int
	s.DB().QueryRow("SELECT count(*) FROM labels WHERE id NOT IN (SELECT labels_id FROM embeddings WHERE labels_id IS NOT NULL)").Scan(&orphans)
	if orphans != 0 {
		t.Errorf("%d labels rows no embedding refers to", orphans)
	}
}

// every returns a train error at each of epochs 1 to n.
func every(n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = 1 / float64(i+1)
	}
	return out
}

// checksEvery returns n epochs' train errors measured at multiples of k.
func checksEvery(k, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = math.NaN()
		if (i+1)%k == 0 {
			out[i] = 0.5
		}
	}
	return out
}

// upTo returns 1, 2, ..., n.
func upTo(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i + 1
	}
	return out
}

// TestPruneThinsEveryEpochTraces: the rows of a trace measured at every
// epoch that a database written before holds in full are thinned as Put
// now stores them; a trace of checks is deleted.
func TestPruneThinsEveryEpochTraces(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "r.db"))
	for seed := uint64(1); seed <= 2; seed++ {
		if err := s.Put(ctx, record(seed, 3, 4)); err != nil {
			t.Fatal(err)
		}
	}
	// Run 1: every one of 30 epochs measured, all stored; run 2: checks at
	// 7, 14, 21 and 28, and epoch 30.
	for e := 1; e <= 30; e++ {
		var train any = 1 / float64(e)
		if _, err := s.DB().Exec("INSERT OR REPLACE INTO epochs (run_id, epoch, loss, train_error, elapsed_seconds) SELECT id, ?, 1, ?, 0 FROM runs WHERE key = ?", e, train, canonical(1).Key); err != nil {
			t.Fatal(err)
		}
		if e%7 == 0 || e == 30 {
			if _, err := s.DB().Exec("INSERT OR REPLACE INTO epochs (run_id, epoch, loss, train_error, elapsed_seconds) SELECT id, ?, 1, ?, 0 FROM runs WHERE key = ?", e, train, canonical(2).Key); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := s.DB().Exec("DELETE FROM epochs WHERE epoch < 7 AND run_id = (SELECT id FROM runs WHERE key = ?)", canonical(2).Key); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Prune(ctx, PruneRules{}); err != nil {
		t.Fatal(err)
	}
	for seed, want := range map[uint64][]int{1: append(upTo(20), 25, 30), 2: nil} {
		r, err := s.Get(ctx, canonical(seed).Key)
		if err != nil {
			t.Fatal(err)
		}
		var got []int
		for _, e := range r.Outcome.Trace {
			got = append(got, e.Epoch)
		}
		if !slices.Equal(got, want) {
			t.Errorf("run %d: epochs %v after pruning, want %v", seed, got, want)
		}
	}
}

// pragma returns the answer of PRAGMA name on s.
func pragma(t *testing.T, s *Store, name string) string {
	t.Helper()
	var v string
	if err := s.DB().QueryRow("PRAGMA " + name).Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestPageSize(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	fresh, err := Open(filepath.Join(dir, "fresh.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	if got, want := pragma(t, fresh, "page_size"), fmt.Sprint(pageSize); got != want {
		t.Errorf("new database: page_size %s, want %s", got, want)
	}
	if got := pragma(t, fresh, "journal_mode"); got != "wal" {
		t.Errorf("new database: journal_mode %s, want wal", got)
	}

	// A database an earlier version created, with SQLite's default pages.
	old := filepath.Join(dir, "old.db")
	execSQL(t, old, "PRAGMA page_size = 4096", "PRAGMA journal_mode = WAL", "CREATE TABLE kept (x)")
	s, err := Open(old)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	put(t, s, record(1, 20, 300), record(2, 20, 300))
	before := digest(t, s)
	if got := pragma(t, s, "page_size"); got != "4096" {
		t.Fatalf("page_size %s before Vacuum, want 4096 (Open must not change an existing file)", got)
	}
	// Another connection of the pool open, as while the runner works.
	busy, err := s.DB().Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := busy.PingContext(ctx); err != nil {
		t.Fatal(err)
	}
	busy.Close()
	if err := s.Vacuum(ctx); err != nil {
		t.Fatal(err)
	}
	if got, want := pragma(t, s, "page_size"), fmt.Sprint(pageSize); got != want {
		t.Errorf("after Vacuum: page_size %s, want %s", got, want)
	}
	if got := pragma(t, s, "journal_mode"); got != "wal" {
		t.Errorf("after Vacuum: journal_mode %s, want wal", got)
	}
	if got := digest(t, s); got != before {
		t.Error("Vacuum changed the rows")
	}
	if got := pragma(t, s, "integrity_check"); got != "ok" {
		t.Errorf("integrity_check: %s", got)
	}
}
