"""A puzzle of one's own, in a package of its own (examples/toy_puzzle), registered through the
`pysolve.puzzles` entry point: it gets the CLI, the API, the cross-check, the demo and the pytest
plugin without a line changed in pysolve."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

TOY = Path(__file__).resolve().parents[1] / "examples" / "toy_puzzle"  # step 0 of docs/architecture.md
PYSOLVE = Path(sys.executable).with_name("pysolve")

USER_TESTS = TOY / "tests" / "test_factors.py"  # the toy's own tests, run as its user would


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The toy package installed into a folder of its own (a wheel built from its pyproject.toml)."""
    target = tmp_path_factory.mktemp("site")
    installed = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--quiet", "--target",
                                str(target), str(TOY)], capture_output=True, text=True, timeout=600)
    assert installed.returncode == 0, installed.stderr
    return target


def run(site: Path, *argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run a command with the toy package on the path, as a user who installed it would."""
    env = dict(os.environ, PYTHONPATH=str(site))
    return subprocess.run(argv, capture_output=True, text=True, env=env, cwd=cwd, stdin=subprocess.DEVNULL,
                          timeout=300)


@pytest.mark.subprocess
def test_the_cli_solves_and_crosschecks_it(site: Path) -> None:
    solved = run(site, str(PYSOLVE), "solve", "factors", "--n", "12", "--backend", "python", "--json")
    assert solved.returncode == 0, solved.stderr
    answer = json.loads(solved.stdout)
    assert answer["solutions"] == [[1, 12], [2, 6], [3, 4]] and answer["question"] == {"n": 12}
    checked = run(site, str(PYSOLVE), "crosscheck", "factors", "--n", "360", "--json")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    report = json.loads(checked.stdout)
    assert report["agree"] and {"kanren", "python"} <= set(report["results"])
    listed = run(site, str(PYSOLVE), "solve", "--help")
    assert "factors" in listed.stdout


@pytest.mark.subprocess
def test_a_missing_option_is_exit_2_without_a_traceback(site: Path) -> None:
    missing = run(site, str(PYSOLVE), "solve", "factors")
    assert missing.returncode == 2 and "--n" in missing.stderr and "Traceback" not in missing.stderr


@pytest.mark.subprocess
def test_the_api_knows_it(site: Path) -> None:
    probe = ("import pysolve\n"
             "print('factors' in pysolve.puzzle_names())\n"
             "print(pysolve.crosscheck('factors', n=97).agree)\n"
             "print(pysolve.solve('factors', n=97, backend='kanren').solutions)\n")
    ran = run(site, sys.executable, "-c", probe)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.splitlines() == ["True", "True", "[[1, 97]]"]


@pytest.mark.subprocess
def test_the_pytest_plugin_asks_it_of_every_backend(site: Path, tmp_path: Path,
                                                    pysolve_backends: list[str]) -> None:
    (tmp_path / "test_users_factors.py").write_text(USER_TESTS.read_text())
    ran = run(site, sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path), cwd=tmp_path)
    assert ran.returncode == 0, ran.stdout[-2000:]
    assert f"{len(pysolve_backends) + 1} passed" in ran.stdout
