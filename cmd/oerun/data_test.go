package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oe-lab/oe/lib/datasets"
)

func TestWriteDataTable(t *testing.T) {
	data := t.TempDir()
	t.Setenv("OE_DATA", data)
	t.Setenv("OE_CACHE", t.TempDir())
	t.Chdir(t.TempDir()) // away from the checkout's data/ folder
	// A corrupt copy of one Aggregation file: found in $OE_DATA, fails its checksum.
	bad := filepath.Join(data, "sipu", "aggregation.data.gz")
	os.MkdirAll(filepath.Dir(bad), 0o755)
	if err := os.WriteFile(bad, []byte("not the data\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		verify  bool
		want    []string
		wantErr bool
	}{
		{"verify", true, []string{"MISMATCH", "$OE_DATA " + bad, "checksum mismatch for " + bad}, true},
		{"no verify", false, []string{"not checked", "checksums not verified"}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			err := writeDataTable(&out, nil, tc.verify)
			if (err != nil) != tc.wantErr {
				t.Errorf("error %v, want error: %v", err, tc.wantErr)
			}
			text := out.String()
			for _, name := range datasets.Names() {
				if !strings.Contains(text, "\n"+name+" ") && !strings.HasPrefix(text, name+" ") {
					t.Errorf("dataset %s not listed", name)
				}
			}
			want := append(tc.want,
				"10000 × 2 of 100000", // Birch1: the paper's n of the file's points
				"missing              would download from https://github.com/gagolews/clustering-data-v1/raw/v1.1.0/sipu/compound.data.gz",
				"generated from the seed, no files",
				"material     100 named items        comparisons people answered (no points)",
				"would extract data/answers_processed_test.json from https://github.com/mlagunas/material-appearance-similarity/archive/e5fccab94462f8b245e29818a31e83253369db6e.tar.gz")
			for _, s := range want {
				if !strings.Contains(text, s) {
					t.Errorf("output lacks %q:\n%s", s, text)
				}
			}
		})
	}
}

func TestWriteDataTableNames(t *testing.T) {
	t.Setenv("OE_DATA", t.TempDir())
	t.Setenv("OE_CACHE", t.TempDir())
	var out bytes.Buffer
	if err := writeDataTable(&out, []string{"gmm"}, true); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "aggregation") || !strings.Contains(out.String(), "gmm") {
		t.Errorf("listing only gmm printed:\n%s", out.String())
	}
	if err := writeDataTable(&out, []string{"nosuch"}, true); err == nil || !strings.Contains(err.Error(), "unknown dataset") {
		t.Errorf("unknown dataset: error %v", err)
	}
}
