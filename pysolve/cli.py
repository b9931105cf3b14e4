"""The `pysolve` command: a thin face over the Python API.

Every PysolveError becomes one line on stderr and exit code 2; a cross-check
whose back ends disagree exits 1, one with fewer than two answers (nothing
compared) exits 3, and so does a query that a limit stopped (unknown).

A command loads only what it runs: each command's arguments are added when
it is parsed or its help is shown (`Parser`'s `fill`), and the modules that
run it are imported inside its `run_` function, so that `pysolve --help`,
`pysolve list` and `pysolve backends` start no back end (tests/test_startup.py).
"""

from __future__ import annotations

import argparse
import functools
import json
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from pysolve import __version__, backends, budget, memory, options, puzzles, words
from pysolve.budget import DEFAULT_SECONDS
from pysolve.errors import InputError, PysolveError
from pysolve.options import non_negative_int

if TYPE_CHECKING:
    from pysolve.answers import Answer
    from pysolve.puzzle import Puzzle

QUERY_WIDTH = 200  # characters of each binding `pysolve query` prints by default
NOT_COMPARED = 3  # the exit code of a cross-check with fewer than two answers: no verdict
STOPPED = NOT_COMPARED  # the exit code of a query a limit stopped: no verdict either (it neither held nor failed)
DEFAULT_WORDS = "default: prolog if available, else kanren"
BACKEND_HELP = f"back end ({DEFAULT_WORDS})"
SOLVE_BACKEND_HELP = f"back end ({DEFAULT_WORDS}; where that one leaves a question to another, the answer line says " \
                     "which answered and why)"


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line and exit code 2, and whose arguments may wait until it is used.

    `fill` (a keyword of `add_parser`) adds them before the parser first parses or shows its help.
    """

    def __init__(self, *args: Any, fill: Callable[[Parser], None] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fill = fill

    def filled(self) -> None:
        """Add the arguments `fill` adds, once."""
        fill, self.fill = self.fill, None
        if fill is not None:
            fill(self)

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None) -> tuple[argparse.Namespace, list[str]]:
        self.filled()
        return super().parse_known_args(args, namespace)

    def format_usage(self) -> str:
        self.filled()
        return super().format_usage()

    def format_help(self) -> str:
        self.filled()
        return super().format_help()

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> Parser:
    """The full `pysolve` argument parser; each command's own arguments are added when it is used."""
    parser = Parser(prog="pysolve", description="Puzzles and games as Prolog, miniKanren and Python, cross-checked.")
    parser.add_argument("--version", action="version", version=f"pysolve {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    commands.add_parser("backends", help="list the back ends, their versions and availability", fill=fill_backends)
    commands.add_parser("solve", help="solve a puzzle on one back end", fill=fill_solve)
    commands.add_parser("crosscheck", help="solve a puzzle on every back end and compare", fill=fill_crosscheck)
    commands.add_parser("check", help="check a .pl rule base (or .py relations) of your own on random questions",
                        fill=fill_check)
    commands.add_parser("grade", help="grade a class: every submission in a folder on the same questions, property "
                                      "by property", fill=fill_grade)
    commands.add_parser("generate", help="generate a random puzzle instance", fill=fill_generate)
    commands.add_parser("list", help="list the shipped instances, which every FILE takes by name", fill=fill_list)
    offered = puzzles.commands()
    if any(puzzle["play"] for puzzle in offered.values()):
        commands.add_parser("play", help="play a game in the terminal (mouse and keyboard)", fill=fill_play)
    commands.add_parser("query", help="run a Prolog goal against a rule base and print its bindings",
                        fill=fill_query)
    commands.add_parser("trace", help="replay a recorded search, or two to four of one question side by side",
                        fill=fill_trace)
    demo = commands.add_parser("demo", help="every puzzle on every available back end, cross-checked")
    demo.set_defaults(run=run_demo)
    commands.add_parser("serve", help="serve the web pages: a page per puzzle, the traces and the cross-check "
                                      "(serve --help lists them)", fill=fill_serve)
    for name, puzzle in offered.items():
        for group, help in puzzle["command_groups"].items():
            commands.add_parser(group, help=help, fill=functools.partial(fill_command_group, name, group))
    return parser


def fill_command_group(puzzle: str, group: str, parser: Parser) -> None:
    """`pysolve GROUP ...`, a command group of the puzzle's own (`pysolve azul`)."""
    puzzles.get(puzzle).fill_command_group(group, parser)


def fill_backends(parser: Parser) -> None:
    """`pysolve backends`."""
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(run=run_backends)


def fill_solve(parser: Parser) -> None:
    """`pysolve solve PUZZLE`: the puzzle's options, the back end, a trace, the parts of a count."""
    per_puzzle = parser.add_subparsers(dest="puzzle", required=True, parser_class=Parser)
    for puzzle in all_puzzles():
        puzzle_parser = per_puzzle.add_parser(puzzle.name, help=puzzle.summary)
        options.add_to_parser(puzzle.options, puzzle_parser)
        puzzle_parser.add_argument("--backend", choices=backends.NAMES, help=SOLVE_BACKEND_HELP)
        puzzle_parser.add_argument("--trace", metavar="FILE",
                                   help="record the back end's own search in FILE, one JSON event a "
                                        "line (`pysolve trace` replays it)")
        add_parallel_options(puzzle_parser)
        puzzle_parser.add_argument("--json", action="store_true", help="print JSON")
        puzzle_parser.add_argument("--verbose", action="store_true",
                                   help="the status line with every statistic of the search")
        memory.add_option(puzzle_parser)
        puzzle_parser.set_defaults(run=run_solve)


def fill_crosscheck(parser: Parser) -> None:
    """`pysolve crosscheck PUZZLE`: the puzzle's options and the cross-check's."""
    per_puzzle = parser.add_subparsers(dest="puzzle", required=True, parser_class=Parser)
    for puzzle in all_puzzles():
        puzzle_parser = per_puzzle.add_parser(puzzle.name, help=puzzle.summary)
        add_crosscheck_options(puzzle, puzzle_parser)
        puzzle_parser.add_argument("--json", action="store_true", help="print JSON")
        memory.add_option(puzzle_parser)
        puzzle_parser.set_defaults(run=run_crosscheck)


def fill_check(parser: Parser) -> None:
    """`pysolve check PUZZLE RULES`, for each puzzle that declares the rules a rule base of one's own defines."""
    checked = parser.add_subparsers(dest="puzzle", required=True, parser_class=Parser)
    for puzzle in all_puzzles():
        if puzzle.rules is not None:
            add_check_parser(checked, puzzle)


def fill_grade(parser: Parser) -> None:
    """`pysolve grade PUZZLE SUBMISSIONS`: the class's folder, the questions, the budget and the outputs."""
    from pysolve import grade
    from pysolve.executors import workers_argument

    parser.add_argument("puzzle", metavar="PUZZLE", help="a puzzle with a rules interface (pysolve check lists them)")
    parser.add_argument("folder", metavar="SUBMISSIONS", help="a folder of submissions: .pl rule bases, .py modules "
                                                              "of relations, or a folder holding one, per student")
    parser.add_argument("--examples", type=non_negative_int, default=grade.EXAMPLES, metavar="N",
                        help=f"random questions drawn (default {grade.EXAMPLES}), the same for everybody")
    parser.add_argument("--seed", type=non_negative_int, default=grade.SEED, help=f"their seed (default {grade.SEED})")
    parser.add_argument("--inferences", type=non_negative_int, metavar="N",
                        help=f"a rule base's budget per question in Prolog inferences (default the puzzle's: "
                             f"{grade.INFERENCES:,}, or more where pysolve's own rule base takes many; a module of "
                             f"relations gets as many Python calls, {grade.CALLS:,} by default)")
    parser.add_argument("--report", metavar="CSV", help="write the grades there, a row per student")
    parser.add_argument("--html", metavar="FILE", help="write the class report there, counterexamples drawn")
    parser.add_argument("--rerun", metavar="STUDENT", help="grade that submission alone, its row replaced in --report")
    parser.add_argument("--workers", type=workers_argument, default="auto", metavar="N",
                        help="processes grading side by side (default auto: one per core)")
    parser.set_defaults(run=run_grade)


def fill_generate(parser: Parser) -> None:
    """`pysolve generate PUZZLE`, for each puzzle that generates instances."""
    per_generator = parser.add_subparsers(dest="puzzle", required=True, parser_class=Parser)
    for puzzle in all_puzzles():
        if puzzle.can_generate:
            generator_parser = per_generator.add_parser(puzzle.name, help=f"generate a {puzzle.name} instance")
            options.add_to_parser((*puzzle.generate_options, options.GENERATED_OUT), generator_parser)
            generator_parser.add_argument("--json", action="store_true",
                                          help="print the puzzle described as JSON (its file goes to --out)")
            memory.add_option(generator_parser)
            generator_parser.set_defaults(run=run_generate)


def fill_list(parser: Parser) -> None:
    """`pysolve list [PUZZLE]`."""
    parser.add_argument("puzzle", metavar="PUZZLE", nargs="?", choices=puzzles.names(),
                        help="only this puzzle's (default: every puzzle's)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(run=run_list)


def fill_play(parser: Parser) -> None:
    """`pysolve play GAME`, for each puzzle that can be played."""
    games = parser.add_subparsers(dest="puzzle", required=True, parser_class=Parser)
    for puzzle in all_puzzles():
        if puzzle.can_play:
            add_play_parser(games, puzzle)


def fill_query(parser: Parser) -> None:
    """`pysolve query RULEBASE [GOAL]`: the shipped rule bases are named in its help."""
    from pysolve import bridge

    parser.add_argument("rule_base", metavar="RULEBASE",
                        help=f"a shipped rule base ({', '.join(bridge.rule_bases())}) or a .pl file")
    parser.add_argument("goal", metavar="GOAL", nargs="?",
                        help='a Prolog goal, e.g. "move(\'BHV\', Next)"; without one, read goals one at a time '
                             "(; for the next answer, Enter to stop)")
    parser.add_argument("--limit", type=non_negative_int, default=0,
                        help="at most this many answers (default: all); says when there are more")
    parser.add_argument("--seconds", type=seconds, default=DEFAULT_SECONDS,
                        help=f"time limit of the goal, inside Prolog; {budget.CLOCK_WORDS}")
    parser.add_argument("--max-width", type=non_negative_int, default=QUERY_WIDTH, metavar="N",
                        help=f"cut each binding to N characters (default {QUERY_WIDTH}; 0 shows everything)")
    parser.add_argument("--verbose", action="store_true", help="on an error, print Prolog's whole message")
    parser.add_argument("--json", action="store_true", help="print JSON (values never cut)")
    memory.add_option(parser)
    parser.set_defaults(run=run_query)


def fill_trace(parser: Parser) -> None:
    """`pysolve trace FILE...`."""
    from pysolve.replay import MAX_TRACES

    parser.add_argument("traces", metavar="FILE", nargs="+",
                        help=f"a trace file (`pysolve solve PUZZLE ... --trace FILE`), or 2 to {MAX_TRACES} of one "
                             "question")
    parser.add_argument("--html", metavar="OUT", help="write a self-contained page that replays them side by side "
                                                      "(or the one search)")
    memory.add_option(parser)
    parser.set_defaults(run=run_trace)


def fill_serve(parser: Parser) -> None:
    """`pysolve serve`: the pages it serves (its help lists them); where it listens, their back end, its Prolog."""
    parser.description = served_pages()
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=non_negative_int, default=8000, help="port to listen on (default 8000)")
    parser.add_argument("--backend", choices=backends.NAMES, help="the pages' " + BACKEND_HELP)
    parser.add_argument("--prolog-processes", type=positive_int, default=None, metavar="N",
                        help="processes answering the pages' Prolog questions side by side (default: one per core, "
                             "at most 4)")
    memory.add_option(parser)
    parser.set_defaults(run=run_serve)


def served_pages() -> str:
    """What `pysolve serve` serves, every page by its path and title (or what it needs, without the web extra)."""
    try:
        from pysolve.web.app import listed_pages
    except ImportError as error:
        return f"Serve the web pages, once the web extra is installed: pip install 'pysolve[web]' ({error.name} " \
               "is missing)."
    return "Serve the web pages: " + ", ".join(f"{path} ({title})" for path, _, title, _ in listed_pages()) + "."


def add_crosscheck_options(puzzle: Puzzle, parser: argparse.ArgumentParser) -> None:
    """The puzzle's options, --backends, and --seconds.

    Each back end's own time limit (in place of a puzzle's --seconds, whose default is one search's, with
    the cross-check's shorter one).
    """
    from pysolve.agreement import SECONDS as CROSSCHECK_SECONDS
    from pysolve.executors import workers_argument

    options.add_to_parser([option for option in puzzle.options if option.name != "seconds"], parser)
    parser.add_argument("--backends", help="comma-separated back ends to ask (default: all that answer)")
    parser.add_argument("--seconds", type=seconds, help=f"time limit of each back end, which run side by side "
                                                        f"(default {CROSSCHECK_SECONDS:g}), on each question")
    parser.add_argument("--workers", type=workers_argument, default=1, metavar="N",
                        help="in a file of many puzzles, N processes (auto: one per core) cross-checking them side "
                             "by side (default 1: one after another in this process)")
    parser.add_argument("--cluster", metavar="ADDRESS",
                        help="the same on an existing Dask cluster (tcp://HOST:PORT)")


def add_parallel_options(parser: argparse.ArgumentParser) -> None:
    """--workers and --cluster.

    A count split into parts (the first placements), or a file's puzzles, run in parallel.
    """
    from pysolve.executors import workers_argument

    parser.add_argument("--workers", type=workers_argument, default=1, metavar="N",
                        help="N processes (auto: one per core) for a count in parts or a file's puzzles side by "
                             "side; a count that one search answers at once runs alone, and says so, as does a file "
                             "too small for auto's workers to pay (default 1: one search in this process)")
    parser.add_argument("--cluster", metavar="ADDRESS",
                        help="the same on an existing Dask cluster (tcp://HOST:PORT)")


def add_check_parser(puzzles_parser: Any, puzzle: Puzzle) -> None:
    """`pysolve check PUZZLE RULES.pl`: the rule base, how many random questions, how large, and the outputs."""
    from pysolve.check import EXAMPLES as CHECK_EXAMPLES
    from pysolve.check import MOST_EXAMPLES
    from pysolve.check import SECONDS as CHECK_SECONDS
    from pysolve.executors import workers_argument

    rules = puzzle.rules
    assert rules is not None
    parser = puzzles_parser.add_parser(puzzle.name, help=f"check a rule base that defines {rules.head}")
    parser.add_argument("rules", metavar="RULES", help=f"your rules: a .pl file defining {rules.indicator}, or a "
                                                       f".py module of miniKanren relations defining "
                                                       f"{rules.relation_head}")
    parser.add_argument("--examples", type=count_at_most(MOST_EXAMPLES), default=CHECK_EXAMPLES, metavar="N",
                        help=f"ask at most N random questions (default {CHECK_EXAMPLES}, at most {MOST_EXAMPLES:,})")
    parser.add_argument("--seed", type=non_negative_int, help="random seed (default: a fresh one, printed)")
    parser.add_argument("--max-size", type=non_negative_int, metavar="N",
                        help=f"the random boards' largest size: {rules.size_words} (default {rules.default_size})")
    parser.add_argument("--seconds", type=seconds, default=CHECK_SECONDS,
                        help=f"time limit of each back end on each question (default {CHECK_SECONDS:g})")
    parser.add_argument("--out", metavar="FILE", help="write the smallest disagreement there "
                                                      "(default: RULES-counterexample.txt in this folder)")
    parser.add_argument("--workers", type=workers_argument, default=1, metavar="N",
                        help="N processes (auto: one per core, once a trial here says they pay) answering the "
                             "random questions ahead, side by side; a disagreement still shrinks here, and the "
                             "report is the same (default 1)")
    parser.add_argument("--json", action="store_true", help="print the report as one JSON object")
    memory.add_option(parser)
    parser.set_defaults(run=run_check)


def add_play_parser(games: Any, puzzle: Puzzle, name: str | None = None) -> argparse.ArgumentParser:
    """`pysolve play PUZZLE`: the puzzle's play options and --backend, under `games` (a subparsers action).

    A puzzle with a command group of its own adds the same parser there too (`pysolve azul play`), by `name`.
    """
    game_parser = games.add_parser(name or puzzle.name, help=f"play {puzzle.name} in the terminal; "
                                                            "the rules come from a back end")
    options.add_to_parser(puzzle.play_options, game_parser)
    game_parser.add_argument("--backend", choices=backends.NAMES, help=BACKEND_HELP)
    game_parser.set_defaults(run=run_play, puzzle=puzzle.name)
    return game_parser


def all_puzzles() -> list[Puzzle]:
    """Every registered puzzle, in registry order."""
    return [puzzles.get(name) for name in puzzles.names()]


def count_at_most(most: int) -> Callable[[str], int]:
    """argparse type: an integer from 0 to `most`, the documented bound of a count (the option's help says it)."""
    def count(text: str) -> int:
        digits = text.strip()
        if digits.isascii() and digits.isdigit() and len(digits.lstrip("0")) > len(str(most)):
            from pysolve.files import excerpt  # only for such a count: tempfile and the rest cost every start

            raise argparse.ArgumentTypeError(f"{excerpt(digits)} is more than {most:,}, the most it takes")
        value = non_negative_int(text)
        if value > most:
            raise argparse.ArgumentTypeError(f"{value:,} is more than {most:,}, the most it takes")
        return value

    return count


def positive_int(text: str) -> int:
    """argparse type: an integer >= 1."""
    value = non_negative_int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not at least 1")
    return value


def seconds(text: str) -> float:
    """argparse type: a time limit (above 0, at most budget.MAX_SECONDS; no nan or inf)."""
    try:
        return budget.time_limit(float(text))
    except InputError as error:
        raise argparse.ArgumentTypeError(str(error).partition(": ")[2]) from None


def print_json(data: Any) -> None:
    """Write `data` as indented JSON to stdout."""
    json.dump(data, sys.stdout, indent=2)
    sys.stdout.write("\n")


def run_backends(args: argparse.Namespace) -> int:
    infos = backends.kept_info()
    default = backends.preferred(infos)
    if args.json:
        print_json({"default": default, "backends": [info.to_json() for info in infos]})
        return 0
    for info in infos:
        state = "available" if info.available else f"unavailable: {info.reason}"
        mark = " (default)" if info.name == default else ""
        print(f"{info.name:<7} {state}{mark}")
        print(f"        {info.version or '-'}; {info.description}")
    return 0


def question_values(puzzle: Puzzle, args: argparse.Namespace) -> dict[str, Any]:
    """The question's options as keywords, from the parsed command line."""
    return options.from_namespace(puzzle.question_options(), args)


def run_solve(args: argparse.Namespace) -> int:
    from pysolve import executors, parallel
    from pysolve.report import Ticker

    puzzle = puzzles.get(args.puzzle)
    cluster = getattr(args, "cluster", None)
    if cluster is not None:
        executors.check_cluster(cluster)
    questions = puzzle.questions(**question_values(puzzle, args))
    outputs = options.check(puzzle.output_options(), options.from_namespace(puzzle.output_options(), args),
                            f"pysolve solve {puzzle.name}")
    parallel_asked = args.workers != 1 or cluster is not None
    if args.trace is not None and len(questions) > 1:
        raise InputError(f"--trace records one search; this file holds {len(questions)}: pick one with --index K")
    if parallel_asked and args.trace is not None:
        raise InputError("--trace records one search in one process: leave out --workers/--cluster")
    if len(questions) == 1:
        if parallel_asked:
            answer = parallel.count_in_parts(puzzle, questions[0], args.backend, args.workers, cluster)
            if "serially" in answer.stats:
                print(f"pysolve: {answer.stats['serially']}", file=sys.stderr)
        else:
            with Ticker(f"{puzzle.name}: searching"):
                answer = puzzle.solve(questions[0], args.backend, args.trace)
        written = puzzle.write_files(answer, outputs) + ([args.trace] if args.trace is not None else [])
        print_answer(puzzle, answer, args.json, args.verbose, defaulted=args.backend is None)
        for path in written:
            print(f"wrote {path}", file=sys.stderr)
        return 0
    said: list[str] = []  # why --workers auto answered the file here, told after its answers
    code = solve_batch(puzzle, parallel.answers(puzzle, questions, args.backend, args.workers, cluster, said.append),
                       len(questions), args.json, args.verbose, defaulted=args.backend is None)
    for line in said:
        print(f"pysolve: {line}", file=sys.stderr)
    return code


def print_answer(puzzle: Puzzle, answer: Answer, as_json: bool, verbose: bool = False,
                 defaulted: bool = False) -> None:
    """One answer as JSON, or drawn with a status line.

    In words (`[prolog: solved in 0.03 s, 361 states]`), or with `verbose` every statistic as the search
    named it (`[prolog: solved; seconds 0.0312, memo 53]`). `defaulted`: no back end was named, so where
    another than the default one answered, the line says why.
    """
    if as_json:
        print_json(answer.to_json())
        return
    print(puzzle.render(answer))
    why = chosen_because(puzzle, answer) if defaulted else ""
    print(every_stat(answer) if verbose else status_line(answer, puzzle.status_words(answer), why))


def chosen_because(puzzle: Puzzle, answer: Answer) -> str:
    """Why another back end than the default one answered a question asked of none by name ('' when it did not)."""
    default = backends.default()
    if answer.backend == default:
        return ""
    if default not in puzzle.backends_for(answer.asked):
        return f"{default}, the default, does not answer this question"
    return f"{default}, the default, answers this question only when asked: --backend {default}"


def status_line(answer: Answer, status: str = "", why: str = "") -> str:
    """The back end, the status and the time in words, and the work done where it is counted.

    States searched, parts run in parallel (the rest of the statistics are --verbose's and --json's).
    `status`: the status in the question's words (Puzzle.status_words; default the status itself); `why`:
    why this back end answered, beside its name.
    """
    from pysolve.answers import UNKNOWN

    stats = answer.stats
    took = f"{'after' if answer.status == UNKNOWN else 'in'} {words.seconds(stats['seconds'])}"
    counted = [words.plural(stats["states"], "state")] if "states" in stats else []
    if "parts" in stats:
        counted.append(f"{words.plural(stats['parts'], 'part')} on {stats['ran_on']}")
    backend = f"{answer.backend} ({why})" if why else answer.backend
    return f"[{backend}: {', '.join([f'{status or answer.status} {took}', *counted])}]"


def every_stat(answer: Answer) -> str:
    """The status line of --verbose: every statistic by its name, as the search recorded it."""
    stats = ", ".join(f"{key} {value}" for key, value in answer.stats.items())
    return f"[{answer.backend}: {answer.status}; {stats}]"


def solve_batch(puzzle: Puzzle, answers: Iterable[Answer], total: int, as_json: bool, verbose: bool = False,
                defaulted: bool = False) -> int:
    """Print the `total` answers of a file's questions in order as they come, with progress and a summary on stderr.

    With --json they are one document, written as they come: `{"puzzle", "questions", "answers": [...],
    "statuses"}`, an answer a line (the one-answer shape), the statuses counted at the end.
    """
    from pysolve.report import Progress

    progress = Progress(total, f"{puzzle.name}")
    statuses: dict[str, int] = {}
    if as_json:
        print(f'{{"puzzle": {json.dumps(puzzle.name)}, "questions": {total}, "answers": [', flush=True)
    for number, answer in enumerate(answers, start=1):
        statuses[answer.status] = statuses.get(answer.status, 0) + 1
        if as_json:
            print(json.dumps(answer.to_json()) + ("," if number < total else ""), flush=True)
        else:
            print(f"# {number}")
            print_answer(puzzle, answer, False, verbose, defaulted)
        progress.step(answer.status)
    progress.close()
    counted = dict(sorted(statuses.items()))
    if as_json:
        print(f"], \"statuses\": {json.dumps(counted)}}}")
    summary = ", ".join(f"{count} {status}" for status, count in counted.items())
    print(f"{words.plural(total, f'{puzzle.name} question')}: {summary}", file=sys.stderr)
    return 0


def run_crosscheck(args: argparse.Namespace) -> int:
    """One question's cross-check as a table and its verdict line, or a file of many puzzles' a line each.

    Exit 0 when the answers agree (on every question), 1 when two differ (on any), NOT_COMPARED otherwise:
    some question had fewer than two answers to compare."""
    from pysolve import executors
    from pysolve.agreement import SECONDS as CROSSCHECK_SECONDS
    from pysolve.agreement import crosscheck
    from pysolve.report import CrossCheckPrinter

    puzzle = puzzles.get(args.puzzle)
    if args.cluster is not None:
        executors.check_cluster(args.cluster)
    questions = puzzle.questions(**question_values(puzzle, args))
    only = None if args.backends is None else backends.listed(args.backends)
    limit = args.seconds or CROSSCHECK_SECONDS
    if len(questions) > 1:
        return crosscheck_batch(puzzle, questions, only, limit, args)
    printer = CrossCheckPrinter(puzzle, out=None if args.json else sys.stdout)
    report = crosscheck(puzzle, questions[0], only, seconds=limit, watch=printer)
    if args.json:
        print_json(report.to_json())
    else:
        printer.close(report)
    return NOT_COMPARED if not report.compared else 0 if report.agree else 1


def crosscheck_batch(puzzle: Puzzle, questions: list[Any], only: list[str] | None, limit: float,
                     args: argparse.Namespace) -> int:
    """Cross-check a file's questions (side by side with --workers or --cluster): a line each as they come in order.

    A progress line on a terminal's stderr while they run, and the verdicts counted last; with --json one
    document at the end (`CrossChecks.to_json`). Exit codes as `run_crosscheck`'s."""
    from pysolve.agreement import AGREE, DISAGREE, CrossCheck, crosscheck_many
    from pysolve.report import Progress, crosscheck_line

    progress = Progress(len(questions), f"{puzzle.name} crosscheck")

    def each(report: CrossCheck) -> None:
        if not args.json:
            progress.close()  # on a terminal, the progress line is cleared first: this line takes its place
            print(crosscheck_line(progress.done + 1, report), flush=True)
        progress.step(str(report.verdict))

    try:
        checks = crosscheck_many(puzzle, questions, only, limit, args.workers, args.cluster, each)
    finally:
        progress.close()
    if args.json:
        print_json(checks.to_json())
    else:
        print(checks.summary())
    if checks.serially:
        print(f"pysolve: {checks.serially}", file=sys.stderr)
    return {AGREE: 0, DISAGREE: 1}.get(checks.verdict, NOT_COMPARED)


def run_check(args: argparse.Namespace) -> int:
    """The check's report, as text or one JSON object.

    Exit 0 when the rule base agreed on every question, 1 on a disagreement or an error of the rule base, 3
    when it ran out of time (no verdict).
    """
    from pysolve.check import AGREE, DISAGREE, ERRORS, UNDECIDED, check, default_out

    report = check(args.puzzle, args.rules, args.examples, args.seed, args.max_size, args.seconds,
                   out=default_out(args.rules) if args.out is None else args.out, workers=args.workers)
    if args.json:
        print_json(report.to_json())
    else:
        print("\n".join(report.lines()))
    if report.serially:
        print(f"pysolve: {report.serially}", file=sys.stderr)
    return {AGREE: 0, DISAGREE: 1, ERRORS: 1, UNDECIDED: NOT_COMPARED}[report.verdict]


def run_grade(args: argparse.Namespace) -> int:
    """Grade a class: a line per student, the CSV and the HTML.

    The class graded: a line per student, the CSV and the HTML written; exit 0 when every submission passed
    every graded property, 1 when one failed one, 3 when one could not be graded here (SWI-Prolog missing).
    """
    from pysolve import files
    from pysolve.grade import CALLS, grade, merged_csv, to_html

    for path, option in ((args.report, "--report"), (args.html, "--html")):
        if path is not None:
            files.check_output(path, option)
    report = grade(args.puzzle, args.folder, args.examples, args.seed, args.workers, args.rerun,
                   args.inferences, CALLS if args.inferences is None else args.inferences)
    print("\n".join(report.lines()))
    if args.report is not None:
        text = merged_csv(args.report, report) if args.rerun else report.to_csv()
        print(f"wrote {files.write_text(args.report, text, '--report')}")
    if args.html is not None:
        print(f"wrote {files.write_text(args.html, to_html(report), '--html')}")
    return NOT_COMPARED if report.ungraded else 0 if report.passed else 1


def run_generate(args: argparse.Namespace) -> int:
    """The generated puzzle in its file format, printed or written to --out; with --json, described as JSON."""
    puzzle = puzzles.get(args.puzzle)
    data, text = puzzle.generated(out=args.out, **options.from_namespace(puzzle.generate_options, args))
    if args.json:
        print_json(data)
    elif args.out is None:
        print(text)
    if args.out is not None:
        print(f"wrote {args.out}", file=sys.stderr)
    return 0


def run_list(args: argparse.Namespace) -> int:
    """The shipped instances, one line each (name, size, what is known, source), or as JSON."""
    kept = puzzles.kept_shipped()
    listed = {name: kept[name] for name in ([args.puzzle] if args.puzzle else puzzles.names())}
    if args.json:
        print_json(listed)
        return 0
    for name, instances in listed.items():
        if instances or args.puzzle:
            print(render_list(name, instances))
    return 0


def render_list(puzzle: str, instances: list[dict[str, Any]]) -> str:
    """One puzzle's shipped instances as aligned columns under a heading that says how to use them."""
    if not instances:
        return f"{puzzle}: ships no instances"
    rows = [(", ".join([*entry["aliases"], entry["name"]]), entry["size"], entry["known"] or "-", entry["source"])
            for entry in instances]
    widths = [max(len(row[column]) for row in rows) for column in range(3)]
    lines = [f"{puzzle}: {len(rows)} shipped (pysolve solve {puzzle} NAME)"]
    lines += ["  " + "  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[3]
              for row in rows]
    return "\n".join(line.rstrip() for line in lines)


def run_play(args: argparse.Namespace) -> int:
    puzzle = puzzles.get(args.puzzle)
    return puzzle.game(args.backend, **options.from_namespace(puzzle.play_options, args))


def run_query(args: argparse.Namespace) -> int:
    """Print the goal's answers as SWI-Prolog's top level does, then how the query ended.

    Each answer as `pysolve.toplevel.transcript` ends it (`false.` when the goal has none), or, when a limit
    stopped it, `unknown.` with the limit as a Prolog comment (a stopped goal did not fail) and exit code
    STOPPED; with --limit, a last line says when there are more answers. The goal is the user's, so it runs
    in the child process for rules of one's own (pysolve.sandbox), even on a shipped rule base; what it
    printed is counted on stderr (in --json, `printed`), never mixed into the answer. Without a goal, the
    interactive loop (`toplevel.interactive`).
    """
    from pysolve import sandbox, toplevel

    if args.goal is None:
        if args.json or args.limit:
            raise InputError("--json and --limit need a GOAL; without one, pysolve query reads goals one at a "
                             "time")
        return toplevel.interactive(args.rule_base, args.seconds, args.max_width,
                                    failed=functools.partial(error_line, args))
    result = sandbox.answers(args.rule_base, args.goal, max_answers=args.limit, look_ahead=bool(args.limit),
                             seconds=args.seconds)
    if result.printed and not args.json:
        print(f"pysolve: {result.printed.words()}", file=sys.stderr)
    if args.json:
        stopped = {"status": "unknown", "limit": result.status, "reason": result.reason("the goal")} \
            if result.stopped else {}
        more = {"more": result.more, **({"ahead": result.ahead} if result.ahead else {})} if args.limit else {}
        printed = {"printed": result.printed.to_json()} if result.printed else {}
        print_json({"solutions": result.rows, "answers": ["\n".join(text) for text in result.texts],
                    "status": result.status, **stopped, **more, **printed})
    else:
        print("\n".join(toplevel.transcript(result, args.limit, args.max_width)))
    return STOPPED if result.stopped else 0


def run_trace(args: argparse.Namespace) -> int:
    """Each trace's search in one line (its end line's counters), what a replay leaves out.

    With --html, the self-contained page that replays them (at most replay.EMBEDDED events of each).
    """
    from pysolve import files, replay

    replay.how_many(len(args.traces), fewest=1)
    traces = replay.read(args.traces, replay.EMBEDDED)
    for trace in traces:
        end = trace["end"]
        counters = ", ".join(words.plural(end.get(key, 0), key[:-1]) for key in ("nodes", "fails", "backtracks",
                                                                                   "solutions"))
        print(f"{trace['name']}: {trace['backend']}, {end.get('status')}, {counters}, "
              f"{words.plural(trace['searched'], 'event')}, {words.seconds(end.get('seconds') or 0)}")
    for note in filter(None, map(replay.left_out, traces)):
        print(note)
    if args.html is not None:  # an empty name is refused, not taken for no page
        files.write_text(args.html, replay.export_html(traces), "--html")
        print(f"wrote {args.html}", file=sys.stderr)
    return 0


def run_demo(args: argparse.Namespace) -> int:
    from pysolve.report import demo_report

    return demo_report(sys.stdout)


def run_serve(args: argparse.Namespace) -> int:
    from pysolve.web.serve import serve

    return serve(args.host, args.port, args.backend, args.prolog_processes)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; return the exit code.

    Ctrl-C is the CLI's while it runs (budget.on_interrupt): the handlers it found are back when it returns, so
    a run inside another program (a test, a notebook) leaves no trace.
    """
    if threading.current_thread() is not threading.main_thread():
        return run_main(argv)
    handler, hook = signal.signal(signal.SIGINT, budget.on_interrupt), sys.unraisablehook
    sys.unraisablehook = budget.unraisable
    try:
        return run_main(argv)
    finally:
        signal.signal(signal.SIGINT, handler)
        sys.unraisablehook = hook


def run_main(argv: Sequence[str] | None) -> int:
    """The run of `main`, its errors made exit codes and one line each; no command at all is shown the commands."""
    args = None
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        if not argv:
            build_parser().print_help(sys.stderr)
            return 2
        try:
            args = build_parser().parse_args(argv)
        except SystemExit as exit_:  # argparse: --help (0) or a bad flag (2), message already printed
            return int(exit_.code or 0)
        bound = 0
        if hasattr(args, "memory"):
            bound = memory.default_limit() if args.memory is None else memory.parse_size(args.memory)
        with memory.bounded(bound):
            return args.run(args)
    except MemoryError:
        passed = "its --memory bound" if hasattr(args, "memory") else "the memory this machine has"
        print(f"pysolve: error: out of memory; the run passed {passed}", file=sys.stderr)
        return 2
    except PysolveError as error:
        print(f"pysolve: error: {error_line(args, error)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        budget.interrupt_handled()
        print("pysolve: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


def error_line(args: argparse.Namespace | None, error: PysolveError) -> str:
    """An error as the CLI prints it: one line, or with --verbose the whole message it carries (`detail`)."""
    detail = getattr(error, "detail", "") if getattr(args, "verbose", False) else ""
    return detail or one_line(str(error))


def one_line(message: str) -> str:
    """`message` with every character that would break its line (a newline in a file name, U+2028) escaped."""
    return "".join(character if character.isprintable() else repr(character)[1:-1] for character in message)


if __name__ == "__main__":
    sys.exit(main())
