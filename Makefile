# typeset — build, test, demo and benchmark. `make demo` and `make test` work on a fresh
# Debian 12 machine that has only the Swift toolchain: missing system packages are installed.

SWIFT ?= swift
UCD_DIR ?= /usr/share/unicode
# Built with, tested with, and the UCD files the tables and conformance suites read.
APT_PACKAGES := pkg-config libharfbuzz-dev libfreetype-dev libcairo2-dev unicode-data \
	python3 poppler-utils qpdf librsvg2-bin
BENCH_PACKAGES := hyperfine valgrind python3-gi gir1.2-pango-1.0 python3-gi-cairo
TABLES := Sources/Typeset/Unicode/Generated/UnicodeTables.swift
RELEASE_BIN = $(shell $(SWIFT) build -c release --show-bin-path)/typeset

.PHONY: all deps build release test check-tables tables demo bench bench-batch clean

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
	$(SWIFT) build
	$(SWIFT) test
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

clean:
	rm -rf .build out
