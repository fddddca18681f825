# OE_DATA points the dataset loaders at the shared copies of the real data
# files when the folder exists beside the checkout.
SHARED_DATA := $(abspath ../shared/data)
ifneq ($(wildcard $(SHARED_DATA)/MANIFEST.md),)
export OE_DATA ?= $(SHARED_DATA)
endif

GO ?= go

.PHONY: all build test vet fmt bench reproduce cuda clean

all: build

build:
	$(GO) build -o bin/oerun ./cmd/oerun

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
# results.db does not hold yet, and writes reports/.
PROFILE ?= quick
JOBS ?= 0
reproduce: build
	bin/oerun run --profile $(PROFILE) --jobs $(JOBS) experiments/*.go

clean:
	rm -rf bin
