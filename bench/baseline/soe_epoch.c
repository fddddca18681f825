/*
 * soe_epoch.c: the reference point for the speed of lib/tripletloss.
 *
 * A plain, scalar, fused SOE epoch in C: for every batch of consecutive
 * triplets, each thread gathers the three rows, computes both distances and
 * the hinge loss, and accumulates the gradient into its own n×d buffer; the
 * buffers are then summed and an AMSGrad Adam step (lr 1) is applied. This is
 * the same work as one epoch of oe's Go kernel, written the obvious way, so
 * that "how fast should this be" has a reproducible answer on any machine.
 *
 *   make -C bench/baseline && bench/baseline/soe_epoch 1797 30 1165683
 *   bench/baseline/soe_epoch 7291 50 9355740
 *
 * Arguments: n d m [epochs] [threads]. Triplets are uniform random (i, j, k)
 * and the embedding starts uniform in [0,1): hinge terms are then mostly
 * active, the expensive case. Prints the median ms per epoch over the timed
 * epochs (one warm-up epoch is not timed).
 */
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t next_u64(void) {
	/* splitmix64: good enough to make benchmark input. */
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double now_s(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv) {
	if (argc < 4) {
		fprintf(stderr, "usage: %s n d m [epochs] [threads]\n", argv[0]);
		return 2;
	}
	int n = atoi(argv[1]), d = atoi(argv[2]);
	long m = atol(argv[3]);
	int epochs = argc > 4 ? atoi(argv[4]) : 10;
	int threads = argc > 5 ? atoi(argv[5]) : 2;
	if (n < 3 || d < 1 || m < 1 || epochs < 1 || threads < 1) {
		fprintf(stderr, "bad arguments\n");
		return 2;
	}
	omp_set_num_threads(threads);
	const long batch = m < 1000000 ? m : 1000000;
	const long nd = (long)n * d;

	int32_t *trip = malloc(sizeof(int32_t) * 3 * m);
	for (long t = 0; t < m; t++) {
		int32_t i = next_u64() % n, j, k;
		do j = next_u64() % n; while (j == i);
		do k = next_u64() % n; while (k == i || k == j);
		trip[3 * t] = i, trip[3 * t + 1] = j, trip[3 * t + 2] = k;
	}
	float *x = malloc(sizeof(float) * nd);
	float *mom = calloc(nd, sizeof(float)), *vel = calloc(nd, sizeof(float)), *vmax = calloc(nd, sizeof(float));
	float *grad = calloc((size_t)threads * nd, sizeof(float));
	for (long e = 0; e < nd; e++) x[e] = (next_u64() >> 11) * 0x1.0p-53;

	const float lr = 1, b1 = 0.9f, b2 = 0.999f, eps = 1e-8f;
	long step = 0;
	double *ms = malloc(sizeof(double) * epochs);
	double loss = 0;
	for (int ep = 0; ep <= epochs; ep++) {
		double t0 = now_s();
		loss = 0;
		for (long from = 0; from < m; from += batch) {
			long to = from + batch < m ? from + batch : m;
#pragma omp parallel reduction(+ : loss)
			{
				int tid = omp_get_thread_num();
				float *g = grad + (size_t)tid * nd;
				long chunk = (to - from + threads - 1) / threads;
				long lo = from + tid * chunk, hi = lo + chunk < to ? lo + chunk : to;
				for (long t = lo; t < hi; t++) {
					const float *xi = x + (long)trip[3 * t] * d;
					const float *xj = x + (long)trip[3 * t + 1] * d;
					const float *xk = x + (long)trip[3 * t + 2] * d;
					float dij = 0, dik = 0;
					for (int c = 0; c < d; c++) {
						float a = xi[c] - xj[c], b = xi[c] - xk[c];
						dij += a * a;
						dik += b * b;
					}
					float a = sqrtf(dij), b = sqrtf(dik);
					float l = 1 + a - b;
					if (l <= 0) continue;
					loss += l;
					float gij = a > 0 ? 1 / a : 0, gik = b > 0 ? 1 / b : 0;
					float *gi = g + (long)trip[3 * t] * d;
					float *gj = g + (long)trip[3 * t + 1] * d;
					float *gk = g + (long)trip[3 * t + 2] * d;
					for (int c = 0; c < d; c++) {
						float u = (xi[c] - xj[c]) * gij, v = (xi[c] - xk[c]) * gik;
						gi[c] += u - v;
						gj[c] -= u;
						gk[c] += v;
					}
				}
			}
			step++;
			float bc1 = 1 - powf(b1, step), bc2s = sqrtf(1 - powf(b2, step));
#pragma omp parallel for
			for (long e = 0; e < nd; e++) {
				float gsum = 0;
				for (int t = 0; t < threads; t++) {
					gsum += grad[(size_t)t * nd + e];
					grad[(size_t)t * nd + e] = 0;
				}
				mom[e] = b1 * mom[e] + (1 - b1) * gsum;
				vel[e] = b2 * vel[e] + (1 - b2) * gsum * gsum;
				if (vel[e] > vmax[e]) vmax[e] = vel[e];
				x[e] -= lr / bc1 * mom[e] / (sqrtf(vmax[e]) / bc2s + eps);
			}
		}
		if (ep > 0) ms[ep - 1] = (now_s() - t0) * 1e3;
	}
	qsort(ms, epochs, sizeof(double), cmp_double);
	printf("n=%d d=%d m=%ld threads=%d: median %.2f ms/epoch (min %.2f), %.1f Mtriplets/s, final loss/m %.4f\n", n, d,
	       m, threads, ms[epochs / 2], ms[0], m / ms[epochs / 2] / 1e3, loss / m);
	return 0;
}
