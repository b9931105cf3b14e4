"""Files in and out, each with one clear error when it cannot be: inputs read only from regular files and
only up to a limit, JSON read without Python's own limits escaping as tracebacks, input quoted in errors only
as a short excerpt; output files written whole or not at all."""

from __future__ import annotations

import json
import os
import re
import reprlib
import stat
import tempfile
from pathlib import Path
from typing import Any

from pysolve.errors import InputError

MAX_INPUT_BYTES = 16 * 1024 * 1024  # a puzzle file larger than this is refused before it is read
EXCERPT_CHARACTERS = 60  # of input quoted in an error message (a line can be megabytes long)
PATH_CHARACTERS = 300  # of a file name quoted in an error message (longer than any name a system takes)
MAX_DIGITS = 18  # of a whole number in an input file: past any size, id or colour, and within 64 bits

_SHORT = reprlib.Repr()  # what `excerpt` prints of a value that is not text: a few items, a few levels
_SHORT.maxlevel, _SHORT.maxlist, _SHORT.maxdict, _SHORT.maxstring, _SHORT.maxother = 3, 6, 6, 30, EXCERPT_CHARACTERS

_KINDS = ((stat.S_ISREG, "a regular file"), (stat.S_ISDIR, "a directory"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"))


def excerpt(value: Any, width: int = EXCERPT_CHARACTERS) -> str:
    """`value` as an error message quotes it: its repr() when short; else the first `width` characters of a
    text with its length, or the start of an abridged repr of anything else. One short line whatever the
    input holds (newlines and control characters come escaped)."""
    if isinstance(value, str):
        if len(value) <= width:
            return repr(value)
        return f"{value[:width]!r}... ({len(value):,} characters)"
    shown = _SHORT.repr(value)
    return shown if len(shown) <= width else shown[:width] + "..."


_WHOLE_NUMBER = re.compile(rf"[-+]?[0-9]{{1,{MAX_DIGITS}}}")


def whole_number(word: str, where: str, what: str) -> int:
    """`word` as an integer (ASCII digits, at most MAX_DIGITS, a sign allowed); InputError naming `where`
    (`file:line`) and `what` (`piece id`) otherwise, so that no reader carries a number of a thousand
    digits into its arithmetic and messages."""
    if not _WHOLE_NUMBER.fullmatch(word):
        raise InputError(f"{where}: {what} {excerpt(word)} is not an integer of at most {MAX_DIGITS} digits")
    return int(word)


def kind(mode: int) -> str:
    """What a file of `mode` (st_mode) is, in words: "a regular file", "a character device", ..."""
    return next((words for test, words in _KINDS if test(mode)), "not a file")


def read_text(path: str | os.PathLike[str], what: str, max_bytes: int = MAX_INPUT_BYTES) -> str:
    """The UTF-8 text of an input file (CRLF read as LF); InputError naming `what` (`hidato file`) and the
    path when it is missing, not a regular file, larger than `max_bytes`, binary, not UTF-8, empty or
    unreadable."""
    name = f"{what} {excerpt(_path_text(path, what), PATH_CHARACTERS)}"
    data = _read_bytes(os.fspath(path), name, max_bytes)
    nul = data.find(b"\0")
    if nul >= 0:
        raise InputError(f"{name}: is a binary file (a NUL byte at offset {nul}), not text")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError(f"{name}: is not UTF-8 text (byte 0x{data[error.start]:02x} at offset {error.start})") \
            from None
    if not text.strip():
        raise InputError(f"{name}: the file is empty")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _read_bytes(path: str, name: str, max_bytes: int) -> bytes:
    """At most `max_bytes` of the regular file `path`. A device, FIFO or socket is refused before it is
    opened (/dev/zero never ends, a FIFO blocks until someone writes), and checked again once open, in case
    the name changed hands in between; a file that grows while read stops at the limit."""
    try:
        _require_regular(os.stat(path), name)
        with open(path, "rb", opener=_nonblocking(os.O_RDONLY)) as handle:
            info = os.fstat(handle.fileno())
            _require_regular(info, name)
            if info.st_size > max_bytes:
                raise InputError(f"{name}: is {info.st_size:,} bytes; input files are limited to {max_bytes:,} "
                                 "bytes")
            data = handle.read(max_bytes + 1)
    except FileNotFoundError:
        raise InputError(f"{name}: no such file") from None
    except OSError as error:
        raise InputError(f"{name}: cannot read: {error.strerror}") from None
    if len(data) > max_bytes:
        raise InputError(f"{name}: grew past {max_bytes:,} bytes while read; input files are limited to "
                         f"{max_bytes:,} bytes")
    return data


def _require_regular(info: os.stat_result, name: str) -> None:
    """InputError unless `info` is a regular file's."""
    if not stat.S_ISREG(info.st_mode):
        raise InputError(f"{name}: is {kind(info.st_mode)}, not a regular file")


def _nonblocking(flags: int) -> Any:
    """An `open()` opener adding O_NONBLOCK (opening a FIFO must not wait) and O_CLOEXEC to `flags`."""
    def opener(path: str, _: int) -> int:
        return os.open(path, flags | os.O_NONBLOCK | os.O_CLOEXEC)

    return opener


def parse_json(text: str, where: str) -> Any:
    """The value of a JSON text; InputError naming `where` (`file:line`) when it is not JSON, nests deeper
    than Python's recursion allows, holds an integer too long to convert, or a string that is not text (a
    lone surrogate such as "\\ud800", which no output could print)."""
    try:
        value = json.loads(text)
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except json.JSONDecodeError as error:
        raise InputError(f"{where}: not JSON ({error.msg} at line {error.lineno}, column {error.colno})") \
            from None
    except RecursionError:
        raise InputError(f"{where}: the JSON nests too deeply to read") from None
    except UnicodeEncodeError as error:
        raise InputError(f"{where}: the JSON holds a string that is not text "
                         f"({excerpt(error.object[error.start:error.end])}, a lone surrogate)") from None
    except ValueError:  # Python's limit on the digits of an integer converted from text
        raise InputError(f"{where}: the JSON holds an integer too long to read") from None
    return value

def write_text(path: str | os.PathLike[str], text: str, option: str) -> str:
    """Write `text` to `path` through a temporary file and a rename, so that an interrupted or failed
    write leaves no half-written file; InputError naming `option` (`--svg`) and the path when it fails.
    Returns the path as given."""
    target = Path(path)
    if target.is_dir():
        raise InputError(f"{option} {os.fspath(path)!r}: is a directory")
    if not target.parent.is_dir():
        raise InputError(f"{option} {os.fspath(path)!r}: the directory {str(target.parent)!r} does not exist")
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    except OSError as error:
        raise InputError(f"{option} {os.fspath(path)!r}: cannot write: {error.strerror}") from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.chmod(temporary, 0o666 & ~_umask())  # mkstemp makes owner-only files; a plain open would not
        os.replace(temporary, target)
    except BaseException as error:
        Path(temporary).unlink(missing_ok=True)
        if isinstance(error, OSError):
            raise InputError(f"{option} {os.fspath(path)!r}: cannot write: {error.strerror}") from None
        raise
    return os.fspath(path)


def _path_text(path: str | os.PathLike[str], what: str) -> str:
    """`path` as text; InputError naming `what` when it is empty or holds a NUL (no file has such a name)."""
    text = os.fspath(path)
    if not isinstance(text, str):
        raise InputError(f"{what}: give the file name as text, not {excerpt(text)}")
    if not text:
        raise InputError(f"{what}: the file name is empty")
    if "\0" in text:
        raise InputError(f"{what} {excerpt(text, PATH_CHARACTERS)}: a file name cannot hold a NUL character")
    return text


def _umask() -> int:
    """The process's file-creation mask (read by setting it, then put back)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask
