package main

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/oe-lab/oe/runner"
	"github.com/oe-lab/oe/runner/report"
	"github.com/oe-lab/oe/runner/store"
)

func init() {
	register("export", command{
		summary: "write an experiment's report tables, and the runs behind its tables and figures, as CSV",
		run:     exportCommand,
	})
}

func exportCommand(args []string) error {
	fs := newFlags("export", "--experiment NAME [--profile quick] [--db results.db] [--experiments experiments] [--out DIR]")
	name := fs.String("experiment", "", "the experiment: the name of its script in --experiments, e.g. general")
	profile := fs.String("profile", runner.DefaultProfile, "the profile its runs were declared at: smoke, quick or paper")
	db := fs.String("db", runner.DefaultDB, "results database (SQLite), opened read-only")
	scripts := fs.String("experiments", "experiments", "folder of the experiment scripts")
	out := fs.String("out", "", "folder to write (default export/NAME-PROFILE); an existing one is replaced once the new one is complete")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	if *name == "" {
		return usageErrorf("--experiment is required")
	}
	if !safeName.MatchString(*name) {
		return usageErrorf("--experiment %q is not a script name such as general", *name)
	}
	dir := *out
	if dir == "" {
		dir = filepath.Join("export", *name+"-"+*profile)
	}
	ctx := context.Background()
	st, err := store.OpenReadOnly(*db)
	if err != nil {
		return err
	}
	defer st.Close()
	if _, ok, err := st.LastExecution(ctx, *name, *profile); err != nil {
		return err
	} else if !ok {
		return fmt.Errorf("%s has not run at profile %s in %s (run oerun %s --profile %s first)",
			*name, *profile, *db, filepath.Join(*scripts, *name+".go"), *profile)
	}
	header, runs, err := st.RunTable(ctx, *name, *profile)
	if err != nil {
		return err
	}
	doc, err := runner.Build(ctx, runner.Options{Script: filepath.Join(*scripts, *name+".go"), DB: *db, Profile: *profile,
		Stdout: io.Discard, Quiet: true})
	if err != nil {
		return err
	}
	files := []csvFile{{"runs.csv", header, runs}}
	files = append(files, tableFiles(doc)...)
	if err := writeFolder(dir, files); err != nil {
		return err
	}
	log := stderr(fs)
	fmt.Fprintf(log, "%s at profile %s → %s/:\n", *name, *profile, dir)
	for _, f := range files {
		fmt.Fprintf(log, "  %-50s %d rows\n", f.name, len(f.rows))
	}
	return nil
}

var safeName = regexp.MustCompile(`^[a-zA-Z0-9_.-]+$`)

// csvFile is a table to write as CSV.
type csvFile struct {
	name   string
	header []string
	rows   [][]string
}

var nonWord = regexp.MustCompile(`[^a-z0-9]+`)

// tableFiles returns the report's tables in order, each named after its
// caption, or else the heading it stands under: "table-01-test-error.csv".
func tableFiles(doc *report.Doc) []csvFile {
	var files []csvFile
	heading := ""
	for _, s := range doc.Sections {
		if s.Heading != "" {
			heading = s.Heading
		}
		if s.Table == nil || len(s.Table.Header) == 0 {
			continue
		}
		title := s.Table.Caption
		if title == "" {
			title = heading
		}
		slug := strings.Trim(nonWord.ReplaceAllString(strings.ToLower(title), "-"), "-")
		if len(slug) > 50 {
			slug = strings.TrimRight(slug[:50], "-")
		}
		name := fmt.Sprintf("table-%02d", len(files)+1)
		if slug != "" {
			name += "-" + slug
		}
		files = append(files, csvFile{name + ".csv", s.Table.Header, s.Table.Rows})
	}
	return files
}

// writeFolder writes the files into a staging folder beside dir and moves
// it into place once complete, replacing what was at dir.
func writeFolder(dir string, files []csvFile) error {
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	stage, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".new-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(stage)
	for _, f := range files {
		if err := writeCSVFile(filepath.Join(stage, f.name), f.header, f.rows); err != nil {
			return err
		}
	}
	if err := os.Chmod(stage, 0o755); err != nil {
		return err
	}
	old := filepath.Join(stage, ".old")
	if _, err := os.Stat(dir); err == nil {
		if err := os.Rename(dir, old); err != nil {
			return err
		}
	}
	if err := os.Rename(stage, dir); err != nil {
		os.Rename(old, dir)
		return err
	}
	// The old folder moved in with the staging one: remove it from there.
	return os.RemoveAll(filepath.Join(dir, ".old"))
}

func writeCSVFile(path string, header []string, rows [][]string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	w.Write(header)
	for _, r := range rows {
		row := make([]string, len(header))
		copy(row, r)
		w.Write(row)
	}
	w.Flush()
	if err := w.Error(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
