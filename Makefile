# Two commands for a fresh machine: `make demo` and `make test`.
# Both set everything up first (SWI-Prolog and Chromium when root and missing, .venv, the
# package with its test extras); running them again is quick and harmless.
# While working: `make test-fast` (the unit layer, about a minute) and `make lint`.

VENV    := .venv
PYTHON  := $(VENV)/bin/python
STAMP   := $(VENV)/.installed-stamp
FAST    := not slow and not browser and not subprocess

# Compiled modules are kept (some machines set PYTHONDONTWRITEBYTECODE): without them every test run and every
# CLI the tests start compiles pysolve again, and pytest rewrites the asserts of every module it imports.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: setup prolog browser demo test test-fast lint bench clean

setup: prolog browser $(STAMP)

prolog:
	@bash .ci/install-prolog

browser:
	@bash .ci/install-browser

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PYTHON) -m pip install --quiet --disable-pip-version-check -e '.[test]'
	touch $(STAMP)

demo: setup
	$(VENV)/bin/pysolve demo

# Every core runs tests (pytest-xdist): the suite holds its limits on a busy machine, so it may make one.
test: setup lint
	$(PYTHON) -m pytest -q -n auto --hypothesis-profile=ci
	@echo "--- again with SWI-Prolog hidden (PYSOLVE_NO_PROLOG=1): kanren and python must carry everything"
	PYSOLVE_NO_PROLOG=1 $(PYTHON) -m pytest -q -n auto -p no:cacheprovider --hypothesis-profile=ci

test-fast: setup
	$(PYTHON) -m pytest -q -m "$(FAST)" --no-processes -n auto

lint: setup
	$(VENV)/bin/ruff check pysolve tests bench examples
	$(PYTHON) -m mypy

bench: setup
	$(PYTHON) bench/run.py

clean:
	rm -rf $(VENV) build dist .pytest_cache .hypothesis
