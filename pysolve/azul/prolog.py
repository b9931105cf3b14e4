"""The Prolog back end: prolog/azul.pl keeps each game in dynamic facts keyed by an id.

Every call is one bounded query through `pysolve.bridge`. Random numbers go
in as a list (peeked from the game's stream, then advanced by what Prolog
used), so a game on this back end draws and chooses exactly as on the others.
A game played only by the random-feasible strategy runs whole inside Prolog.
`solve` answers the puzzle's question: one seeded game played to its end, whole inside Prolog.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

from pysolve import bridge
from pysolve.answers import Found
from pysolve.azul.model import (
    FACTORIES,
    GREY,
    MAX_MOVES,
    STANDARD,
    TILES_PER_FACTORY,
    TILING,
    Move,
    Question,
    RandomStream,
    check_players,
    check_state,
    check_variant,
)
from pysolve.azul.seeded import final
from pysolve.bridge import Var
from pysolve.budget import Budget
from pysolve.errors import InputError, PrologError, SearchLimitExceeded

RULES = "azul"
SECONDS = 60.0
BLOCK = 130  # random numbers per player handed to a whole-game query (two players use 160 on average, at most
# about 220 over 300 seeds; four players about 320): fewer numbers to parse, rarely a second query
_ids = itertools.count(1)


def solve(question: Question, budget: Budget) -> Found:
    """The question's seeded game played to its end by prolog/azul.pl.

    The question's seeded game played to its end by prolog/azul.pl (whole, inside Prolog, in what is left
    of `budget`'s time).
    """
    stream = RandomStream(question.seed)
    starter = stream.below(check_players(question.players))
    return final(*PrologEngine().random_game(question.players, starter, stream, budget.remaining(), question.variant))


def conjunction(*goals: bridge.Goal) -> bridge.Goal:
    """The conjunction of `goals`, written by the bridge."""
    whole = goals[-1]
    for part in reversed(goals[:-1]):
        whole = bridge.goal(",", part, whole)
    return whole


def _query(goal: bridge.Goal, plain: tuple[str, ...] = (), texts: tuple[str, ...] = (),
           seconds: float = SECONDS) -> dict[str, Any]:
    """The values of the variables named in `plain` and `texts` in the first solution of `goal`; PrologError
    when it fails.

    Only one list comes back through pyswip: the goal runs inside `findall`,
    which leaves its own variables unbound; each variable of `texts` (lists
    of integers and atoms) is written as one atom in Prolog and read here
    as JSON, far cheaper than converting its terms one by one.
    """
    written = [Var(f"{name}_") for name in texts]
    writes = [bridge.goal("format", bridge.goal("atom", text), "~w", [Var(name)]) for text, name in zip(written, texts)]
    values = [Var(name) for name in plain] + written
    found = bridge.goal("findall", values, bridge.goal("once", conjunction(goal, *writes)), [Var("Values_")])
    result = bridge.solutions(RULES, found, max_solutions=1, seconds=seconds)
    if not result.rows:
        raise PrologError(f"azul goal failed: {goal[:200]}")
    row = result.rows[0]["Values_"]
    return {**dict(zip(plain, row)), **{name: json.loads(text) for name, text in zip(texts, row[len(plain):])}}


def _moves(rows: list[list[int]]) -> list[Move]:
    """Moves as Prolog returns them, as tuples."""
    return [(source, colour, destination) for source, colour, destination in rows]


class PrologHandle:
    """A handle on one game living in Prolog (its id there), with its legal moves and seat to move once read."""

    __slots__ = ("id", "next", "players")

    def __init__(self, game_id: int, players: int) -> None:
        self.id = game_id
        self.players = players
        self.next: tuple[list[Move], int] | None = None  # (legal moves, seat to move) until the next change


def state_from_prolog(row: list[Any]) -> dict[str, Any]:
    """The canonical state from export_state/2's plain lists (read back as JSON: atoms as strings)."""
    players, round_, moves, turn, starter, marker, factories, centre, bag, lid, boards, phase, variant = row
    state = {
        "players": players, "round": round_, "moves": moves, "turn": turn, "starter": starter,
        "marker": marker, "factories": factories, "centre": centre, "bag": bag, "lid": lid,
        "boards": [{"score": score, "wall": wall, "lines": lines, "floor": floor, **_colours(colours)}
                   for score, wall, lines, floor, colours in boards],
        "over": phase == "over",
    }
    if variant == GREY:
        state["variant"] = GREY
    if phase == TILING:
        state["phase"] = TILING
    return state


def _colours(colours: Any) -> dict[str, Any]:
    """A board's `colours` entry: a grey wall's colours, nothing for a coloured wall (`none` in Prolog)."""
    return {} if colours in ("none", None) else {"colours": colours}


def state_to_prolog(state: dict[str, Any]) -> list[Any]:
    """A canonical state as the plain lists import_state/2 reads (for `bridge.term`)."""
    boards = [[board["score"], board["wall"], board["lines"], board["floor"], board.get("colours", "none")]
              for board in state["boards"]]
    fields = [state[key] for key in ("players", "round", "moves", "turn", "starter", "marker",
                                     "factories", "centre", "bag", "lid")]
    phase = "over" if state["over"] else state.get("phase", "offer")
    return [*fields, boards, phase, state.get("variant", STANDARD)]


class PrologEngine:
    """The rules of prolog/azul.pl (an `Engine`), one query per turn (or per whole random game)."""

    name = "prolog"

    def new_game(self, players: int, starter: int, stream: RandomStream, variant: str = STANDARD) -> PrologHandle:
        """A fresh game of `variant` in Prolog, its first round dealt from the stream."""
        handle = PrologHandle(next(_ids), check_players(players))
        start = bridge.goal("new_game", handle.id, players, check_variant(variant), starter,
                            self._reserve(handle, stream), Var("Used"))
        row = _query(conjunction(start, self._next(handle)), ("Used", "Turn"), ("Moves",))
        stream.advance(row["Used"])
        self._read_next(handle, row)
        return handle

    def legal_moves(self, handle: PrologHandle) -> list[Move]:
        """The legal moves of the player to move, in canonical order."""
        return list(self._known_next(handle)[0])

    def turn(self, handle: PrologHandle) -> int:
        """The seat to move (-1 once over)."""
        return self._known_next(handle)[1]

    def _known_next(self, handle: PrologHandle) -> tuple[list[Move], int]:
        """The legal moves and the seat to move, asked of Prolog only when not known since the last change."""
        return handle.next or self._read_next(handle, _query(self._next(handle), ("Turn",), ("Moves",)))

    @staticmethod
    def _next(handle: PrologHandle) -> bridge.Goal:
        """The goal binding Moves and Turn: what the player to move may do."""
        return conjunction(bridge.goal("legal_moves", handle.id, Var("Moves")),
                           bridge.goal("turn", handle.id, Var("Turn")))

    @staticmethod
    def _read_next(handle: PrologHandle, row: dict[str, Any]) -> tuple[list[Move], int]:
        """Keep (and return) the legal moves and turn a query returned."""
        handle.next = (_moves(row["Moves"]), row["Turn"])
        return handle.next

    def play(self, handle: PrologHandle, move: Move, stream: RandomStream) -> None:
        """Apply a legal move (and a round end with its deal) in one query."""
        goal = conjunction(bridge.goal("play_move", handle.id, move, self._reserve(handle, stream), Var("Used")),
                           self._next(handle))
        try:
            row = _query(goal, ("Used", "Turn"), ("Moves",))
        except PrologError:
            raise InputError(f"illegal move {list(move)} in Prolog game {handle.id}") from None
        stream.advance(row["Used"])
        self._read_next(handle, row)

    def random_game(self, players: int, starter: int, stream: RandomStream, seconds: float | None = None,
                    variant: str = STANDARD) -> tuple[dict[str, Any], list[int]]:
        """A whole game of the random-feasible strategy inside Prolog (each query within `seconds`)."""
        return self.random_games(players, [(starter, stream)], seconds, variant)[0]

    def random_games(self, players: int, starts: list[tuple[int, RandomStream]], seconds: float | None = None,
                     variant: str = STANDARD) -> list[tuple[dict[str, Any], list[int]]]:
        """Whole games of the random-feasible strategy, one per (opening seat, stream), all in one query.

        Each game gets enough random numbers for nearly every game; one that
        runs short goes on in queries of its own. The answer of a finished
        game is its final state as one atom of JSON and its winners.
        """
        limit = seconds or SECONDS
        ids = [next(_ids) for _ in starts]
        games = [[game_id, starter, stream.peek(BLOCK * players)] for game_id, (starter, stream) in zip(ids, starts)]
        rows = _query(bridge.goal("random_games", check_players(players), check_variant(variant), games,
                                  Var("Results")), ("Results",), seconds=limit)["Results"]
        finished = []
        for game_id, (_, stream), (used, status, text, seats) in zip(ids, starts, rows):
            stream.advance(used)
            while status == "more":
                if self.export(PrologHandle(game_id, players))["moves"] >= MAX_MOVES:  # a game that never ends
                    _query(bridge.goal("drop_game", game_id))
                    raise SearchLimitExceeded(f"a random {players}-player game passed {MAX_MOVES} moves")
                goal = conjunction(bridge.goal("run_random_game", game_id, stream.peek(BLOCK * players), Var("Used"),
                                               Var("Status")),
                                   bridge.goal("game_result", game_id, Var("Status"), Var("Text"), Var("Seats")))
                row = _query(goal, ("Used", "Status", "Text", "Seats"), seconds=limit)
                stream.advance(row["Used"])
                status, text, seats = row["Status"], row["Text"], row["Seats"]
            finished.append((state_from_prolog(json.loads(text)), seats))
        return finished

    def export(self, handle: PrologHandle) -> dict[str, Any]:
        """The canonical snapshot of a game."""
        text = _query(bridge.goal("state_text", handle.id, Var("Text")), ("Text",))["Text"]
        return state_from_prolog(json.loads(text))

    def load(self, state: dict[str, Any]) -> PrologHandle:
        """A new Prolog game continuing from a canonical snapshot (checked first)."""
        check_state(state)
        handle = PrologHandle(next(_ids), state["players"])
        _query(bridge.goal("import_state", handle.id, state_to_prolog(state)))
        return handle

    def winners(self, handle: PrologHandle) -> list[int]:
        """Seats that win (or lead), by winners/2."""
        return _query(bridge.goal("winners", handle.id, Var("Seats")), ("Seats",))["Seats"]

    def close(self, handle: PrologHandle) -> None:
        """Retract the game's facts."""
        _query(bridge.goal("drop_game", handle.id))

    @staticmethod
    def _reserve(handle: PrologHandle, stream: RandomStream) -> list[int]:
        """Enough random numbers for one full deal."""
        return stream.peek(FACTORIES[handle.players] * TILES_PER_FACTORY)
