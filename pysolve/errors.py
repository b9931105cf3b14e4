"""The exceptions pysolve raises: one base class, one subclass per kind of trouble.

The CLI turns every `PysolveError` into one line on stderr and exit code 2,
so each message names what went wrong and where.
"""


class PysolveError(Exception):
    """Base of every error pysolve raises on purpose."""


class InputError(PysolveError, ValueError):
    """Bad input: a malformed data file, an impossible board, a bad argument."""


class UnknownName(InputError, KeyError):
    """An unknown puzzle, back end, strategy, rule base or piece."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


class BackendUnavailable(PysolveError):
    """A back end that cannot run here (SWI-Prolog missing, hidden, or broken); `backend` names it."""

    def __init__(self, message: str, backend: str = "prolog", hidden: bool = False) -> None:
        super().__init__(message)
        self.backend = backend
        self.hidden = hidden  # hidden on purpose (PYSOLVE_NO_PROLOG), not missing


PROLOG_MESSAGE = 300  # characters of a Prolog error's one-line message (an atom it quotes may be megabytes)


class PrologError(PysolveError):
    """A rule base failed to load or a Prolog goal raised an error; `detail` keeps Prolog's whole text."""

    def __init__(self, message: str, detail: str = "") -> None:
        super().__init__(message if len(message) <= PROLOG_MESSAGE else f"{message[:PROLOG_MESSAGE]}...")
        self.detail = detail or message


class SearchLimitExceeded(PysolveError):
    """A search ran out of its time, inference or node budget before answering."""


class RulesCrashed(PrologError):
    """Rules of one's own ended the Prolog engine running them (pysolve.sandbox's child process).

    They called halt/0 or abort/0, or the engine died (a crash, a signal). The message is the one-line verdict; `kind`
    is halt, abort or died; `detail` adds what the engine last wrote to standard error."""

    def __init__(self, message: str, kind: str, detail: str = "") -> None:
        super().__init__(message, detail)
        self.kind = kind


class RulesRefused(PrologError):
    """Rules of one's own called a predicate that starts a process, which pysolve refuses to run for rules it checks.

    Such predicates are shell/1, process_create/3, fork/1 and the like."""
