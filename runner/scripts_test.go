package runner

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	_ "github.com/oe-lab/oe/lib/algorithms" // the real methods, for the scripts
)

// TestExperimentScriptsSmoke runs every script of experiments/ at the smoke
// profile with the real algorithms and evaluation, as CI does, and checks
// that each writes its report.
func TestExperimentScriptsSmoke(t *testing.T) {
	scripts, err := filepath.Glob(filepath.Join("..", "experiments", "*.go"))
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no experiment scripts found (%v)", err)
	}
	dir := t.TempDir()
	for _, script := range scripts {
		t.Run(filepath.Base(script), func(t *testing.T) {
			var out bytes.Buffer
			res, err := Run(context.Background(), Options{Script: script, DB: filepath.Join(dir, "results.db"),
				Reports: filepath.Join(dir, "reports"), Profile: "smoke", Stdout: &out, Stderr: &out})
			if err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			if res.Summary.Ran+res.Summary.Cached == 0 {
				t.Errorf("%s declared no runs", script)
			}
			if st, err := os.Stat(res.Report); err != nil || st.Size() == 0 {
				t.Errorf("no report: %v", err)
			}
		})
	}
}
