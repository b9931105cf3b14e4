"""Options declared once, read two ways: as keywords from Python and as flags from the CLI.

A puzzle lists its options as `Option`s. `check` turns keyword values
(`up_to_rotation=True`, `count=2`, `place=["green:0,0"]`) into checked
values with the defaults filled in; `add_to_parser` gives the same table
to argparse, whose strings then go through the same `check`. So the API and
the CLI ask the same questions and refuse the same mistakes, with the same
words.
"""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from pysolve.budget import CLOCK_WORDS, MAX_SECONDS
from pysolve.errors import InputError, UnknownName

KINDS = (str, int, float, bool)


@dataclass(frozen=True)
class Option:
    """One option of a question (or of a generator): its name, type, default and checks."""

    name: str                        # the keyword; the CLI flag is --name-with-dashes
    type: type = str                 # str, int, float, or bool (a flag)
    default: Any = None
    help: str = ""
    choices: tuple[Any, ...] = ()
    minimum: float | None = None     # numbers: the smallest value allowed
    above: float | None = None       # numbers: values must be greater than this
    maximum: float | None = None     # numbers: the largest value allowed
    required: bool = False
    positional: bool = False         # given without a flag (FILE)
    many: bool = False               # repeatable on the CLI; a list in Python
    metavar: str | None = None
    exclusive: str | None = None     # at most one option of the same group may be set
    output: bool = False             # a file to write (`--svg OUT`), not part of the question

    def __post_init__(self) -> None:
        if self.type not in KINDS:
            raise TypeError(f"option {self.name}: type must be one of str, int, float, bool")

    @property
    def reads_file(self) -> bool:
        """True for an option naming a file to read (declared with the metavar FILE).

        A path, or the name of one of the puzzle's shipped instances (pysolve.catalogue).
        """
        return self.metavar == "FILE" and not self.output

    @property
    def flag(self) -> str:
        """How the CLI spells it: FILE for a positional, else --name-with-dashes."""
        return (self.metavar or self.name.upper()) if self.positional else "--" + self.name.replace("_", "-")

    def value(self, given: Any) -> Any:
        """`given` (a Python value, or the CLI's text) converted and checked; InputError when it does not fit."""
        if self.many:
            items = [given] if isinstance(given, (str, os.PathLike)) or not isinstance(given, Iterable) else given
            return tuple(self._one(item) for item in items)
        return self._one(given)

    def _one(self, given: Any) -> Any:
        value = self._converted(given)
        if isinstance(value, float) and not math.isfinite(value):
            raise InputError(f"{self.flag}: {value} is not a finite number")
        if self.choices and value not in self.choices:
            raise InputError(f"{self.flag}: {_echo(value)} is not one of {', '.join(map(str, self.choices))}")
        if self.minimum is not None and value < self.minimum:
            raise InputError(f"{self.flag}: {value} is less than {self.minimum:g}")
        if self.above is not None and not value > self.above:
            raise InputError(f"{self.flag}: {value} is not greater than {self.above:g}")
        if self.maximum is not None and value > self.maximum:
            raise InputError(f"{self.flag}: {value} is more than {self.maximum:g}")
        if self.output:
            from pysolve import files  # tempfile and the rest, only for an option that writes

            return files.check_output(value, self.flag)  # a name that cannot be written fails before the search
        return value

    def _converted(self, given: Any) -> Any:
        if self.type is bool:
            if not isinstance(given, bool):
                raise InputError(f"{self.flag} is a flag: give True or False, not {_echo(given)}")
            return given
        if self.type is str:
            if isinstance(given, os.PathLike):
                return os.fspath(given)
            if not isinstance(given, str):
                raise InputError(f"{self.flag}: expected text, not {_echo(given)}")
            return given
        number = "an integer" if self.type is int else "a number"
        if isinstance(given, str):
            try:
                value = self.type(given)
            except ValueError:
                raise InputError(f"{self.flag}: {_echo(given)} is not {number}") from None
        elif isinstance(given, bool) or not isinstance(given, (int, float)) or (self.type is int and
                                                                              not isinstance(given, int)):
            raise InputError(f"{self.flag}: expected {number}, not {_echo(given)}")
        else:
            try:
                value = self.type(given)
            except OverflowError:  # an integer past any float: float(10**400)
                raise InputError(f"{self.flag}: {_echo(given)} is too large for a number") from None
        if self.type is int:
            from pysolve.files import MAX_DIGITS  # loaded with every puzzle already (its catalogue reads files)

            if abs(value) >= 10 ** MAX_DIGITS:  # no option carries a number of a thousand digits into its work
                raise InputError(f"{self.flag}: {_echo(value)} is not an integer of at most {MAX_DIGITS} digits")
        return value

    def empty(self) -> Any:
        """The value when the option is not given."""
        if self.many:
            return tuple(self.default or ())
        if self.type is bool:
            return bool(self.default)
        return self.default


def _echo(given: Any) -> str:
    """`given` as a message quotes it: cut short (files.excerpt), whatever its size."""
    from pysolve.files import excerpt  # tempfile and the rest, only for a message

    return excerpt(given)


def wrong_argument(argument: str, expected: str, given: Any) -> InputError:
    """The InputError for an argument of pysolve's API that is not what it takes (no option of a question).

    Its message: `argument=: expected EXPECTED, not TYPE VALUE`, the value cut short as options quote theirs.
    """
    return InputError(f"{argument}=: expected {expected}, not {type(given).__name__} {_echo(given)}")


def seconds_option(default: float, help: str) -> Option:
    """The `seconds` option of a search.

    Its time limit, above 0 and at most budget.MAX_SECONDS (a week), counted on the clock of the work (CPU
    seconds), as its help says.
    """
    return Option("seconds", float, default, f"{help}; {CLOCK_WORDS}", above=0, maximum=MAX_SECONDS)


GENERATED_OUT = Option("out", metavar="OUT", output=True,  # every generator's, beside its own options
                       help="write the puzzle to OUT in the file format `pysolve solve` reads (default: print it)")


def seed_option(default: int | None, help: str) -> Option:
    """--seed: the random seed of a generator or a game, a whole number of at least 0.

    A negative seed would deal what its positive one deals, so none is taken.
    """
    return Option("seed", int, default, help, minimum=0)


def non_negative_int(text: str) -> int:
    """argparse type: an integer >= 0, of ASCII digits and at most files.MAX_DIGITS (echoed cut short)."""
    from pysolve import files  # only when such an option is given: tempfile and the rest cost every start

    try:
        value = files.whole_number(text.strip(), "N", "value")
    except InputError as error:
        raise argparse.ArgumentTypeError(str(error).partition(": ")[2]) from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text} is negative")
    return value


def check(table: Iterable[Option], given: Mapping[str, Any], what: str) -> dict[str, Any]:
    """Every option of `table` by name, from `given` (None means not given); InputError when one is bad.

    `what` names the command in messages (`pysolve solve tangram`).
    """
    options = {option.name: option for option in table}
    unknown = sorted(set(given) - set(options))
    if unknown:
        known = ", ".join(sorted(options)) or "none"
        raise UnknownName(f"{what} has no option {_echo(unknown[0])}; its options: {known}")
    values: dict[str, Any] = {}
    set_in_group: dict[str, Option] = {}
    for name, option in options.items():
        raw = given.get(name)
        is_set = raw is not None and raw is not False and not (option.many and not raw)
        if not is_set:
            if option.required:
                raise InputError(f"{what}: {option.flag} is required")
            values[name] = option.empty()
            continue
        values[name] = option.value(raw)
        if option.exclusive:
            other = set_in_group.setdefault(option.exclusive, option)
            if other is not option:
                raise InputError(f"{what}: {option.flag} and {other.flag} cannot be used together")
    return values


def add_to_parser(table: Iterable[Option], parser: argparse.ArgumentParser) -> None:
    """Declare the options on an argparse parser; values stay raw text for `check` (default None)."""
    groups: dict[str, Any] = {}
    for option in table:
        target: Any = parser
        if option.exclusive:
            if option.exclusive not in groups:  # one group per name (setdefault would leave empty groups behind)
                groups[option.exclusive] = parser.add_mutually_exclusive_group()
            target = groups[option.exclusive]
        shown = f"{option.default:g}" if isinstance(option.default, float) else option.default  # 60, not 60.0
        help_text = option.help + (f" (default {shown})" if _shows_default(option) else "")
        if option.positional:
            target.add_argument(option.name, metavar=option.flag, nargs=None if option.required else "?",
                                help=help_text)
        elif option.type is bool:
            target.add_argument(option.flag, dest=option.name, action="store_true", default=None, help=help_text)
        else:
            metavar = option.metavar or ("{" + ",".join(map(str, option.choices)) + "}" if option.choices else None)
            target.add_argument(option.flag, dest=option.name, metavar=metavar, required=option.required,
                                action="append" if option.many else "store", help=help_text)


def _shows_default(option: Option) -> bool:
    return option.default not in (None, False, ()) and "default" not in option.help


def from_namespace(table: Iterable[Option], args: argparse.Namespace) -> dict[str, Any]:
    """The values argparse read for `table`'s options, by name (None where not given)."""
    return {option.name: getattr(args, option.name, None) for option in table}
