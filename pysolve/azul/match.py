"""Matches: a seeded game of Azul driven on one back end's engine, one strategy per seat.

`engine(backend)` is the `Engine` a back end holds the rules in; a `Match`
drives one game on it (its seed, its strategies, `legal_moves()`, `play`),
and `play_match` plays one to its end. All randomness comes from the match's
`RandomStream` (seeded once): the seat that opens, every tile drawn, every
strategy choice. The same seed therefore gives the same game, move by move,
on every back end.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from pysolve import backends
from pysolve.azul import packed
from pysolve.azul.model import (
    MAX_MOVES,
    SEED,
    STANDARD,
    Engine,
    Move,
    RandomStream,
    check_move,
    check_players,
    check_variant,
    complete_rows,
    describe_move,
    winners_of,
)
from pysolve.azul.protocol import MOVE_SECONDS, Agent, AgentFault
from pysolve.azul.strategies import Strategy, random_feasible, strategy, strategy_name
from pysolve.budget import Budget
from pysolve.errors import InputError, SearchLimitExceeded


@functools.cache
def engine(backend: str) -> Engine[Any]:
    """The engine of back end `backend`: the rules of Azul as it holds them (one instance per process).

    Each engine module is imported when its back end is first asked for, so a
    match on Python loads neither the Prolog bridge nor miniKanren; engines
    import only the model, so nothing imported here leads back to this module.
    """
    backends.check_name(backend)
    if backend == "python":
        from pysolve.azul.python import PythonEngine
        return PythonEngine()
    if backend == "prolog":
        from pysolve.azul.prolog import PrologEngine
        backends.require("prolog")
        return PrologEngine()
    from pysolve.azul.kanren import KanrenEngine
    return KanrenEngine()


class Snapshot(Protocol):
    """Anything with a canonical `state` (a `Match`, a table of the environments)."""

    @property
    def state(self) -> dict[str, Any]:
        """The canonical, JSON-able state."""
        ...


class LazyState(Mapping[str, Any]):
    """A match's (or any snapshot's) canonical state, exported from the engine only when first read."""

    def __init__(self, match: Snapshot) -> None:
        self._match = match
        self._state: dict[str, Any] | None = None

    def _load(self) -> dict[str, Any]:
        if self._state is None:
            self._state = self._match.state
        return self._state

    def __getitem__(self, key: str) -> Any:
        return self._load()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._load())

    def __len__(self) -> int:
        return len(self._load())


class Match:
    """One seeded game on one back end's engine.

    `legal_moves()`, `play(move)`, `state`, `turn`, `over`, `scores`, `winners`.

    `variant` is `standard` (the coloured wall) or `grey` (the rulebook's variant: any colour in any column).
    """

    def __init__(self, players: int = 2, seed: int = SEED, backend: str = "python",
                 strategies: Sequence[str | Strategy] | None = None, variant: str = STANDARD,
                 move_seconds: float = MOVE_SECONDS) -> None:
        self.players = check_players(players)
        self.variant = check_variant(variant)
        self.seed = seed
        self.backend = backend
        self.engine = engine(backend)
        chosen = list(strategies) if strategies else ["random"]
        self.strategies = [strategy(chosen[seat % len(chosen)], move_seconds) for seat in range(players)]
        self.strategy_names = [strategy_name(chosen[seat % len(chosen)]) for seat in range(players)]
        self.rng = RandomStream(seed)
        self.handle = self.engine.new_game(players, self.rng.below(players), self.rng, variant)
        self.moves_played = 0
        self._moves: list[Move] | None = None  # the legal moves, until the next play

    @property
    def state(self) -> dict[str, Any]:
        """The canonical, JSON-able snapshot of the game."""
        return self.engine.export(self.handle)

    @property
    def turn(self) -> int:
        """The seat to move (-1 once over)."""
        return self.engine.turn(self.handle)

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
        return self.strategies[self.turn](LazyState(self), list(moves), self.rng)

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

    @property
    def names(self) -> list[str]:
        """The name each seat plays under: its strategy's, or the name an outside agent announced."""
        return [chosen.shown_name if isinstance(chosen, Agent) else name
                for chosen, name in zip(self.strategies, self.strategy_names)]

    def tell_end(self, scores: list[int], winners: list[int], forfeit: int | None = None) -> None:
        """Tell the outside agents at the table how the game ended."""
        for chosen in self.strategies:
            if isinstance(chosen, Agent):
                chosen.game_over(scores, winners, forfeit)

    def close(self) -> None:
        """Free the engine's copy of the match, and end the processes of its outside agents."""
        self.engine.close(self.handle)
        for chosen in self.strategies:
            if isinstance(chosen, Agent):
                chosen.close()


@dataclass
class MatchResult:
    """How one match ended (the per-game record of `simulate --json`)."""

    seed: int
    players: int
    backend: str
    strategies: list[str]
    scores: list[int]
    winners: list[int]
    rounds: int
    moves: int
    state: dict[str, Any] = field(repr=False, default_factory=dict)
    log: list[dict[str, Any]] = field(repr=False, default_factory=list)
    variant: str = STANDARD
    forfeit: dict[str, Any] | None = None  # an outside agent that lost the game by failing: seat, name, reason
    names: list[str] = field(default_factory=list)  # by seat: the strategy, or the name its outside agent announced

    def __post_init__(self) -> None:
        if not self.names:
            self.names = list(self.strategies)

    def to_json(self) -> dict[str, Any]:
        """The result as a JSON-able dict, without the final state and log (nor a forfeit when there is none).

        The back end under the key `engine`, which results and logs have always had.
        """
        return {("engine" if key == "backend" else key): value for key, value in asdict(self).items()
                if key not in ("state", "log") and not (key == "forfeit" and value is None)}


def _result(match: Match, state: dict[str, Any], winners: list[int], log: list[dict[str, Any]]) -> MatchResult:
    """A finished match's result."""
    return MatchResult(match.seed, match.players, match.backend, match.strategy_names,
                       [board["score"] for board in state["boards"]], winners, state["round"], state["moves"],
                       state, log, match.variant, names=match.names)


def play_match(players: int = 2, seed: int = SEED, backend: str = "python",
               strategies: Sequence[str | Strategy] | None = None, log: bool = False,
               budget: Budget | None = None, variant: str = STANDARD,
               move_seconds: float = MOVE_SECONDS) -> MatchResult:
    """Play one game of `variant` to its end (a move spends a node of `budget`); with `log`, one record per move.

    An outside agent (`cmd:...`, held to `move_seconds` a move) that fails forfeits: the game stops there,
    its seat scores 0, the other seats keep their scores so far and the best of them win (the usual rule).

    A game of the random strategy alone, unlogged, runs whole inside the back end where it can: in Prolog
    (one query), and in Python on packed boards (without a budget: it counts no moves).
    """
    whole = not log and random_only(strategies)
    if whole and backend == "prolog":
        return _random_in_prolog([seed], players, budget, check_variant(variant))[0]
    if whole and backend == "python" and budget is None:
        state = packed.random_game(players, seed, variant)
        return MatchResult(seed, players, "python", ["random"] * players, [board["score"] for board in state["boards"]],
                           packed.winners(state), state["round"], state["moves"], state, variant=variant)
    match = Match(players, seed, backend, strategies, variant, move_seconds)
    records = [{"type": "start", "seed": seed, "players": players, "engine": backend, "variant": match.variant,
                "strategies": match.strategy_names, "state": match.state}] if log else []
    forfeit: dict[str, Any] | None = None
    try:
        try:
            while match.legal_moves():
                if budget:
                    budget.spend()
                seat = match.turn
                move = match.play()
                if log:
                    records.append({"type": "move", "seat": seat, "move": list(move), "state": match.state})
            state, winners = match.state, match.winners
            match.tell_end([board["score"] for board in state["boards"]], winners)
        except AgentFault as fault:
            state, winners = forfeited(match.state, fault.seat)
            forfeit = {"seat": fault.seat, "name": fault.name, "reason": fault.reason}
            match.tell_end([board["score"] for board in state["boards"]], winners, fault.seat)
    finally:
        match.close()
    result = _result(match, state, winners, records)
    result.forfeit = forfeit
    if log:
        records.append({"type": "end", "scores": result.scores, "winners": winners,
                        **({"forfeit": forfeit} if forfeit else {})})
    return result


def forfeited(state: dict[str, Any], seat: int) -> tuple[dict[str, Any], list[int]]:
    """The end of a game `seat`'s agent forfeited: its state and the winners.

    (the state with `seat`'s score 0, the winners among the other seats by the usual rule) of a game
    stopped when `seat`'s agent failed.
    """
    state["boards"][seat]["score"] = 0
    others = [other for other in range(state["players"]) if other != seat]
    best = winners_of([state["boards"][other]["score"] for other in others],
                      [complete_rows(state["boards"][other]["wall"]) for other in others])
    return state, [others[index] for index in best]


def random_only(strategies: Sequence[str | Strategy] | None) -> bool:
    """True when every seat plays the original random strategy (the default)."""
    return all(s in (None, "random", random_feasible) for s in strategies or [])


def random_matches(players: int, seeds: Sequence[int], backend: str, variant: str = STANDARD) -> list[MatchResult]:
    """Whole matches of the random strategy alone, one per seed: `play_match`'s, but in Prolog all in one query."""
    if backend == "prolog":
        return _random_in_prolog(seeds, players, None, check_variant(variant))
    return [play_match(players, seed, backend, variant=variant) for seed in seeds]


def _random_in_prolog(seeds: Sequence[int], players: int, budget: Budget | None, variant: str) -> list[MatchResult]:
    """Random-feasible games run whole inside Prolog (one query for them all), same streams as elsewhere."""
    from pysolve.azul.prolog import PrologEngine

    prolog = engine("prolog")
    assert isinstance(prolog, PrologEngine)
    check_players(players)
    streams = [RandomStream(seed) for seed in seeds]
    finals = prolog.random_games(players, [(stream.below(players), stream) for stream in streams],
                                 budget.remaining() if budget else None, variant)
    return [MatchResult(seed, players, "prolog", ["random"] * players, [board["score"] for board in state["boards"]],
                        winners, state["round"], state["moves"], state, variant=variant)
            for seed, (state, winners) in zip(seeds, finals)]
