package store

import (
	"context"
	"database/sql"
	"fmt"
	"os"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/runner/job"
)

// Pruned says what Prune removed.
type Pruned struct {
	// Embeddings counts the embeddings deleted, Views the whole ones now
	// stored as their view, Reencoded the float64 ones kept that are now
	// float32, Requantized the 16-bit views now 10-bit, and Thinned the
	// views now of fewer rows.
	Embeddings, Views, Reencoded, Requantized, Thinned int
	// Epochs counts the trace rows deleted.
	Epochs int
	// Superseded counts the runs deleted as computed by another version of
	// their algorithm or of the evaluation than the present one.
	Superseded int
	// Before and After are the database file's size in bytes.
	Before, After int64
}

// String reads like "958 superseded runs deleted, 778 embeddings deleted,
// 137 stored as views, 210 re-encoded as float32, 1099 views re-quantized to
// 10 bits, 333 views thinned, 80687 trace rows deleted: 26804224 → 4100096
// bytes".
func (p Pruned) String() string {
	return fmt.Sprintf("%d superseded runs deleted, %d embeddings deleted, %d stored as views, %d re-encoded as float32, %d views re-quantized to 10 bits, %d views thinned, %d trace rows deleted: %d → %d bytes",
		p.Superseded, p.Embeddings, p.Views, p.Reencoded, p.Requantized, p.Thinned, p.Epochs, p.Before, p.After)
}

// Keep is what Prune keeps of a run's stored embedding.
type Keep int

const (
	KeepNothing Keep = iota // delete it
	KeepView                // the 2-D view a figure draws
	KeepWhole               // the embedding as stored
)

// PruneRules says what Prune deletes and keeps.
type PruneRules struct {
	// Keep decides what stays of the embedding of a run that some script
	// execution lists (experiment_runs), given the declarations of all the
	// rows that list it (experiment_runs.declared, "" where none is
	// recorded): the scripts declare which embeddings their reports draw. A
	// run that no execution lists keeps its embedding, as one stored by a
	// script that has not completed yet (a campaign under way) does. nil
	// keeps every embedding whole.
	Keep func(declared []string) Keep
	// ViewRows is the most rows of a view (exp.MaxViewPoints): a 2-column
	// embedding of at most ViewRows rows is its own view (the view keeps
	// every row and does not transform a 2-D embedding), so a whole one
	// that Keep keeps as a view is stored as the view (10-bit, as Put
	// stores views); a view of more rows, stored when the cap was higher,
	// is thinned to ViewRows of them (see thinView). 0: neither.
	ViewRows int
	// Declared, when not nil, holds the declarations (exp.Run as JSON) that
	// the scripts make now, by run key: they count beside those of the
	// executions that list the run, so a script whose campaign is under way
	// (not yet recorded as an execution) keeps what it declares, and a run
	// that no execution lists is treated as if one listed it with these
	// declarations. A run no execution lists and Declared does not hold
	// keeps its embedding.
	Declared map[string][]string
	// Current, when not nil, returns an algorithm's version in this build
	// (ok false for an algorithm it does not know): a run that no execution
	// lists and that another version computed is deleted.
	Current func(algorithm string) (version int, ok bool)
}

// Prune brings a database written before the present storage rules to them,
// then compacts the file (VACUUM). In one transaction it
//
//   - deletes, or stores as its view, the embedding of every run that some
//     script execution lists, as rules.Keep decides (see PruneRules);
//   - re-encodes the float64 embeddings it keeps as float32, and the
//     16-bit views as 10-bit ones, as Put writes them;
//   - thins the views of more than rules.ViewRows rows to that many;
//   - deletes the trace rows that Put does not write (storedEpochs);
//   - when rules.Current is not nil, deletes every run that no script
//     execution lists and that an earlier or other version computed: its
//     eval_version is not job.EvalVersion, or Current, given its algorithm,
//     returns a version other than its algorithm_version. Its key holds
//     those versions, so no run of this build can read it again. An
//     algorithm Current does not know keeps its runs.
//
// Otherwise the runs, their metrics and the script executions are left as
// they are.
func (s *Store) Prune(ctx context.Context, rules PruneRules) (Pruned, error) {
	var p Pruned
	var err error
	if p.Before, err = s.size(); err != nil {
		return p, err
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return p, fmt.Errorf("store: begin: %w", err)
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `SELECT e.run_id, e.kind, e.rows, e.cols, coalesce(x.declared, '') FROM embeddings e
		JOIN experiment_runs x ON x.run_id = e.run_id ORDER BY e.run_id`)
	if err != nil {
		return p, fmt.Errorf("store: %w", err)
	}
	listed := map[int64]*storedEmbedding{}
	var order []int64
	for rows.Next() {
		var (
			key      int64
			e        storedEmbedding
			declared string
		)
		if err := rows.Scan(&key, &e.kind, &e.rows, &e.cols, &declared); err != nil {
			rows.Close()
			return p, fmt.Errorf("store: %w", err)
		}
		if _, ok := listed[key]; !ok {
			order = append(order, key)
			listed[key] = &e
		}
		listed[key].declared = append(listed[key].declared, declared)
	}
	if err := rows.Close(); err != nil {
		return p, fmt.Errorf("store: %w", err)
	}
	if rules.Declared != nil {
		if order, err = addDeclared(ctx, tx, rules.Declared, listed, order); err != nil {
			return p, err
		}
	}
	keep := rules.Keep
	if keep == nil {
		keep = func([]string) Keep { return KeepWhole }
	}
	for _, key := range order {
		e := listed[key]
		switch keep(e.declared) {
		case KeepNothing:
			if _, err := tx.ExecContext(ctx, "DELETE FROM embeddings WHERE run_id = ?", key); err != nil {
				return p, fmt.Errorf("store: %w", err)
			}
			p.Embeddings++
		case KeepView:
			if e.kind == kindFull && e.cols == 2 && e.rows <= rules.ViewRows {
				if err := storeAsView(ctx, tx, key); err != nil {
					return p, err
				}
				p.Views++
			}
		}
	}
	if rules.Current != nil {
		if p.Superseded, err = deleteSuperseded(ctx, tx, rules.Current); err != nil {
			return p, err
		}
	}
	if p.Reencoded, err = reencode(ctx, tx, encodingF64, encodingF32); err != nil {
		return p, err
	}
	if p.Requantized, err = reencode(ctx, tx, encodingQ16, encodingQ10); err != nil {
		return p, err
	}
	if rules.ViewRows > 0 {
		if p.Thinned, err = thinViews(ctx, tx, rules.ViewRows); err != nil {
			return p, err
		}
	}
	if p.Epochs, err = pruneEpochs(ctx, tx); err != nil {
		return p, err
	}
	// Labels no embedding refers to any more: of the deleted embeddings.
	if _, err := tx.ExecContext(ctx, "DELETE FROM labels WHERE id NOT IN (SELECT labels_id FROM embeddings WHERE labels_id IS NOT NULL)"); err != nil {
		return p, fmt.Errorf("store: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return p, fmt.Errorf("store: commit: %w", err)
	}
	if err := s.Vacuum(ctx); err != nil {
		return p, err
	}
	p.After, err = s.size()
	return p, err
}

// deleteSuperseded deletes the runs no execution lists that another version
// computed (see Prune) and returns how many it deleted; their metrics,
// trace and embedding go with them (ON DELETE CASCADE).
func deleteSuperseded(ctx context.Context, tx *sql.Tx, current func(algorithm string) (int, bool)) (int, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, algorithm, algorithm_version, eval_version FROM runs
		WHERE id NOT IN (SELECT run_id FROM experiment_runs) ORDER BY id`)
	if err != nil {
		return 0, fmt.Errorf("store: %w", err)
	}
	var stale []int64
	for rows.Next() {
		var (
			id                int64
			algorithm         string
			version, evalVers int
		)
		if err := rows.Scan(&id, &algorithm, &version, &evalVers); err != nil {
			rows.Close()
			return 0, fmt.Errorf("store: %w", err)
		}
		now, known := current(algorithm)
		if evalVers != job.EvalVersion || known && version != now {
			stale = append(stale, id)
		}
	}
	if err := rows.Close(); err != nil {
		return 0, fmt.Errorf("store: %w", err)
	}
	for _, id := range stale {
		if _, err := tx.ExecContext(ctx, "DELETE FROM runs WHERE id = ?", id); err != nil {
			return 0, fmt.Errorf("store: %w", err)
		}
	}
	return len(stale), nil
}

// storeAsView rewrites the whole embedding of run id as its view: the same
// rows, 10-bit quantised (encodingQ10), kind view; its labels stay.
func storeAsView(ctx context.Context, tx *sql.Tx, id int64) error {
	var (
		enc        string
		rows, cols int
		data       []byte
	)
	if err := tx.QueryRowContext(ctx, "SELECT encoding, rows, cols, data FROM embeddings WHERE run_id = ?", id).
		Scan(&enc, &rows, &cols, &data); err != nil {
		return fmt.Errorf("store: run id %d: %w", id, err)
	}
	x, _, err := decodeEmbedding(enc, rows, cols, data, nil)
	if err != nil {
		return fmt.Errorf("store: run id %d: %w", id, err)
	}
	if data, _, err = encodeEmbedding(x, nil, encodingQ10); err != nil {
		return fmt.Errorf("store: run id %d: %w", id, err)
	}
	if _, err := tx.ExecContext(ctx, "UPDATE embeddings SET kind = ?, encoding = ?, data = ? WHERE run_id = ?", kindView, encodingQ10, data, id); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return nil
}

// reencode rewrites the embeddings of encoding from in encoding to, and
// returns how many it rewrote.
func reencode(ctx context.Context, tx *sql.Tx, from, to string) (int, error) {
	rows, err := tx.QueryContext(ctx, "SELECT run_id, rows, cols, data FROM embeddings WHERE encoding = ?", from)
	if err != nil {
		return 0, fmt.Errorf("store: %w", err)
	}
	type blob struct {
		id         int64
		rows, cols int
		data       []byte
	}
	var old []blob
	for rows.Next() {
		var b blob
		if err := rows.Scan(&b.id, &b.rows, &b.cols, &b.data); err != nil {
			rows.Close()
			return 0, fmt.Errorf("store: %w", err)
		}
		old = append(old, b)
	}
	if err := rows.Close(); err != nil {
		return 0, fmt.Errorf("store: %w", err)
	}
	for _, b := range old {
		x, _, err := decodeEmbedding(from, b.rows, b.cols, b.data, nil)
		if err != nil {
			return 0, fmt.Errorf("store: run id %d: %w", b.id, err)
		}
		data, _, err := encodeEmbedding(x, nil, to)
		if err != nil {
			return 0, fmt.Errorf("store: run id %d: %w", b.id, err)
		}
		if _, err := tx.ExecContext(ctx, "UPDATE embeddings SET encoding = ?, data = ? WHERE run_id = ?", to, data, b.id); err != nil {
			return 0, fmt.Errorf("store: %w", err)
		}
	}
	return len(old), nil
}

// thinViews rewrites every view of more than most rows as thinView does,
// with its labels, and returns how many it rewrote. Labels rows no
// embedding refers to any more are deleted after (Prune).
func thinViews(ctx context.Context, tx *sql.Tx, most int) (int, error) {
	rows, err := tx.QueryContext(ctx, `SELECT e.run_id, e.rows, e.cols, e.encoding, e.data, l.data FROM embeddings e
		LEFT JOIN labels l ON l.id = e.labels_id WHERE e.kind = ? AND e.rows > ? ORDER BY e.run_id`, kindView, most)
	if err != nil {
		return 0, fmt.Errorf("store: %w", err)
	}
	type blob struct {
		id           int64
		rows, cols   int
		enc          string
		data, labels []byte
	}
	var wide []blob
	for rows.Next() {
		var b blob
		if err := rows.Scan(&b.id, &b.rows, &b.cols, &b.enc, &b.data, &b.labels); err != nil {
			rows.Close()
			return 0, fmt.Errorf("store: %w", err)
		}
		wide = append(wide, b)
	}
	if err := rows.Close(); err != nil {
		return 0, fmt.Errorf("store: %w", err)
	}
	for _, b := range wide {
		x, labels, err := decodeEmbedding(b.enc, b.rows, b.cols, b.data, b.labels)
		if err != nil {
			return 0, fmt.Errorf("store: run id %d: %w", b.id, err)
		}
		x, labels = thinView(x, labels, most)
		data, lab, err := encodeEmbedding(x, labels, encodingQ10)
		if err != nil {
			return 0, fmt.Errorf("store: run id %d: %w", b.id, err)
		}
		var labelsID sql.NullInt64
		if lab != nil {
			if labelsID.Int64, err = labelsRow(ctx, tx, lab); err != nil {
				return 0, fmt.Errorf("store: run id %d: %w", b.id, err)
			}
			labelsID.Valid = true
		}
		if _, err := tx.ExecContext(ctx, "UPDATE embeddings SET rows = ?, encoding = ?, data = ?, labels_id = ? WHERE run_id = ?",
			most, encodingQ10, data, labelsID, b.id); err != nil {
			return 0, fmt.Errorf("store: %w", err)
		}
	}
	return len(wide), nil
}

// thinView returns the rows i·m/most (i < most) of the m-row view x and
// their labels (nil without). A view keeps the rows j·n/m of an n-item
// embedding (exp's viewRows), so where most divides m these are the rows
// j·n/most, those a view of at most most rows keeps: the thinned view of a
// 2-D embedding is the view stored now.
func thinView(x *mat.Dense, labels []int, most int) (*mat.Dense, []int) {
	m, cols := x.Dims()
	out := mat.NewDense(most, cols, nil)
	var lab []int
	if labels != nil {
		lab = make([]int, most)
	}
	for i := 0; i < most; i++ {
		src := i * m / most
		out.SetRow(i, x.RawRowView(src))
		if labels != nil {
			lab[i] = labels[src]
		}
	}
	return out, lab
}

// Vacuum compacts the database file (VACUUM) and folds the write-ahead log
// into it, so that the file alone holds every row at its smallest. A file
// with pages of another size than pageSize gets pageSize pages, which takes
// leaving WAL mode for the VACUUM (WAL keeps the page size); where another
// process has the file open and that cannot be done, the file keeps its
// page size.
func (s *Store) Vacuum(ctx context.Context) error {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("store: %s: %w", s.path, err)
	}
	defer conn.Close()
	var size int
	if err := conn.QueryRowContext(ctx, "PRAGMA page_size").Scan(&size); err != nil {
		return fmt.Errorf("store: %s: %w", s.path, err)
	}
	steps := []string{"VACUUM", "PRAGMA wal_checkpoint(TRUNCATE)"}
	if size != pageSize {
		var mode string
		if err := conn.QueryRowContext(ctx, "PRAGMA journal_mode = DELETE").Scan(&mode); err != nil {
			return fmt.Errorf("store: %s: %w", s.path, err)
		}
		if mode == "delete" { // SQLite answers the mode it kept where it could not switch
			steps = []string{fmt.Sprintf("PRAGMA page_size = %d", pageSize), "VACUUM", "PRAGMA journal_mode = WAL"}
		}
	}
	for _, q := range steps {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("store: %s %s: %w", q, s.path, err)
		}
	}
	return nil
}

func (s *Store) size() (int64, error) {
	st, err := os.Stat(s.path)
	if err != nil {
		return 0, fmt.Errorf("store: %w", err)
	}
	return st.Size(), nil
}

// pruneEpochs deletes the trace rows that Put does not write (storedEpochs):
// every row of a trace not measured at every epoch (without a train error
// at epoch 1: the stopping rule's checks), and of a trace measured at every
// epoch not yet thinned (as many measured rows as epochs) those after
// denseEpochs that are not multiples of traceStride, but the last. It
// returns how many rows it deleted.
func pruneEpochs(ctx context.Context, tx *sql.Tx) (int, error) {
	deleted := 0
	for _, q := range []string{
		`DELETE FROM epochs WHERE run_id NOT IN (SELECT run_id FROM epochs WHERE epoch = 1 AND train_error IS NOT NULL)`,
		fmt.Sprintf(`DELETE FROM epochs WHERE epoch > %d AND epoch %% %d != 0
		AND run_id IN (SELECT run_id FROM epochs GROUP BY run_id HAVING count(train_error) = max(epoch))
		AND epoch < (SELECT max(l.epoch) FROM epochs l WHERE l.run_id = epochs.run_id)`, denseEpochs, traceStride),
	} {
		res, err := tx.ExecContext(ctx, q)
		if err != nil {
			return deleted, fmt.Errorf("store: %w", err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return deleted, fmt.Errorf("store: %w", err)
		}
		deleted += int(n)
	}
	return deleted, nil
}

// storedEmbedding is what Prune reads of a stored embedding, and the
// declarations of the run it belongs to.
type storedEmbedding struct {
	kind       string
	rows, cols int
	declared   []string
}

// addDeclared adds the declarations declared holds for a run to those of
// its stored embedding in listed, entering one (and its run id in order)
// that no execution lists; it returns the extended order. A run a finished
// script's execution lists without keeping its embedding can be one that a
// script under way declares and draws (general's SOE at the paper's size,
// which gram_solvers lists too): what the script keeps counts.
func addDeclared(ctx context.Context, tx *sql.Tx, declared map[string][]string, listed map[int64]*storedEmbedding, order []int64) ([]int64, error) {
	rows, err := tx.QueryContext(ctx, `SELECT e.run_id, e.kind, e.rows, e.cols, r.key FROM embeddings e
		JOIN runs r ON r.id = e.run_id ORDER BY e.run_id`)
	if err != nil {
		return order, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			id  int64
			e   storedEmbedding
			key string
		)
		if err := rows.Scan(&id, &e.kind, &e.rows, &e.cols, &key); err != nil {
			return order, fmt.Errorf("store: %w", err)
		}
		d, ok := declared[key]
		if !ok || len(d) == 0 {
			continue
		}
		if listed[id] == nil {
			listed[id] = &e
			order = append(order, id)
		}
		listed[id].declared = append(listed[id].declared, d...)
	}
	if err := rows.Err(); err != nil {
		return order, fmt.Errorf("store: %w", err)
	}
	return order, nil
}
