package exp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/oe-lab/oe/lib/datasets"
	"github.com/oe-lab/oe/runner/execute"
	"github.com/oe-lab/oe/runner/hostinfo"
	"github.com/oe-lab/oe/runner/internal/session"
	"github.com/oe-lab/oe/runner/job"
	"github.com/oe-lab/oe/runner/report"
	"github.com/oe-lab/oe/runner/store"
)

// Experiment is the report a script builds.
type Experiment struct {
	s       *session.Session
	doc     *report.Doc
	figures int
	probed  map[string]availability
	// lastDeclared holds the keys of the runs that the script's last
	// execution at this profile declared (read once, by a report).
	lastDeclared map[string]bool
	results      Results
	// waiting lists the figures that wait for their runs (notYet), and
	// waitingNote is 1 + the index of the one note in the report that lists
	// them (0 before the first).
	waiting     []string
	waitingNote int
	hosts       map[hostinfo.Host]int
	first       time.Time
	last        time.Time
}

// Begin starts the experiment of this script; question is the paper's
// question it answers, the report's title.
func Begin(question string) *Experiment {
	s := current()
	s.Lock()
	defer s.Unlock()
	if s.Doc != nil {
		panic("exp: Begin called twice; a script is one experiment")
	}
	s.Doc = &report.Doc{Name: s.Name, Question: question, Profile: s.Profile, Command: s.Command}
	return &Experiment{s: s, doc: s.Doc, probed: map[string]availability{}, hosts: map[hostinfo.Host]int{}}
}

// Paper says where in the paper the experiment is, e.g. "Section 4.2,
// Figure 2 and Table 3".
func (e *Experiment) Paper(where string) { e.doc.Paper = where }

// Text adds a paragraph (Markdown) to the report.
func (e *Experiment) Text(markdown string) { e.doc.Add(report.Section{Text: markdown}) }

// Heading starts a new section of the report.
func (e *Experiment) Heading(title string) { e.doc.Add(report.Section{Heading: title}) }

// Note adds a caveat to the report's notes.
func (e *Experiment) Note(text string) { e.doc.Note(text) }

// File returns the path of a file given relative to the script's folder
// (e.g. "data/table3_general.tsv").
func (e *Experiment) File(rel string) string {
	if filepath.IsAbs(rel) {
		return rel
	}
	return filepath.Join(e.s.ScriptDir, rel)
}

// declared is a run as the cache knows it: the run, the dataset it really
// loads (its own or the stand-in) and its canonical config with the key.
type declared struct {
	run  Run
	used string
	job  job.Canonical
}

// collect reads the declared runs back from the store in order, notes the
// ones that are missing (what names them in the note) or failed, and adds
// them to the report and to the runs the script declared. Declare-only, it
// reads their statuses, metrics and stop reasons, not their traces or
// embeddings.
func (e *Experiment) collect(ctx context.Context, todo []declared, what string) Results {
	out := make(Results, len(todo))
	// Declaring reads the stored runs' metrics too, not only their
	// statuses: a script may declare runs from others' results (crowd.go
	// fits each method at the d its cross-validation picks), and a plan
	// must list those once the results they follow from are stored.
	var summaries map[string]store.Summary
	if e.s.DeclareOnly {
		keys := make([]string, len(todo))
		for i, d := range todo {
			keys[i] = d.job.Key
		}
		var err error
		if summaries, err = e.s.Store.Summaries(ctx, keys); err != nil {
			panic(fmt.Errorf("exp: %w", err))
		}
	}
	missing, failed := 0, 0
	for i, d := range todo {
		e.s.Declare(session.Declaration{Job: d.job, Declared: d.run.declaration(), Dataset: d.used})
		res := Result{Run: d.run, Used: d.used, Key: d.job.Key, Status: Missing}
		if e.s.DeclareOnly {
			if sum, ok := summaries[d.job.Key]; ok {
				res.Status, res.Metrics, res.StopReason = sum.Status, sum.Metrics, sum.StopReason
			}
		} else {
			rec, err := e.s.Store.Get(ctx, d.job.Key)
			switch {
			case errors.Is(err, store.ErrNotFound):
			case err != nil:
				panic(fmt.Errorf("exp: reading run %s: %w", d.job.Key, err))
			default:
				res.Status, res.Error = rec.Status, rec.Error
				if o := rec.Outcome; o != nil {
					res.Metrics, res.StopReason, res.Trace = o.Metrics, o.StopReason, o.Trace
					res.embedding, res.labels, res.view = o.Embedding, o.Labels, rec.View
				}
				e.observe(rec)
			}
		}
		switch res.Status {
		case Missing:
			missing++
			if e.s.Estimate != nil && d.job.Config.Algorithm != "" {
				res.estimate = e.s.Estimate(d.job.Config)
			}
		case Failed:
			failed++
		}
		out[i] = res
	}
	if missing > 0 {
		e.Note(fmt.Sprintf("%d of %d %s are not in the results database yet; run `%s` to execute them.", missing, len(todo), what, e.s.Command))
	}
	e.results = append(e.results, out...)
	// The runs the report draws on are those the store holds. Sections share
	// runs (a configuration two scripts declare has one key), so a script
	// that reads several counts each run once.
	e.doc.Runs, e.doc.Missing, e.doc.MissingCost = 0, 0, 0
	counted := make(map[string]bool, len(e.results))
	for _, r := range e.results {
		if counted[r.Key] {
			continue
		}
		counted[r.Key] = true
		if r.Status == Missing {
			e.doc.Missing++
			e.doc.MissingCost += r.estimate
		} else {
			e.doc.Runs++
		}
	}
	if e.s.DeclareOnly {
		return out
	}
	e.describeRuns(out)
	if failed > 0 {
		e.describeFailures(out)
	}
	e.doc.Environment = e.environment()
	return out
}

// Run executes the runs missing from the cache and returns the results of
// all of them, in order. Runs of an algorithm that is not registered, and of
// a dataset that is missing without a stand-in, are left out with a note,
// unless the store holds them already: known by its key, a stored run needs
// no data files.
func (e *Experiment) Run(runs []Run) Results {
	var todo []declared
	skipped := map[string]int{}
	for _, r := range runs {
		if isComparisons(r.Dataset) {
			panic(fmt.Sprintf("exp: %s is a dataset of comparisons, without points: declare its runs with Comparisons or CrossValidate", r.Dataset))
		}
		if !Registered(r.Algorithm) {
			skipped[fmt.Sprintf("Algorithm %s is not implemented in this build yet (not registered); its runs were skipped.", r.Algorithm)]++
			continue
		}
		if e.s.ReportOnly {
			// A report shows what the runs recorded, whatever data files
			// this machine has.
			if d, ok := e.stored(r, func(r Run, used string) declared { return e.declare(r, used, false) }); ok {
				e.declare(r, d.used, true) // the note on a stand-in's size
				todo = append(todo, d)
				continue
			}
		}
		used, ok := e.resolve(r)
		if !ok && !e.s.ReportOnly {
			// A run stored already is known by its key without its
			// files: declared so, it counts as the script's run where
			// its data is not (oerun prune keeps what the script draws
			// of it, plan does not count it as missing).
			if d, ok := e.stored(r, func(r Run, used string) declared { return e.declare(r, used, false) }); ok {
				todo = append(todo, e.declare(r, d.used, true))
				continue
			}
		}
		if !ok {
			e.s.SkipForData(r.Dataset)
			skipped[fmt.Sprintf("Dataset %s is not available here (files missing: %s) and has no stand-in; its runs were skipped.",
				r.Dataset, strings.Join(e.probed[r.Dataset].missing, ", "))]++
			continue
		}
		todo = append(todo, e.declare(r, used, true))
	}
	for _, msg := range sortedKeys(skipped) {
		e.Note(fmt.Sprintf("%s (%d runs)", msg, skipped[msg]))
	}
	ctx := context.Background()
	if !e.s.ReportOnly {
		sum, err := e.s.Exec.Execute(ctx, e.pending(todo))
		e.count(sum)
		if err != nil {
			panic(fmt.Errorf("exp: executing runs: %w", err))
		}
	}
	return e.collect(ctx, todo, "runs")
}

// pending returns the runs to execute, each keeping its embedding or view
// as declared.
func (e *Experiment) pending(todo []declared) []execute.Pending {
	out := make([]execute.Pending, len(todo))
	v := e.viewer()
	for i, d := range todo {
		out[i] = execute.Pending{Job: d.job, Keep: d.run.KeepEmbedding, View: v}
	}
	return out
}

// declare returns the run r as the cache knows it when it loads the
// dataset used (r.Dataset or its stand-in; see sized).
func (e *Experiment) declare(r Run, used string, note bool) declared {
	r = e.sized(r, used, note)
	c, err := r.config(used).Normalize()
	if err != nil {
		panic(fmt.Errorf("exp: run %+v: %w", r, err))
	}
	return declared{r, used, c}
}

// sized returns r as it runs on the dataset used. On a stand-in, a run of
// the declared dataset's paper size (N = 0) takes that many items of the
// stand-in (FMNIST standing in for USPS: 7,291 items, not FMNIST's 60,000),
// and a run asking for more items than the stand-in has takes all of them
// (N = 0), which note says in the report.
func (e *Experiment) sized(r Run, used string, note bool) Run {
	if used == r.Dataset {
		return r
	}
	if r.N == 0 {
		spec, err := datasets.Lookup(r.Dataset)
		if err != nil {
			panic(err)
		}
		r.N = spec.N
	}
	if a := e.probe(used); a.available > 0 && r.N > a.available {
		if note {
			e.Note(fmt.Sprintf("%s has only %d points: runs asking for n = %d of %s used all of them.", used, a.available, r.N, r.Dataset))
		}
		r.N = 0
	}
	return r
}

// stored returns r as the store holds it: on its own dataset or on its
// stand-in (the run's stands_in_for then names r.Dataset), preferring the
// one that the script's last execution at this profile declared; false
// when the store holds neither. as declares r on a dataset, as the caller
// (Run, Extension) does.
func (e *Experiment) stored(r Run, as func(r Run, used string) declared) (declared, bool) {
	ctx := context.Background()
	if e.lastDeclared == nil {
		members, err := e.s.Store.Members(ctx, e.s.Name, e.s.Profile)
		if err != nil {
			panic(fmt.Errorf("exp: %w", err))
		}
		e.lastDeclared = map[string]bool{}
		for _, m := range members {
			e.lastDeclared[m.Key] = true
		}
	}
	candidates := []string{r.Dataset}
	if r.StandIn != "" {
		candidates = append(candidates, r.StandIn)
	}
	var found []declared
	for _, used := range candidates {
		d := as(r, used)
		st, err := e.s.Store.Statuses(ctx, []string{d.job.Key})
		if err != nil {
			panic(fmt.Errorf("exp: %w", err))
		}
		if _, ok := st[d.job.Key]; ok {
			found = append(found, d)
		}
	}
	if len(found) == 0 {
		return declared{}, false
	}
	d := found[0]
	for _, f := range found {
		if e.lastDeclared[f.job.Key] {
			d = f
			break
		}
	}
	if d.used != r.Dataset {
		e.noteStandIn(r.Dataset, d.used)
	}
	return d, true
}

// resolve returns the dataset a run loads: its own, or its stand-in when the
// own files are missing (false when neither can be used).
func (e *Experiment) resolve(r Run) (string, bool) {
	a := e.probe(r.Dataset)
	if a.ok {
		return r.Dataset, true
	}
	if r.StandIn == "" {
		return "", false
	}
	if !e.probe(r.StandIn).ok {
		return "", false
	}
	e.noteStandIn(r.Dataset, r.StandIn)
	return r.StandIn, true
}

// noteStandIn says in the report that runs declared on dataset loaded
// standIn instead, and why.
func (e *Experiment) noteStandIn(dataset, standIn string) {
	why := "were not available where the runs ran" // a run that Section or a report read
	if missing := e.probe(dataset).missing; len(missing) > 0 && !e.s.ReportOnly {
		why = fmt.Sprintf("(%s) are not available here", strings.Join(missing, ", "))
	}
	e.Note(fmt.Sprintf("**%s stood in for %s**: the %s files %s. Rows and columns labelled \"%s (%s)\" are %s data.",
		strings.ToUpper(standIn), strings.ToUpper(dataset), strings.ToUpper(dataset), why, dataset, standIn, strings.ToUpper(standIn)))
}

func (e *Experiment) probe(name string) availability {
	if a, ok := e.probed[name]; ok {
		return a
	}
	a := probe(name)
	e.probed[name] = a
	return a
}

func (e *Experiment) observe(rec *store.Record) {
	e.hosts[rec.Host]++
	if e.first.IsZero() || rec.Start.Before(e.first) {
		e.first = rec.Start
	}
	if rec.End.After(e.last) {
		e.last = rec.End
	}
}

// describeRuns adds the "What was run" table: one row per declared
// setting, with its algorithms and repetitions. Its n is the number of
// items the setting's runs embedded, or while none has run the number they
// will load (Result.Field's n: "all" resolved).
func (e *Experiment) describeRuns(rs Results) {
	type setting struct{ dataset, n, dim, lambda, noise, epochs string }
	var order []setting
	algs := map[setting][]string{}
	reps := map[setting]map[string]bool{}
	status := map[setting]map[string]int{}
	items := map[setting][]string{}
	for _, r := range rs {
		noise := r.Field("noise")
		if noise != "none" {
			noise += " " + r.Field("noise_level")
		}
		epochs := r.Field("max_epochs")
		if epochs == "0" {
			epochs = "default"
		}
		s := setting{r.Field("dataset"), r.Field("n"), r.Field("dim"), r.Field("lambda"), noise, epochs}
		if _, ok := algs[s]; !ok {
			order = append(order, s)
			reps[s] = map[string]bool{}
			status[s] = map[string]int{}
		}
		if !slices.Contains(algs[s], r.Run.Algorithm) {
			algs[s] = append(algs[s], r.Run.Algorithm)
		}
		if v, ok := r.Metrics[job.Items]; ok && !slices.Contains(items[s], Format(Epochs, v)) {
			items[s] = append(items[s], Format(Epochs, v))
		}
		reps[s][r.Field("rep")] = true
		status[s][r.Status]++
	}
	t := &report.Table{Header: []string{"dataset", "n", "d", "λ", "noise", "max epochs", "algorithms", "reps", "runs ok / failed / missing"}}
	for _, s := range order {
		st := status[s]
		n := strings.Join(items[s], ", ")
		if n == "" {
			n = s.n
		}
		t.Rows = append(t.Rows, []string{s.dataset, n, s.dim, s.lambda, s.noise, s.epochs, strings.Join(algs[s], ", "),
			fmt.Sprint(len(reps[s])), fmt.Sprintf("%d / %d / %d", st[OK], st[Failed], st[Missing])})
	}
	how := "λ·n·d·log₂n training triplets; test triplet error on 10,000 fresh noiseless triplets; kNN error with k = ⌊log₂ n⌋ on a 70/30 split."
	if len(rs) > 0 && isComparisons(rs[0].Used) {
		how = "the dataset's own training answers, one triplet per vote (λ does not apply); " +
			"scored on its test answers, or on the answers a cross-validation fold holds out."
	}
	e.doc.Add(report.Section{Heading: "What was run", Text: fmt.Sprintf("%d runs at profile **%s**: %s", len(rs), e.s.Profile, how), Table: t})
}

func (e *Experiment) describeFailures(rs Results) {
	t := &report.Table{Header: []string{"dataset", "algorithm", "n", "d", "λ", "rep", "reason"}}
	for _, r := range rs {
		if r.Status == Failed {
			reason, _, _ := strings.Cut(r.Error, "\n")
			t.Rows = append(t.Rows, []string{r.Field("dataset"), r.Run.Algorithm, r.Field("n"), r.Field("dim"), r.Field("lambda"), r.Field("rep"), reason})
		}
	}
	e.doc.Add(report.Section{Heading: "Failed runs", Text: "These runs failed; they are recorded with their reason and retried only with `--retry-failed`.", Table: t})
}

func (e *Experiment) environment() string {
	if len(e.hosts) == 0 {
		return ""
	}
	hosts := make([]hostinfo.Host, 0, len(e.hosts))
	for h := range e.hosts {
		hosts = append(hosts, h)
	}
	sort.Slice(hosts, func(i, j int) bool {
		if ni, nj := e.hosts[hosts[i]], e.hosts[hosts[j]]; ni != nj {
			return ni > nj
		}
		return fmt.Sprint(hosts[i]) < fmt.Sprint(hosts[j]) // ties in a fixed order, so reports rebuild identically
	})
	var b strings.Builder
	fmt.Fprintf(&b, "Runs executed between %s and %s (UTC) on:\n\n", e.first.UTC().Format("2006-01-02 15:04"), e.last.UTC().Format("2006-01-02 15:04"))
	fmt.Fprintf(&b, "| runs | host | CPU | cores | GPU | Go | commit |\n|---|---|---|---|---|---|---|\n")
	for _, h := range hosts {
		gpu := h.GPU
		if gpu == "" {
			gpu = "none"
		}
		commit, dirty := strings.CutSuffix(h.Commit, "+dirty")
		if len(commit) > 12 {
			commit = commit[:12]
		}
		if dirty {
			commit += " (uncommitted changes)"
		}
		fmt.Fprintf(&b, "| %d | %s (%s) | %s | %d | %s | %s | %s |\n", e.hosts[h], h.Name, h.OS, h.CPU, h.Cores, gpu, h.GoVersion, commit)
	}
	b.WriteString("\nTimes are wall-clock seconds on that machine, shared with other work while the runs executed; the paper's times are on an RTX 2080 Ti GPU.")
	return b.String()
}

// Table adds a table to the report.
func (e *Experiment) Table(caption string, t *Table) {
	e.doc.Add(report.Section{Table: &report.Table{Caption: caption, Header: t.Header, Rows: t.Rows}})
}

func sortedKeys(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// ReadTSV reads a tab-separated table (lines starting with # are comments,
// the first other line is the header), relative to the script's folder.
func (e *Experiment) ReadTSV(rel string) *TSV {
	t, err := readTSV(e.File(rel))
	if err != nil {
		panic(err)
	}
	return t
}

// readTSV reads the tab-separated table at path (see ReadTSV); a row with
// another number of cells than the header is an error naming its line.
func readTSV(path string) (*TSV, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("exp: %w", err)
	}
	t := &TSV{path: path}
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimRight(line, "\r")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cells := strings.Split(line, "\t")
		if t.Header == nil {
			t.Header = cells
			continue
		}
		if len(cells) != len(t.Header) {
			return nil, fmt.Errorf("exp: %s:%d: %d cells, the header has %d", path, i+1, len(cells), len(t.Header))
		}
		t.Rows = append(t.Rows, cells)
	}
	return t, nil
}

// TSV is a table read by ReadTSV.
type TSV struct {
	path   string
	Header []string
	Rows   [][]string
}

// Get returns column col of the first row whose columns match the pairs
// (column, value, column, value, ...), compared case-insensitively; "" when
// no row matches.
func (t *TSV) Get(col string, where ...string) string {
	if len(where)%2 != 0 {
		panic("exp: TSV.Get needs column/value pairs")
	}
	idx := func(name string) int {
		for i, h := range t.Header {
			if h == name {
				return i
			}
		}
		panic(fmt.Sprintf("exp: %s has no column %q (columns: %s)", t.path, name, strings.Join(t.Header, ", ")))
	}
	c := idx(col)
rows:
	for _, r := range t.Rows {
		for i := 0; i < len(where); i += 2 {
			if !strings.EqualFold(r[idx(where[i])], where[i+1]) {
				continue rows
			}
		}
		return r[c]
	}
	return ""
}
