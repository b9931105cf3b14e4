"""Files in and out, each with one clear error when it cannot be.

Inputs read only from regular files and only up to a limit, JSON read without Python's own limits escaping
as tracebacks, outputs written whole or not at all and never over a file that is not the user's output,
and input quoted in errors only as a short excerpt.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import reprlib
import signal
import stat
import tempfile
import unicodedata
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from pysolve.errors import InputError

MAX_INPUT_BYTES = 16 * 1024 * 1024  # a puzzle file larger than this is refused before it is read
EXCERPT_CHARACTERS = 60  # of input quoted in an error message (a line can be megabytes long)
PATH_CHARACTERS = 300  # of a file name quoted in an error message (longer than any name a system takes)
MAX_DIGITS = 18  # of a whole number in an input file: past any size, id or colour, and within 64 bits
TEMPORARY_NAME_KEEPS = 200  # characters of the target's name in its temporary's (a name holds at most 255)

_SHORT = reprlib.Repr()  # what `excerpt` prints of a value that is not text: a few items, a few levels
_SHORT.maxlevel, _SHORT.maxlist, _SHORT.maxdict, _SHORT.maxstring, _SHORT.maxother = 3, 6, 6, 30, EXCERPT_CHARACTERS

_KINDS = ((stat.S_ISREG, "a regular file"), (stat.S_ISDIR, "a directory"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"))


def excerpt(value: Any, width: int = EXCERPT_CHARACTERS) -> str:
    """`value` as an error message quotes it.

    Its repr() when short; else the first `width` characters of a text with its length, or the start of
    an abridged repr of anything else. One short line whatever the input holds (newlines and control
    characters come escaped).
    """
    if isinstance(value, str):
        if len(value) <= width:
            return repr(value)
        return f"{value[:width]!r}... ({len(value):,} characters)"
    shown = _SHORT.repr(value)
    return shown if len(shown) <= width else shown[:width] + "..."


_WHOLE_NUMBER = re.compile(rf"[-+]?[0-9]{{1,{MAX_DIGITS}}}")


def whole_number(word: str, where: str, what: str) -> int:
    """`word` as an integer (ASCII digits, at most MAX_DIGITS, a sign allowed).

    InputError naming `where` (`file:line`) and `what` (`piece id`) otherwise, so that no reader
    carries a number of a thousand digits into its arithmetic and messages.
    """
    if not _WHOLE_NUMBER.fullmatch(word):
        raise InputError(f"{where}: {what} {excerpt(word)} is not an integer of at most {MAX_DIGITS} digits")
    return int(word)


def kind(mode: int) -> str:
    """What a file of `mode` (st_mode) is, in words: "a regular file", "a character device", ..."""
    return next((words for test, words in _KINDS if test(mode)), "not a file")


def read_text(path: str | os.PathLike[str], what: str, max_bytes: int = MAX_INPUT_BYTES) -> str:
    """The UTF-8 text of an input file (CRLF read as LF, other line ends refused: see `plain_lines`).

    InputError naming `what` (`hidato file`) and the path when it is missing, not a regular file,
    larger than `max_bytes`, binary, not UTF-8, empty or unreadable.
    """
    name = f"{what} {excerpt(_path_text(path, what), PATH_CHARACTERS)}"
    return _text(_read_bytes(os.fspath(path), name, max_bytes), name)


def read_gzip_text(path: str | os.PathLike[str], what: str, max_bytes: int = MAX_INPUT_BYTES) -> str:
    """The UTF-8 text of a gzipped input file, with `read_text`'s guards on the file and on what it unpacks to.

    InputError as `read_text` gives, and when the file is not gzip, ends early or unpacks to more than
    `max_bytes`: it is unpacked a piece at a time up to that limit, so a gzip bomb (2 MB unpacking to
    gigabytes) is refused at the limit instead of filling memory.
    """
    name = f"{what} {excerpt(_path_text(path, what), PATH_CHARACTERS)}"
    return _text(_unpacked(_read_bytes(os.fspath(path), name, max_bytes), name, what, max_bytes), name)


def _unpacked(data: bytes, name: str, what: str, max_bytes: int) -> bytes:
    """The bytes the gzip `data` unpacks to (every member, as gzip itself reads them); InputError past
    `max_bytes`, or when it is not gzip or ends early."""
    parts: list[bytes] = []
    size = 0
    while data:
        unpacker = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)  # 16 +: a gzip header and trailer
        try:
            parts.append(unpacker.decompress(data, max_bytes + 1 - size))
        except zlib.error as error:
            raise InputError(f"{name}: is not a gzipped {what} ({error})") from None
        size += len(parts[-1])
        if size > max_bytes:
            raise InputError(f"{name}: unpacks to more than {max_bytes:,} bytes; input files are limited to "
                             f"{max_bytes:,} bytes unpacked")
        if not unpacker.eof:
            raise InputError(f"{name}: is not a gzipped {what} (the gzip data ends early)")
        data = unpacker.unused_data
    return b"".join(parts)


def _text(data: bytes, name: str) -> str:
    """`data` as UTF-8 text (CRLF read as LF); InputError naming the file (`name`) when it is binary, not
    UTF-8, empty or ends lines otherwise than with LF or CRLF."""
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
    return plain_lines(text, name)


_OTHER_LINE_ENDS = re.compile("[\r\v\f\x1c-\x1e\x85\u2028\u2029]")  # what str.splitlines() splits at besides \n


def plain_lines(text: str, where: str) -> str:
    """`text` with its CRLF line ends read as LF, so that `text.splitlines()` splits it at LF only.

    InputError naming `where` and the line when it holds any other character that Python takes for a line
    end (a lone CR, U+0085, U+2028, a form feed, ...): those would split a line in two silently, and another
    board than the one written would be read.
    """
    text = text.replace("\r\n", "\n")
    odd = _OTHER_LINE_ENDS.search(text)
    if odd:
        raise InputError(f"{where}: line {text.count(chr(10), 0, odd.start()) + 1} holds {character(odd.group())}; "
                         "lines end with \\n or \\r\\n only")
    return text


def character(one: str) -> str:
    """One character as a message names it: `'\\x00' (U+0000 NULL)`, escaped as repr() escapes it."""
    named = unicodedata.name(one, "")
    return f"{one!r} (U+{ord(one):04X}{' ' + named if named else ''})"


def printable_word(word: str, where: str, what: str) -> str:
    """`word` when it is one word that prints: not empty, every character printable and none a space.

    InputError naming `where` (`file:line`), `what` (`label`) and the first character that is not (a NUL, a
    control character such as ESC, which a terminal would obey, a right-to-left override, a space), so that
    a name read from a file reaches no engine, page or terminal as anything but the text it shows.
    """
    if not word:
        raise InputError(f"{where}: the {what} is empty")
    odd = next((one for one in word if one.isspace() or not one.isprintable()), None)
    if odd is not None:
        raise InputError(f"{where}: the {what} {excerpt(word)} holds {character(odd)}; a {what} is printable "
                         "characters without spaces")
    return word


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


JSON_MISTAKES = {  # json's messages (Python's words) of what went wrong, in pysolve's words
    "Expecting value": "a value is missing",
    "Expecting property name enclosed in double quotes": "a key in double quotes is missing",
    "Expecting ':' delimiter": "a ':' is missing",
    "Expecting ',' delimiter": "a ',' is missing",
    "Unterminated string starting at": "a text is not closed",
    "Invalid control character at": "a text holds a control character (a line break, a tab) unescaped",
    "Invalid \\escape": "a text holds an unknown escape",
    "Invalid \\uXXXX escape": "a text holds a \\u escape without four hex digits",
    "Extra data": "more follows the JSON object",
    "Illegal trailing comma before end of object": "a ',' ends an object",
    "Illegal trailing comma before end of array": "a ',' ends an array",
}


def json_mistake(error: json.JSONDecodeError) -> str:
    """What json found wrong, in pysolve's words, and where: `a value is missing at line 1, column 1`."""
    return f"{JSON_MISTAKES.get(error.msg, 'it is malformed')} at line {error.lineno}, column {error.colno}"


def parse_json(text: str, where: str, decoder: json.JSONDecoder | None = None) -> Any:
    """The value of a JSON text (read by `decoder`, default json's own), or InputError naming `where` (`file:line`).

    InputError when the text is not JSON, nests deeper than Python's recursion allows, holds an integer too
    long to convert, or a string that is not text (a lone surrogate such as "\\ud800", which no output could
    print).
    """
    try:
        value = json.loads(text) if decoder is None else decoder.decode(text)
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except json.JSONDecodeError as error:
        raise InputError(f"{where}: not JSON ({json_mistake(error)})") from None
    except RecursionError:
        raise InputError(f"{where}: the JSON nests too deeply to read") from None
    except UnicodeEncodeError as error:
        raise InputError(f"{where}: the JSON holds a string that is not text "
                         f"({excerpt(error.object[error.start:error.end])}, a lone surrogate)") from None
    except ValueError:  # Python's limit on the digits of an integer converted from text
        raise InputError(f"{where}: the JSON holds an integer too long to read") from None
    return value


def check_output(path: str | os.PathLike[str], option: str) -> str:
    """`path` as text when a file can be written there, before any work is done.

    InputError naming `option` (`--svg`) when the name is empty or too long, its directory is
    missing, or it names a directory, a block device, a socket or a read-only file.
    """
    text = _path_text(path, option)
    _existing_output(text, f"{option} {excerpt(text, PATH_CHARACTERS)}")
    return text


def write_text(path: str | os.PathLike[str], text: str, option: str) -> str:
    """Write `text` to `path` whole or not at all (see `writing`); returns the path as given."""
    with writing(path, option) as out:
        out.write(text)
    return os.fspath(path)


@contextlib.contextmanager
def writing(path: str | os.PathLike[str], option: str) -> Iterator[TextIO]:
    """A text stream whose contents reach `path` whole or not at all.

    InputError naming `option` (`--log`) and the path when it cannot be written.

    A regular file (or a name not yet taken) is written through a temporary file beside it, renamed over
    it at the end, so an error, a full disk or Ctrl-C leaves the old file or none, never a part (the
    temporary is removed). A symbolic link is followed, so the file it names is replaced and the link is
    kept. The file replaced keeps its mode (a 0600 file stays private), and a read-only one is refused
    as `cp` refuses it. A character device or a FIFO (/dev/null, /dev/stdout into a pipe) is written in place, since a
    rename would replace the device with a regular file; a FIFO that nobody reads is refused at once.
    """
    where = _path_text(path, option)
    name = f"{option} {excerpt(where, PATH_CHARACTERS)}"
    existing = _existing_output(where, name)
    with _reported(name):
        if existing is not None and not stat.S_ISREG(existing.st_mode):
            with open(where, "w", encoding="utf-8", opener=_nonblocking(os.O_WRONLY)) as out:
                os.set_blocking(out.fileno(), True)
                yield out
            return
        target = Path(os.path.realpath(where))
        temporary: str | None = None
        try:
            with _interrupts_held():  # a Ctrl-C waits until the temporary has a name here, to remove it by
                handle, temporary = tempfile.mkstemp(prefix=f".{target.name[:TEMPORARY_NAME_KEEPS]}.",
                                                     suffix=".part", dir=target.parent)
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                yield out
            # mkstemp makes owner-only files: a new output gets what a plain open gives, an old one keeps its mode
            os.chmod(temporary, 0o666 & ~_umask() if existing is None else stat.S_IMODE(existing.st_mode))
            os.replace(temporary, target)
        except BaseException:
            if temporary is not None:
                with _interrupts_held(), contextlib.suppress(FileNotFoundError):  # a second Ctrl-C waits too
                    os.unlink(temporary)
            raise


def _require_writable(where: str, info: os.stat_result, name: str) -> None:
    """InputError when the regular file `where` (of status `info`) is read-only: this process may not write it,
    or its owner may not (0444), which stops root too, whom `os.access` lets write anything: replacing the
    file through a rename would otherwise bypass the permission the user set."""
    if not (os.access(where, os.W_OK) and info.st_mode & stat.S_IWUSR):
        raise InputError(f"{name}: cannot write: the file is read-only (mode {stat.S_IMODE(info.st_mode):04o})")


@contextlib.contextmanager
def _interrupts_held() -> Iterator[None]:
    """Hold SIGINT while the block runs (it arrives, as Python's KeyboardInterrupt, just after): for the few
    steps that must not be cut in two, such as making a temporary file and learning its name."""
    if not hasattr(signal, "pthread_sigmask"):  # not on this system: nothing held
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _existing_output(where: str, name: str) -> os.stat_result | None:
    """The status of the file `where` names (links followed), None when it does not exist yet; InputError
    when it cannot be an output: a directory, a block device, a socket, a read-only file, a missing
    directory, a name too long."""
    try:
        info = os.stat(where)
    except FileNotFoundError:
        if not os.path.isdir(os.path.dirname(os.path.realpath(where))):
            raise InputError(f"{name}: the directory {excerpt(str(Path(where).parent), PATH_CHARACTERS)} does not "
                             "exist") from None
        return None
    except OSError as error:
        raise InputError(f"{name}: cannot write: {error.strerror}") from None
    mode = info.st_mode
    if not (stat.S_ISREG(mode) or stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)):
        raise InputError(f"{name}: is {kind(mode)}; write to a regular file, a character device or a FIFO")
    if stat.S_ISREG(mode):
        _require_writable(where, info, name)
    return info


@contextlib.contextmanager
def _reported(name: str) -> Iterator[None]:
    """OSError inside turned into InputError naming the output (`--svg 'x.svg': cannot write: ...`)."""
    try:
        yield
    except OSError as error:
        reason = "nothing reads this FIFO" if error.errno == errno.ENXIO else error.strerror
        raise InputError(f"{name}: cannot write: {reason}") from None


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
