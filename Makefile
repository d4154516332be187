# mgtriage — see README.md. Every target works offline once the Go modules are in the cache.
GO        ?= go
SAMPLE    ?= fixtures/sample/must-gather.local.5049263173451366137
OUT       ?= mgtriage-report
FUZZTIME  ?= 15s
# -race needs cgo and a C compiler; fall back to plain tests where there is none.
RACE      := $(shell command -v gcc >/dev/null 2>&1 && [ "$$($(GO) env CGO_ENABLED)" = 1 ] && echo -race)
VERSION   ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS   := -s -w -X main.version=$(VERSION)

.PHONY: all build demo test vet docs docs-check fuzz bench golden crosscheck clean

all: build

build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o bin/analyze ./cmd/analyze

## demo: analyse the bundled sample gather and write the reports to ./mgtriage-report
demo: build
	./bin/analyze -o $(OUT) $(SAMPLE)
	@echo "reports: $(OUT)/report.md $(OUT)/report.html $(OUT)/report.json"

## test: vet, rule docs drift, unit and end-to-end tests with the race detector
## (where available; -short skips the large real-corpus gathers there), then
## every test once more without it, corpus included
test: vet docs-check
	$(GO) test $(RACE) -short -count=1 ./...
	$(GO) test -count=1 ./...

vet:
	@unformatted="$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))"; \
	  if [ -n "$$unformatted" ]; then echo "gofmt needed: $$unformatted"; exit 1; fi
	$(GO) vet ./...

## docs: regenerate docs/rules.md from the embedded rule table
docs:
	$(GO) run ./cmd/analyze rules docs > docs/rules.md

docs-check:
	@$(GO) run ./cmd/analyze rules docs | diff -u docs/rules.md - \
	  || { echo "docs/rules.md is out of date with the rule table: run 'make docs'"; exit 1; }

## fuzz: run every fuzz target for FUZZTIME each
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
	  for target in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "fuzz $$pkg $$target ($(FUZZTIME))"; \
	    $(GO) test -run '^$$' -fuzz "^$$target$$" -fuzztime $(FUZZTIME) $$pkg; \
	  done; \
	done

## crosscheck: compare podstatus with the upstream kubectl pod printer on generated pods
## (separate module tools/podcheck; PODS and SEED tune the run)
PODS ?= 50000
SEED ?= 20261120
crosscheck:
	cd tools/podcheck && $(GO) test -count=1 ./... -args -pods $(PODS) -seed $(SEED)

## bench: benchmarks (compare ratios within one run, e.g. with benchstat)
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

## golden: rewrite golden files after an intended change; review the diff
golden:
	$(GO) test ./... -run 'Golden|EndToEnd' -update

clean:
	rm -rf bin $(OUT)
