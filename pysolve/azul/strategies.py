"""Strategies: any callable (state, legal moves, rng) -> one of the moves.

`state` is the canonical snapshot (a mapping read lazily, so strategies that
never look at it cost nothing), `rng` the game's `RandomStream`. A strategy
that searches makes a `tree.State` of the snapshot and looks ahead with
`child`, whichever back end plays the game: `lookahead` here, and the
search players of `search` (`mcts`, `minimax`), named with their parameters
(`mcts:1000`, `mcts:0.5s:greedy`, `minimax:3`).

On the grey wall every strategy also chooses the column of each full line
at the round's end: `random` at random, `greedy` and `lookahead` by
`tiling_value` (the best worth their own later choices of the round reach),
the search players by searching. A name ending in `+policy` (`greedy+policy`)
leaves those choices to pysolve's fixed policy instead (most points at
once, the leftmost among equals): the grey wall as it was played before
the choice was the player's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from pysolve.azul.heuristics import Weights, move_gain, tiling_value
from pysolve.azul.model import WALL, Move, RandomStream, is_tiling, pending_line
from pysolve.azul.names import KNOWN, PLAYERS
from pysolve.azul.protocol import MOVE_SECONDS, Agent
from pysolve.azul.scoring import grey_column
from pysolve.azul.seeded import random_feasible
from pysolve.azul.tree import State
from pysolve.errors import InputError, UnknownName
from pysolve.files import excerpt

if TYPE_CHECKING:  # the search players are imported when a name asks for one: their tables cost every other run
    from pysolve.azul.search_players import Mcts, Minimax

Strategy = Callable[[Mapping[str, Any], list[Move], RandomStream], Move]


def _best(moves: list[Move], value: Callable[[Move], float], rng: RandomStream) -> Move:
    """One of the moves of highest value (ties broken by the stream)."""
    values = [value(move) for move in moves]
    top = max(values)
    return rng.choice([move for move, v in zip(moves, values) if v == top])


def greedy(state: Mapping[str, Any], moves: list[Move], rng: RandomStream) -> Move:
    """The move with the best immediate score change; among equals prefer lines, then chance.

    A column: the one of best worth (`tiling_value`: its points, the bonuses still open to the wall, the
    lines kept placeable, over the seat's own choices left this round).
    """
    if is_tiling(moves[0]):
        return _best(moves, lambda move: tiling_value(state, move), rng)
    return _best(moves, lambda move: move_gain(state, move) + (0.5 if move[2] else 0.0), rng)


def lookahead(state: Mapping[str, Any], moves: list[Move], rng: RandomStream) -> Move:
    """One-ply lookahead: own immediate gain minus the next player's best reply gain.

    A column: as `greedy`, the best worth reached through the seat's own choices left this round (nobody
    else's choice changes its wall).
    """
    snapshot = dict(state)
    if snapshot["over"]:
        return rng.choice(moves)
    if is_tiling(moves[0]):
        return _best(moves, lambda move: tiling_value(snapshot, move), rng)
    root = State.from_json(snapshot)

    def value(move: Move) -> float:
        own = move_gain(snapshot, move) + (0.5 if move[2] else 0.0)
        after = root.child(move)
        if after.is_chance_node or after.is_terminal:
            return own  # the round ends: no reply to fear
        seen = after.to_json()
        return own - max(move_gain(seen, reply) for reply in after.legal_moves())

    return _best(moves, value, rng)


def policy(state: Mapping[str, Any], moves: list[Move], rng: RandomStream) -> Move:
    """pysolve's fixed column policy for a tiling decision.

    Most points at once, the leftmost among equals (reads no number).
    """
    board = state["boards"][state["turn"]]
    row = pending_line(board["lines"])
    column = grey_column([list(cells) for cells in board["wall"]], board["colours"], row, board["lines"][row][0])
    return (WALL, row, column)


def with_columns(player: Strategy, columns: Strategy) -> Strategy:
    """`player` for the moves taking tiles, `columns` for the columns of a grey wall's tiling."""

    def choose(state: Mapping[str, Any], moves: list[Move], rng: RandomStream) -> Move:
        return (columns if is_tiling(moves[0]) else player)(state, moves, rng)

    return choose


COLUMNS: dict[str, Strategy] = {"policy": policy}  # the column strategies a name's `+` suffix may name
STRATEGIES: dict[str, Strategy] = dict(zip(PLAYERS, (random_feasible, greedy, lookahead), strict=True))
MAX_DIGITS = 12  # digits a whole-number parameter may have
SEARCHES = ("mcts", "minimax")  # with parameters: mcts[:N|:Ts][:random|:greedy][:rN][:wN][:cX][:pX][:tX][:lX][:mX],
# minimax[:D][:Ts]
AGENT = "cmd:"  # an outside agent: cmd:COMMAND (docs/azul-protocol.md)


def _search(name: str) -> Strategy:
    """The search player a name with parameters describes (`mcts:1000:greedy`, `mcts:0.5s`, `minimax:3`);
    InputError quoting the name when a parameter is malformed or out of range (nan, inf, too many)."""
    family, *parameters = name.split(":")
    try:
        return _minimax(parameters) if family == "minimax" else _mcts(parameters)
    except InputError as error:
        raise InputError(f"strategy {excerpt(name)}: {error}") from None


def _minimax(parameters: list[str]) -> Minimax:
    """Minimax from the parameters after `minimax:` (a depth, SECONDSs, or both; seconds alone search as deep
    as the time allows)."""
    from pysolve.azul.search_players import MAX_DEPTH, Minimax

    settings: dict[str, Any] = {}
    for parameter in parameters:
        if parameter.isdecimal() and "depth" not in settings:
            settings["depth"] = _whole(parameter)
        elif parameter.endswith("s") and _number(parameter[:-1]) and "seconds" not in settings:
            settings["seconds"] = float(parameter[:-1])
        else:
            raise InputError("minimax takes one depth in plies and a time per move, as in minimax:2 or "
                             "minimax:0.5s or minimax:6:0.5s")
    if "seconds" in settings:
        settings.setdefault("depth", MAX_DEPTH)
    return Minimax(**settings)


WEIGHTS = {"p": "progress", "t": "waiting", "l": "lacking", "m": "marker"}  # mcts's evaluation weights by their letter


def _mcts(parameters: list[str]) -> Mcts:
    """Mcts from the parameters after `mcts:` (ITERATIONS, SECONDSs, random|greedy, rROUNDS, wWIDTH, cEXPLORATION,
    and the evaluation's weights pPROGRESS, tWAITING, lLACKING, mMARKER)."""
    from pysolve.azul.search_players import Mcts

    settings: dict[str, Any] = {}
    weights: dict[str, float] = {}
    for parameter in parameters:
        if parameter.isdecimal():
            settings["iterations"] = _whole(parameter)
        elif parameter in ("random", "greedy"):
            settings["playout"] = parameter
        elif parameter[:1] in ("r", "w") and parameter[1:].isdecimal():
            settings["rounds" if parameter[0] == "r" else "width"] = _whole(parameter[1:])
        elif parameter.endswith("s") and _number(parameter[:-1]):
            settings["seconds"] = float(parameter[:-1])
        elif parameter.startswith("c") and _number(parameter[1:]):
            settings["exploration"] = float(parameter[1:])
        elif parameter[:1] in WEIGHTS and _number(parameter[1:]):
            weights[WEIGHTS[parameter[0]]] = float(parameter[1:])
        else:
            raise InputError(f"{excerpt(parameter)} is not ITERATIONS, SECONDSs, random|greedy, rROUNDS, wWIDTH, "
                             "cEXPLORATION, pPROGRESS, tWAITING, lLACKING or mMARKER")
    return Mcts(**settings, weights=Weights(**weights))


def _whole(digits: str) -> int:
    """Decimal digits as an int; InputError past MAX_DIGITS (every bound is far below, and int() refuses
    thousands of digits with a ValueError of its own)."""
    if len(digits) > MAX_DIGITS:
        raise InputError(f"{excerpt(digits)} is too large")
    return int(digits)


def _number(text: str) -> bool:
    """True when `text` reads as a decimal number."""
    try:
        float(text)
    except ValueError:
        return False
    return True


def strategy(name_or_callable: str | Strategy, move_seconds: float = MOVE_SECONDS) -> Strategy:
    """A strategy by name.

    A strategy by name (random, greedy, lookahead, mcts..., minimax..., any of them +policy, cmd:COMMAND: an
    outside agent held to `move_seconds` a move) or the callable itself.
    """
    if callable(name_or_callable):
        return name_or_callable
    if name_or_callable.startswith(AGENT):  # the whole rest is its command: it chooses its columns itself
        return Agent(name_or_callable.removeprefix(AGENT), move_seconds)
    base, plus, columns = name_or_callable.rpartition("+")
    if plus and columns in COLUMNS:
        return with_columns(strategy(base), COLUMNS[columns])
    if name_or_callable in STRATEGIES:
        return STRATEGIES[name_or_callable]
    if name_or_callable.split(":")[0] in SEARCHES:
        return _search(name_or_callable)
    raise UnknownName(f"unknown strategy {excerpt(name_or_callable)}; known: {KNOWN}")


def strategy_name(chosen: str | Strategy) -> str:
    """The name a strategy is reported under."""
    if isinstance(chosen, str):
        return chosen
    for name, known in STRATEGIES.items():
        if known is chosen:
            return name
    return getattr(chosen, "__name__", repr(chosen))
