"""The rule bases' own plunit tests (prolog/tests/test_*.plt), each file run by SWI-Prolog in a process of its own.

Why here: the Prolog tests assert what the rule bases answer on their own (known counts, boards, the events a
recorded search writes, the errors bad input raises); running them from pytest keeps them in every `make test`.
Skipped only when SWI-Prolog is hidden on purpose (PYSOLVE_NO_PROLOG), as every Prolog test is.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from pysolve.pytest_plugin import needs_prolog

ROOT = Path(__file__).resolve().parent.parent
PLUNIT_FILES = sorted((ROOT / "prolog" / "tests").glob("test_*.plt"))


def test_there_is_a_plunit_file_per_puzzle_rule_base() -> None:
    names = {path.stem.removeprefix("test_") for path in PLUNIT_FILES}
    assert {"azul", "fichas", "hidato", "squares", "sudoku", "tangram", "pysolve_traced", "pysolve_bridge"} <= names


@pytest.mark.subprocess
@needs_prolog
@pytest.mark.parametrize("path", PLUNIT_FILES, ids=[path.stem for path in PLUNIT_FILES])
def test_plunit_file_passes(path: Path) -> None:
    swipl = shutil.which("swipl")
    assert swipl is not None, "SWI-Prolog (swipl) is not on PATH"
    ran = subprocess.run([swipl, "-g", "run_tests", "-t", "halt", path.name], cwd=path.parent,
                         capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120)
    output = ran.stdout + ran.stderr
    assert ran.returncode == 0, output
    passed = re.search(r"All (\d+) tests passed", output)
    assert passed is not None and int(passed.group(1)) > 0, output
    assert "ERROR" not in output and "Warning" not in output, output
