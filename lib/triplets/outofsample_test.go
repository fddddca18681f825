package triplets

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestRandomOutOfSample(t *testing.T) {
	// Six training items on a line and two new ones, at 2.4 and 9.
	x := mat.NewDense(8, 1, []float64{0, 1, 2, 3, 4, 5, 2.4, 9})
	const nTrain = 6
	tests := []struct {
		name  string
		noise Noise
		// wrongAtMost is the largest fraction of triplets whose order the
		// distances contradict.
		wrongAtMost float64
	}{
		{"noiseless", Noise{}, 0},
		{"Bernoulli 0.2", Noise{Model: Bernoulli, Level: 0.2}, 0.3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := RandomOutOfSample(x, nTrain, 2000, tc.noise, 3)
			if err != nil {
				t.Fatal(err)
			}
			if s.Len() != 2000 || s.N != 8 {
				t.Fatalf("got %d triplets over %d items, want 2000 over 8", s.Len(), s.N)
			}
			wrong := 0
			for r := 0; r < s.Len(); r++ {
				i, j, k := s.At(r)
				if i < nTrain || j >= nTrain || k >= nTrain || j == k {
					t.Fatalf("triplet %d (%d, %d, %d) is not (new, training, training)", r, i, j, k)
				}
				if math.Abs(x.At(int(i), 0)-x.At(int(j), 0)) > math.Abs(x.At(int(i), 0)-x.At(int(k), 0)) {
					wrong++
				}
			}
			if got := float64(wrong) / float64(s.Len()); got > tc.wrongAtMost {
				t.Errorf("%.3f of the triplets contradict the distances, want ≤ %v", got, tc.wrongAtMost)
			}
			again, _ := RandomOutOfSample(x, nTrain, 2000, tc.noise, 3)
			for r := range s.Idx {
				if s.Idx[r] != again.Idx[r] {
					t.Fatal("same seed, different triplets")
				}
			}
		})
	}
}

func TestRandomOutOfSampleErrors(t *testing.T) {
	x := mat.NewDense(8, 1, nil)
	tests := []struct {
		name   string
		nTrain int
		m      int
		noise  Noise
	}{
		{"no new item", 8, 10, Noise{}},
		{"one training item", 1, 10, Noise{}},
		{"negative count", 6, -1, Noise{}},
		{"bad noise", 6, 10, Noise{Model: Bernoulli, Level: 2}},
	}
	for _, tc := range tests {
		if _, err := RandomOutOfSample(x, tc.nTrain, tc.m, tc.noise, 1); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}
