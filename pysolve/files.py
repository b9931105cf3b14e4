"""Input files read with one clear error when they cannot be; output files written whole or not at all."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from pysolve.errors import InputError

MAX_INPUT_BYTES = 16 * 1024 * 1024  # a puzzle file larger than this is refused before it is read


def read_text(path: str | os.PathLike[str], what: str, max_bytes: int = MAX_INPUT_BYTES) -> str:
    """The UTF-8 text of an input file (CRLF read as LF); InputError naming `what` (`hidato file`) and the
    path when it is missing, a directory, larger than `max_bytes`, binary, not UTF-8, empty or unreadable."""
    name = f"{what} {os.fspath(path)!r}"
    target = Path(path)
    try:
        if target.is_dir():
            raise InputError(f"{name}: is a directory, not a file")
        size = target.stat().st_size
        if size > max_bytes:
            raise InputError(f"{name}: is {size:,} bytes; input files are limited to {max_bytes:,} bytes")
        data = target.read_bytes()
    except FileNotFoundError:
        raise InputError(f"{name}: no such file") from None
    except OSError as error:
        raise InputError(f"{name}: cannot read: {error.strerror}") from None
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


def _umask() -> int:
    """The process's file-creation mask (read by setting it, then put back)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask
