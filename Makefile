# mgtriage — see README.md. Every target works offline once the Go modules are in the cache.
GO        ?= go
SAMPLE    ?= fixtures/sample/must-gather.local.5049263173451366137
OUT       ?= mgtriage-report
FUZZTIME  ?= 3000x
# -race needs cgo and a C compiler; fall back to plain tests where there is none.
RACE      := $(shell command -v gcc >/dev/null 2>&1 && [ "$$($(GO) env CGO_ENABLED)" = 1 ] && echo -race)
VERSION   ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS   := -s -w -X main.version=$(VERSION)

.PHONY: all build demo test vet docs docs-check shapes fuzz bench bench-big bench-serve golden crosscheck e2e clean

all: build

## build: compile bin/analyze; it says so first, since a first build on a fresh machine compiles
## every dependency (Kubernetes API types, CEL) and takes about five minutes on two cores
build:
	@echo "build: compiling bin/analyze (a first build on a fresh machine compiles every dependency: about 5 minutes on 2 cores; later builds take seconds)"
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o bin/analyze ./cmd/analyze

## demo: analyse the bundled sample gather and write the reports to ./mgtriage-report
demo: build
	./bin/analyze -o $(OUT) $(SAMPLE)
	@echo "reports: $(OUT)/report.md $(OUT)/report.html $(OUT)/report.json"

## test: vet, rule docs drift, unit and end-to-end tests with the race detector
## (where available; -short skips the large real-corpus gathers there), then
## every test once more without it, corpus included; then the public-case score
## and, at the end, which tests that depend on data or on the machine (skipped in
## a pass: the corpus, Chromium, root) ran and which were skipped, and why. The
## passes run through tools/testsummary, which prints what plain go test prints
## and exits with go test's status, so a failing test still fails make test
TESTSTATE := bin/test-passes.json
test: vet docs-check
	@mkdir -p bin && rm -f $(TESTSTATE) && $(GO) build -o bin/testsummary ./tools/testsummary
	bin/testsummary -pass short -state $(TESTSTATE) -- $(GO) test $(RACE) -short -count=1 -timeout 45m -json ./...
	bin/testsummary -pass full -state $(TESTSTATE) -- $(GO) test -count=1 -timeout 45m -json ./...
	@# The public-case corpus's score, printed (go test shows a passing test's output only with -v).
	@out="$$($(GO) test -count=1 -run '^TestPublicCases$$' -v ./cmd/analyze 2>&1)"; status=$$?; \
	  echo "$$out" | grep -E '^(public cases:|--- FAIL|FAIL)' ; exit $$status
	@bin/testsummary -summary -state $(TESTSTATE)

vet:
	@unformatted="$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))"; \
	  if [ -n "$$unformatted" ]; then echo "gofmt needed: $$unformatted"; exit 1; fi
	$(GO) vet ./...

## docs: regenerate docs/rules.md from the embedded rule table
docs:
	$(GO) run ./cmd/analyze rules docs > docs/rules.md

## shapes: rebuild rules/shapes.json, the message shapes `rules validate` runs user
## cause patterns over, from the rules' cases (TestShapeCatalogue fails when it drifts)
shapes:
	$(GO) generate ./rules

docs-check:
	@$(GO) run ./cmd/analyze rules docs | diff -u docs/rules.md - \
	  || { echo "docs/rules.md is out of date with the rule table: run 'make docs'"; exit 1; }

## fuzz: run every fuzz target for FUZZTIME each: a number of executions (3000x) by
## default, since a duration (15s) can fail a target with a bare "context deadline
## exceeded" when a worker is busy at the deadline (go.dev/issue/75804, fixed in Go 1.27).
## Each input that widens coverage is minimised for at most FUZZMINIMIZE executions: with
## a duration (5s) the targets that load a whole archive spent minutes minimising the
## dozens of new inputs of a run from an empty cache; a failing input is still written
## to testdata/fuzz, minimised within the same bound
FUZZMINIMIZE ?= 100x
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
	  for target in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "fuzz $$pkg $$target ($(FUZZTIME))"; \
	    $(GO) test -run '^$$' -fuzz "^$$target$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMINIMIZE) $$pkg; \
	  done; \
	done

## crosscheck: compare podstatus with the upstream kubectl pod printer on generated pods
## (separate module tools/podcheck; PODS and SEED tune the run), then with the printer of
## every boundary release (1.21, 1.22, 1.26, 1.28, 1.31; 1.35+ is the module's own
## k8s.io/kubernetes): one module each under tools/podcheck/releases/, built by the test,
## RELEASE_PODS pods each
PODS ?= 50000
RELEASE_PODS ?= 20000
SEED ?= 20261120
crosscheck:
	cd tools/podcheck && $(GO) test -count=1 -timeout 60m ./... -args -pods $(PODS) -release-pods $(RELEASE_PODS) -seed $(SEED)

## bench: Go benchmarks (ratios within one run; among them BenchmarkFailingPods, the whole
## analysis of 5k/20k/50k crash-looping pods with CPU per pod and peak heap, and
## BenchmarkLoadRules, --rules files of 1k/10k/50k rules: both should stay flat per
## pod or rule; MGTRIAGE_BENCH_PODS=1000,4000 picks other pod counts), then the analyzer on generated
## gathers at three scales against gzip -dc (cached in .bench-cache/), then on
## the real gather BENCH_REAL as .tar.gz and its scales BENCH_REAL_SCALES made by
## ../shared/tools/scalegather (cached in BENCH_REAL_CACHE; skipped with a message
## when the corpus is absent), median of BENCH_RUNS alternating runs against
## gzip -dc; the tables go to docs/performance.md. BENCH_BASE=path/to/analyze adds
## a baseline build to the real-gather rows.
BENCH_SCALES      ?= 1,10,100
BENCH_REAL        ?= ../shared/corpus/mg-metal-ocp49
BENCH_REAL_SCALES ?= 1,10,50
BENCH_REAL_CACHE  ?= .bench-cache
BENCH_RUNS        ?= 3
BENCH_BASE        ?=
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...
	$(GO) run ./fixtures/bench -scales $(BENCH_SCALES) -real $(BENCH_REAL) -real-scales $(BENCH_REAL_SCALES) \
	  -real-cache $(BENCH_REAL_CACHE) -runs $(BENCH_RUNS) -base '$(BENCH_BASE)' -write docs/performance.md

## bench-serve: analyze serve against analyze on SERVE_INPUT (default: the ×10 scale of BENCH_REAL
## as .tar.gz, made by ../shared/tools/scalegather into BENCH_REAL_CACHE): the first answer's wall
## time against analyze's, later answers (median, p99, max) and peak RSS, median of BENCH_RUNS
## alternating rounds. Never run by CI.
SERVE_INPUT ?= $(BENCH_REAL_CACHE)/real-x10.tar.gz
bench-serve: build
	@if [ ! -f '$(SERVE_INPUT)' ]; then \
	  if [ ! -d '$(BENCH_REAL)' ]; then echo "bench-serve: $(BENCH_REAL) is absent; give SERVE_INPUT=PATH"; exit 0; fi; \
	  mkdir -p '$(BENCH_REAL_CACHE)' && tmp="$$(mktemp -d '$(BENCH_REAL_CACHE)/x10.XXXX')" && \
	  python3 ../shared/tools/scalegather '$(BENCH_REAL)' 10 "$$tmp/mg" && \
	  tar czf '$(SERVE_INPUT).tmp' -C "$$tmp/mg" . && mv '$(SERVE_INPUT).tmp' '$(SERVE_INPUT)' && rm -rf "$$tmp"; \
	fi; \
	$(GO) run ./fixtures/bench serve -analyze bin/analyze -input '$(SERVE_INPUT)' -runs $(BENCH_RUNS)

## bench-big: the analyzer on field-size gathers (never run by CI nor `make test`: the default
## sizes take a long while). BIGGATHER grows BIG_SRC's logs to each of BIG_SIZES (GiB
## before compression), written once to BIG_CACHE through a .tmp name as big-N.tar.gz, and for
## the largest size also big-N.tar.zst (the same tar stream, piped into both) and
## big-N-compress-logs.tar.gz (logs over 10 MB stored as NAME.gz, as must-gather's
## REDUCE_LOGS=compress_logs). Refuses when BIG_CACHE's disk lacks the room the missing
## archives need (about 11% of their size for gzip, 8% for zstd). Each archive: bin/analyze,
## the floor (`bench floor`: the analyzer's decompressors, every byte discarded) and gzip -dc
## or zstd -dc, alternating, median of BIG_RUNS; the tables go to docs/performance.md.
BIGGATHER ?= ../shared/tools/biggather
BIG_SRC   ?= ../shared/corpus/mg-metal-ocp49
BIG_SIZES ?= 3,10,30
BIG_RUNS  ?= 2
BIG_CACHE ?= .bench-cache/big
bench-big:
	@if [ ! -f '$(BIGGATHER)' ]; then \
	  echo "bench-big: $(BIGGATHER) is absent: set BIGGATHER=path/to/biggather (the tool that writes a log-heavy gather of a given size from a real one)"; \
	  exit 1; \
	fi
	@$(MAKE) --no-print-directory build
	$(GO) run ./fixtures/bench -big-sizes '$(BIG_SIZES)' -biggather '$(BIGGATHER)' -big-src '$(BIG_SRC)' \
	  -big-cache '$(BIG_CACHE)' -analyze bin/analyze -runs $(BIG_RUNS) -write docs/performance.md

## e2e: open the sample report.html from disk in headless Chromium with networking off;
## check that findings render, filters and the pod detail work from the URL, no script
## error and no network request; screenshots go to E2E_OUT. Installs Debian's chromium
## with apt-get when missing (CI runs as root); skips only where apt-get is unavailable.
E2E_OUT ?= $(CURDIR)/bin/e2e
e2e:
	@if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1 && [ -z "$$CHROMIUM" ]; then \
	  if command -v apt-get >/dev/null 2>&1; then \
	    echo "e2e: installing chromium with apt-get"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else \
	    echo "e2e: SKIPPED: Chromium is not installed and apt-get is unavailable to install it"; exit 0; \
	  fi; \
	fi; \
	mkdir -p "$(E2E_OUT)" && \
	E2E_OUT="$(E2E_OUT)" $(GO) test -tags e2e -count=1 -run '^TestE2E' -v ./cmd/analyze && \
	echo "e2e: passed; artefacts (report, screenshots) in $(E2E_OUT)"

## golden: rewrite golden files after an intended change; review the diff (the
## packages whose tests define -update: report and cmd/analyze)
golden:
	$(GO) test ./cmd/analyze ./report -run 'Golden|EndToEnd' -update

clean:
	rm -rf bin $(OUT)
