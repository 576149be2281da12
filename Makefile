# The venv is created on first use; every target works from a clean clone with only Python installed.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install demo test soak bench bench-compare reports clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

# While the demo compiles Dragonwake on one core, the README's next game (Drako) compiles on the other, at a
# lower priority, so that the next command the reader tries starts at once.
demo: $(STAMP)
	@nice -n 10 $(BIN)/python -m sim.tooling.warm --plain drako > /dev/null 2>&1 &
	$(BIN)/dsim run --game dragonwake --players 5 --n 1e6 --strategy hero=bayes,cultist=liar --jobs 2 --out results/demo
	$(BIN)/dsim report --out results/demo --to results/demo/report
	@echo "report: results/demo/report/report.md"

# Compile every game's kernels into numba's cache in parallel first (sim/tooling/warm.py), then test on every core.
# The tests' cache (tests/conftest.py) is the one the warm-up fills.
test soak: export NUMBA_CACHE_DIR := $(CURDIR)/.numba_cache
# One BLAS thread per test worker: pytest already runs one worker per core, and a second BLAS thread each only
# contends (numpy-heavy tests ran at half speed).
test soak: export OPENBLAS_NUM_THREADS := 1
test soak: export OMP_NUM_THREADS := 1

test: $(STAMP)
	$(BIN)/python -m sim.tooling.warm
	$(BIN)/pytest -q -n auto

soak: $(STAMP)
	$(BIN)/python -m sim.tooling.warm
	$(BIN)/pytest -q -n auto -m soak -o addopts=''

bench: $(STAMP)
	$(BIN)/python -m sim.tooling.bench --out reports/bench.md

# This code against another commit, interleaved in one run (ratios with their spread): make bench-compare REF=c0ee031
REF ?= c0ee031
bench-compare: $(STAMP)
	$(BIN)/python sim/tooling/bench_compare.py $(REF) --mem-n 1e6 --jobs 2 --out reports/bench.md

# The design studies first: each game's balance report quotes its sensitivity and skill-ladder findings.
DESIGN := $(wildcard experiments/*_equilibrium.toml experiments/*_sensitivity.toml experiments/*_ladder.toml experiments/*_ablate.toml experiments/*_tune.toml)

reports: $(STAMP)
	for f in $(DESIGN) $(filter-out $(DESIGN),$(wildcard experiments/*.toml)); do $(BIN)/dsim experiment $$f || exit 1; done
	$(BIN)/python -m sim.report.answers

clean:
	rm -rf $(VENV) results build *.egg-info
	find . -name __pycache__ -prune -exec rm -rf {} +
