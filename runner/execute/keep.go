package execute

import (
	"encoding/json"
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// Keep says what the store keeps of a run's embedding besides its metrics
// and trace. A script declares it per run (runner/exp's Run.KeepEmbedding);
// its spellings are those of the declaration's JSON and of the store's
// embeddings.kind.
type Keep string

const (
	// KeepNone keeps no embedding.
	KeepNone Keep = ""
	// KeepView keeps the 2-D view of the embedding that a report draws,
	// computed by the run's Pending.View once the run has been measured:
	// at most a few thousand points, however large the run.
	KeepView Keep = "view"
	// KeepFull keeps the whole n×d embedding, for a computation that needs
	// it later.
	KeepFull Keep = "full"
)

// String returns the spelling of k, "none" for KeepNone.
func (k Keep) String() string {
	if k == KeepNone {
		return "none"
	}
	return string(k)
}

// UnmarshalJSON reads a Keep ("view", "full", or "" for none) and the
// boolean that declarations stored before views hold: true, which kept the
// whole embedding, is KeepFull, and false KeepNone.
func (k *Keep) UnmarshalJSON(b []byte) error {
	var whole bool
	if json.Unmarshal(b, &whole) == nil {
		*k = KeepNone
		if whole {
			*k = KeepFull
		}
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("execute: keep_embedding %s: want \"view\", \"full\" or \"\"", b)
	}
	switch v := Keep(s); v {
	case KeepNone, KeepView, KeepFull:
		*k = v
		return nil
	}
	return fmt.Errorf("execute: keep_embedding %q: want \"view\", \"full\" or \"\"", s)
}

// wider returns the one of k and o that keeps more: a run declared twice
// keeps what either declaration keeps.
func (k Keep) wider(o Keep) Keep {
	rank := map[Keep]int{KeepNone: 0, KeepView: 1, KeepFull: 2}
	if rank[o] > rank[k] {
		return o
	}
	return k
}

// ViewFunc returns the 2-D view of an n×d embedding x that a report draws,
// with the labels of the view's points (nil for nil labels), computed on the
// given number of threads.
type ViewFunc func(x *mat.Dense, labels []int, threads int) (*mat.Dense, []int, error)
