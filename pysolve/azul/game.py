"""The simulation API: a seeded game on one engine, one strategy per seat.

All randomness comes from the game's `RandomStream` (seeded once): the seat
that opens, every tile drawn, every strategy choice. The same seed therefore
gives the same game, move by move, on every engine.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from pysolve.azul.model import MAX_MOVES, Move, RandomStream, check_move, check_players, describe_move
from pysolve.azul.strategies import Strategy, random_feasible, strategy, strategy_name
from pysolve.errors import InputError, SearchLimitExceeded, UnknownName

ENGINES = ("prolog", "python", "kanren")


@functools.cache
def engine(name: str) -> Any:
    """The engine called `name` (one instance per process)."""
    if name == "python":
        from pysolve.azul.python import PythonEngine
        return PythonEngine()
    if name == "prolog":
        from pysolve import backends
        from pysolve.azul.prolog import PrologEngine
        backends.require("prolog")
        return PrologEngine()
    if name == "kanren":
        from pysolve.azul.kanren import KanrenEngine
        return KanrenEngine()
    raise UnknownName(f"unknown Azul engine {name!r}; choose one of {', '.join(ENGINES)}")


class LazyState(Mapping[str, Any]):
    """A game's canonical state, exported from the engine only when first read."""

    def __init__(self, game: AzulGame) -> None:
        self._game = game
        self._state: dict[str, Any] | None = None

    def _load(self) -> dict[str, Any]:
        if self._state is None:
            self._state = self._game.state
        return self._state

    def __getitem__(self, key: str) -> Any:
        return self._load()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._load())

    def __len__(self) -> int:
        return len(self._load())


class AzulGame:
    """One seeded game: `legal_moves()`, `play(move)`, `state`, `over`, `scores`, `winners`."""

    def __init__(self, players: int = 2, seed: int = 0, engine_name: str = "python",
                 strategies: Sequence[str | Strategy] | None = None) -> None:
        self.players = check_players(players)
        self.seed = seed
        self.engine_name = engine_name
        self.engine = engine(engine_name)
        chosen = list(strategies) if strategies else ["random"]
        self.strategies = [strategy(chosen[seat % len(chosen)]) for seat in range(players)]
        self.strategy_names = [strategy_name(chosen[seat % len(chosen)]) for seat in range(players)]
        self.rng = RandomStream(seed)
        self.handle = self.engine.new_game(players, self.rng.below(players), self.rng)
        self.moves_played = 0
        self._moves: list[Move] | None = None  # the legal moves, until the next play

    @property
    def state(self) -> dict[str, Any]:
        """The canonical, JSON-able snapshot of the game."""
        return self.engine.export(self.handle)

    @property
    def over(self) -> bool:
        """True once the game has ended (bonuses added)."""
        return not self.legal_moves()

    @property
    def scores(self) -> list[int]:
        """Every seat's score."""
        return [board["score"] for board in self.state["boards"]]

    @property
    def winners(self) -> list[int]:
        """The seats that win (or lead): highest score, then more complete rows, else shared."""
        return self.engine.winners(self.handle)

    def legal_moves(self) -> list[Move]:
        """The legal moves of the player to move, in canonical order (empty once over)."""
        if self._moves is None:
            self._moves = self.engine.legal_moves(self.handle)
        return self._moves

    def choose(self) -> Move:
        """The move the strategy of the seat to move picks (reading the stream)."""
        moves = self.legal_moves()
        if not moves:
            raise InputError("the game is over: no move to choose")
        seat = self.engine.turn(self.handle)
        return self.strategies[seat](LazyState(self), list(moves), self.rng)

    def play(self, move: Sequence[int] | None = None) -> Move:
        """Play `move` (default: the choice of the seat's strategy); InputError if illegal."""
        chosen = self.choose() if move is None else move
        if type(chosen) is not tuple:
            chosen = check_move(chosen)
        if chosen not in self.legal_moves():
            raise InputError(f"illegal move {list(chosen)} ({describe_move(chosen)})")
        if self.moves_played >= MAX_MOVES:
            raise SearchLimitExceeded(f"game with seed {self.seed} passed {MAX_MOVES} moves")
        self._moves = None
        self.engine.play(self.handle, chosen, self.rng)
        self.moves_played += 1
        return chosen

    def close(self) -> None:
        """Free the engine's copy of the game."""
        self.engine.close(self.handle)


@dataclass
class GameResult:
    """How one game ended (the per-game record of `simulate --json`)."""

    seed: int
    players: int
    engine: str
    strategies: list[str]
    scores: list[int]
    winners: list[int]
    rounds: int
    moves: int
    state: dict[str, Any] = field(repr=False, default_factory=dict)
    log: list[dict[str, Any]] = field(repr=False, default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The result as a JSON-able dict, without the final state and log."""
        data = asdict(self)
        del data["state"], data["log"]
        return data


def _result(game: AzulGame, state: dict[str, Any], winners: list[int], log: list[dict[str, Any]]) -> GameResult:
    """A finished game's result."""
    return GameResult(game.seed, game.players, game.engine_name, game.strategy_names,
                      [board["score"] for board in state["boards"]], winners, state["round"], state["moves"],
                      state, log)


def play_game(players: int = 2, seed: int = 0, engine_name: str = "python",
              strategies: Sequence[str | Strategy] | None = None, log: bool = False) -> GameResult:
    """Play one game to its end; with `log`, keep one record per move with the state after it."""
    if engine_name == "prolog" and not log and all(s in (None, "random", random_feasible) for s in strategies or []):
        return _random_in_prolog(players, seed)
    game = AzulGame(players, seed, engine_name, strategies)
    records = [{"type": "start", "seed": seed, "players": players, "engine": engine_name,
                "strategies": game.strategy_names, "state": game.state}] if log else []
    try:
        while game.legal_moves():
            seat = game.engine.turn(game.handle)
            move = game.play()
            if log:
                records.append({"type": "move", "seat": seat, "move": list(move), "state": game.state})
        state, winners = game.state, game.winners
    finally:
        game.close()
    result = _result(game, state, winners, records)
    if log:
        records.append({"type": "end", "scores": result.scores, "winners": winners})
    return result


def _random_in_prolog(players: int, seed: int) -> GameResult:
    """A random-feasible game run whole inside Prolog (one query), same stream as elsewhere."""
    prolog = engine("prolog")
    rng = RandomStream(seed)
    state, winners = prolog.random_game(check_players(players), rng.below(players), rng)
    return GameResult(seed, players, "prolog", ["random"] * players, [board["score"] for board in state["boards"]],
                      winners, state["round"], state["moves"], state)
