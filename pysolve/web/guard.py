"""What a request may bring, checked before any page's code sees it.

- POST requests (every endpoint that changes something) carry JSON
  (`Content-Type: application/json`) and, when the browser says which page
  sent them (`Origin`), come from this server's own pages: a form or a script
  on another site cannot make one (`SameOriginJson`).
- A body is counted as it arrives and refused (413) as soon as it passes
  MAX_BODY, whether or not it declared its length (`body`).
- The JSON is checked once for what would trip the code behind it: nesting
  deeper than MAX_DEPTH, lone surrogates (text that is no Unicode), NaN and
  infinities, integers too long to read (`parsed`).
- Files are never paths on the server: a question reads shipped files by
  name (as `pysolve list` names them, or by their file under the data
  folder: `sample`, `sample.txt`), and uploaded text through a private
  temporary folder (`Files`).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import math
import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from pysolve.catalogue import Catalogue
from pysolve.errors import InputError, PysolveError, UnknownName
from pysolve.files import excerpt, json_mistake
from pysolve.web import clients

MAX_BODY = 1_000_000  # bytes of a request body (an uploaded file included)
MAX_DEPTH = 32  # arrays and objects nested in a request body
MAX_DIGITS = 100  # of an integer in a request body: past any count, size or seed
LISTED = 80  # characters of shipped names a message lists when none is close to the name asked for
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")  # the methods that change nothing
NONE_SHIPPED = Catalogue("")  # what a question that reads no shipped file (an Azul log) may name: nothing
FILE_NAME = re.compile(r"[^/\\\x00-\x1f\x7f]{1,100}")  # a name an upload may go by: one plain file name


class SameOriginJson:
    """ASGI middleware refusing state-changing requests that are not same-origin JSON.

    ASGI middleware: a request that may change something (any method but GET, HEAD, OPTIONS) is refused
    unless its body is JSON (415) and, when it carries an Origin, that origin is this server's own (403).

    A cross-site form can POST `text/plain` to a server on 127.0.0.1 from any page the user visits, and a
    cross-site script that sends JSON needs a CORS permission this server never gives; the Origin check
    refuses what a browser sends on another page's behalf even so.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] not in SAFE_METHODS:
            refusal = refused(Headers(scope=scope))
            if refusal is not None:
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)


def refused(headers: Headers) -> JSONResponse | None:
    """The answer to a state-changing request from another origin (403) or without a JSON body (415).

    None when it may go on.
    """
    origin = headers.get("origin")
    if origin is not None and not same_origin(origin, headers.get("host", "")):
        return JSONResponse({"error": f"requests from {excerpt(origin)} are refused: this server takes POST "
                                      "requests from its own pages only"}, status_code=403)
    kind = headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        shown = excerpt(kind) if kind else "none"
        return JSONResponse({"error": f"a POST request carries JSON (Content-Type: application/json); "
                                      f"this one's content type is {shown}"}, status_code=415)
    return None


def same_origin(origin: str, host: str) -> bool:
    """True when `origin` (the Origin header) names the host and port the request was sent to (Host)."""
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and bool(host) and parts.netloc.lower() == host.lower()


async def body(request: Request) -> dict[str, Any]:
    """The request's JSON object; InputError (400) when it is not one, 413 when it is too large."""
    return parsed(await bounded_body(request))


async def bounded_body(request: Request) -> bytes:
    """The request's body, counted as it arrives.

    413 as soon as it passes MAX_BODY (a declared length past it is refused before anything is read), 408
    when it has not all come within clients.BODY_SECONDS; the connection is then closed rather than read
    to its end.
    """
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY:
        raise too_large(f"the request body is {declared} bytes")
    try:
        return await asyncio.wait_for(read_body(request), clients.BODY_SECONDS)
    except asyncio.TimeoutError:
        raise HTTPException(408, f"the request body did not come within {clients.BODY_SECONDS:g} s",
                            headers={"Connection": "close"}) from None


async def read_body(request: Request) -> bytes:
    """The request's body as it arrives; 413 past MAX_BODY, 400 when its client leaves before its end.

    That 400 goes nowhere (the server drops it), but the request ends as any refused one does, unlogged.
    """
    chunks, size = [], 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_BODY:
                raise too_large(f"the request body passed {MAX_BODY} bytes")
            chunks.append(chunk)
    except ClientDisconnect:
        raise HTTPException(400, f"the client went away after {size} bytes of the request body",
                            headers={"Connection": "close"}) from None
    return b"".join(chunks)


def too_large(what: str) -> HTTPException:
    """413, closing the connection: the rest of the body is never read."""
    return HTTPException(413, f"{what}; the limit is {MAX_BODY}", headers={"Connection": "close"})


ESCAPED_BYTES = range(0xDC80, 0xDD00)  # where a byte that is no UTF-8 lands, decoded with errors="surrogateescape"


@dataclass(frozen=True)
class Unreadable:
    """A number json read that no field can take (NaN, 1e999, 5,000 digits): `check_tree` names its field."""

    what: str


def parsed(raw: bytes) -> dict[str, Any]:
    """A request body read as a JSON object, checked (see `check_tree`); InputError saying what is wrong, and where."""
    if not raw.strip():
        return {}
    text, wrong = decoded(raw)
    try:
        data = json.loads(text, parse_constant=no_constant, parse_float=finite, parse_int=whole)
    except json.JSONDecodeError as error:
        if wrong is not None:  # a byte that is no UTF-8 may be the JSON's mistake: that, first
            raise InputError(f"the request body is not UTF-8 text (byte 0x{raw[wrong]:02x} at offset {wrong})") \
                from None
        raise InputError(f"the request body is not JSON: {json_mistake(error)}") from None
    except RecursionError:
        raise InputError(f"the request body nests arrays and objects deeper than {MAX_DEPTH}") from None
    if not isinstance(data, dict):
        raise InputError("the request body must be a JSON object")
    check_tree(data, utf8=wrong is None)
    return data


def no_constant(name: str) -> Unreadable:
    """json's hook for NaN and Infinity, which JSON does not have."""
    return Unreadable(f"{name}, which is not a JSON number")


def finite(text: str) -> float | Unreadable:
    """json's hook for a number with a fraction or exponent: one that overflows (1e999) is no number here."""
    value = float(text)
    return value if math.isfinite(value) else Unreadable(f"{excerpt(text)}, a number too large")


def whole(text: str) -> int | Unreadable:
    """json's hook for an integer: one of more than MAX_DIGITS digits is no number here."""
    digits = len(text.lstrip("-"))
    return int(text) if digits <= MAX_DIGITS else Unreadable(f"an integer of {digits:,} digits (at most {MAX_DIGITS})")


def decoded(raw: bytes) -> tuple[str, int | None]:
    """`raw` as text, and the offset of its first byte that is no UTF-8 (None when all are).

    Such bytes stay in the text (errors="surrogateescape"), so that `check_tree` names the field holding one.
    """
    try:
        return raw.decode("utf-8"), None
    except UnicodeDecodeError as error:
        return raw.decode("utf-8", "surrogateescape"), error.start


def check_tree(data: Any, utf8: bool = True) -> None:
    """Refuse data nested too deep, holding a number no field takes, or text that is not Unicode.

    InputError when `data` nests deeper than MAX_DEPTH, holds an Unreadable number, or a key or a text that is
    no Unicode, naming the field: a lone surrogate, or (unless the body was `utf8`) a byte that is no UTF-8.
    """
    stack: list[tuple[Any, tuple[Any, ...]]] = [(data, ())]
    while stack:
        value, path = stack.pop()
        if len(path) > MAX_DEPTH:
            raise InputError(f"{field_name(path)} nests arrays and objects deeper than {MAX_DEPTH}")
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in items:
            if isinstance(key, str) and not is_unicode(key):
                raise InputError(f"{field_name(path)} has a key that is {not_unicode(key, utf8)}")
            if isinstance(item, str) and not is_unicode(item):
                raise InputError(f"{field_name(path + (key,))} is {not_unicode(item, utf8)}")
            if isinstance(item, Unreadable):
                raise InputError(f"{field_name(path + (key,))} holds {item.what}")
            if isinstance(item, (dict, list)):
                stack.append((item, path + (key,)))


def is_unicode(text: str) -> bool:
    """False when `text` holds a lone surrogate (JSON's `\\ud800` alone, or a byte that is no UTF-8)."""
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def not_unicode(text: str, utf8: bool) -> str:
    """Why `text` (not `is_unicode`) is not: the lone surrogate it holds, or the byte that is no UTF-8.

    A byte, when the body was not `utf8`: `decoded` left it there.
    """
    lone = next(character for character in text if 0xD800 <= ord(character) < 0xE000)
    if not utf8 and ord(lone) in ESCAPED_BYTES:
        return f"not UTF-8 text (it holds the byte 0x{ord(lone) - 0xDC00:02x})"
    return "not Unicode text (it holds a lone surrogate)"


def field_name(path: tuple[Any, ...]) -> str:
    """A place in the request body in words: `the field 'options.file'`, `the field 'seats[2]'`."""
    if not path:
        return "the request body"
    dotted = "".join(f"[{key}]" if isinstance(key, int) else f".{key}" for key in path).lstrip(".")
    return f"the field {excerpt(dotted)}"


def field_of(data: dict[str, Any], name: str, kind: type | tuple[type, ...], default: Any = None,
             required: bool = False) -> Any:
    """`data[name]` checked to be of `kind` (bool is not an int here); InputError naming the field."""
    if name not in data or data[name] is None:
        if required:
            raise InputError(f"the field {name!r} is required")
        return default
    value = data[name]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        names = " or ".join(k.__name__ for k in kinds)
        raise InputError(f"the field {name!r} must be {names}, not {excerpt(value)}")
    return value


def shipped_file(catalogue: Catalogue, name: str, what: str) -> Path:
    """The file of the shipped instance `name`.

    Any name the CLI takes for it (its name, its file, an alias: `sample`, `sample.txt`, `eternity-6x6`),
    looked up in the puzzle's catalogue; UnknownName naming `what` (`the option 'file'`) for anything else,
    a path above all, which is never looked up on the server.
    """
    entry = catalogue.find(name)
    if entry is None:
        raise UnknownName(f"{what}: no shipped instance {excerpt(name)} (this server reads only shipped "
                          f"instances and uploaded text); {names_near(catalogue, name)}")
    return entry.path


def names_near(catalogue: Catalogue, name: str) -> str:
    """The shipped names closest to `name`, else the first of them (LISTED characters at most), for a message."""
    if not catalogue.entries:
        return "this puzzle ships none"
    close = catalogue.close(name)
    if close:
        return f"close names: {', '.join(close)}"
    names = catalogue.names()
    ends = itertools.accumulate(len(known) + 2 for known in names)  # the list's length up to each name
    count = sum(end <= LISTED for end in ends)
    rest = f", ... ({len(names)} in all)" if count < len(names) else ""
    return "shipped: " + ", ".join(names[:count]) + rest


class Files:
    """The files one question reads.

    Shipped ones by name (from the puzzle's catalogue, `shipped`), uploaded ones written into a private
    temporary folder for the readers that take a path (the CLI's own); never a path the request names.

    Use it as a context manager: the folder goes at the end, and the server's folders (the upload folder,
    the shipped instances') are taken out of a PysolveError raised inside and of `shown(...)`, so that
    messages and answers name each file as the request did (`classic.txt`, `mine.txt`).
    """

    def __init__(self, shipped: Catalogue = NONE_SHIPPED) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="pysolve-upload-"))
        self.catalogue = shipped
        self.hidden = [self.folder, *([shipped.folder] if shipped.folder else [])]

    def shipped(self, name: str, what: str) -> str:
        """The file of the shipped instance `name` (see `shipped_file`)."""
        return str(shipped_file(self.catalogue, name, what))

    def upload(self, text: str, name: str) -> str:
        """Write uploaded `text` as `name` (one plain file name); its path, for a reader that takes one."""
        if not FILE_NAME.fullmatch(name) or name in (".", ".."):
            raise InputError(f"an upload's name is one plain file name (up to 100 characters, no / or "
                             f"control character), not {excerpt(name)}")
        path = self.folder / name
        path.write_text(text, encoding="utf-8")
        return str(path)

    def shown(self, text: str) -> str:
        """`text` with the server's folders taken out (JSON text included: the folders need no escaping)."""
        for folder in self.hidden:
            text = text.replace(f"{folder}{os.sep}", "")
        return text

    def __enter__(self) -> Files:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)
        if isinstance(error, PysolveError) and error.args:
            error.args = (self.shown(str(error)), *error.args[1:])
