//go:build cuda

package cuda

import (
	_ "embed"
	"errors"
	"fmt"
	"runtime"
	"sort"
	"sync"
	"time"
	"unsafe"
)

//go:embed kernels.ptx
var kernelsPTX string

// kernelNames are the entry points of kernels.ptx.
var kernelNames = []string{"tl_grad", "tl_ridge", "tl_violations", "adam_step", "nonfinite", "gather_triplets",
	"gen_triplets", "sgemm", "oenn_bias_relu", "oenn_mask_relu", "oenn_col_sums", "oenn_hinge", "oenn_codes"}

// Context is a CUDA context on one device with oe's kernels loaded. Its
// methods may be called from any goroutine; they are serialised (see the
// package comment).
type Context struct {
	mu     sync.Mutex
	ctx    cuContext
	mod    module
	fns    map[string]function
	info   DeviceInfo
	closed bool
	// maxGrid caps the grid of the grid-stride kernels: enough resident
	// blocks to fill every SM several times over.
	maxGrid int
	// scratch holds the 8-byte results of the reducing kernels.
	scratch devicePtr
	// allocated and peak count the bytes of live Buffers.
	allocated, peak int64
	// timing, when set, times every kernel and memset with CUDA events.
	timing  bool
	timings map[string]*Timing
}

// Timing is the time the device spent in one kernel over all its launches.
type Timing struct {
	Name  string
	Calls int
	Total time.Duration
}

// Open initialises the driver, creates a context on the device with the
// given ordinal and loads the kernels. Close it when done.
func Open(ordinal int) (*Context, error) {
	n, err := DeviceCount()
	if err != nil {
		return nil, err
	}
	if ordinal < 0 || ordinal >= n {
		return nil, fmt.Errorf("cuda: device %d does not exist (%d devices)", ordinal, n)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	dev, info, err := deviceInfo(ordinal)
	if err != nil {
		return nil, err
	}
	cctx, err := ctxCreate(dev)
	if err != nil {
		return nil, err
	}
	c := &Context{ctx: cctx, info: info, fns: map[string]function{}, maxGrid: 32 * max(1, info.SMs),
		timings: map[string]*Timing{}}
	fail := func(err error) (*Context, error) {
		_ = ctxDestroy(cctx) // the error that made us give up is the one to report
		return nil, err
	}
	if c.mod, err = moduleLoad(kernelsPTX); err != nil {
		return fail(fmt.Errorf("loading the kernels (PTX for compute 7.0, needs a CUDA ≥ 11.8 driver): %w", err))
	}
	for _, name := range kernelNames {
		if c.fns[name], err = moduleFunction(c.mod, name); err != nil {
			return fail(err)
		}
	}
	if c.scratch, err = memAlloc(8); err != nil {
		return fail(err)
	}
	return c, nil
}

// shared is the process's context of Shared.
var shared struct {
	once sync.Once
	ctx  *Context
	err  error
}

// Shared returns a context on device 0 that the whole process shares,
// opened on first use and never closed: opening one costs a few hundred
// milliseconds (driver start, PTX JIT) and device memory, too much per run
// of an experiment or per method. The error of the first Open is kept.
func Shared() (*Context, error) {
	shared.once.Do(func() { shared.ctx, shared.err = Open(0) })
	return shared.ctx, shared.err
}

// Available returns nil when CUDA works in this binary on this machine —
// the driver loads, device 0 exists and the kernels load (the shared
// context opens) — else why not. The GPU methods' registry probes are it.
func Available() error {
	if _, err := Shared(); err != nil {
		return fmt.Errorf("cuda backend: %w", err)
	}
	return nil
}

// do runs f with the context current on a locked OS thread, holding the
// context's lock. Driver contexts are per OS thread, and Go moves
// goroutines between threads, hence the lock and the SetCurrent per call.
func (c *Context) do(f func() error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return errors.New("cuda: context is closed")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := ctxSetCurrent(c.ctx); err != nil {
		return err
	}
	return f()
}

// Close destroys the context and with it every Buffer allocated in it.
// Calling it again does nothing.
func (c *Context) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil
	}
	c.closed = true
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	return ctxDestroy(c.ctx)
}

// Device describes the context's device.
func (c *Context) Device() DeviceInfo { return c.info }

// MemInfo returns the device's free and total memory in bytes.
func (c *Context) MemInfo() (free, total int64, err error) {
	err = c.do(func() error {
		var e error
		free, total, e = memInfo()
		return e
	})
	return free, total, err
}

// PeakAllocated returns the largest number of bytes that Buffers of this
// context held at one time.
func (c *Context) PeakAllocated() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.peak
}

// Synchronize waits for all work issued so far and returns the first
// asynchronous error of a kernel, if any.
func (c *Context) Synchronize() error { return c.do(synchronize) }

// ResetPeak restarts PeakAllocated from the bytes allocated now.
func (c *Context) ResetPeak() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.peak = c.allocated
}

// SetTiming turns the timing of kernels and memsets on (clearing the
// timings so far) or off. With timing on, each launch is bracketed by CUDA
// events and waited for, which costs the overlap of the host with the
// device: use it to explain where time goes, not to measure throughput.
func (c *Context) SetTiming(on bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.timing = on
	if on {
		clear(c.timings)
	}
}

// Timings returns the accumulated kernel timings, longest total first.
func (c *Context) Timings() []Timing {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]Timing, 0, len(c.timings))
	for _, t := range c.timings {
		out = append(out, *t)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Total > out[b].Total })
	return out
}

// timed runs f (which issues work on the default stream) and, with timing
// on, adds the device time it took to name's entry. Called inside do.
func (c *Context) timed(name string, f func() error) error {
	if !c.timing {
		return f()
	}
	start, err := eventCreate()
	if err != nil {
		return err
	}
	// A failed destroy leaks one event: nothing worth failing the launch for.
	defer func() { _ = eventDestroy(start) }()
	stop, err := eventCreate()
	if err != nil {
		return err
	}
	defer func() { _ = eventDestroy(stop) }()
	if err := eventRecord(start); err != nil {
		return err
	}
	if err := f(); err != nil {
		return err
	}
	if err := eventRecord(stop); err != nil {
		return err
	}
	ms, err := eventElapsed(start, stop)
	if err != nil {
		return err
	}
	t := c.timings[name]
	if t == nil {
		t = &Timing{Name: name}
		c.timings[name] = t
	}
	t.Calls++
	t.Total += time.Duration(ms * float64(time.Millisecond))
	return nil
}

// Elem is the element type of a Buffer.
type Elem interface {
	~float32 | ~float64 | ~int32 | ~int64 | ~uint64
}

// Buffer is an array of n elements of type T in device memory.
type Buffer[T Elem] struct {
	c   *Context
	ptr devicePtr
	n   int
}

func sizeOf[T Elem]() int64 {
	var v T
	return int64(unsafe.Sizeof(v))
}

// Alloc allocates a buffer of n elements in c's device memory, zeroed.
func Alloc[T Elem](c *Context, n int) (*Buffer[T], error) {
	if n < 0 {
		return nil, fmt.Errorf("cuda: negative buffer length %d", n)
	}
	b := &Buffer[T]{c: c, n: n}
	bytes := max(1, int64(n)*sizeOf[T]()) // cuMemAlloc rejects 0 bytes
	err := c.do(func() error {
		p, err := memAlloc(bytes)
		if err != nil {
			return fmt.Errorf("allocating %d bytes (%.2f GiB): %w", bytes, float64(bytes)/(1<<30), err)
		}
		if err := memZero(p, bytes); err != nil {
			_ = memFree(p) // report the memset's error
			return err
		}
		b.ptr = p
		c.allocated += bytes
		c.peak = max(c.peak, c.allocated)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return b, nil
}

// Upload allocates a buffer holding a copy of src.
func Upload[T Elem](c *Context, src []T) (*Buffer[T], error) {
	b, err := Alloc[T](c, len(src))
	if err != nil {
		return nil, err
	}
	if err := b.CopyFrom(src); err != nil {
		_ = b.Free() // the copy's error is the one to report
		return nil, err
	}
	return b, nil
}

// Len returns the number of elements.
func (b *Buffer[T]) Len() int { return b.n }

// CopyFrom copies src, which must have Len elements, to the buffer.
func (b *Buffer[T]) CopyFrom(src []T) error {
	if len(src) != b.n {
		return fmt.Errorf("cuda: copying %d elements into a buffer of %d", len(src), b.n)
	}
	if b.n == 0 {
		return nil
	}
	return b.c.do(func() error { return memcpyHtoD(b.ptr, unsafe.Pointer(&src[0]), int64(b.n)*sizeOf[T]()) })
}

// CopyTo copies the buffer to dst, which must have Len elements, waiting
// for the work issued before.
func (b *Buffer[T]) CopyTo(dst []T) error {
	if len(dst) != b.n {
		return fmt.Errorf("cuda: copying a buffer of %d elements into %d", b.n, len(dst))
	}
	if b.n == 0 {
		return nil
	}
	return b.c.do(func() error { return memcpyDtoH(unsafe.Pointer(&dst[0]), b.ptr, int64(b.n)*sizeOf[T]()) })
}

// CopyFromAt copies src to the elements [off, off+len(src)) of the buffer:
// a transfer of only the part in use, as for a batch's index lists.
func (b *Buffer[T]) CopyFromAt(off int, src []T) error {
	if off < 0 || off+len(src) > b.n {
		return fmt.Errorf("cuda: copying %d elements to offset %d of a buffer of %d", len(src), off, b.n)
	}
	if len(src) == 0 {
		return nil
	}
	return b.c.do(func() error {
		return memcpyHtoD(devicePtr(b.at(off)), unsafe.Pointer(&src[0]), int64(len(src))*sizeOf[T]())
	})
}

// CopyToAt copies the elements [off, off+len(dst)) of the buffer to dst,
// waiting for the work issued before.
func (b *Buffer[T]) CopyToAt(off int, dst []T) error {
	if off < 0 || off+len(dst) > b.n {
		return fmt.Errorf("cuda: copying %d elements from offset %d of a buffer of %d", len(dst), off, b.n)
	}
	if len(dst) == 0 {
		return nil
	}
	return b.c.do(func() error {
		return memcpyDtoH(unsafe.Pointer(&dst[0]), devicePtr(b.at(off)), int64(len(dst))*sizeOf[T]())
	})
}

// Zero sets every element to 0.
func (b *Buffer[T]) Zero() error {
	return b.c.do(func() error {
		return b.c.timed("memset", func() error { return memZero(b.ptr, max(1, int64(b.n)*sizeOf[T]())) })
	})
}

// Free releases the buffer's memory. Calling it again does nothing.
func (b *Buffer[T]) Free() error {
	if b == nil || b.ptr == 0 {
		return nil
	}
	return b.c.do(func() error {
		if err := memFree(b.ptr); err != nil {
			return err
		}
		b.c.allocated -= max(1, int64(b.n)*sizeOf[T]())
		b.ptr = 0
		return nil
	})
}

// at returns the device address of element i.
func (b *Buffer[T]) at(i int) uint64 { return uint64(b.ptr) + uint64(i)*uint64(sizeOf[T]()) }
