"""Back ends in lockstep.

The same seeded game on several back ends, compared after every move (on the grey wall every column choice of
the tiling phase too: the columns offered, the one chosen, the state after it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pysolve.agreement import first_difference
from pysolve.azul.match import Match
from pysolve.azul.model import STANDARD, TOTAL_TILES, is_tiling, tile_count


@dataclass
class Lockstep:
    """What a lockstep run compared and the first disagreement, if any."""

    games: int = 0
    moves: int = 0  # every move compared, the column choices included
    columns: int = 0  # of them, the column choices of a grey wall's tiling
    difference: str | None = None

    @property
    def agree(self) -> bool:
        """True when every compared legal-move list and state matched."""
        return self.difference is None


def lockstep_game(players: int, seed: int, backends: Sequence[str], strategies: Sequence[str] = ("random",),
                  report: Lockstep | None = None, variant: str = STANDARD) -> Lockstep:
    """Play one game of `variant` on every back end at once; compare legal moves, states and choices at each step."""
    report = report or Lockstep()
    matches = [Match(players, seed, name, list(strategies), variant) for name in backends]
    try:
        while report.agree:
            report.difference = _compare(matches, seed)
            if report.difference or not matches[0].legal_moves():
                break
            choices = [match.choose() for match in matches]
            if len(set(choices)) > 1:
                report.difference = f"seed {seed}: the back ends chose different moves {choices}"
                break
            for match, move in zip(matches, choices):
                match.play(move)
            report.moves += 1
            report.columns += is_tiling(choices[0])
        if report.agree and len({tuple(match.winners) for match in matches}) > 1:
            report.difference = f"seed {seed}: the back ends name different winners"
    finally:
        for match in matches:
            match.close()
    report.games += 1
    return report


def _compare(matches: list[Match], seed: int) -> str | None:
    """Where the first back end and another differ now (legal moves, state, tile count), or None."""
    first = matches[0]
    state = first.state
    if tile_count(state) != TOTAL_TILES:
        return f"seed {seed}, move {state['moves']}: {first.backend} holds {tile_count(state)} tiles"
    for other in matches[1:]:
        where = first_difference(first.legal_moves(), other.legal_moves(), "legal_moves")
        where = where or first_difference(state, other.state, "state")
        if where:
            return f"seed {seed}, move {state['moves']}: {first.backend} and {other.backend} differ at {where}"
    return None


def lockstep(players: int, games: int, seed: int, backends: Sequence[str],
             strategies: Sequence[str] = ("random",), variant: str = STANDARD) -> Lockstep:
    """`games` seeded games of `variant` (seeds seed, seed+1, ...) in lockstep; stops at the first disagreement."""
    report = Lockstep()
    for index in range(games):
        lockstep_game(players, seed + index, backends, strategies, report, variant)
        if not report.agree:
            break
    return report
