"""The `pysolve` command: a thin face over the Python API.

Every PysolveError becomes one line on stderr and exit code 2; a cross-check
whose back ends disagree exits 1.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from pysolve import backends, bridge, puzzles
from pysolve.crosscheck import crosscheck
from pysolve.errors import PysolveError
from pysolve.report import demo_report, render_crosscheck

# modules that add whole command groups of their own: add_commands(subparsers)
COMMAND_MODULES: tuple[str, ...] = ("pysolve.azul.cli", "pysolve.tangram.play")


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line and exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> Parser:
    """The full `pysolve` argument parser."""
    parser = Parser(prog="pysolve", description="Puzzles and games as Prolog, miniKanren and Python, cross-checked.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=Parser)

    listing = commands.add_parser("backends", help="list the back ends, their versions and availability")
    listing.add_argument("--json", action="store_true", help="print JSON")
    listing.set_defaults(run=run_backends)

    for command, run, help_text in (
        ("solve", run_solve, "solve a puzzle on one back end"),
        ("crosscheck", run_crosscheck, "solve a puzzle on every back end and compare"),
    ):
        sub = commands.add_parser(command, help=help_text)
        per_puzzle = sub.add_subparsers(dest="puzzle", required=True, parser_class=Parser)
        for name in puzzles.names():
            puzzle = puzzles.get(name)
            puzzle_parser = per_puzzle.add_parser(name, help=puzzle.summary)
            puzzle.add_arguments(puzzle_parser)
            if command == "solve":
                puzzle_parser.add_argument("--backend", choices=backends.NAMES, help="back end (default: prolog if available, else kanren)")
            else:
                puzzle_parser.add_argument("--backends", help="comma-separated back ends to ask (default: all that answer)")
            puzzle_parser.add_argument("--json", action="store_true", help="print JSON")
            puzzle_parser.set_defaults(run=run)

    generate = commands.add_parser("generate", help="generate a random puzzle instance")
    per_generator = generate.add_subparsers(dest="puzzle", required=True, parser_class=Parser)
    for name in puzzles.names():
        puzzle = puzzles.get(name)
        if puzzle.can_generate:
            generator_parser = per_generator.add_parser(name, help=f"generate a {name} instance")
            puzzle.add_generate_arguments(generator_parser)
            generator_parser.add_argument("--json", action="store_true", help="print JSON")
            generator_parser.set_defaults(run=run_generate)

    query = commands.add_parser("query", help="run a Prolog goal against a rule base and print its bindings")
    query.add_argument("rule_base", metavar="RULEBASE", help=f"a shipped rule base ({', '.join(bridge.rule_bases())}) or a .pl file")
    query.add_argument("goal", metavar="GOAL", help='a Prolog goal, e.g. "successor(\'BHV\', S)"')
    query.add_argument("--limit", type=positive_int, default=0, help="at most this many solutions (default: all)")
    query.add_argument("--seconds", type=positive_float, default=bridge.DEFAULT_SECONDS, help="time limit inside Prolog")
    query.add_argument("--json", action="store_true", help="print JSON")
    query.set_defaults(run=run_query)

    demo = commands.add_parser("demo", help="every puzzle on every available back end, cross-checked")
    demo.set_defaults(run=run_demo)

    for module in COMMAND_MODULES:
        importlib.import_module(module).add_commands(commands)
    return parser


def positive_int(text: str) -> int:
    """argparse type: an integer >= 0."""
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text} is negative")
    return value


def positive_float(text: str) -> float:
    """argparse type: a number > 0."""
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text} is not a positive number")
    return value


def print_json(data: Any) -> None:
    """Write `data` as indented JSON to stdout."""
    json.dump(data, sys.stdout, indent=2)
    sys.stdout.write("\n")


def run_backends(args: argparse.Namespace) -> int:
    infos = backends.all_info()
    if args.json:
        print_json({"default": backends.default(), "backends": [info.to_json() for info in infos]})
        return 0
    default = backends.default()
    for info in infos:
        state = "available" if info.available else f"unavailable: {info.reason}"
        mark = " (default)" if info.name == default else ""
        print(f"{info.name:<7} {state}{mark}")
        print(f"        {info.version or '-'}; {info.description}")
    return 0


def run_solve(args: argparse.Namespace) -> int:
    puzzle = puzzles.get(args.puzzle)
    question = puzzle.question(args)
    answer = puzzle.solve(question, args.backend)
    written = puzzle.write_files(answer, args)
    if args.json:
        print_json(answer.to_json())
    else:
        print(puzzle.render(answer))
        stats = ", ".join(f"{key} {value}" for key, value in answer.stats.items())
        print(f"[{answer.backend}: {answer.status}; {stats}]")
    for path in written:
        print(f"wrote {path}", file=sys.stderr)
    return 0


def run_crosscheck(args: argparse.Namespace) -> int:
    puzzle = puzzles.get(args.puzzle)
    question = puzzle.question(args)
    only = None
    if args.backends:
        only = [name.strip() for name in args.backends.split(",") if name.strip()]
        for name in only:
            backends.check_name(name)
    report = crosscheck(puzzle, question, only)
    if args.json:
        print_json(report.to_json())
    else:
        print(render_crosscheck(puzzle, report))
    return 0 if report.agree else 1


def run_generate(args: argparse.Namespace) -> int:
    puzzle = puzzles.get(args.puzzle)
    data, text = puzzle.generate(args)
    if args.json:
        print_json(data)
    else:
        print(text)
    return 0


def run_query(args: argparse.Namespace) -> int:
    result = bridge.solutions(args.rule_base, args.goal, max_solutions=args.limit, seconds=args.seconds)
    if args.json:
        print_json({"solutions": result.rows, "status": result.status})
        return 0
    for row in result.rows:
        print(", ".join(f"{name} = {value}" for name, value in row.items()) or "true.")
    if not result.rows:
        print("false.")
    if result.status in ("time_limit", "inference_limit"):
        print(f"(stopped: {result.status.replace('_', ' ')} reached)", file=sys.stderr)
    return 0


def run_demo(args: argparse.Namespace) -> int:
    return demo_report(sys.stdout)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; return the exit code."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exit_:  # argparse: --help (0) or a bad flag (2), message already printed
        return int(exit_.code or 0)
    try:
        return args.run(args)
    except PysolveError as error:
        print(f"pysolve: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("pysolve: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
