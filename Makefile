# lossylink: developer entry points. Everything installs itself on a fresh clone:
# the only things assumed are rustup's cargo and python3 (>= 3.11) with pip. As root on
# Debian/Ubuntu, `make test` also installs tshark and tcptrace for the pcap tests (`make tools`).
#
#   make demo     build the extension (minutes on a fresh clone), run the paper comparison (~1 s)
#   make reproduce  every experiment of the four papers into out/ (profile-guided build)
#   make test     the extension, the Rust tests, the Python tests (random order); stage times
#   make test-emulation  real Linux TCP through the links (root; part of make test)
#   make tools    apt-get install tshark, mergecap, tcptrace if missing (as root; part of make test)
#   make lint     rustfmt, clippy, ruff (check + format)
#   make bench    criterion benchmarks: one bulk transfer, then the scale group (profile-guided build; PGO=0 without)
#   make bench-sweep  the 600-run sweep on each executor (runs/s; results compared)
#   make clean    remove build products and the virtualenv

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

VENV := .venv
PYTHON ?= python3
PY := $(VENV)/bin/python
VENV_ABS := $(abspath $(VENV))
# Run a command "inside" the virtualenv (what `source .venv/bin/activate` does).
IN_VENV := VIRTUAL_ENV=$(VENV_ABS) PATH=$(VENV_ABS)/bin:$$PATH PIP_QUIET=1

# Pinned tool and runtime versions for development. Keep the test tools in step with the
# `dev` extra in pyproject.toml (tests/python/test_packaging.py checks this). pyarrow, dask and
# distributed are pinned exactly because they decide the bytes of sweep results (Parquet).
# dpkt is the independent pcap reader of tests/python/test_pcap.py. nbclient and ipykernel run
# the notebook of tests/python/test_notebook.py (figures inline, short reprs).
PIP_PINS := \
	maturin==1.16.0 \
	pytest==9.2.0 \
	hypothesis==6.170.15 \
	ruff==0.17.6 \
	numpy==2.4.6 \
	pandas==3.1.1 \
	click==8.5.1 \
	rich==15.0.0 \
	matplotlib==3.11.2 \
	pyarrow==26.0.1 \
	dask==2026.8.0 \
	distributed==2026.8.0 \
	dpkt==1.9.8 \
	pytest-randomly==5.1.0 \
	nbclient==0.11.0 \
	ipykernel==7.4.0

.PHONY: help venv develop tools demo reproduce test test-rust test-python test-emulation bench \
	bench-sweep lint fmt \
	clean

help:
	@sed -n 's/^#   //p' Makefile

PINS_STAMP := $(VENV)/.pins
TOOLS_STAMP := $(VENV)/.tools

$(PY):
	$(PYTHON) -m venv $(VENV)

# (Re)install the pins when they change, so an existing virtualenv picks up new ones.
$(PINS_STAMP): Makefile | $(PY)
	@echo "installing the pinned Python tools into $(VENV) (once; quiet)..."
	$(PY) -m pip install --quiet $(PIP_PINS)
	touch $@

venv: $(PINS_STAMP)

# The profile-guided build (docs/performance.md): .ci/pgo trains an instrumented build of a
# package's examples/pgo_train.rs and merges the profile, rebuilt when the simulator's sources
# change: one for the extension (crates/py), one for the benchmark (crates/lossylink), since a
# profile matches only code built in the same dependency graph. Each build with a profile goes
# to its own target directory; a profile changes code layout and inlining, never results.
# Where llvm-profdata cannot be had the profile stays empty and the build goes on without it.
#
# Which build: `make demo`, `make test` and `make develop` build the extension in the quick
# `develop` profile (Cargo.toml; one build, an edit costs one rebuild); `make reproduce` and `make bench` build with a profile
# (an instrumented build and its training first: about a quarter faster runs). PGO=1 asks for the
# profile everywhere, PGO=0 nowhere.
PGO ?=
PGO_PY := target/pgo/py.profdata
PGO_BENCH := target/pgo/bench.profdata
PGO_SOURCES := $(shell find crates/engine crates/tcp crates/net crates/lossylink crates/emu \
	crates/py -name '*.rs' -o -name '*.toml') Cargo.lock .ci/pgo
# $(call pgo_on,DEFAULT): 1 when this build uses a profile (PGO if set, DEFAULT if not).
pgo_on = $(filter 1,$(if $(PGO),$(PGO),$(1)))
# $(call pgo_env,PROFILE,DIR): `RUSTFLAGS=... CARGO_TARGET_DIR=DIR` for cargo or maturin when
# the profile is not empty, nothing otherwise (expanded when the recipe runs).
pgo_env = $(shell test -s $(1) && echo \
	RUSTFLAGS=\"-Cprofile-use=$(abspath $(1))\" CARGO_TARGET_DIR=$(abspath $(2)))

# The package each profile is trained in (target/pgo/<name>.profdata).
pgo_package_py := lossylink-py
pgo_package_bench := lossylink

target/pgo/%.profdata: $(PGO_SOURCES)
	@bash .ci/pgo $@ $(pgo_package_$*) || { rc=$$?; test $$rc -eq 3 || exit $$rc; : > $@; }

## Build the extension and install it (editable) into the virtualenv: the quick `develop` cargo
## profile by default, `release` with a profile when PGO=1 (or DEVELOP_PGO=1, which `make
## reproduce` sets).
## On a fresh clone the pinned Python packages install beside the build (pip on one core while
## cargo's single-unit LTO holds the other): the extension is built in place
## (`--skip-install`), then installed once the pins are in, with nothing left to compile; an
## edit afterwards costs one build and no install.
DEVELOP_PGO ?= 0
# The cargo profile: `develop` (Cargo.toml: thin LTO, quick to build) unless profile-guided,
# which builds on `release` (fat LTO, one unit).
develop_profile = $(if $(call pgo_on,$(DEVELOP_PGO)),--release,--profile develop)
MATURIN_STAMP := $(VENV)/.maturin
INSTALLED_STAMP := $(VENV)/.installed
$(MATURIN_STAMP): Makefile | $(PY)
	$(PY) -m pip install --quiet $(filter maturin==%,$(PIP_PINS))
	touch $@

develop: $(MATURIN_STAMP) $(if $(call pgo_on,$(DEVELOP_PGO)),$(PGO_PY))
	@echo "building the Rust extension (a few minutes on a fresh clone, seconds after)..."
	@pins=; if ! test -e $(PINS_STAMP) -a $(PINS_STAMP) -nt Makefile; then \
		$(MAKE) --no-print-directory $(PINS_STAMP) > $(VENV)/pins.log 2>&1 & pins=$$!; fi; \
	rc=0; $(IN_VENV) $(if $(call pgo_on,$(DEVELOP_PGO)),$(call pgo_env,$(PGO_PY),target/pgo/use-py)) \
		maturin develop $(develop_profile) --quiet --skip-install || rc=$$?; \
	if test -n "$$pins"; then wait $$pins || { cat $(VENV)/pins.log >&2; exit 1; }; fi; \
	exit $$rc
	@# The editable install itself (the .pth to python/, the entry points, the dependencies)
	@# once, and again when pyproject.toml changes: a rebuild replaces the .so in place.
	@test $(INSTALLED_STAMP) -nt pyproject.toml || { $(IN_VENV) \
		$(if $(call pgo_on,$(DEVELOP_PGO)),$(call pgo_env,$(PGO_PY),target/pgo/use-py)) \
		maturin develop $(develop_profile) --quiet && touch $(INSTALLED_STAMP); }
	@# The editable install imports python/lossylink from the source tree, where nothing writes
	@# bytecode when PYTHONDONTWRITEBYTECODE is set (as here): compile it once, as pip does for a
	@# wheel, or every command compiles the package's modules again (docs/performance.md).
	$(PY) -m compileall -q python/lossylink

## The programs tests/python/test_pcap.py reads pcap files with (tshark, mergecap, tcptrace),
## installed with apt-get where missing. Never fails the build: without root or apt-get it prints
## one notice and those tests skip. The stamp is written once all are installed.
$(TOOLS_STAMP): .ci/install-tools
	@bash .ci/install-tools $@

tools: $(TOOLS_STAMP)

demo: develop
	@echo "running the demo: Table 3 of Balakrishnan et al. 1997, 10 seeds per row..."
	$(PY) -m lossylink.demo

reproduce:
	@$(MAKE) --no-print-directory develop DEVELOP_PGO=1
	$(VENV)/bin/lossylink reproduce balakrishnan97 --quick --out out/balakrishnan97
	$(VENV)/bin/lossylink reproduce ludwig2000 --out out/ludwig2000
	$(VENV)/bin/lossylink reproduce buchholcz --out out/buchholcz
	$(VENV)/bin/lossylink reproduce llelsn --quick --out out/llelsn

## Each stage timed (.ci/stages): the extension, the Rust test build, the Rust tests, the
## Python tests; the times are printed at the end.
test:
	@bash .ci/stages

test-rust:
	@if cargo nextest --version >/dev/null 2>&1; then \
		cargo nextest run --workspace --exclude lossylink-py --no-tests=warn; \
		cargo test --workspace --exclude lossylink-py --doc; \
	else \
		cargo test --workspace --exclude lossylink-py; \
	fi

# The Python tests in random order (pytest-randomly; its seed is printed, `--randomly-seed=N`
# repeats an order), the emulation tests apart (test-emulation).
test-python: develop tools
	$(PY) -m pytest -q -m "not emulation" tests/python

## The emulation tests, real Linux TCP in real time through the simulator's links (root,
## /dev/net/tun, ip netns): one at a time, in file order. Where emulation cannot run, one notice.
test-emulation: develop
	@if why=$$(bash .ci/can-emulate); then \
		cargo nextest run -p lossylink-emu --run-ignored only --no-tests=warn && \
		$(PY) -m pytest -q -p no:randomly -m emulation tests/python; \
	else echo "notice: emulation tests skipped: $$why"; fi

bench: $(if $(call pgo_on,1),$(PGO_BENCH))
	$(if $(call pgo_on,1),$(call pgo_env,$(PGO_BENCH),target/pgo/use-bench)) \
		cargo bench -p lossylink --bench transfer --bench scale

bench-sweep: develop
	$(PY) benches/sweep.py

lint: $(PINS_STAMP)
	cargo fmt --all --check
	cargo clippy --workspace --all-targets -- -D warnings
	$(VENV)/bin/ruff check python tests benches
	$(VENV)/bin/ruff format --check python tests benches

## Apply the formatters (not part of CI).
fmt: $(PINS_STAMP)
	cargo fmt --all
	$(VENV)/bin/ruff format python tests benches
	$(VENV)/bin/ruff check --fix python tests benches

clean:
	cargo clean
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis dist
	find python tests -name __pycache__ -type d -prune -exec rm -rf {} +
	rm -f python/lossylink/_core*.so python/lossylink/_core*.pyd
