"""`python -m pysolve ARGS` and the `pysolve` command: the command line, with Ctrl-C one line from the start.

`pysolve.cli.main` answers Ctrl-C in one line once it runs, but loading the
CLI (pysolve's modules, the back ends) takes a moment before that, during
which Python's own handler would print a traceback. So this module, which
loads nothing of pysolve (nor anything slow), takes SIGINT first, and then
hands over to the CLI. What is left is Python's own start, a few hundredths
of a second, before any code of ours runs.
"""

from __future__ import annotations

import signal
import sys

INTERRUPTED = 130  # the exit code of a run ended by Ctrl-C, as `pysolve.cli.main` returns it


def interrupted_while_loading(signum: int, frame: object) -> None:
    """SIGINT before the CLI runs: nothing has started yet, so say so in the CLI's words and exit."""
    print("pysolve: interrupted", file=sys.stderr)
    raise SystemExit(INTERRUPTED)


def main() -> int:
    """Take Ctrl-C, load the CLI, run it (it installs its own handler as it starts)."""
    signal.signal(signal.SIGINT, interrupted_while_loading)
    from pysolve.cli import main as run

    return run()


if __name__ == "__main__":
    sys.exit(main())
