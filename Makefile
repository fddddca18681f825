# OE_DATA points the dataset loaders at the shared copies of the real data
# files when the folder exists beside the checkout.
SHARED_DATA := $(abspath ../shared/data)
ifneq ($(wildcard $(SHARED_DATA)/MANIFEST.md),)
export OE_DATA ?= $(SHARED_DATA)
endif

GO ?= go

# The cuda build (lib/cuda) compiles against cuda.h only: Debian's
# nvidia-cuda-dev puts it in /usr/include, NVIDIA's installer in
# /usr/local/cuda/include (which lib/cuda adds itself). Point CUDA_INCLUDE
# elsewhere for other layouts. libcuda is opened at run time, not linked.
CUDA_INCLUDE ?=
CUDA_ENV := $(if $(CUDA_INCLUDE),CGO_CFLAGS="-O2 -g -I$(CUDA_INCLUDE)")

.PHONY: all build test vet fmt bench reproduce campaign prune cuda cuda-tests gpu-bundle ptx clean

all: build

# VERSION_FLAGS stamp the commit into oerun (oerun version), also where the
# go command records no version control information (-buildvcs=false).
VERSION_FLAGS := -X main.buildCommit=$(shell git rev-parse HEAD 2>/dev/null)$(shell git diff --quiet HEAD 2>/dev/null || echo +dirty)

build:
	$(GO) build -ldflags='$(VERSION_FLAGS)' -o bin/oerun ./cmd/oerun

vet:
	$(GO) vet ./...

test: vet
	$(GO) test ./...

fmt:
	gofmt -l -w $$(git ls-files '*.go')

bench:
	$(GO) test -run '^$$' -bench . -benchtime 3x ./lib/...

# reproduce runs every experiment script at PROFILE (quick: the whole paper
# in under an hour on two cores; paper: full scale), executing only the runs
# results.db does not hold yet, and writes reports/$(PROFILE)/.
PROFILE ?= quick
JOBS ?= 0
reproduce: build
	bin/oerun run --profile $(PROFILE) --jobs $(JOBS) experiments/*.go

# campaign spends BUDGET (a duration: 2h, 90m) on the paper profile at low
# priority (nice), first the runs that let the most checks of
# reproduction.md be judged for their cost (ORDER=cheapest: the cheapest
# runs first), then writes reports/paper/ and says what remains (runs,
# estimated cost). It can be stopped at any moment (Ctrl-C, kill, a lost
# machine): every finished run is stored, one in flight leaves nothing (an
# OENN run its checkpoint, results.db-checkpoints/, to go on from); run it
# again to go on. Runs of any size are taken: the budget keeps out what does
# not fit (on 2026-11-27 the 1,500 cheapest runs left, seconds each, were of
# 10,000 to 105,600 items: Birch, worms, uniform). MAX_ITEMS limits it to
# the runs of at most that many items (7291: USPS's size, and with it every
# run of at most 2,000 items), and EXCLUDE leaves out methods (a,b: those
# whose versions are about to change). The scripts keep the 2-D views their
# figures draw, not the embeddings (at USPS size 2.5 KB, the labels stored
# once, where the embedding in d = 50 is 1.35 MB), so every panel is stored;
# MAX_EMBEDDING limits what is stored (oerun's --max-embedding, in values).
# WHOLE_RUNS=1 starts only runs expected to finish within the budget,
# resumable ones too (--whole-runs): for a machine whose checkpoints will
# not outlive it.
BUDGET ?= 2h
MAX_ITEMS ?=
MAX_EMBEDDING ?=
EXCLUDE ?=
ORDER ?= findings
WHOLE_RUNS ?=
campaign: build
	nice -n 19 bin/oerun run --profile paper --budget $(BUDGET) --order $(ORDER) --jobs $(JOBS) $(if $(MAX_ITEMS),--max-items $(MAX_ITEMS)) \
		$(if $(MAX_EMBEDDING),--max-embedding $(MAX_EMBEDDING)) $(if $(EXCLUDE),--exclude-algorithms $(EXCLUDE)) $(if $(WHOLE_RUNS),--whole-runs) experiments/*.go

# prune deletes from results.db what no report uses (embeddings no script
# declares with KeepEmbedding, in its recorded executions or, for the runs of
# a campaign under way, as the scripts declare them now; trace epochs
# between the stopping rule's checks), re-encodes the float64 embeddings of
# older databases as float32, and compacts the file (VACUUM).
prune: build
	bin/oerun prune experiments/*.go

# cuda builds bin/oerun-cuda: oerun with the GPU backend (--backend cuda),
# stripped (-s -w: 31 MB) so that it fits, with a dataset, in what a GPU
# session can carry to the device machine.
# The kernels' PTX is committed, so this needs cuda.h but not nvcc; the
# binary runs anywhere and opens the NVIDIA driver when a cuda run asks.
cuda:
	$(CUDA_ENV) $(GO) build -tags cuda -ldflags='-s -w $(VERSION_FLAGS)' -o bin/oerun-cuda ./cmd/oerun
	$(CUDA_ENV) $(GO) vet -tags cuda ./...

# cuda-tests builds the cuda-tagged test binaries (parity tests of every
# kernel against its CPU twin) into bin/, to run on a machine without Go:
# bin/cuda.test -test.v, etc. They skip where no device answers.
cuda-tests:
	for p in cuda tripletloss oenn; do \
		$(CUDA_ENV) $(GO) test -tags cuda -c -ldflags='-s -w' -o bin/$$p-cuda.test ./lib/$$p || exit 1; \
	done

# gpu-bundle packs into .cache/gpu what bench/gpu-device.sh needs on a
# device machine without Go (bench/gpu.md): the cuda binaries, xz-compressed
# to fit a call's 64 MiB beside the checkout, and the FMNIST and CHAR files.
gpu-bundle: cuda cuda-tests
	@test -n "$(OE_DATA)" || { echo "gpu-bundle: set OE_DATA to the folder holding fmnist/ and char/"; exit 1; }
	mkdir -p .cache/gpu/data/fmnist .cache/gpu/data/char
	for f in oerun-cuda cuda-cuda.test tripletloss-cuda.test oenn-cuda.test; do \
		xz -6 -T0 -c bin/$$f > .cache/gpu/$$f.xz || exit 1; \
	done
	cp $(OE_DATA)/fmnist/train-images-idx3-ubyte.gz $(OE_DATA)/fmnist/train-labels-idx1-ubyte.gz .cache/gpu/data/fmnist/
	cp $(OE_DATA)/char/digits.csv.gz .cache/gpu/data/char/
	du -sh .cache/gpu

# ptx regenerates lib/cuda/kernels.ptx from kernels.cu (needs nvcc) and
# stamps it with the SHA-256 of kernels.cu, which a plain test checks.
ptx:
	$(GO) generate ./lib/cuda

clean:
	rm -rf bin
