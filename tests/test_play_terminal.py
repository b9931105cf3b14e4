"""The full-screen games refuse to start without a terminal: they would never see a key, and never end."""

from __future__ import annotations

import os
import pty
import subprocess
import sys

import pytest

HANG_GUARD = 120  # wall seconds: only so that a game that starts anyway fails the test instead of hanging it
WORDS = ("needs a terminal, and its standard input and standard error are not both one (the game reads its keys "
         "from the first and draws on the second): run it in a terminal")


def play(argv: list[str], stdin: int) -> subprocess.CompletedProcess[str]:
    """`pysolve ARGV` in a child process reading `stdin`, its output and errors captured (so no terminal)."""
    return subprocess.run([sys.executable, "-m", "pysolve.cli", *argv], stdin=stdin, capture_output=True, text=True,
                          timeout=HANG_GUARD)


@pytest.mark.slow
@pytest.mark.parametrize(("argv", "command"), [
    (["play", "tangram"], "pysolve play tangram"),
    (["play", "azul"], "pysolve play azul"),
    (["azul", "play"], "pysolve play azul"),  # the same game under its second name
])
def test_a_game_without_a_terminal_is_refused_in_one_line(argv: list[str], command: str) -> None:
    done = play(argv, subprocess.DEVNULL)
    assert (done.returncode, done.stderr, done.stdout) == (2, f"pysolve: error: {command} {WORDS}\n", "")


@pytest.mark.slow
def test_a_terminal_for_the_keys_alone_is_not_enough() -> None:
    keys, terminal = pty.openpty()  # standard input a terminal, standard error captured
    try:
        done = play(["play", "tangram"], terminal)
    finally:
        os.close(keys)
        os.close(terminal)
    assert (done.returncode, done.stderr) == (2, f"pysolve: error: pysolve play tangram {WORDS}\n")
