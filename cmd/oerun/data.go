package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/oe-lab/oe/lib/datasets"
)

func init() {
	register("data", command{
		summary: "list the datasets, where each file was found, and whether checksums verify",
		run:     runData,
	})
}

func runData(args []string) error {
	fs := newFlags("data", "[--verify=false] [dataset ...]")
	verify := fs.Bool("verify", true, "hash every file found and check it against the registry's checksums")
	if err := fs.Parse(args); err != nil {
		return err
	}
	return writeDataTable(os.Stdout, fs.Args(), *verify)
}

// writeDataTable lists the named datasets (all when names is empty): the
// paper's size, the labels, and for each file where it was found and whether
// its checksum verifies. It returns an error after listing when a file that
// was found fails its checksum; missing files are reported, not errors,
// since Load downloads them.
func writeDataTable(w io.Writer, names []string, verify bool) error {
	if len(names) == 0 {
		names = datasets.Names()
	}
	locate := datasets.Find
	if verify {
		locate = datasets.Locate
	}
	var bad []string
	missing := 0
	for _, name := range names {
		spec, err := datasets.Lookup(name)
		if err != nil {
			return err
		}
		files, err := locate(name)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%-12s %-22s %s\n", spec.Name, paperSize(spec), labelsText(spec))
		if spec.Synthetic {
			fmt.Fprintf(w, "    generated from the seed, no files\n")
		}
		for _, f := range files {
			where, check := fileText(f)
			fmt.Fprintf(w, "    %-34s %-20s %s\n", f.File.Path, check, where)
			if f.Source == datasets.Missing {
				missing++
			}
			if f.Checked && !f.OK {
				bad = append(bad, f.Err.Error())
			}
		}
	}
	fmt.Fprintf(w, "\nsearch order: $OE_DATA (%s), data/ at the module root, then the cache ($OE_CACHE or the user cache dir)\n",
		orUnset(os.Getenv("OE_DATA")))
	fmt.Fprintf(w, "%d files missing (Load downloads them unless OE_OFFLINE is set)\n", missing)
	if !verify {
		fmt.Fprintln(w, "checksums not verified (--verify=false)")
	}
	if len(bad) > 0 {
		for _, b := range bad {
			fmt.Fprintln(w, b)
		}
		return fmt.Errorf("%d files fail their checksum", len(bad))
	}
	return nil
}

func paperSize(s datasets.Spec) string {
	if s.Kind == datasets.KindComparisons {
		return fmt.Sprintf("%d named items", s.N)
	}
	size := fmt.Sprintf("%d × %d", s.N, s.Dim)
	switch {
	case s.Synthetic:
		size += " (default)"
	case s.Available != s.N:
		size += fmt.Sprintf(" of %d", s.Available)
	}
	return size
}

func labelsText(s datasets.Spec) string {
	if s.Kind == datasets.KindComparisons {
		return "comparisons people answered (no points)"
	}
	if !s.Labeled() {
		return "none"
	}
	return fmt.Sprintf("%d classes", s.Classes)
}

// fileText says where a file is and what its checksum check found.
func fileText(f datasets.FileStatus) (where, check string) {
	if f.Source == datasets.Missing {
		if f.File.Member != "" {
			return fmt.Sprintf("would extract %s from %s", f.File.Member, f.File.URL), "missing"
		}
		return "would download from " + f.File.URL, "missing"
	}
	where = fmt.Sprintf("%s %s", f.Source, f.Path)
	algos := make([]string, len(f.File.Sums))
	for i, c := range f.File.Sums {
		algos[i] = c.Algo
	}
	switch {
	case !f.Checked:
		check = "not checked"
	case f.OK && f.File.Member != "":
		check = "ok (" + strings.Join(algos, " or ") + " of content)"
	case f.OK:
		check = "ok (" + strings.Join(algos, " or ") + ")"
	default:
		var ce *datasets.ChecksumError
		if errors.As(f.Err, &ce) {
			check = "MISMATCH"
		} else {
			check = "unreadable: " + f.Err.Error()
		}
	}
	return where, check
}

func orUnset(v string) string {
	if v == "" {
		return "unset"
	}
	return v
}
