"""Azul speed: random games and playouts per CPU second on each back end's rules, and their ratios.

Run: .venv/bin/python bench/azul.py [GAMES]  (not a test; prints tables measured in one run; every rate is
the best of three equal parts, games i, i+1, ... in each)

1. Whole random-feasible games (`play_match` with the `random` strategy on every
   seat): Python on packed boards, Prolog inside one query per game through the
   bridge (and, as a tournament plays them, a batch of games a query), miniKanren move
   by move; both variants.
2. Playouts, what MCTS spends its time on: from the first position of seed 1's
   game, the seeded random-feasible game played on to its end. Python and
   miniKanren through `State` (`clone`, chance nodes drawn by the stream, moves
   applied), Prolog with the position imported and played out in one query. The
   same stream gives every engine the same playout (the bench checks the
   final states). Then MCTS iterations per second (UCT, one-round random
   playouts) on the rules a `State` can run on.
"""

from __future__ import annotations

import functools
import json
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from pysolve import bridge
from pysolve.azul.match import engine, play_match, random_matches
from pysolve.azul.model import GREY, STANDARD, RandomStream
from pysolve.azul.prolog import BLOCK, RULES, conjunction, state_from_prolog, state_to_prolog
from pysolve.azul.search_players import Mcts
from pysolve.azul.strategies import random_feasible
from pysolve.azul.tournament import BATCH
from pysolve.azul.tree import Game, State
from pysolve.backends import available

KANREN_GAMES = 6
REPEATS = 3  # each rate is the best of this many equal parts
PLAYOUTS = {"python": 300, "prolog": 300, "kanren": 3}
MCTS_ITERATIONS = {"python": 500, "kanren": 20}


def cpu_rate(count: int, work: Callable[[int], Any]) -> tuple[float, float]:
    """(per CPU second, per wall second) of `work(i)` for i in range(count), the best of three thirds.

    On a shared machine a burst of other work slows even the CPU time (two
    processes on one core's threads); the best third is the steadiest figure.
    """
    best = (0.0, 0.0)
    part = max(count // REPEATS, 1)
    for start in range(0, part * REPEATS, part):
        cpu, wall = time.process_time(), time.perf_counter()
        for index in range(start, start + part):
            work(index)
        best = max(best, (part / (time.process_time() - cpu), part / (time.perf_counter() - wall)))
    return best


def games_table(games: int, backends: list[str]) -> None:
    """Whole random games per second, by player count and variant."""
    print(f"{'players':>7} {'variant':>8} {'backend':>7} {'games':>6} {'games/s cpu':>12} {'games/s wall':>13} "
          f"{'vs python':>10}")
    for players, variant in ((2, STANDARD), (4, STANDARD), (2, GREY)):
        measured = {}
        for backend in backends:
            count = KANREN_GAMES if backend == "kanren" else games
            one_game = functools.partial(play_match, players, backend=backend, variant=variant)
            measured[backend] = cpu_rate(count, one_game)
            cpu, wall = measured[backend]
            print(f"{players:>7} {variant:>8} {backend:>7} {count:>6} {cpu:>12.1f} {wall:>13.1f} "
                  f"{measured['python'][0] / cpu:>9.1f}x")
        if "prolog" in backends:  # a tournament's games, BATCH to a query
            cpu, wall = cpu_rate(games // BATCH, functools.partial(prolog_batch, players, variant))
            cpu, wall = cpu * BATCH, wall * BATCH
            print(f"{players:>7} {variant:>8} {'prolog':>7} {games // BATCH * BATCH:>6} {cpu:>12.1f} {wall:>13.1f} "
                  f"{measured['python'][0] / cpu:>9.1f}x   ({BATCH} games a query)")


def prolog_batch(players: int, variant: str, part: int) -> None:
    """Batch number `part` of a tournament's random games in Prolog: BATCH seeds in one query."""
    random_matches(players, range(part * BATCH, (part + 1) * BATCH), "prolog", variant)


def position(seed: int = 1, players: int = 2) -> State:
    """The first position of a seeded game where a seat is to move."""
    stream, state = RandomStream(seed), Game(players).new_initial_state()
    while state.is_chance_node:
        state.apply(state.sample_chance(stream))
    return state


def state_playout(start: State, stream: RandomStream) -> dict[str, Any]:
    """The random-feasible game from `start` to its end through State, chance drawn by the stream."""
    state = start.clone()
    while not state.is_terminal:
        if state.is_chance_node:
            state.apply_chance(state.sample_chance(stream))
        else:
            state.apply_move(random_feasible({}, state.legal_moves(), stream))
    return state.to_json()


def prolog_playout(start: dict[str, Any], stream: RandomStream) -> dict[str, Any]:
    """The same playout in Prolog: the position imported and played to its end in one query."""
    goal = conjunction(bridge.goal("import_state", 1, state_to_prolog(start)),
                       bridge.goal("run_random_game", 1, stream.peek(BLOCK * start["players"]), bridge.Var("Used"),
                                   "over"),
                       bridge.goal("state_text", 1, bridge.Var("Text")), bridge.goal("drop_game", 1))
    row = bridge.solutions(RULES, goal, max_solutions=1).rows[0]
    stream.advance(row["Used"])
    return state_from_prolog(json.loads(row["Text"]))


def playout_run(backend: str, snapshot: dict[str, Any], finals: dict[str, Any]) -> Callable[[int], None]:
    """The work `cpu_rate` times: the playout from `snapshot` of stream `index` on `backend`, the first final
    state kept in `finals`."""
    begin = None if backend == "prolog" else State.from_json(snapshot, engine(backend))

    def run(index: int) -> None:
        stream = RandomStream(index)
        finals.setdefault(backend, prolog_playout(snapshot, stream) if begin is None else state_playout(begin, stream))

    return run


def playouts_table(backends: list[str]) -> None:
    """Playouts per second on each engine, from the same position, checked to end alike."""
    snapshot = position().to_json()
    print(f"\n{'backend':>7} {'playouts':>9} {'playouts/s cpu':>15} {'vs python':>10}   (seed 1, round 1 to the end)")
    finals: dict[str, Any] = {}
    rates = {}
    for backend in backends:
        rates[backend] = cpu_rate(PLAYOUTS[backend], playout_run(backend, snapshot, finals))[0]
        print(f"{backend:>7} {PLAYOUTS[backend]:>9} {rates[backend]:>15.1f} {rates['python'] / rates[backend]:>9.1f}x")
    assert all(final == finals["python"] for final in finals.values()), "the engines played different playouts"
    print(f"\n{'backend':>7} {'iterations':>11} {'MCTS iterations/s cpu':>22}   (UCT, one-round random playouts)")
    for backend in backends:
        if backend == "prolog":
            print(f"{backend:>7} {'-':>11} {'-':>22}   (MCTS searches States: a Prolog game is searched on the "
                  f"Python rules)")
            continue
        root = State.from_json(snapshot, engine(backend))
        count = MCTS_ITERATIONS[backend]
        cpu = time.process_time()
        Mcts(iterations=count).search(root, random.Random(1))
        print(f"{backend:>7} {count:>11} {count / (time.process_time() - cpu):>22.1f}")


def main() -> None:
    """Measure every available back end and print rates and ratios."""
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    backends = ["python", "prolog", "kanren"] if available("prolog") else ["python", "kanren"]
    if "prolog" in backends:
        play_match(2, 0, "prolog")  # start SWI-Prolog and load the rules outside the timing
    games_table(games, backends)
    playouts_table(backends)


if __name__ == "__main__":
    main()
