//go:build cuda

package cuda

import (
	"fmt"
	"math"
)

// The wrappers of this file launch the kernels of lib/oenn's GPU trainer:
// EmbNet's matrix products, bias and ReLU, bias gradients, hinge loss and
// input codes (its AMSGrad step is AdamStep). Their CPU twins are in
// lib/oenn (net.go, gemm.go, train.go, encode.go). Buffers may be larger than the
// part a call uses: the trainer allocates its activations once for the
// largest batch and uses a prefix of them per batch.

// Mat is a row-major float32 matrix inside a Buffer: element (i, j) of the
// stored matrix is Buf[Off + i*Stride + j]. With Trans, the operand is the
// stored matrix's transpose. Offsets let one parameter vector hold every
// layer's weights, as lib/oenn's does.
type Mat struct {
	Buf    *Buffer[float32]
	Off    int
	Stride int
	Trans  bool
}

// check checks that op(a), rows×cols, lies within a.Buf.
func (a Mat) check(what string, rows, cols int) error {
	sr, sc := rows, cols // the stored shape
	if a.Trans {
		sr, sc = cols, rows
	}
	if a.Buf == nil {
		return fmt.Errorf("cuda: %s has no buffer", what)
	}
	if a.Off < 0 || a.Stride < sc || (sr > 0 && a.Off+(sr-1)*a.Stride+sc > a.Buf.Len()) {
		return fmt.Errorf("cuda: %s of %d×%d (stride %d, offset %d, transposed %v) does not fit a buffer of %d",
			what, rows, cols, a.Stride, a.Off, a.Trans, a.Buf.Len())
	}
	return nil
}

// checkRoom checks that b holds at least need elements.
func checkRoom[T Elem](what string, b *Buffer[T], need int) error {
	if b == nil || need < 0 || b.Len() < need {
		length := 0
		if b != nil {
			length = b.Len()
		}
		return fmt.Errorf("cuda: %s has %d elements, need %d", what, length, need)
	}
	return nil
}

// Tile of sgemm (kernels.cu's GEMM_TM, GEMM_TN).
const gemmTileM, gemmTileN = 64, 64

// Gemm computes out = op(A)·op(B), or out += op(A)·op(B) with accumulate,
// for op(A) m×k, op(B) k×n and out m×n (out.Trans must be false). CPU
// twin: lib/oenn's gemm.mulAdd (which always accumulates). The kernel
// fuses multiply-adds in order along k, so the results agree with the CPU's
// to rounding, not bit for bit. With k = 0, out is zeroed (or left as it
// is with accumulate).
func (c *Context) Gemm(m, n, k int, a, b, out Mat, accumulate bool) error {
	if m < 0 || n < 0 || k < 0 {
		return fmt.Errorf("cuda: GEMM of negative size %d×%d×%d", m, n, k)
	}
	if out.Trans {
		return fmt.Errorf("cuda: GEMM output cannot be transposed")
	}
	if err := a.check("GEMM operand A", m, k); err != nil {
		return err
	}
	if err := b.check("GEMM operand B", k, n); err != nil {
		return err
	}
	if err := out.check("GEMM output", m, n); err != nil {
		return err
	}
	tiles := ((m + gemmTileM - 1) / gemmTileM) * ((n + gemmTileN - 1) / gemmTileN)
	return c.do(func() error {
		return c.runBlocks("sgemm", tiles, a.Buf.at(a.Off), i64(a.Stride), boolArg(a.Trans), b.Buf.at(b.Off),
			i64(b.Stride), boolArg(b.Trans), out.Buf.at(out.Off), i64(out.Stride), i64(m), i64(n), i64(k),
			boolArg(accumulate))
	})
}

// BiasReLU adds bias[biasOff+col] to every entry of the rows×cols
// row-major matrix at the start of x and, with relu, clamps negative
// entries to +0 (CPU twin: lib/oenn's addBias; bit for bit).
func (c *Context) BiasReLU(x *Buffer[float32], rows, cols int, bias *Buffer[float32], biasOff int, relu bool) error {
	if rows < 0 || cols < 1 {
		return fmt.Errorf("cuda: bias of %d columns over %d rows", cols, rows)
	}
	if err := checkRoom("activations", x, rows*cols); err != nil {
		return err
	}
	if biasOff < 0 {
		return fmt.Errorf("cuda: negative bias offset %d", biasOff)
	}
	if err := checkRoom("bias", bias, biasOff+cols); err != nil {
		return err
	}
	return c.do(func() error {
		return c.run("oenn_bias_relu", rows*cols, uint64(x.ptr), bias.at(biasOff), i64(rows), i64(cols), boolArg(relu))
	})
}

// MaskReLU zeroes grad[e] where act[e] is +0, for the first size entries:
// ReLU passes no gradient where it clamped (CPU twin: lib/oenn's maskReLU;
// bit for bit).
func (c *Context) MaskReLU(grad, act *Buffer[float32], size int) error {
	if err := checkRoom("gradient", grad, size); err != nil {
		return err
	}
	if err := checkRoom("activations", act, size); err != nil {
		return err
	}
	return c.do(func() error { return c.run("oenn_mask_relu", size, uint64(grad.ptr), uint64(act.ptr), i64(size)) })
}

// colSumChunk is the number of rows each thread of ColumnSums' first pass
// sums.
const colSumChunk = 256

// ColumnSumsScratch returns the length of the scratch buffer that
// ColumnSums needs for a rows×cols matrix.
func ColumnSumsScratch(rows, cols int) int {
	if rows <= colSumChunk {
		return 0
	}
	return (rows + colSumChunk - 1) / colSumChunk * cols
}

// ColumnSums writes the column sums of the rows×cols row-major matrix at
// the start of x to sums[off : off+cols], using scratch (at least
// ColumnSumsScratch(rows, cols) elements; nil when that is 0). Up to
// colSumChunk rows it sums each column in row order, as lib/oenn's
// columnSums does, to the bit; taller matrices are summed in chunks of
// colSumChunk rows and then the chunks' sums, which rounds differently but
// keeps the work parallel and the result deterministic.
func (c *Context) ColumnSums(x *Buffer[float32], rows, cols int, scratch, sums *Buffer[float32], off int) error {
	if rows < 0 || cols < 1 || off < 0 {
		return fmt.Errorf("cuda: column sums of %d×%d into offset %d", rows, cols, off)
	}
	if err := checkRoom("matrix", x, rows*cols); err != nil {
		return err
	}
	if err := checkRoom("sums", sums, off+cols); err != nil {
		return err
	}
	need := ColumnSumsScratch(rows, cols)
	if need > 0 {
		if err := checkRoom("column-sum scratch", scratch, need); err != nil {
			return err
		}
	}
	return c.do(func() error {
		if need == 0 {
			// One chunk of all the rows (rows = 0: the kernel writes zeros).
			return c.run("oenn_col_sums", cols, uint64(x.ptr), i64(rows), i64(cols), i64(colSumChunk), sums.at(off))
		}
		chunks := need / cols
		if err := c.run("oenn_col_sums", need, uint64(x.ptr), i64(rows), i64(cols), i64(colSumChunk),
			uint64(scratch.ptr)); err != nil {
			return err
		}
		return c.run("oenn_col_sums", cols, uint64(scratch.ptr), i64(chunks), i64(cols), i64(chunks), sums.at(off))
	})
}

// OENNHinge adds to dy the gradient of scale × the summed hinge loss
// max(0, ‖yᵢ−yⱼ‖² − ‖yᵢ−yₖ‖² + 1) of the m triplets of rows (3 int32 each:
// rows of y, which are not range-checked on the device and must be below
// yRows) over the yRows×d row-major embedding at the start of y, and
// returns that sum (CPU twin: lib/oenn's hinge, which also zeroes dy
// first). The gradient is added with atomicAdd, so its summation order, and
// its last bits, vary from run to run.
func (c *Context) OENNHinge(y *Buffer[float32], yRows, d int, rows *Buffer[int32], m int, scale float32,
	dy *Buffer[float32]) (float64, error) {
	if d < 1 || yRows < 0 || m < 0 {
		return 0, fmt.Errorf("cuda: hinge over %d triplets of a %d×%d embedding", m, yRows, d)
	}
	if err := checkRoom("embedding", y, yRows*d); err != nil {
		return 0, err
	}
	if err := checkRoom("embedding gradient", dy, yRows*d); err != nil {
		return 0, err
	}
	if err := checkRoom("triplet rows", rows, 3*m); err != nil {
		return 0, err
	}
	var bits uint64
	err := c.do(func() error {
		var err error
		bits, err = c.reduce("oenn_hinge", m, uint64(y.ptr), i64(d), uint64(rows.ptr), i64(m), f32(scale), uint64(dy.ptr))
		return err
	})
	return math.Float64frombits(bits), err
}

// OENNCodes writes the input codes of the count items items[0:count] into
// the first count rows of x (length columns): the binary code of each
// index, most significant bit first, when table is nil, else the item's
// row of the code table table (one row of length per item: lib/oenn's
// permuted binary codes or random codes). CPU twin: lib/oenn's codes.put;
// bit for bit. The items are not range-checked on the device: they must be
// valid rows of the table (or non-negative).
func (c *Context) OENNCodes(items *Buffer[int32], count, length int, table, x *Buffer[float32]) error {
	if count < 0 || length < 1 {
		return fmt.Errorf("cuda: codes of length %d for %d items", length, count)
	}
	if err := checkRoom("item list", items, count); err != nil {
		return err
	}
	if err := checkRoom("input", x, count*length); err != nil {
		return err
	}
	rows := uint64(0)
	if table != nil {
		if table.Len()%length != 0 {
			return fmt.Errorf("cuda: code table of %d values is not made of rows of %d", table.Len(), length)
		}
		rows = uint64(table.ptr)
	}
	return c.do(func() error {
		return c.run("oenn_codes", count*length, uint64(items.ptr), i64(count), i64(length), rows, uint64(x.ptr))
	})
}
