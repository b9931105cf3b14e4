"""Whether this process has the terminal a full-screen game (Textual) needs, asked before the game starts.

Textual reads the keys from standard input and draws on standard error (the
real ones, `sys.__stdin__` and `sys.__stderr__`, whatever Python code put in
their place). Without a terminal there, a game never sees a key, not even
`q` or Ctrl-C, and never ends; so it is refused at once instead.
"""

from __future__ import annotations

import sys

from pysolve.errors import InputError


def has_terminal() -> bool:
    """True when standard input and standard error are both a terminal."""
    return all(stream is not None and stream.isatty() for stream in (sys.__stdin__, sys.__stderr__))


def require_terminal(command: str) -> None:
    """InputError naming `command` (`pysolve play tangram`) when this process has no terminal for it."""
    if not has_terminal():
        raise InputError(f"{command} needs a terminal, and its standard input and standard error are not both one "
                         "(the game reads its keys from the first and draws on the second): run it in a terminal")
