"""Every `>>>` example in pysolve's docstrings runs, so an example that no longer holds fails the suite.

A module's examples are found by reading its text: a new example in any module runs without a list to
update. Examples name their back ends (`backend="python"`), so they hold with SWI-Prolog and with it hidden
(`PYSOLVE_NO_PROLOG=1`, which `make test` runs too); the rule bases of one's own run only on Prolog.
"""

from __future__ import annotations

import doctest
import importlib
import io
from pathlib import Path

import pytest

from pysolve import backends

PACKAGE = Path(__file__).resolve().parent.parent / "pysolve"
ON_PROLOG = {"pysolve.sandbox"}  # `pysolve.query`'s goals run in a swipl child
NEEDS_RL = {"pysolve.azul.env", "pysolve.azul.vector", "pysolve.azul.batched"}  # the optional group `rl`


def with_examples() -> list[str]:
    """The dotted names of pysolve's modules whose text holds a `>>>` example."""
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if any(line.lstrip().startswith(">>> ") for line in path.read_text(encoding="utf-8").splitlines()):
            parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


MODULES = with_examples()


def test_the_examples_are_found() -> None:
    assert {"pysolve", "pysolve.api", "pysolve.fd", "pysolve.search", "pysolve.sandbox", *NEEDS_RL} <= set(MODULES)


@pytest.mark.parametrize("module", [pytest.param(name, marks=pytest.mark.subprocess) if name in ON_PROLOG else name
                                    for name in MODULES])
def test_the_examples_run(module: str) -> None:
    if module in ON_PROLOG:
        backends.require("prolog")  # hidden on purpose: the test is skipped, saying so (conftest)
    if module in NEEDS_RL:
        pytest.importorskip("pettingzoo")
    report = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for test in doctest.DocTestFinder().find(importlib.import_module(module)):
        runner.run(test, out=report.write)
    result = runner.summarize(verbose=False)
    assert result.attempted >= 1, f"{module} has no example doctest can read"
    assert result.failed == 0, report.getvalue()
