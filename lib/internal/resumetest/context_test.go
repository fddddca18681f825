package resumetest

import (
	"context"
	"errors"
	"testing"
)

// TestCutsAfterItsCount: unarmed, the context is never cancelled; armed
// with After = 2, the third Err is the first to report context.Canceled,
// and OnCut runs once, then.
func TestCutsAfterItsCount(t *testing.T) {
	cuts := 0
	c := &Context{Context: context.Background(), After: 2, OnCut: func() { cuts++ }}
	for i := 0; i < 5; i++ {
		if err := c.Err(); err != nil {
			t.Fatalf("unarmed, call %d: %v", i, err)
		}
	}
	c.Armed = true
	want := []bool{false, false, true, true}
	for i, cut := range want {
		if err := c.Err(); errors.Is(err, context.Canceled) != cut {
			t.Errorf("armed, call %d: %v, want cancelled %v", i, err, cut)
		}
	}
	if cuts != 1 {
		t.Errorf("OnCut ran %d times, want once", cuts)
	}
}
