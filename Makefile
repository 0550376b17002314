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

test: $(STAMP)
	$(BIN)/python -m pytest

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
