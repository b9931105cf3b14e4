"""The rule bases and data must be found from an installed wheel, not only from a checkout."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from pysolve.pytest_plugin import needs_prolog

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """pysolve built as a wheel and installed into a folder of its own: (the wheel, the folder)."""
    where = tmp_path_factory.mktemp("wheel")
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(where), str(REPO)],
                           capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr
    (wheel,) = where.glob("pysolve-*.whl")
    target = where / "site"
    installed = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--quiet", "--target", str(target),
                                str(wheel)], capture_output=True, text=True, timeout=600)
    assert installed.returncode == 0, installed.stderr
    return wheel, target


def run_installed(target: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """Python with the installed wheel first on its path, run in the wheel's folder (outside the checkout)."""
    env = dict(os.environ, PYTHONPATH=str(target))
    return subprocess.run([sys.executable, *argv], capture_output=True, text=True, cwd=target.parent, env=env,
                          stdin=subprocess.DEVNULL, timeout=120)


@pytest.mark.slow
@needs_prolog
def test_wheel_ships_rule_bases_and_data_and_finds_them(installed: tuple[Path, Path]) -> None:
    wheel, target = installed
    names = set(zipfile.ZipFile(wheel).namelist())
    for rule_base in (REPO / "prolog").glob("*.pl"):
        assert f"pysolve/prolog/{rule_base.name}" in names
    assert "pysolve/data/README.md" in names

    probe = ("from pysolve import bridge, paths\n"
             "print(paths.rule_base_dir())\n"
             "print(bridge.first('fichas', 'move(\\'BHV\\', N)'))\n")
    ran = run_installed(target, "-c", probe)
    assert ran.returncode == 0, ran.stderr
    where, binding = ran.stdout.splitlines()
    assert Path(where) == target / "pysolve" / "prolog"
    assert binding == "{'N': 'HBV'}"


@pytest.mark.subprocess
def test_an_installed_wheel_lists_and_solves_its_shipped_instances_by_name(installed: tuple[Path, Path]) -> None:
    _, target = installed
    listed = run_installed(target, "-m", "pysolve.cli", "list", "--json")
    assert listed.returncode == 0, listed.stderr
    names = {puzzle: [entry["name"] for entry in entries] for puzzle, entries in json.loads(listed.stdout).items()}
    assert {"sample", "public/csp_a1_6x6"} <= set(names["hidato"]) and "top95" in names["sudoku"]
    assert names["tangram"] == ["classic"] and "insects" in names["squares"]
    solved = run_installed(target, "-m", "pysolve.cli", "solve", "hidato", "sample", "--count", "2", "--json",
                           "--backend", "python")
    assert solved.returncode == 0, solved.stderr
    answer = json.loads(solved.stdout)
    assert answer["count"] == 1 and Path(answer["question"]["file"]) == target / "pysolve/data/hidato/sample.txt"
