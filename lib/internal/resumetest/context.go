package resumetest

import "context"

// Context is a context that, once Armed, reports itself cancelled after
// its Err has been asked After more times, calling OnCut (if set) the
// first time. The resumable methods ask before each batch, so it cuts a
// fit short between two batches of an epoch, and nowhere else.
type Context struct {
	context.Context
	Armed bool
	After int
	OnCut func()
}

// Err returns nil until the context is armed and has been asked After
// times since, then context.Canceled.
func (c *Context) Err() error {
	if !c.Armed {
		return nil
	}
	if c.After > 0 {
		c.After--
		return nil
	}
	if c.OnCut != nil {
		c.OnCut()
		c.OnCut = nil
	}
	return context.Canceled
}
