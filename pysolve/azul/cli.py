"""`pysolve azul simulate|crosscheck|agent|replay|record|play`.

The game's own command group (added by `Azul.fill_command_group`; `play` is `pysolve play azul`
under a second name).
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pysolve import backends, executors, files, memory
from pysolve.azul import draw
from pysolve.azul import tournament as tour
from pysolve.azul.crosscheck import lockstep
from pysolve.azul.match import MatchResult, engine
from pysolve.azul.model import FACTORIES, SEED, STANDARD, VARIANTS
from pysolve.azul.protocol import MOVE_SECONDS, check_seconds, serve
from pysolve.azul.replay import read_log
from pysolve.azul.strategies import KNOWN, strategy
from pysolve.errors import InputError
from pysolve.puzzle import Puzzle
from pysolve.report import Ticker, render_table
from pysolve.words import plural

MOST_GAMES = 10**9  # the most --games takes: days of play at the fastest, so more is a slip of the keyboard
TICK = 1.0  # seconds between two updates of a progress line on stderr (shown only when it is a terminal)


def add_commands(azul: argparse.ArgumentParser, puzzle: Puzzle) -> None:
    """Add the subcommands of `pysolve azul` to its parser (`play` is `pysolve play azul`'s)."""
    from pysolve.cli import BACKEND_HELP, add_play_parser  # loaded already: the core's parser calls this

    commands = azul.add_subparsers(dest="azul_command", required=True, parser_class=type(azul))

    simulate = commands.add_parser("simulate", help="play seeded games (a tournament) and summarise")
    _game_options(simulate)
    _backend_option(simulate, "--backend", choices=backends.NAMES, help=BACKEND_HELP)
    simulate.add_argument("--strategy", default="random", metavar="NAMES",
                          help=f"strategies NAME[,NAME...] rotated over the seats: {KNOWN} (default random)")
    simulate.add_argument("--move-seconds", type=float, default=MOVE_SECONDS, metavar="S",
                          help=f"an outside agent's (cmd:) time per move; late, it loses the game (default "
                               f"{MOVE_SECONDS:g})")
    simulate.add_argument("--workers", type=executors.workers_argument, default=1, metavar="N",
                          help="processes to play on (auto: one per core; default 1)")
    simulate.add_argument("--log", metavar="FILE", help="write every move with its state as JSON lines")
    simulate.add_argument("--cluster", metavar="ADDRESS", help="play on an existing Dask cluster (tcp://HOST:PORT)")
    simulate.add_argument("--json", action="store_true", help="print JSON")
    simulate.add_argument("--chart", metavar="FILE", help="write win rates and score spreads as an SVG chart")
    memory.add_option(simulate)
    simulate.set_defaults(run=run_simulate)

    check = commands.add_parser("crosscheck", help="play seeded games on several back ends in lockstep")
    _game_options(check)
    _backend_option(check, "--backends", metavar="NAMES",
                    help="comma-separated back ends to compare (default: all that are available)")
    check.add_argument("--json", action="store_true", help="print JSON")
    memory.add_option(check)
    check.set_defaults(run=run_crosscheck)

    agent = commands.add_parser("agent", help="play a strategy as an outside agent over stdin/stdout "
                                              "(docs/azul-protocol.md)")
    agent.add_argument("--strategy", default="greedy", metavar="NAME", help=f"the strategy: {KNOWN} (default greedy)")
    agent.add_argument("--seed", type=int, default=SEED, help=f"game i draws from seed + i (default {SEED})")
    agent.set_defaults(run=run_agent)

    replay = commands.add_parser("replay", help="print a logged game step by step (every move, each round's scoring)")
    replay.add_argument("log", metavar="LOG", help="a JSON-lines log written by `simulate --log` or `play --log`")
    replay.add_argument("--every-move", action="store_true", help="draw the whole table after every move")
    replay.add_argument("--html", metavar="FILE", help="also write a self-contained HTML page replaying the game")
    replay.add_argument("--svg", metavar="FILE", help="also write the table at step --step as SVG")
    replay.add_argument("--step", type=int, default=0, help="the step --svg draws, numbered as on the page "
                                                             "(default: the last)")
    replay.add_argument("--game", type=int, default=1, help="the game of a log of several whose step --svg draws, "
                                                            "numbered as on the page (default: the first)")
    memory.add_option(replay)
    replay.set_defaults(run=run_replay)
    record = commands.add_parser("record", help="record a playthrough: a seeded game with every state and legal "
                                                 "move, for every back end to replay (tests/data/azul_playthroughs)")
    record.add_argument("--players", type=int, default=2, help="2, 3 or 4 (default 2)")
    record.add_argument("--variant", default=STANDARD, help=f"{'|'.join(VARIANTS)} (default {STANDARD})")
    record.add_argument("--seed", type=int, default=SEED, help=f"the game's seed (default {SEED})")
    record.add_argument("--out", metavar="FILE", help="the playthrough to write (gzipped JSON lines)")
    record.add_argument("--again", nargs="+", metavar="FILE",
                        help="record these playthroughs again, each from its own header (players, variant, seed), "
                             "after a change of the rules")
    record.set_defaults(run=run_record)
    add_play_parser(commands, puzzle, "play")


def _backend_option(parser: argparse.ArgumentParser, flag: str, **given: Any) -> None:
    """`flag` (--backend or --backends), plus its older spelling with engine (--engine, --engines), hidden
    from the help, so that old command lines still run."""
    dest = flag.removeprefix("--")
    parser.add_argument(flag, dest=dest, **given)
    parser.add_argument(flag.replace("backend", "engine"), dest=dest, help=argparse.SUPPRESS,
                        **{key: value for key, value in given.items() if key != "help"})


def _game_options(parser: argparse.ArgumentParser) -> None:
    """--players, --games, --seed, --variant."""
    parser.add_argument("--players", type=int, default=2, help="2, 3 or 4 (default 2)")
    parser.add_argument("--variant", default=STANDARD,
                        help=f"{'|'.join(VARIANTS)}: the coloured wall, or the grey side of the board (any colour "
                             f"in any column, at most once per column; default {STANDARD})")
    from pysolve.cli import count_at_most  # loaded already: the core's parser calls this

    parser.add_argument("--games", type=count_at_most(MOST_GAMES), default=1,
                        help=f"number of games (default 1, at most {MOST_GAMES:,}; a progress line counts them)")
    parser.add_argument("--seed", type=int, default=SEED,
                        help=f"seed of the first game; game i has seed + i (default {SEED})")


def _names(text: str, what: str) -> list[str]:
    """The names of a comma-separated list (`--backends`, `--strategy`); InputError when it names none."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names:
        raise InputError(f"--{what}: give at least one name")
    return names


def _check_counts(args: argparse.Namespace) -> None:
    """InputError for a bad --players or --games."""
    if args.players not in FACTORIES:
        raise InputError(f"--players: Azul is for 2 to 4 players, not {args.players}")
    if args.games < 1:
        raise InputError(f"--games must be at least 1, not {args.games}")

    if args.variant not in VARIANTS:
        raise InputError(f"--variant: unknown variant {files.excerpt(args.variant)}; choose from {', '.join(VARIANTS)}")


def run_simulate(args: argparse.Namespace) -> int:
    """Play the games, print per-game lines (or JSON) and the per-strategy summary."""
    _check_counts(args)
    if args.cluster is not None:
        executors.check_cluster(args.cluster)
    _check_outputs(args, "log", "chart")
    backend = args.backend or backends.default()
    names = _names(args.strategy, "strategy")
    check_seconds(args.move_seconds)
    for name in names:
        strategy(name)
    work = tour.tasks(args.players, args.games, args.seed, backend, names, log=args.log is not None,
                      variant=args.variant, move_seconds=args.move_seconds)
    workers = executors.useful_workers(args.workers, len(work))
    # the pool starts before SWI-Prolog may start here, so that its workers can be forked copies of this process
    with executors.executor(workers, args.cluster, warm=(engine, backend)) as executor:
        engine(backend)  # fail early when the back end cannot run here
        with Ticker(_played(0, len(work)), sys.stderr, TICK) as ticker:
            results = tour.run(work, executor, _counting(ticker, len(work)))
    if args.log is not None:
        _write_log(args.log, results)
    if args.chart is not None:
        from pysolve.azul.charts import chart
        print(f"wrote {files.write_text(args.chart, chart(results), '--chart')}", file=sys.stderr)
    summary = tour.summarise(results)
    if args.json:
        json.dump({"games": [result.to_json() for result in results], "summary": summary}, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print(_render(results, summary))
    return 0


def _counting(ticker: Ticker, total: int) -> Callable[[MatchResult], None]:
    """`tour.run`'s callback after each game: `ticker`'s line (which adds the seconds) counts the games played."""
    done = itertools.count(1)

    def step(result: MatchResult) -> None:
        ticker.label = _played(next(done), total)

    return step


def _played(done: int, total: int) -> str:
    """The progress line of a tournament, before its seconds: `azul simulate: 3 of 10 games played,`."""
    return f"azul simulate: {done} of {plural(total, 'game')} played,"


def _check_outputs(args: argparse.Namespace, *names: str) -> None:
    """InputError, before any work, when an output flag given (`--log`, `--chart`) names no file that can
    be written (see `files.check_output`)."""
    for name in names:
        if getattr(args, name) is not None:
            files.check_output(getattr(args, name), f"--{name}")


def _write_log(path: str, results: list[MatchResult]) -> None:
    """Every game's records as JSON lines, each tagged with its game number; the file whole or not at all."""
    with files.writing(path, "--log") as out:
        for number, result in enumerate(results):
            for record in result.log:
                out.write(json.dumps({"game": number, **record}) + "\n")
    print(f"wrote {path}", file=sys.stderr)


def _render(results: list[MatchResult], summary: dict[str, Any]) -> str:
    """Per-game lines (the first 20), the games' averages, the per-strategy table and what its intervals are."""
    rows = [[r.seed, " ".join(map(str, r.scores)), ",".join(map(str, r.winners)), r.rounds, r.moves]
            for r in results[:20]]
    games = render_table(["seed", "scores", "winners", "rounds", "moves"], rows)
    more = f"\n... and {plural(len(results) - 20, 'more game')}" if len(results) > 20 else ""
    more += "".join(f"\nforfeit: seed {lost['seed']}, seat {lost['seat']}, {lost['name']} {lost['reason']}"
                    for lost in summary.get("forfeits", []))
    standings = render_table(
        ["strategy", "seats", "wins", "win rate (95 % interval)", "mean score (95 % interval)", "scores"],
        [[s["strategy"], s["seats"], s["wins"],
          f"{s['win_rate']:.3f} ({s['win_ci95'][0]:.3f} .. {s['win_ci95'][1]:.3f})",
          f"{s['mean_score']:.2f} ({s['ci95'][0]:.2f} .. {s['ci95'][1]:.2f})",
          f"{s['score_range'][0]} .. {s['score_range'][1]}"] for s in summary["strategies"]])
    return (f"{games}{more}\n\n{plural(summary['games'], 'game')}: {summary['mean_rounds']:.1f} rounds and "
            f"{summary['mean_moves']:.1f} moves on average\n{standings}\n"
            "intervals: Wilson's for a win rate, the bootstrap percentile interval for a mean score")


def run_agent(args: argparse.Namespace) -> int:
    """Serve a strategy over the agent protocol on stdin/stdout until `quit` or the end of the input."""
    chosen = strategy(args.strategy)
    return serve(chosen, args.strategy, sys.stdin, sys.stdout, args.seed, resolve=strategy)


def run_crosscheck(args: argparse.Namespace) -> int:
    """Lockstep games on the back ends named (default: every available one); exit 1 at the first disagreement."""
    _check_counts(args)
    if args.backends is None:
        names = [name for name in backends.NAMES if backends.available(name)]
    else:
        names = backends.listed(args.backends)
    for name in names:
        backends.check_name(name)
        engine(name)
    label = f"azul crosscheck: {plural(args.games, 'game')} on {plural(len(names), 'back end')},"
    with Ticker(label, sys.stderr, TICK):
        report = lockstep(args.players, args.games, args.seed, names, variant=args.variant)
    if args.json:
        json.dump({"backends": names, "variant": args.variant, "games": report.games, "moves": report.moves,
                   "columns": report.columns, "agree": report.agree, "difference": report.difference},
                  sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        verdict = "all back ends agree" if report.agree else f"DISAGREEMENT: {report.difference}"
        columns = f" ({plural(report.columns, 'column choice')} among them)" if report.columns else ""
        print(f"{plural(report.games, f'{args.variant} game')}, {plural(report.moves, 'move')}{columns} compared on "
              f"{', '.join(names)}: {verdict}")
    return 0 if report.agree else 1


def run_record(args: argparse.Namespace) -> int:
    """Write a new playthrough (--out), or record the --again ones anew from their headers."""
    from pysolve.azul import playthrough

    if (args.out is None) == (args.again is None):
        raise InputError("record: give --out FILE for a new playthrough, or --again FILE... to record old ones anew")
    if args.again is None:
        args.games = 1
        _check_counts(args)
        jobs = [(args.players, args.variant, args.seed, args.out)]
    else:
        headers = [(path, playthrough.read(path)[0]) for path in args.again]
        jobs = [(head["players"], head["variant"], head["seed"], path) for path, head in headers]
    for players, variant, seed, path in jobs:
        files.check_output(path, "--out")
        try:
            records = playthrough.record(players, seed, variant)
        except InputError as error:
            raise InputError(f"{path}: {error}") from None
        playthrough.write(path, records)
        print(f"wrote {path}: {plural(records[-1]['state']['moves'], 'move')} "
              f"of a {players}-player {variant} game, seed {seed}", file=sys.stderr)
    return 0


def run_replay(args: argparse.Namespace) -> int:
    """Print a JSON-lines game log step by step; --html and --svg write its pictures."""
    from pysolve.azul.replay_page import write_pictures

    _check_outputs(args, "html", "svg")
    records = read_log(Path(args.log))
    try:
        told = draw.replay(records, args.every_move)
    except InputError as error:
        raise InputError(f"{args.log}: {error}") from None
    for path in write_pictures(records, args.html, args.svg, args.step, args.game):
        print(f"wrote {path}", file=sys.stderr)
    print(told)
    return 0
