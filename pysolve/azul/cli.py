"""`pysolve azul simulate|tournament|crosscheck|agent|replay|record|play`.

The game's own command group (added by `Azul.fill_command_group`; `play` is `pysolve play azul`
under a second name).
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pysolve import backends, executors, files, memory
from pysolve.azul import tournament as tour
from pysolve.azul.match import MatchResult, engine
from pysolve.azul.model import FACTORIES, SEED, STANDARD, VARIANTS
from pysolve.azul.protocol import MOVE_SECONDS, check_seconds, serve
from pysolve.azul.ratings import ELO_MEAN
from pysolve.azul.strategies import KNOWN, strategy
from pysolve.errors import InputError
from pysolve.options import non_negative_int
from pysolve.puzzle import Puzzle
from pysolve.report import Ticker, render_table, short
from pysolve.words import plural

MOST_GAMES = 10**9  # the most --games takes: days of play at the fastest, so more is a slip of the keyboard
ROUND_ROBIN_GAMES = 10  # games a pair plays in `azul tournament` unless told: 5 deals, each from both seats
NAME_WIDTH = 32  # characters of a strategy's name in a table (an outside agent that announced none: its command)
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
    _move_seconds_option(simulate)
    _workers_option(simulate)
    simulate.add_argument("--log", metavar="FILE", help="write every move with its state as JSON lines")
    simulate.add_argument("--cluster", metavar="ADDRESS", help="play on an existing Dask cluster (tcp://HOST:PORT)")
    simulate.add_argument("--json", action="store_true", help="print JSON")
    simulate.add_argument("--chart", metavar="FILE", help="write win rates and score spreads as an SVG chart")
    memory.add_option(simulate)
    simulate.set_defaults(run=run_simulate)

    robin = commands.add_parser("tournament", help="a round robin: every pair of strategies head to head, seats "
                                                   "rotated; a win matrix, Elo ratings, results by seat")
    robin.add_argument("strategies", nargs="+", metavar="STRATEGY", help=f"two or more strategies: {KNOWN}")
    _game_options(robin, games=ROUND_ROBIN_GAMES, players=False,
                  games_help="games each pair plays, the seats swapped every other game")
    _backend_option(robin, "--backend", choices=backends.NAMES, help=BACKEND_HELP)
    _move_seconds_option(robin)
    _workers_option(robin)
    robin.add_argument("--log", metavar="FILE", help="keep every finished game in FILE (JSON lines); run again "
                                                     "with the same FILE to play only the games it lacks")
    robin.add_argument("--json", action="store_true", help="print JSON")
    memory.add_option(robin)
    robin.set_defaults(run=run_tournament)

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
    agent.add_argument("--seed", type=non_negative_int, default=SEED,
                       help=f"game i draws from seed + i (default {SEED})")
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
    record.add_argument("--seed", type=non_negative_int, default=SEED, help=f"the game's seed (default {SEED})")
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


def _game_options(parser: argparse.ArgumentParser, games: int = 1, players: bool = True,
                  games_help: str = "number of games") -> None:
    """--players (unless `players` is False), --games (default `games`), --seed, --variant."""
    if players:
        parser.add_argument("--players", type=int, default=2, help="2, 3 or 4 (default 2)")
    parser.add_argument("--variant", default=STANDARD,
                        help=f"{'|'.join(VARIANTS)}: the coloured wall, or the grey side of the board (any colour "
                             f"in any column, at most once per column; default {STANDARD})")
    from pysolve.cli import count_at_most  # loaded already: the core's parser calls this

    parser.add_argument("--games", type=count_at_most(MOST_GAMES), default=games,
                        help=f"{games_help} (default {games}, at most {MOST_GAMES:,}; a progress line counts them)")
    parser.add_argument("--seed", type=non_negative_int, default=SEED,
                        help=f"seed of the first game; game i has seed + i (default {SEED})" if players else
                             f"seed of a pair's first two games; games 2k and 2k+1 have seed + k (default {SEED})")


def _move_seconds_option(parser: argparse.ArgumentParser) -> None:
    """--move-seconds: an outside agent's time per move."""
    parser.add_argument("--move-seconds", type=float, default=MOVE_SECONDS, metavar="S",
                        help=f"an outside agent's (cmd:) time per move; late, it loses the game (default "
                             f"{MOVE_SECONDS:g})")


def _workers_option(parser: argparse.ArgumentParser) -> None:
    """--workers: the processes to play on."""
    parser.add_argument("--workers", type=executors.workers_argument, default=1, metavar="N",
                        help="processes to play on (auto: one per core; default 1)")


def _names(text: str, what: str) -> list[str]:
    """The names of a comma-separated list (`--backends`, `--strategy`); InputError when it names none."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names:
        raise InputError(f"--{what}: give at least one name")
    return names


def _check_counts(args: argparse.Namespace) -> None:
    """InputError for a bad --players (where there is one), --games or --variant."""
    if getattr(args, "players", 2) not in FACTORIES:
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
    every_game = args.json or args.log is not None or args.chart is not None  # else the tally is all it reads
    results: list[MatchResult] = []
    # the pool starts before SWI-Prolog may start here, so that its workers can be forked copies of this process
    with executors.executor(workers, args.cluster, warm=(engine, backend)) as executor:
        engine(backend)  # fail early when the back end cannot run here
        with Ticker(_played(0, len(work)), sys.stderr, TICK) as ticker:
            step = _counting(ticker, len(work))
            if every_game:
                done = itertools.count(1)
                results = tour.run(work, executor, lambda result: step(next(done)))
                tally = tour.tally_of(results)
            else:
                tally = tour.tallied(work, executor, step)
    if args.log is not None:
        _write_log(args.log, results)
    if args.chart is not None:
        from pysolve.azul.charts import chart
        print(f"wrote {files.write_text(args.chart, chart(results), '--chart')}", file=sys.stderr)
    summary = tally.summary()
    if args.json:
        json.dump({"games": [result.to_json() for result in results], "summary": summary}, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print(_render(tally, summary))
    return 0


def _counting(ticker: Ticker, total: int) -> Callable[[int], None]:
    """The callback with the games played so far: `ticker`'s line (which adds the seconds) counts them."""

    def step(done: int) -> None:
        ticker.label = _played(done, total)

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


def _render(tally: tour.Tally, summary: dict[str, Any]) -> str:
    """Per-game lines (the first tour.HEAD: who sat where and scored what), the games' averages, the
    per-strategy table and what its intervals are."""
    rows = [[r.seed, *(f"{short(name, NAME_WIDTH)} {score}" for name, score in zip(r.names, r.scores)),
             ",".join(map(str, r.winners)), r.rounds, r.moves] for r in tally.head]
    seats = [f"seat {seat}" for seat in range(tally.head[0].players)]
    games = render_table(["seed", *seats, "winners", "rounds", "moves"], rows)
    more = f"\n... and {plural(tally.games - len(tally.head), 'more game')}" if tally.games > len(tally.head) else ""
    more += _forfeits(tally.forfeited)
    standings = render_table(
        ["strategy", "seats", "wins", "win rate (95 % interval)", "mean score (95 % interval)", "scores"],
        [[short(s["name"], NAME_WIDTH), s["seats"], s["wins"],
          f"{s['win_rate']:.3f} ({s['win_ci95'][0]:.3f} .. {s['win_ci95'][1]:.3f})",
          f"{s['mean_score']:.2f} ({s['ci95'][0]:.2f} .. {s['ci95'][1]:.2f})",
          f"{s['score_range'][0]} .. {s['score_range'][1]}"] for s in summary["strategies"]])
    return (f"{games}{more}\n\n{plural(summary['games'], 'game')}: {summary['mean_rounds']:.1f} rounds and "
            f"{summary['mean_moves']:.1f} moves on average\n{standings}\n"
            "intervals: Wilson's for a win rate, the bootstrap percentile interval for a mean score")


def _forfeits(results: list[MatchResult]) -> str:
    """A line for each game an outside agent forfeited: seed, seat, its name and why."""
    lost = [(r.seed, r.forfeit["seat"], r.names[r.forfeit["seat"]], r.forfeit["reason"]) for r in results if r.forfeit]
    return "".join(f"\nforfeit: seed {seed}, seat {seat}, {short(name, NAME_WIDTH)} {reason}"
                   for seed, seat, name, reason in lost)


def run_tournament(args: argparse.Namespace) -> int:
    """Play a round robin (the games its --log lacks), then print its matrix, ratings and results by seat."""
    _check_counts(args)
    check_seconds(args.move_seconds)
    for name in args.strategies:
        strategy(name, args.move_seconds)  # an unknown name or a bad agent command fails before any game
    backend = args.backend or backends.default()
    work = tour.round_robin(args.strategies, args.games, args.seed, backend, args.variant, args.move_seconds)
    logged = {}
    if args.log is not None:
        files.check_output(args.log, "--log")
        logged = {tour.result_key(result): result for result in tour.read_log(args.log)}
    todo = [task for task in work if tour.task_key(task) not in logged]
    fresh = _play_round_robin(todo, backend, args, len(work) - len(todo), len(work)) if todo else []
    played = {**logged, **{tour.task_key(task): result for task, result in zip(todo, fresh)}}
    results = [played[tour.task_key(task)] for task in work]
    if args.log is not None:
        print(f"{args.log}: {plural(len(work) - len(todo), 'game')} read, {len(todo)} played", file=sys.stderr)
    summary = tour.round_robin_summary(args.strategies, results)
    if args.json:
        json.dump({"games": [result.to_json() for result in results], "summary": summary}, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print(_render_round_robin(args, results, summary))
    return 0


def _play_round_robin(todo: list[tour.Task], backend: str, args: argparse.Namespace, logged: int,
                      total: int) -> list[MatchResult]:
    """Play `todo`, each game appended to the --log as it ends, a progress line counting the games."""
    workers = executors.useful_workers(args.workers, len(todo))
    with contextlib.ExitStack() as stack:
        log = stack.enter_context(open(args.log, "a", encoding="utf-8")) if args.log is not None else None
        executor = stack.enter_context(executors.executor(workers, None, warm=(engine, backend)))
        engine(backend)  # fail early when the back end cannot run here
        ticker = stack.enter_context(Ticker(_tournament_progress(logged, logged, total), sys.stderr, TICK))
        done = itertools.count(logged + 1)

        def step(result: MatchResult) -> None:
            if log is not None:
                log.write(tour.log_line(result))
                log.flush()
            ticker.label = _tournament_progress(next(done), logged, total)

        return tour.run(todo, executor, step)


def _tournament_progress(done: int, logged: int, total: int) -> str:
    """The progress line of a round robin, before its seconds: `azul tournament: 12 of 30 games (6 from the
    log),`."""
    read = f" ({logged} from the log)" if logged else ""
    return f"azul tournament: {done} of {plural(total, 'game')}{read},"


def _render_round_robin(args: argparse.Namespace, results: list[MatchResult], summary: dict[str, Any]) -> str:
    """A round robin in text: what was played, the ratings, the win matrix, the results by seat, forfeits."""
    shown = {entry["strategy"]: short(entry["name"], NAME_WIDTH) for entry in summary["strategies"]}
    names = [shown[name] for name in args.strategies]
    deals = (args.games + 1) // 2
    seeds = f"seed {args.seed}, played" if deals == 1 else f"seeds {args.seed}..{args.seed + deals - 1}, each played"
    head = (f"{plural(len(names), 'strategy')}, {plural(args.games, 'game')} a pair ({plural(deals, 'deal')}, "
            f"{seeds} from both seats): {plural(len(results), 'game')} on the {args.variant} wall")
    rated = render_table(["rank", "strategy", "Elo", "95 % interval"],
                         [[rank, shown[r["strategy"]], f"{r['elo']:.0f}", f"{r['ci95'][0]:.0f} .. {r['ci95'][1]:.0f}"]
                          for rank, r in enumerate(summary["ratings"], 1)])
    matrix = render_table(["wins-losses-shared", *names, "points"],
                          [[names[i], *("-" if cell is None else f"{cell['wins']}-{cell['losses']}-{cell['draws']}"
                                        for cell in row),
                            _points(sum(cell["points"] for cell in row if cell), sum(
                                cell["wins"] + cell["losses"] + cell["draws"] for cell in row if cell))]
                           for i, row in enumerate(summary["matrix"])])
    seats = render_table(["strategy", "seat", "games", "wins", "shared", "points", "mean score"],
                         [[shown[s["strategy"]], s["seat"], s["games"], s["wins"], s["draws"],
                           _points(s["points"], s["games"]),
                           "-" if s["mean_score"] is None else f"{s['mean_score']:.1f}"] for s in summary["seats"]])
    return (f"{head}\n\nratings (Elo, averaging {ELO_MEAN:g}; the interval: +- 1.96 standard errors of the fit)\n"
            f"{rated}\n\n"
            f"wins, row against column\n{matrix}\n\nby seat\n{seats}{_forfeits(results)}")


def _points(points: float, games: int) -> str:
    """Points out of games, a shared win as a half: `6.5 of 10`."""
    return f"{points:g} of {games}"


def run_agent(args: argparse.Namespace) -> int:
    """Serve a strategy over the agent protocol on stdin/stdout until `quit` or the end of the input."""
    chosen = strategy(args.strategy)
    return serve(chosen, args.strategy, sys.stdin, sys.stdout, args.seed, resolve=strategy)


def run_crosscheck(args: argparse.Namespace) -> int:
    """Lockstep games on the back ends named (default: every available one); exit 1 at the first disagreement."""
    from pysolve.azul.crosscheck import lockstep  # the cross-check's machinery, for this command alone

    _check_counts(args)
    if args.backends is None:
        names = [name for name in backends.NAMES if backends.available(name)]
    else:
        names = backends.listed(args.backends)
    for name in names:
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
    from pysolve.azul import draw  # the pictures and the log's reader, for this command alone
    from pysolve.azul.replay import read_log
    from pysolve.azul.replay_page import write_pictures

    _check_outputs(args, "html", "svg")
    records = read_log(Path(args.log))
    try:
        told = draw.replay(records, args.every_move)
    except InputError as error:
        raise InputError(f"{args.log}: {error}") from None
    written = write_pictures(records, args.html, args.svg, args.step, args.game)
    for path in written:
        print(f"wrote {path}", file=sys.stderr)
    if not written:  # the pictures asked for say where they went; the story is for a replay without them
        print(told)
    return 0
