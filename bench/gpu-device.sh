#!/bin/bash
# gpu-device.sh runs the GPU checks of bench/gpu.md on a device machine, in
# one call: the parity tests, SOE, STE, t-STE and CKL-x at MNIST size, OENN on
# CHAR (d = 30, λ = 2) on both backends, SOE at COVTYPE size, then the paper
# profile's GPU runs until the deadline. It reads what
# `make gpu-bundle` packed into .cache/gpu and writes its logs to $OUT (the
# run tool's folder; /tmp/gpu-out elsewhere). Each step is cut off where the
# call's time, DEADLINE seconds (default 540), would run out. RUNS_ONLY=1
# skips the tests and benchmarks and gives the whole call to the runs.
set -u
G=$PWD/.cache/gpu
B=$(mktemp -d)
OUT=${OUT:-/tmp/gpu-out}
mkdir -p "$OUT"
DEADLINE=${DEADLINE:-540}
# left N: N seconds, or fewer where the deadline comes sooner.
left() {
	local l=$((DEADLINE - SECONDS))
	[ $l -gt $1 ] && l=$1
	[ $l -lt 5 ] && l=5
	echo $l
}
for f in oerun-cuda cuda-cuda.test tripletloss-cuda.test oenn-cuda.test; do
	xz -dc "$G/$f.xz" > "$B/$f" && chmod +x "$B/$f" || exit 1
done
{ date -u; nvidia-smi; nproc; free -g; } > "$OUT/info.txt" 2>&1
export OE_DATA=$G/data

if [ -z "${RUNS_ONLY:-}" ]; then
	echo "== parity tests"
	(cd lib/cuda && timeout $(left 150) "$B/cuda-cuda.test" -test.v) > "$OUT/parity.txt" 2>&1
	(cd lib/tripletloss && timeout $(left 150) "$B/tripletloss-cuda.test" -test.v -test.run 'GPU|Backend') >> "$OUT/parity.txt" 2>&1
	(cd lib/oenn && timeout $(left 150) "$B/oenn-cuda.test" -test.v -test.run 'GPU|Backend') >> "$OUT/parity.txt" 2>&1
	grep -E '^(--- FAIL|FAIL|ok|PASS|panic)' "$OUT/parity.txt"

	echo "== MNIST size"
	for a in soe ste tste cklx; do
		timeout $(left 120) "$B/oerun-cuda" bench --gpu-suite --suite mnist --algorithm $a --profile-epochs 1
	done 2>&1 | tee "$OUT/mnist.txt"

	echo "== OENN on CHAR"
	D=$(mktemp -d)
	{
		"$B/oerun-cuda" triplets --dataset char --dim 30 --lambda 2 --seed 1 --out $D/train.npy \
			--test-out $D/test.npy --test-count 10000 --labels-out $D/labels.npy --points-out $D/points.npy
		timeout $(left 150) "$B/oerun-cuda" embed --algorithm oenn --backend cuda --dim 30 --triplets $D/train.npy --seed 1 --out $D/e.npy
		"$B/oerun-cuda" eval --embedding $D/e.npy --triplets $D/test.npy --labels $D/labels.npy --points $D/points.npy
		for b in cuda cpu; do
			timeout $(left 60) "$B/oerun-cuda" embed --algorithm oenn --backend $b --dim 30 --triplets $D/train.npy --seed 1 \
				--epochs 10 --no-stop --out $D/e10-$b.npy
		done
	} 2>&1 | tee "$OUT/oenn.txt"

	echo "== COVTYPE size"
	timeout $(left 400) "$B/oerun-cuda" bench --gpu-suite --suite covtype --profile-epochs 1 2>&1 | tee "$OUT/covtype.txt"
fi

# The time left goes to the runs experiments/cpugpu.go (§4.8) declares: its
# GPU runs, quick profile then paper, cheapest first, into a shard database
# the build machine folds in (oerun merge results.db gpu-runs.db); and,
# beside them on the cores the GPU leaves idle, its missing CPU runs at the
# paper profile into cpu-runs.db. Both end at the deadline: what finished is
# stored, the rest stays missing. The CPU share's budget starts no run the
# cost model says would not finish. That model knows a method's GPU rate only
# from GPU runs results.db holds, and takes its CPU rate until then, which
# would start no large GPU run: the GPU share's budget is left open (cheapest
# first, nothing refused) and SIGTERM at the deadline stops it.
budget=$((DEADLINE - SECONDS - 40))
if [ $budget -gt 30 ]; then
	echo "== the GPU and CPU runs of experiments/cpugpu.go, ${budget} s"
	cores=$(($(nproc) - 2))
	[ $cores -lt 1 ] && cores=1
	timeout $((budget + 30)) "$B/oerun-cuda" run --profile paper --backend cpu --jobs $cores --shard 0/1 --base results.db \
		--db "$OUT/cpu-runs.db" --budget ${budget}s experiments/cpugpu.go > "$OUT/cpu-runs.txt" 2>&1 &
	cpu=$!
	for profile in quick paper; do
		left=$((DEADLINE - SECONDS - 30))
		[ $left -gt 10 ] || break
		timeout $left "$B/oerun-cuda" run --profile $profile --backend cuda --jobs 1 --shard 0/1 --base results.db \
			--db "$OUT/gpu-runs.db" --budget 1000h experiments/cpugpu.go 2>&1 | tail -c 1500
	done
	wait $cpu
	tail -c 1500 "$OUT/cpu-runs.txt"
fi
echo "== done after $SECONDS s"
