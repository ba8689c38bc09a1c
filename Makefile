# `make run` and `make test` create .venv themselves on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The test suite runs OpenSpiel's, PettingZoo's and Gymnasium's checkers on the adapters.
INTEROP := $(VENV)/.interop
PORT ?= 8000

.PHONY: run demo test test-all lint bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,web]'
	touch $(STAMP)

$(INTEROP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,web,interop]'
	touch $(INTEROP)

run: $(STAMP)
	$(BIN)/stratagem serve --host 127.0.0.1 --port $(PORT)

demo: $(STAMP)
	$(BIN)/stratagem yahtzee solve --rules yahtzee
	$(BIN)/stratagem yahtzee advise --rules yahtzee --dice 11114 --rolls-left 2
	$(BIN)/stratagem yahtzee simulate --rules yahtzee --games 100000 --seed 1
	$(BIN)/stratagem pig solve --rules pig
	$(BIN)/stratagem pig evaluate --rules pig --a optimal --b hold:20

# One pytest-xdist worker per core; the browser tests share one worker (one chromium, one
# server: tests/web/conftest.py groups them), and solved tables are shared through the run's
# temporary directory (tests/conftest.py).
test: $(INTEROP)
	$(BIN)/python -m pytest -m "not slow" -q -n auto --dist loadgroup

test-all: $(INTEROP)
	$(BIN)/python -m pip install --quiet -e '.[dev,web,bench,distributed,interop]'
	$(BIN)/python -m pytest -q

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks experiments
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,web,bench]'
	$(BIN)/python benchmarks/yahtzee_solve.py

clean:
	rm -rf $(VENV) build src/*.egg-info
