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
import json
import math
import os
import re
import shutil
import tempfile
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from pysolve.catalogue import Catalogue
from pysolve.errors import InputError, PysolveError, UnknownName
from pysolve.web import clients

MAX_BODY = 1_000_000  # bytes of a request body (an uploaded file included)
MAX_DEPTH = 32  # arrays and objects nested in a request body
SHOWN = 60  # characters of a refused value quoted in a message
LISTED = 12  # shipped names a message lists when none is close to the name asked for
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
    """The request's body as it arrives; 413 as soon as it passes MAX_BODY."""
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise too_large(f"the request body passed {MAX_BODY} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


def too_large(what: str) -> HTTPException:
    """413, closing the connection: the rest of the body is never read."""
    return HTTPException(413, f"{what}; the limit is {MAX_BODY}", headers={"Connection": "close"})


def parsed(raw: bytes) -> dict[str, Any]:
    """A request body read as a JSON object, checked (see `check_tree`); InputError saying what is wrong."""
    if not raw.strip():
        return {}
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"the request body is not UTF-8 text (byte 0x{raw[error.start]:02x} at offset "
                         f"{error.start})") from None
    try:
        data = json.loads(text, parse_constant=no_constant, parse_float=finite)
    except InputError:
        raise
    except json.JSONDecodeError as error:
        raise InputError(f"the request body is not JSON ({error})") from None
    except RecursionError:
        raise InputError(f"the request body nests arrays and objects deeper than {MAX_DEPTH}") from None
    except ValueError as error:  # an integer of more digits than Python reads
        raise InputError(f"the request body holds a number it cannot read ({error})") from None
    if not isinstance(data, dict):
        raise InputError("the request body must be a JSON object")
    check_tree(data)
    return data


def no_constant(name: str) -> Any:
    """json's hook for NaN and Infinity, which JSON does not have: refused."""
    raise InputError(f"the request body holds {name}, which is not a JSON number")


def finite(text: str) -> float:
    """json's hook for a number with a fraction or exponent: refused when it overflows (1e999)."""
    value = float(text)
    if not math.isfinite(value):
        raise InputError(f"the request body holds {excerpt(text)}, a number too large")
    return value


def check_tree(data: Any) -> None:
    """Refuse data nested too deep or holding a lone surrogate.

    InputError when `data` nests deeper than MAX_DEPTH or holds a lone surrogate (a key or a text that is
    not Unicode, which no answer could carry back), naming the field.
    """
    stack: list[tuple[Any, tuple[Any, ...]]] = [(data, ())]
    while stack:
        value, path = stack.pop()
        if len(path) > MAX_DEPTH:
            raise InputError(f"{field_name(path)} nests arrays and objects deeper than {MAX_DEPTH}")
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in items:
            if isinstance(key, str) and not is_unicode(key):
                raise InputError(f"{field_name(path)} has a key that is not Unicode text (a lone surrogate)")
            if isinstance(item, str) and not is_unicode(item):
                raise InputError(f"{field_name(path + (key,))} is not Unicode text (it holds a lone surrogate)")
            if isinstance(item, (dict, list)):
                stack.append((item, path + (key,)))


def is_unicode(text: str) -> bool:
    """False when `text` holds a lone surrogate (JSON's `\\ud800` alone), which UTF-8 cannot encode."""
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def field_name(path: tuple[Any, ...]) -> str:
    """A place in the request body in words: `the field 'options.file'`, `the field 'seats[2]'`."""
    if not path:
        return "the request body"
    dotted = "".join(f"[{key}]" if isinstance(key, int) else f".{key}" for key in path).lstrip(".")
    return f"the field '{cut(dotted)}'"


def excerpt(value: Any) -> str:
    """`value` as JSON, cut to SHOWN characters: what a message quotes of a refused value."""
    return cut(json.dumps(value))


def cut(text: str, limit: int = SHOWN) -> str:
    """`text` cut to `limit` characters, saying how long it was."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


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
    """The shipped names closest to `name`, else the first LISTED of them, for a message."""
    if not catalogue.entries:
        return "this puzzle ships none"
    close = catalogue.close(name)
    if close:
        return f"close names: {', '.join(close)}"
    names = catalogue.names()
    return "shipped: " + ", ".join(names[:LISTED]) + (f", ... ({len(names)} in all)" if len(names) > LISTED else "")


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
