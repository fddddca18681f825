// Kernels of lib/cuda. Compiled to kernels.ptx by `go generate ./lib/cuda`
// (internal/ptxgen holds the nvcc command); the PTX is committed and
// embedded, so a `-tags cuda` build needs no nvcc.
//
// Conventions shared by every kernel:
//   - one thread per item (triplet, parameter, edge, row) in a grid-stride
//     loop over 64-bit indices, so any grid size covers any problem size;
//   - blocks are launched with exactly BLOCK threads (the Go side always
//     does), which the shared-memory reductions rely on;
//   - sums that the host reads back (losses, counts) are reduced per block in
//     shared memory and added with one atomicAdd per block.
// They are compiled with -fmad=false so that a*b+c rounds as the Go code
// does (lib/optim rounds every product explicitly, and Go does not fuse on
// amd64): the Adam step then matches lib/optim bit for bit, and the other
// kernels differ from their CPU twins only by summation order and by the
// last bit of exp/log.

#define BLOCK 256

// Loss kinds of tl_grad; the Go side's LossKind constants mirror them.
#define LOSS_SOE 0
#define LOSS_STE 1
#define LOSS_TSTE 2
#define LOSS_CKLX 3
#define LOSS_GNMDSX 4

// Noise models of gen_triplets; the Go side's Noise constants mirror them.
#define NOISE_NONE 0
#define NOISE_BERNOULLI 1
#define NOISE_GAUSSIAN 2

typedef long long i64;
typedef unsigned long long u64;

// blockSum returns, in thread 0, the sum of v over the block. Each
// instantiation (double for losses, u64 for counts) has its own shared
// array.
template <typename T> __device__ T blockSum(T v) {
    __shared__ T s[BLOCK];
    s[threadIdx.x] = v;
    __syncthreads();
    for (int w = BLOCK / 2; w > 0; w >>= 1) {
        if (threadIdx.x < w) s[threadIdx.x] += s[threadIdx.x + w];
        __syncthreads();
    }
    return s[0];
}

// softplus and sigmoid as lib/tripletloss/loss.go computes them.
__device__ double softplus(double z) {
    if (z > 0) return z + log1p(exp(-z));
    return log1p(exp(z));
}

__device__ double sigmoid(double z) {
    if (z >= 0) return 1 / (1 + exp(-z));
    double e = exp(z);
    return e / (1 + e);
}

// lossTerms is lossFunc's per-method code of lib/tripletloss/loss.go: the
// loss of one triplet and its partial derivatives gij = ∂ℓ/∂dij,
// gik = ∂ℓ/∂dik with respect to the squared distances.
__device__ double lossTerms(int kind, double param, double dij, double dik, double *gij, double *gik) {
    *gij = 0;
    *gik = 0;
    switch (kind) {
    case LOSS_SOE: {
        double a = sqrt(dij), b = sqrt(dik);
        double h = param + a - b;
        // A NaN h passes on into the loss, where the host sees the divergence.
        if (h <= 0) return 0;
        if (a > 0) *gij = 0.5 / a;
        if (b > 0) *gik = -0.5 / b;
        return h;
    }
    case LOSS_STE: {
        double z = dij - dik;
        double s = sigmoid(z);
        *gij = s;
        *gik = -s;
        return softplus(z);
    }
    case LOSS_TSTE: {
        double h = (param + 1) / 2;
        double r = h * (log1p(dij / param) - log1p(dik / param));
        double s = sigmoid(r);
        *gij = s * h / (param + dij);
        *gik = -s * h / (param + dik);
        return softplus(r);
    }
    case LOSS_CKLX: {
        double den = 2 * param + dij + dik;
        double num = param + dik;
        *gij = 1 / den;
        *gik = 1 / den - 1 / num;
        return log(den) - log(num);
    }
    default: { // LOSS_GNMDSX
        double h = param + dij - dik;
        // A NaN h passes on into the loss, where the host sees the divergence.
        if (h <= 0) return 0;
        *gij = 1;
        *gik = -1;
        return h;
    }
    }
}

// sqDists sets *dij, *dik to ‖xi−xj‖², ‖xi−xk‖² in float32, as the CPU
// kernel does.
__device__ void sqDists(const float *xi, const float *xj, const float *xk, int d, float *dij, float *dik) {
    float a = 0, b = 0;
    for (int c = 0; c < d; c++) {
        float u = xi[c] - xj[c], v = xi[c] - xk[c];
        a += u * u;
        b += v * v;
    }
    *dij = a;
    *dik = b;
}

// groupWidth is how many lanes of a warp share one triplet in tl_grad: the
// smallest power of two ≥ d, at most 32.
__device__ int groupWidth(int d) {
    int w = 1;
    while (w < d && w < 32) w <<= 1;
    return w;
}

// tl_grad adds the gradient of the triplet loss of kind over the m triplets
// idx (3 int32 each) of the n×d row-major embedding x to grad (n×d, float32)
// and the triplets' summed loss to *loss. The scatter is lib/tripletloss's:
// with sij = 2∂ℓ/∂dij, sik = 2∂ℓ/∂dik (rounded to float32),
// u = sij(xi−xj), v = sik(xi−xk): gi += u+v, gj −= u, gk −= v.
//
// Each lane owns one triplet and computes its loss, but the rows are read
// and the gradient scattered by groups of w = groupWidth(d) lanes that split
// the columns between them: a group's loads and atomic adds then touch
// consecutive addresses, where one lane walking its own three rows would
// touch one address per lane (on an H200, 95 million triplets of 60,000
// items in 50 dimensions: t-STE's epoch 0.32 → 0.11 s, SOE's at COVTYPE
// size 0.52 → 0.25 s in tl_grad). ‖xi−xj‖² is summed over the group's
// lanes in a butterfly, so it differs from the CPU's sum in order alone.
extern "C" __global__ void tl_grad(const float *x, const int *idx, i64 m, int d, int kind, double param,
                                   float *grad, double *loss) {
    const unsigned all = 0xffffffffu;
    const int lane = threadIdx.x & 31, w = groupWidth(d);
    const int first = lane & ~(w - 1), col0 = lane & (w - 1);
    double total = 0;
    // base is the warp's first triplet: the same in all its lanes, so that
    // every lane runs every shuffle below.
    for (i64 base = (i64)blockIdx.x * blockDim.x + (threadIdx.x & ~31); base < m;
         base += (i64)gridDim.x * blockDim.x) {
        const i64 t = base + lane;
        const int have = t < m;
        int i = 0, j = 0, k = 0;
        if (have) {
            i = idx[3 * t];
            j = idx[3 * t + 1];
            k = idx[3 * t + 2];
        }
        float dij = 0, dik = 0;
        for (int s = 0; s < w; s++) {
            const int src = first + s;
            const i64 si = __shfl_sync(all, i, src), sj = __shfl_sync(all, j, src), sk = __shfl_sync(all, k, src);
            float a = 0, b = 0;
            if (__shfl_sync(all, have, src)) {
                const float *xi = x + si * d, *xj = x + sj * d, *xk = x + sk * d;
                for (int c = col0; c < d; c += w) {
                    float u = xi[c] - xj[c], v = xi[c] - xk[c];
                    a += u * u;
                    b += v * v;
                }
            }
            for (int o = w / 2; o > 0; o >>= 1) {
                a += __shfl_xor_sync(all, a, o);
                b += __shfl_xor_sync(all, b, o);
            }
            if (col0 == s) {
                dij = a;
                dik = b;
            }
        }
        float sij = 0, sik = 0;
        if (have) {
            double gij, gik;
            total += lossTerms(kind, param, dij, dik, &gij, &gik);
            sij = (float)(2 * gij);
            sik = (float)(2 * gik);
        }
        for (int s = 0; s < w; s++) {
            const int src = first + s;
            const i64 si = __shfl_sync(all, i, src), sj = __shfl_sync(all, j, src), sk = __shfl_sync(all, k, src);
            const float a = __shfl_sync(all, sij, src), b = __shfl_sync(all, sik, src);
            if (a == 0 && b == 0) continue; // a hinge at rest, or no triplet
            const float *xi = x + si * d, *xj = x + sj * d, *xk = x + sk * d;
            float *gi = grad + si * d, *gj = grad + sj * d, *gk = grad + sk * d;
            for (int c = col0; c < d; c += w) {
                float u = a * (xi[c] - xj[c]);
                float v = b * (xi[c] - xk[c]);
                atomicAdd(gi + c, u + v);
                atomicAdd(gj + c, -u);
                atomicAdd(gk + c, -v);
            }
        }
    }
    double s = blockSum<double>(total);
    if (threadIdx.x == 0) atomicAdd(loss, s);
}

// tl_ridge adds the gradient of the ridge term λ‖x‖² to grad, twoLambda·x
// rounded to float32 (as lib/tripletloss's kernel.gather), and ‖x‖² (in
// double) to *sumsq, over the size entries of x.
extern "C" __global__ void tl_ridge(const float *x, i64 size, float twoLambda, float *grad, double *sumsq) {
    double total = 0;
    for (i64 e = (i64)blockIdx.x * blockDim.x + threadIdx.x; e < size; e += (i64)gridDim.x * blockDim.x) {
        float v = x[e];
        grad[e] += twoLambda * v;
        total += (double)v * v;
    }
    double s = blockSum<double>(total);
    if (threadIdx.x == 0) atomicAdd(sumsq, s);
}

// tl_violations adds to *bad the number of the m triplets idx that the n×d
// embedding x violates: !(‖xi−xj‖² < ‖xi−xk‖²), so that ties and NaN count as
// violated (lib/triplets.Violated, the one rule of every triplet error).
extern "C" __global__ void tl_violations(const float *x, const int *idx, i64 m, int d, u64 *bad) {
    u64 count = 0;
    for (i64 t = (i64)blockIdx.x * blockDim.x + threadIdx.x; t < m; t += (i64)gridDim.x * blockDim.x) {
        i64 i = idx[3 * t], j = idx[3 * t + 1], k = idx[3 * t + 2];
        float dij, dik;
        sqDists(x + i * d, x + j * d, x + k * d, d, &dij, &dik);
        if (!(dij < dik)) count++;
    }
    u64 s = blockSum<u64>(count);
    if (threadIdx.x == 0) atomicAdd(bad, s);
}

// adam_step is lib/optim.Adam.UpdateRange over all size parameters, with the
// per-step constants that Adam.NextStep computes on the host:
//   m ← β₁m + (1−β₁)g, v ← β₂v + (1−β₂)g², v̂ ← max(v̂, v) (AMSGrad),
//   x ← x − step·m/(√v̂/bc2 + ε),
// v̂ with Go's max (NaN if either is NaN; fmaxf would drop the NaN). vmax is
// unused (may be null) when amsgrad is 0. lib/tripletloss's and lib/oenn's
// GPU trainers both step with it.
extern "C" __global__ void adam_step(float *x, const float *g, float *m, float *v, float *vmax, i64 size,
                                     float step, float bc2, float b1, float b2, float eps, int amsgrad) {
    for (i64 e = (i64)blockIdx.x * blockDim.x + threadIdx.x; e < size; e += (i64)gridDim.x * blockDim.x) {
        float ge = g[e];
        float me = b1 * m[e] + (1 - b1) * ge;
        float ve = b2 * v[e] + (1 - b2) * ge * ge;
        m[e] = me;
        v[e] = ve;
        if (amsgrad) {
            float vm = vmax[e];
            ve = (vm != vm || ve != ve) ? vm + ve : fmaxf(vm, ve);
            vmax[e] = ve;
        }
        x[e] -= step * me / (sqrtf(ve) / bc2 + eps);
    }
}

// nonfinite adds to *bad the number of the size entries of x that are NaN or
// ±Inf.
extern "C" __global__ void nonfinite(const float *x, i64 size, u64 *bad) {
    u64 count = 0;
    for (i64 e = (i64)blockIdx.x * blockDim.x + threadIdx.x; e < size; e += (i64)gridDim.x * blockDim.x) {
        if (!isfinite(x[e])) count++;
    }
    u64 s = blockSum<u64>(count);
    if (threadIdx.x == 0) atomicAdd(bad, s);
}

// gather_triplets copies triplet sel[s] of idx to triplet s of out, for the
// count entries of sel: the stopping rule's subset of a set that lives on
// the device.
extern "C" __global__ void gather_triplets(const int *idx, const int *sel, i64 count, int *out) {
    for (i64 s = (i64)blockIdx.x * blockDim.x + threadIdx.x; s < count; s += (i64)gridDim.x * blockDim.x) {
        i64 t = sel[s];
        out[3 * s] = idx[3 * t];
        out[3 * s + 1] = idx[3 * t + 1];
        out[3 * s + 2] = idx[3 * t + 2];
    }
}

// splitmix64 is the output function of SplitMix64 (Steele, Lea & Flood):
// a bijective mix of a 64-bit counter into a well-distributed value.
__device__ u64 splitmix64(u64 z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

// rng is a counter-based stream: draw r of triplet t is a pure function of
// (seed, t, r), so the output depends on neither the launch configuration
// nor the scheduling.
struct rng {
    u64 key, ctr;
};

__device__ u64 next64(rng *r) {
    r->ctr++;
    return splitmix64(r->key ^ splitmix64(r->ctr));
}

// below returns a uniform integer in [0, n) by Lemire's multiply-and-reject
// method, as lib/triplets does.
__device__ u64 below(rng *r, u64 n) {
    u64 x = next64(r);
    u64 hi = __umul64hi(x, n), lo = x * n;
    if (lo < n) {
        u64 thresh = (0 - n) % n;
        while (lo < thresh) {
            x = next64(r);
            hi = __umul64hi(x, n);
            lo = x * n;
        }
    }
    return hi;
}

// uniform01 returns a uniform double in [0, 1) with 53 random bits.
__device__ double uniform01(rng *r) { return (double)(next64(r) >> 11) * 0x1.0p-53; }

// normal returns a standard normal deviate (Box–Muller).
__device__ double normal(rng *r) {
    double u = 1 - uniform01(r); // (0, 1]: log(u) is finite
    double v = uniform01(r);
    return sqrt(-2 * log(u)) * cospi(2 * v);
}

// sqDist64 returns ‖a−b‖² over dim float64 coordinates.
__device__ double sqDist64(const double *a, const double *b, int dim) {
    double s = 0;
    for (int c = 0; c < dim; c++) {
        double u = a[c] - b[c];
        s += u * u;
    }
    return s;
}

// gen_triplets writes m triplets to idx as lib/triplets.Random defines them:
// i, j, k uniform and distinct in [0, n), compared on the rows of the n×dim
// row-major data x under the noise (model, level), and stored so that i is
// closer to j (ties: closer to j). The random stream is a counter-based hash
// of (seed, t), not lib/triplets' PCG: same distribution, different values.
extern "C" __global__ void gen_triplets(const double *x, i64 n, int dim, i64 m, u64 seed, int model, double level,
                                        int *idx) {
    u64 key = splitmix64(seed ^ 0x6a09e667f3bcc909ULL);
    for (i64 t = (i64)blockIdx.x * blockDim.x + threadIdx.x; t < m; t += (i64)gridDim.x * blockDim.x) {
        rng r = {key, (u64)t << 20}; // 2^20 draws per triplet: the streams of two triplets never overlap
        i64 i = below(&r, n), j, k;
        do {
            j = below(&r, n);
        } while (j == i);
        do {
            k = below(&r, n);
        } while (k == i || k == j);
        const double *xi = x + i * dim;
        double dij = sqDist64(xi, x + j * dim, dim), dik = sqDist64(xi, x + k * dim, dim);
        bool closerJ;
        if (model == NOISE_GAUSSIAN) {
            // As lib/triplets: the noise is added to the distances, not their squares.
            double a = sqrt(dij) + level * normal(&r);
            double b = sqrt(dik) + level * normal(&r);
            closerJ = a <= b;
        } else if (model == NOISE_BERNOULLI) {
            closerJ = dij <= dik;
            if (uniform01(&r) < level) closerJ = !closerJ;
        } else {
            closerJ = dij <= dik;
        }
        if (!closerJ) {
            i64 s = j;
            j = k;
            k = s;
        }
        idx[3 * t] = (int)i;
        idx[3 * t + 1] = (int)j;
        idx[3 * t + 2] = (int)k;
    }
}

// ---- OENN (lib/oenn): EmbNet's forward and backward passes and its hinge
// loss (its AMSGrad step is adam_step). Matrices are row-major float32 with explicit row
// strides, as lib/oenn's gemm.go lays them out.

// Tile of sgemm: each block computes a GEMM_TM×GEMM_TN tile of C, stepping
// through the inner dimension GEMM_TK at a time; each of its 256 threads
// (16×16) keeps a 4×4 set of outputs in registers.
#define GEMM_TM 64
#define GEMM_TN 64
#define GEMM_TK 16

// sgemm computes C = op(A)·op(B) (accumulate 0) or C += op(A)·op(B)
// (accumulate 1) for op(A) m×k, op(B) k×n, C m×n, all row-major with row
// strides lda, ldb, ldc. With transA, A is stored k×m and op(A) is its
// transpose (likewise B). Tiles of C are spread over the blocks in a
// grid-stride loop; edges are handled by loading zeros past the matrices'
// ends and not storing past C's. The products are accumulated with explicit
// fused multiply-adds, in order along the inner dimension: twice as fast as
// separate multiplies and adds, and the result differs from the CPU's
// gemm.go (which also fuses, in blocks) only in rounding.
extern "C" __global__ void sgemm(const float *a, i64 lda, int transA, const float *b, i64 ldb, int transB, float *c,
                                 i64 ldc, i64 m, i64 n, i64 k, int accumulate) {
    // The +1 padding staggers the rows over the shared-memory banks for the
    // column-wise stores of the untransposed A and transposed B.
    __shared__ float as[GEMM_TK][GEMM_TM + 1];
    __shared__ float bs[GEMM_TK][GEMM_TN + 1];
    int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
    i64 tilesN = (n + GEMM_TN - 1) / GEMM_TN;
    i64 tiles = (m + GEMM_TM - 1) / GEMM_TM * tilesN;
    for (i64 tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        i64 i0 = tile / tilesN * GEMM_TM, j0 = tile % tilesN * GEMM_TN;
        float acc[4][4];
        for (int r = 0; r < 4; r++)
            for (int s = 0; s < 4; s++) acc[r][s] = 0;
        for (i64 p0 = 0; p0 < k; p0 += GEMM_TK) {
            // Each thread loads 4 of the tile's 64×16 elements of op(A) and
            // 4 of op(B)'s 16×64, consecutive threads reading consecutive
            // addresses of whichever dimension is contiguous in memory.
            for (int q = 0; q < GEMM_TM * GEMM_TK / BLOCK; q++) {
                int e = threadIdx.x + q * BLOCK;
                int ii, pp;
                if (transA) {
                    pp = e / GEMM_TM;
                    ii = e % GEMM_TM;
                } else {
                    ii = e / GEMM_TK;
                    pp = e % GEMM_TK;
                }
                i64 i = i0 + ii, p = p0 + pp;
                float v = 0;
                if (i < m && p < k) v = transA ? a[p * lda + i] : a[i * lda + p];
                as[pp][ii] = v;
                int jj;
                if (transB) {
                    jj = e / GEMM_TK;
                    pp = e % GEMM_TK;
                } else {
                    pp = e / GEMM_TN;
                    jj = e % GEMM_TN;
                }
                i64 j = j0 + jj;
                p = p0 + pp;
                v = 0;
                if (j < n && p < k) v = transB ? b[j * ldb + p] : b[p * ldb + j];
                bs[pp][jj] = v;
            }
            __syncthreads();
            for (int pp = 0; pp < GEMM_TK; pp++) {
                float ra[4], rb[4];
                for (int r = 0; r < 4; r++) ra[r] = as[pp][ty + 16 * r];
                for (int s = 0; s < 4; s++) rb[s] = bs[pp][tx + 16 * s];
                for (int r = 0; r < 4; r++)
                    for (int s = 0; s < 4; s++) acc[r][s] = __fmaf_rn(ra[r], rb[s], acc[r][s]);
            }
            __syncthreads();
        }
        // Thread (tx, ty) owns rows ty + 16r and columns tx + 16s of the
        // tile: a warp stores 16 consecutive floats of two rows at a time.
        for (int r = 0; r < 4; r++) {
            i64 i = i0 + ty + 16 * r;
            if (i >= m) break;
            for (int s = 0; s < 4; s++) {
                i64 j = j0 + tx + 16 * s;
                if (j >= n) break;
                float *dst = c + i * ldc + j;
                *dst = accumulate ? *dst + acc[r][s] : acc[r][s];
            }
        }
    }
}

// oenn_bias_relu adds bias[col] to every entry of the rows×cols matrix x
// and, with relu, clamps it as Go's max(v, 0) does (lib/oenn's addBias):
// NaN stays NaN, −0 becomes +0.
extern "C" __global__ void oenn_bias_relu(float *x, const float *bias, i64 rows, i64 cols, int relu) {
    i64 size = rows * cols;
    for (i64 e = (i64)blockIdx.x * blockDim.x + threadIdx.x; e < size; e += (i64)gridDim.x * blockDim.x) {
        float v = x[e] + bias[e % cols];
        if (relu && !(v > 0 || v != v)) v = 0;
        x[e] = v;
    }
}

// oenn_mask_relu zeroes grad[e] where the ReLU output act[e] is zero, as
// lib/oenn's maskReLU does: by bit pattern, so only +0 (what the clamp
// writes) masks.
extern "C" __global__ void oenn_mask_relu(float *grad, const float *act, i64 size) {
    for (i64 e = (i64)blockIdx.x * blockDim.x + threadIdx.x; e < size; e += (i64)gridDim.x * blockDim.x) {
        if (__float_as_uint(act[e]) == 0) grad[e] = 0;
    }
}

// oenn_col_sums sums the columns of the rows×cols matrix x in chunks of
// chunk rows: out[q*cols + col] is the sum, in row order from 0, of rows
// [q·chunk, (q+1)·chunk) of column col, one thread per (q, col). With chunk
// ≥ rows it is lib/oenn's columnSums to the bit; for tall matrices the Go
// side runs it twice (chunks, then the sums of the chunks), which keeps
// every thread's loop short and the result deterministic.
extern "C" __global__ void oenn_col_sums(const float *x, i64 rows, i64 cols, i64 chunk, float *out) {
    i64 chunks = max((rows + chunk - 1) / chunk, (i64)1); // rows = 0: one chunk, of zeros
    i64 items = chunks * cols;
    for (i64 e = (i64)blockIdx.x * blockDim.x + threadIdx.x; e < items; e += (i64)gridDim.x * blockDim.x) {
        i64 q = e / cols, col = e % cols;
        i64 end = min(rows, (q + 1) * chunk);
        float s = 0;
        for (i64 r = q * chunk; r < end; r++) s += x[r * cols + col];
        out[e] = s;
    }
}

// oenn_hinge is lib/oenn's hinge over m triplets: rows holds each
// triplet's three rows of the embedding y (d columns). It adds the hinge
// max(0, ‖yi−yj‖² − ‖yi−yk‖² + 1) of each triplet to *loss and the gradient
// of scale × that sum to dy, with atomicAdd: the sum's order, and its last
// bits, vary from run to run. Distances in float32 in coordinate order, as
// the CPU computes them; a NaN hinge passes on into the loss.
extern "C" __global__ void oenn_hinge(const float *y, int d, const int *rows, i64 m, float scale, float *dy,
                                      double *loss) {
    double total = 0;
    float two = 2 * scale;
    for (i64 t = (i64)blockIdx.x * blockDim.x + threadIdx.x; t < m; t += (i64)gridDim.x * blockDim.x) {
        i64 i = (i64)rows[3 * t] * d, j = (i64)rows[3 * t + 1] * d, k = (i64)rows[3 * t + 2] * d;
        float dij = 0, dik = 0;
        for (int c = 0; c < d; c++) {
            float u = y[i + c] - y[j + c], v = y[i + c] - y[k + c];
            dij += u * u;
            dik += v * v;
        }
        float l = dij - dik + 1;
        if (l <= 0) continue;
        total += l;
        for (int c = 0; c < d; c++) {
            float u = y[i + c] - y[j + c], v = y[i + c] - y[k + c];
            atomicAdd(dy + i + c, two * (u - v));
            atomicAdd(dy + j + c, -(two * u));
            atomicAdd(dy + k + c, two * v);
        }
    }
    double s = blockSum<double>(total);
    if (threadIdx.x == 0) atomicAdd(loss, s);
}

// oenn_codes writes the input codes of the count items items[r] into the
// rows of x (len columns): the binary code of the index, most significant
// bit first (random null), or row items[r] of the random-code table (lib/oenn's
// codes.put). One thread per entry of x.
extern "C" __global__ void oenn_codes(const int *items, i64 count, i64 len, const float *random, float *x) {
    i64 size = count * len;
    for (i64 e = (i64)blockIdx.x * blockDim.x + threadIdx.x; e < size; e += (i64)gridDim.x * blockDim.x) {
        i64 r = e / len, b = e % len;
        i64 q = items[r];
        if (random) {
            x[e] = random[q * len + b];
        } else {
            // Go's shift of an int by 63 or more gives 0 (q ≥ 0); C's is undefined.
            i64 shift = len - 1 - b;
            x[e] = shift < 63 ? (float)((q >> shift) & 1) : 0.0f;
        }
    }
}
