# The two commands a newcomer needs: `make run` and `make test`.
# Every target builds the virtual environment first, so a fresh clone needs nothing else.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export PIP_DISABLE_PIP_VERSION_CHECK := 1

.PHONY: run test check lint typecheck bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip 2>&1 | grep -v '^WARNING: Location' || true
	$(BIN)/python -m pip install --quiet -e '.[dev]' 2>&1 | grep -v '^WARNING: Location' || true
	$(BIN)/python -c 'import thirteen, pytest, eval7, phevaluator'
	$(BIN)/python -m thirteen.bots.warm  # compiles the bots' kernels once, not at a table
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/thirteen serve

# The suite runs one worker more than the machine has cores (at most 4: each worker starts its
# own PostgreSQL, Redis and Chromium): its tests spend a good part of their time waiting — on
# the disk's syncs, on processes starting, on a table's clocks — and the extra worker fills it
# (on the 2-core reference machine, in one hour, 3 workers ran the server tests in 9:24 where 2
# took 12:29). The browser tests run in a pass of their own: Playwright's sync API keeps an
# event loop running in its worker's main thread, where the server tests call asyncio.run.
JOBS ?= $(shell n=$$(nproc 2>/dev/null || echo 1); n=$$((n + 1)); [ $$n -gt 4 ] && n=4; echo $$n)
test: $(STAMP)
	$(BIN)/python -m pytest -n $(JOBS) --dist worksteal --ignore=tests/web
	$(BIN)/python -m pytest -n $(JOBS) --dist worksteal tests/web

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks scripts
	$(BIN)/ruff format --check src tests benchmarks scripts

typecheck: $(STAMP)
	$(BIN)/mypy --strict

check: lint typecheck test

bench: $(STAMP)
	$(BIN)/thirteen bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
