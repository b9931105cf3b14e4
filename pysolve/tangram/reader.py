"""The tangram's text format (data/tangram/README.md) read into a checked Instance, and the CLI's placements.

Every mistake is one InputError naming the file, the line and what is wrong.
What `pysolve generate tangram --json` prints is read too (`from_json`), each
field through the same checks as its statement in the text format, a
mistake named by its place in the JSON (`t.json:pieces[2]`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pysolve import files
from pysolve.errors import InputError
from pysolve.paths import data_dir
from pysolve.tangram.model import (
    MAX_CELLS,
    Instance,
    Piece,
    Placement,
    check_area,
    check_size,
    check_unique,
    make_placement,
)

NAME_PATTERN = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,31}\Z")  # names are labels: at most 32 characters
COLOUR_PATTERN = re.compile(r"#[0-9a-fA-F]{6}\Z")
Where = int | str  # a statement's place: its line in a text file, its field in a JSON one (`pieces[2]`)


def classic_path() -> Path:
    """The shipped classic 10 x 10 instance."""
    return data_dir() / "tangram" / "classic.txt"


def load_instance(path: str | Path | None = None) -> Instance:
    """Read an instance file (default: the classic one); InputError names file and line."""
    path = Path(path) if path is not None else classic_path()
    return parse_any(files.read_text(path, "tangram file"), str(path))


def parse_instance(text: str, source: str = "<text>") -> Instance:
    """Parse the data format (data/tangram/README.md) and validate the instance."""
    reader = _Reader(source)
    for number, raw in enumerate(text.splitlines(), start=1):
        words = _colour_safe_split(raw)
        if words:
            reader.statement(number, words)
    return reader.finish()


def parse_any(text: str, source: str = "<text>") -> Instance:
    """An instance in the text format, or in the JSON `generate --json` prints.

    Text that starts as JSON does (`{` or `[`, which no statement does) is read as JSON."""
    if text.lstrip().startswith(("{", "[")):
        return from_json(files.parse_json(text, source), source)
    return parse_instance(text, source)


def from_json(data: Any, source: str = "<json>") -> Instance:
    """The instance `Instance.to_json` (`generate tangram --json`) describes.

    Each field is read as the text format's statement for it and checked as that statement is; InputError naming
    the field."""
    if not isinstance(data, dict):
        raise InputError(f"{source}: a tangram instance in JSON is an object with width, height, rotations, pieces "
                         "and placed, as `pysolve generate tangram --json` prints it")
    reader = _Reader(source)
    reader.statement("width", ["board", *_words(reader, "width", data, ("width", "height"))])
    if not isinstance(data.get("rotations", False), bool):
        raise reader.fail("rotations", f"must be true or false, not {files.excerpt(data['rotations'])}")
    reader.statement("rotations", ["rotations", "yes" if data.get("rotations") else "no"])
    for where, piece in _items(data, "pieces", reader):
        reader.statement(where, ["piece", *_words(reader, where, piece, ("key", "name", "colour", "width", "height"))])
    for where, place in _items(data, "placed", reader):
        given = [key for key in ("piece", "x", "y", "width", "height") if key in place]
        reader.statement(where, ["place", *_words(reader, where, place, given)])
    return reader.finish()


def _items(data: dict[str, Any], key: str, reader: _Reader) -> list[tuple[str, dict[str, Any]]]:
    """The objects of the JSON list `data[key]` (none when absent), each with its place (`pieces[2]`)."""
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise reader.fail(key, f"must be a list of objects, not {files.excerpt(value)}")
    return [(f"{key}[{index}]", item) for index, item in enumerate(value)]


def _words(reader: _Reader, where: Where, item: dict[str, Any], keys: Sequence[str]) -> list[str]:
    """The values of `keys` in the JSON object `item` as the words of a statement (a text or an integer as
    written); InputError naming the field that is missing or holds anything else (null is no name)."""
    words = []
    for key in keys:
        value = item.get(key)
        if not isinstance(value, str) and type(value) is not int:
            shown = "null" if value is None else files.excerpt(value)
            given = "is missing" if key not in item else f"is text or a whole number, not {shown}"
            raise reader.fail(where, f"{key!r} {given}")
        words.append(value if isinstance(value, str) else str(value))
    return words


def _colour_safe_split(raw: str) -> list[str]:
    """Split a line into words, dropping a trailing comment but keeping `#rrggbb` colours."""
    words = []
    for word in raw.split():
        if word.startswith("#") and not COLOUR_PATTERN.match(word):
            break
        words.append(word)
    return words


class _Reader:
    """Collects statements line by line and checks them; errors name `source:line`."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.board: tuple[int, int] | None = None
        self.rotations = False
        self.pieces: list[Piece] = []
        self.places: list[tuple[Where, list[str]]] = []

    def fail(self, line: Where | None, message: str) -> InputError:
        """An InputError located at `source:line`."""
        where = f"{self.source}:{line}" if line else self.source
        return InputError(f"{where}: {message}")

    def statement(self, line: Where, words: list[str]) -> None:
        """Take one statement."""
        keyword, fields = words[0], words[1:]
        if keyword == "board":
            self._board(line, fields)
        elif keyword == "piece":
            self._piece(line, fields)
        elif keyword == "rotations":
            if fields not in (["yes"], ["no"]):
                raise self.fail(line, "expected 'rotations yes' or 'rotations no'")
            self.rotations = fields == ["yes"]
        elif keyword == "place":
            self.places.append((line, fields))
        else:
            raise self.fail(line, f"unknown statement {files.excerpt(keyword)} (expected board, piece, rotations "
                                  "or place)")

    def integers(self, line: Where, fields: list[str], what: str) -> list[int]:
        """Fields as integers, or an error naming `what`."""
        return [files.whole_number(text, f"{self.source}:{line}", what) for text in fields]

    def _board(self, line: Where, fields: list[str]) -> None:
        if self.board is not None:
            raise self.fail(line, "a second 'board' statement")
        if len(fields) != 2:
            raise self.fail(line, "expected 'board WIDTH HEIGHT'")
        width, height = self.integers(line, fields, "board size")
        if width < 1 or height < 1:
            raise self.fail(line, f"board size {width}x{height} must be positive")
        if width * height > MAX_CELLS:
            raise self.fail(line, f"board {width}x{height} has {width * height} cells; tangram takes at most "
                                  f"{MAX_CELLS} (docs/tangram.md, Limits)")
        self.board = (width, height)

    def _piece(self, line: Where, fields: list[str]) -> None:
        if len(fields) != 5:
            raise self.fail(line, "expected 'piece KEY NAME COLOUR WIDTH HEIGHT'")
        key, name, colour = fields[:3]
        width, height = self.integers(line, fields[3:], "piece size")
        files.printable_word(key, f"{self.source}:{line}", "key")
        if len(key) != 1:
            raise self.fail(line, f"key {files.excerpt(key)} must be one character")
        if not NAME_PATTERN.match(name):
            raise self.fail(line, f"piece name {files.excerpt(name)} must be a letter then up to 31 letters, "
                                  "digits, '_' or '-'")
        if not COLOUR_PATTERN.match(colour):
            raise self.fail(line, f"colour {files.excerpt(colour)} of {name} must be #rrggbb")
        if width < 1 or height < 1:
            raise self.fail(line, f"size {width}x{height} of {name} must be positive")
        for other in self.pieces:
            if other.name == name:
                raise self.fail(line, f"piece name {name!r} used twice")
            if other.key == key:
                raise self.fail(line, f"key {key!r} used by {other.name} and {name}")
        self.pieces.append(Piece(name, key, colour, width, height))

    def finish(self) -> Instance:
        """The checked instance."""
        if self.board is None:
            raise self.fail(None, "no 'board WIDTH HEIGHT' statement")
        if not self.pieces:
            raise self.fail(None, "no 'piece' statements")
        instance = Instance(*self.board, tuple(self.pieces), self.rotations, Path(self.source).stem)
        self._check_sizes(instance)
        try:
            check_size(instance)
        except InputError as error:
            raise self.fail(None, str(error)) from None
        placed = tuple(self._placement(instance, line, fields) for line, fields in self.places)
        check_unique(instance, placed, self.source)
        return Instance(*self.board, tuple(self.pieces), self.rotations, instance.name, placed)

    def _check_sizes(self, instance: Instance) -> None:
        width, height = instance.width, instance.height
        for piece in instance.pieces:
            if not any(w <= width and h <= height for w, h in instance.orientations(piece.name)):
                raise self.fail(None, f"piece {piece.name} ({piece.width}x{piece.height}) does not fit "
                                      f"the {width}x{height} board")
        try:
            check_area(instance)
        except InputError as error:
            raise self.fail(None, str(error)) from None

    def _placement(self, instance: Instance, line: Where, fields: list[str]) -> Placement:
        if len(fields) not in (3, 5):
            raise self.fail(line, "expected 'place NAME X Y [WIDTH HEIGHT]'")
        numbers = self.integers(line, fields[1:], "place coordinate or size")
        try:
            return make_placement(instance, fields[0], *numbers)
        except InputError as error:
            raise self.fail(line, str(error)) from None


_PLACE = re.compile(r"([^:]+):([^,:]*),([^,:]*)(?::([^x:]*)x([^x:]*))?")


def parse_place(instance: Instance, text: str) -> Placement:
    """A CLI placement `NAME:X,Y` or `NAME:X,Y:WxH`.

    InputError quoting an excerpt of the text when it has another shape, or a number that is not ASCII digits
    (a full-width or Arabic-Indic digit is not read as one) or is longer than files.MAX_DIGITS.
    """
    shown = f"--place {files.excerpt(text)}"
    match = _PLACE.fullmatch(text.strip())
    if not match:
        raise InputError(f"{shown}: expected NAME:X,Y or NAME:X,Y:WxH")
    name, *words = match.groups()
    x, y, width, height = (None if word is None else files.whole_number(word, shown, "coordinate or size")
                           for word in words)
    assert x is not None and y is not None  # the pattern requires both
    try:
        return make_placement(instance, name, x, y, width, height)
    except InputError as error:
        raise InputError(f"{shown}: {error}") from None
