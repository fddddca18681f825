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

clean:
	rm -rf bin
