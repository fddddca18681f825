package tripletloss

import (
	"context"
	"strings"
	"testing"

	"github.com/oe-lab/oe/lib/internal/testpoints"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/cuda"
	"github.com/oe-lab/oe/lib/embed"
)

// TestBackendWithoutCUDA checks the backends where CUDA does not work (a
// build without the cuda tag, or no device): cuda fails with the reason,
// auto runs on the CPU with the CPU's result, and an unknown name fails.
func TestBackendWithoutCUDA(t *testing.T) {
	why := cuda.Available()
	if why == nil {
		t.Skip("CUDA works here; see the cuda-tagged parity tests")
	}
	truth := testpoints.Uniform(30, 2, 1)
	p := embed.Problem{Dim: 2, Train: mustTriplets(t, truth, 600, 2)}
	opt := embed.Options{Seed: 3, MaxEpochs: 5, Threads: 1}
	ref, err := (&SOE{}).Fit(context.Background(), p, opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		backend embed.Backend
		want    string
	}{
		{"cuda", why.Error()},
		{"gpu", why.Error()},
		{"auto", ""},
		{"", ""},
		{"tpu", `unknown backend "tpu"`},
	} {
		t.Run(tc.backend.String(), func(t *testing.T) {
			o := opt
			o.Backend = tc.backend
			res, err := (&SOE{}).Fit(context.Background(), p, o)
			if tc.want != "" {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("error = %v, want it to contain %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !mat.Equal(res.Embedding, ref.Embedding) {
				t.Error("auto without CUDA differs from the cpu run")
			}
		})
	}
}
