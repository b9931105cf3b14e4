"""The rule bases and data must be found from an installed wheel, not only from a checkout."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

from pysolve.pytest_plugin import needs_prolog

REPO = Path(__file__).resolve().parent.parent


@needs_prolog
def test_wheel_ships_rule_bases_and_data_and_finds_them(tmp_path: Path) -> None:
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(tmp_path), str(REPO)],
                           capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr
    (wheel,) = tmp_path.glob("pysolve-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for rule_base in (REPO / "prolog").glob("*.pl"):
        assert f"pysolve/prolog/{rule_base.name}" in names
    assert "pysolve/data/README.md" in names

    target = tmp_path / "site"
    installed = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--quiet", "--target", str(target), str(wheel)],
                               capture_output=True, text=True, timeout=600)
    assert installed.returncode == 0, installed.stderr
    probe = ("from pysolve import bridge, paths\n"
             "print(paths.rule_base_dir())\n"
             "print(bridge.first('fichas', 'move(\\'BHV\\', N)'))\n")
    env = dict(os.environ, PYTHONPATH=str(target))
    ran = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path, env=env,
                         stdin=subprocess.DEVNULL, timeout=120)
    assert ran.returncode == 0, ran.stderr
    where, binding = ran.stdout.splitlines()
    assert Path(where) == target / "pysolve" / "prolog"
    assert binding == "{'N': 'HBV'}"
