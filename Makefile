# typeset — build, test, demo and benchmark. `make demo` and `make test` work on a fresh
# Debian 12 machine that has only the Swift toolchain: missing system packages are installed.

SWIFT ?= swift
UCD_DIR ?= /usr/share/unicode
# Built with, tested with, and the UCD files the tables and conformance suites read.
APT_PACKAGES := pkg-config libharfbuzz-dev libfreetype-dev libcairo2-dev unicode-data \
	python3 poppler-utils qpdf librsvg2-bin
# The tests of fallback to system fonts and of emoji use these; nodejs and libjs-pdf are pdf.js,
# Firefox's PDF reader, that a test reads right-to-left text with.
TEST_PACKAGES := fonts-noto-core fonts-noto-color-emoji nodejs libjs-pdf
BENCH_PACKAGES := hyperfine valgrind python3-gi gir1.2-pango-1.0 python3-gi-cairo
TABLES := Sources/Typeset/Unicode/Generated/UnicodeTables.swift
RELEASE_BIN = $(shell $(SWIFT) build -c release --show-bin-path)/typeset

.PHONY: all deps build release test check-tables tables demo bench bench-batch fuzz fuzz-build sanitize leaks clean

all: build

# Installs only what is missing (apt-get update runs only then).
deps:
	@missing=""; for p in $(APT_PACKAGES) $(EXTRA_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing system packages:$$missing"; \
	  sudo=""; [ "$$(id -u)" -ne 0 ] && sudo=sudo; \
	  $$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

# Regenerates the Unicode tables from the UCD files and fails on any difference.
check-tables: deps
	@python3 Tools/generate-unicode-tables.py $(UCD_DIR) > .tables.tmp
	@if cmp -s .tables.tmp $(TABLES); then rm -f .tables.tmp; echo "Unicode tables: up to date"; \
	else diff -u $(TABLES) .tables.tmp | head -20; rm -f .tables.tmp; \
	  echo "error: $(TABLES) differs from the generator's output (run make tables)"; exit 1; fi

tables: deps
	python3 Tools/generate-unicode-tables.py $(UCD_DIR) > $(TABLES)

test: deps check-tables release
	@$(MAKE) --no-print-directory deps EXTRA_PACKAGES="$(TEST_PACKAGES)"
	$(SWIFT) build
	TYPESET_UCD_DIR=$(UCD_DIR) $(SWIFT) test
	$(RELEASE_BIN) conformance --unicode-dir $(UCD_DIR)

demo: release
	@mkdir -p out
	$(RELEASE_BIN) render Examples/*.xml --out-dir out --format pdf
	$(RELEASE_BIN) render Examples/*.xml --out-dir out --format svg
	$(RELEASE_BIN) render Examples/*.xml --out-dir out --format png
	$(RELEASE_BIN) sheet Examples/localized/onboarding.xml --strings Examples/localized/Localizable.xcstrings \
	  --locales en,ar,he --text-sizes Large,AX1 -o out/onboarding-sheet.pdf
	$(RELEASE_BIN) sheet Examples/localized/onboarding.xml --strings Examples/localized/Localizable.xcstrings \
	  --locales en,ar,he --text-sizes Large,AX1 -o out/onboarding-sheet.png
	$(RELEASE_BIN) sheet Examples/localized/*.xml --strings Examples/localized/Localizable.xcstrings \
	  --locales en,ar,he --text-sizes Large,AX1 -o out/localized-sheet.pdf
	@echo "Rendered the Examples and the comparison sheets of Examples/localized/ into out/"

# The Unicode core's throughput, then typeset side by side with Pango and Typst (Tools/bench).
bench: release
	@$(MAKE) --no-print-directory deps EXTRA_PACKAGES="$(BENCH_PACKAGES)"
	@python3 -c "import typst" 2>/dev/null || python3 -m pip install --quiet typst
	$(RELEASE_BIN) bench
	python3 Tools/bench/run.py --typeset $(RELEASE_BIN)

# 1,000 generated inputs (one broken) in a temporary folder: checks the batch loses nothing else,
# and prints the time with --jobs 1 and --jobs 2 and the peak memory for 100 and 1,000 inputs.
bench-batch: release
	@$(MAKE) --no-print-directory deps EXTRA_PACKAGES="time"
	python3 Tests/bench/batch.py --typeset $(RELEASE_BIN)

# Fuzzing (issue 7): libFuzzer over parsing, the whole layout and the writers (Sources/TypesetFuzz), under
# AddressSanitizer, seeded from Examples/ and the hostile corpus, with a markup dictionary. New
# inputs collect in .fuzz-corpus/, crashes and hangs in .fuzz-artifacts/ (each one belongs in
# Tests/Hostile/ as a regression case). FUZZ_SECONDS sets the run's length.
FUZZ_SECONDS ?= 600
FUZZ_BIN = .build-fuzz/debug/TypesetFuzz
# (The linker warns about every ASan helper symbol; the log keeps them out of sight.)
fuzz-build: deps
	@mkdir -p .build-fuzz
	TYPESET_FUZZ=1 $(SWIFT) build -c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library \
	  --product TypesetFuzz --scratch-path .build-fuzz > .build-fuzz/build.log 2>&1 \
	  || { grep -v 'Cannot export local symbol' .build-fuzz/build.log; exit 1; }
	@grep -v 'Cannot export local symbol' .build-fuzz/build.log | tail -1

fuzz: fuzz-build
	@mkdir -p .fuzz-corpus .fuzz-artifacts
	$(FUZZ_BIN) .fuzz-corpus Examples Tests/Hostile -dict=Tests/Fuzz/typeset.dict -timeout=10 \
	  -rss_limit_mb=4096 -max_total_time=$(FUZZ_SECONDS) -artifact_prefix=.fuzz-artifacts/ -print_final_stats=1

# Sanitizers (issue 7): the test suite under AddressSanitizer, then under ThreadSanitizer, each in
# its own build folder. TYPESET_BIN points the end-to-end tests at the sanitized CLI, so the
# hostile corpus and the parallel batches (--jobs 2) run under the sanitizer too; a report makes
# the CLI exit non-zero and its test fail. SANITIZE_FILTER narrows the suite (a regex of tests).
SANITIZE_FILTER ?= .
sanitize: deps
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan
	ASAN_OPTIONS=detect_leaks=0 TYPESET_BIN=$(CURDIR)/.build-asan/debug/typeset \
	  $(SWIFT) test --skip-build --sanitize=address --scratch-path .build-asan --filter '$(SANITIZE_FILTER)'
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	TSAN_OPTIONS=halt_on_error=1 TYPESET_BIN=$(CURDIR)/.build-tsan/debug/typeset \
	  $(SWIFT) test --skip-build --sanitize=thread --scratch-path .build-tsan --filter '$(SANITIZE_FILTER)'

# Leak check (issue 7): valgrind over a 100-document batch (the Examples, repeated) rendered to
# PDF and PNG with two jobs; fails on any definite leak whose stack holds HarfBuzz, Cairo or
# FreeType.
LEAK_DIR := .build-leaks
leaks: release
	@$(MAKE) --no-print-directory deps EXTRA_PACKAGES=valgrind
	@rm -rf $(LEAK_DIR) && mkdir -p $(LEAK_DIR)/in $(LEAK_DIR)/out
	@n=0; while [ $$n -lt 100 ]; do for f in Examples/*.xml; do \
	  [ $$n -lt 100 ] && cp $$f $(LEAK_DIR)/in/doc-$$n.xml; n=$$((n+1)); done; done
	for format in pdf png; do \
	  valgrind --leak-check=full --errors-for-leak-kinds=definite --num-callers=40 \
	    --log-file=$(LEAK_DIR)/valgrind-$$format.log $(RELEASE_BIN) render $(LEAK_DIR)/in/*.xml \
	    --out-dir $(LEAK_DIR)/out --format $$format --jobs 2 || exit 1; \
	  grep -A6 "LEAK SUMMARY" $(LEAK_DIR)/valgrind-$$format.log; \
	done
	@if grep -A40 "definitely lost in" $(LEAK_DIR)/valgrind-*.log | grep -E "hb_|cairo_|FT_"; then \
	  echo "error: definite leaks of HarfBuzz, Cairo or FreeType objects (see $(LEAK_DIR)/valgrind-*.log)"; exit 1; \
	else echo "no definite leak of HarfBuzz, Cairo or FreeType objects"; fi

clean:
	rm -rf .build .build-fuzz .build-asan .build-tsan .build-leaks .fuzz-corpus .fuzz-artifacts out
