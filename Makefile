# Two commands for a fresh machine: `make demo` and `make test`.
# Both set everything up first (SWI-Prolog and Chromium when root and missing, .venv, the
# package with its test extras); running them again is quick and harmless.

VENV    := .venv
PYTHON  := $(VENV)/bin/python
STAMP   := $(VENV)/.installed-stamp

.PHONY: setup prolog browser demo test bench clean

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

test: setup
	$(PYTHON) -m pytest -q
	@echo "--- again with SWI-Prolog hidden (PYSOLVE_NO_PROLOG=1): kanren and python must carry everything"
	PYSOLVE_NO_PROLOG=1 $(PYTHON) -m pytest -q -p no:cacheprovider

bench: setup
	$(PYTHON) bench/run.py

clean:
	rm -rf $(VENV) build dist .pytest_cache .hypothesis
