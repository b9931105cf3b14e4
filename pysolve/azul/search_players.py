"""Search players on the Game/State interface: Monte Carlo tree search and depth-limited minimax.

Both see a position only as `tree.State` offers it (`clone`, `child`,
`legal_moves`, `current_player`, chance nodes, `to_json`) and value it
with `heuristics`; neither touches the rules' tables (an `Offer` reads the
root State's table once, to copy it), so they search
whichever back end plays the game (its canonical state becomes a State).

`Mcts` is UCT with one tree per decision. Within a round nothing is hidden,
so tree nodes keep their positions (the grey wall's column choices at a
round's end included: decision nodes like any other), each node taking tiles
only its `width` best moves by immediate gain (a move to the floor alone only
when no line takes a tile: with many moves legal, the time goes to the few
that matter; a column choice keeps all its columns, five at most); a round's
end is a chance node (the next deal), where the tree stops and a playout
goes on for `rounds` round ends, each deal drawn from a determinisation of
the hidden bag order (the iteration's own random generator, weighted by the
tiles in the bag). A playout is `greedy` (best immediate gain, the default)
or `random` (the original random-feasible strategy); the position it
reaches is valued for every seat (max-n: each seat's reward is its lead
over the best other seat) and the rewards go back up the path. On a standard
wall with one-round playouts the tree and the playouts run on `offer.Offer`,
the round packed on integers: the same moves, gains and worth as a State's,
without building a canonical state for each. Every random number comes from a generator
seeded by one number of the game's stream, so a seeded game is the same
game every time; a time budget (seconds per move, CPU seconds of the thread
that searches: a busy machine does not weaken a player) makes it depend on
speed.

`Minimax` is paranoid alpha-beta to `depth` plies inside the round (a round's
end or the game's end is a leaf): the mover maximises its lead over the best
other seat, every other seat minimises it; moves are tried best-gain first.
Given seconds per move, it deepens a ply at a time until the time is up.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pysolve import memory
from pysolve.azul.heuristics import DEFAULT_WEIGHTS, Weights, move_gain, utilities, values
from pysolve.azul.model import Move, RandomStream, feasible, is_tiling
from pysolve.azul.offer import Offer
from pysolve.azul.tree import State
from pysolve.budget import work_clock
from pysolve.errors import InputError
from pysolve.files import excerpt

PLAYOUTS = ("random", "greedy")
MAX_ITERATIONS = 1_000_000  # iterations per move at most (minutes a move in Python)
WATCH_EVERY = 256  # iterations between looks at the memory bound (a tree grows some 100 KB in as many)
MAX_MOVE_SECONDS = 3600.0  # seconds per move at most
MAX_ROUNDS = 100  # round ends a playout runs to at most (a game is over long before)
MAX_DEPTH = 20  # plies of minimax at most (each ply costs about three times the one before)
MAX_EXPLORATION = 100.0  # UCT's exploration constant at most (rewards lie in [0, 1]: past a few, visits are even)
MAX_WIDTH = 200  # moves a tree node keeps at most (a 4-player offer has fewer than 200)
WIDTH = 8  # moves a tree node keeps by default: at 0.2 s a move w8 beat w4 12 of 16, w16 won 5 of 16 (docs/azul.md)
EXPLORATION = 0.25  # UCT's constant by default: rewards differ by a few hundredths, 0.7 spread the visits evenly


class Node:
    """A decision of the tree: its position, the moves not tried yet, its children and their statistics."""

    __slots__ = ("children", "rewards", "seat", "state", "totals", "untried", "visits")

    def __init__(self, state: Position, players: int, width: int = 0) -> None:
        self.state = state
        self.seat = state.current_player
        self.untried: list[Move] = []
        if not (state.is_chance_node or state.is_terminal):
            moves = state.legal_moves()
            # best immediate gain last: `pop()` expands the promising moves first
            found = gains(state, moves)
            self.untried = [moves[index] for index in sorted(range(len(moves)), key=found.__getitem__)]
            if width:
                self.untried = pruned(self.untried, width)
        self.children: dict[Move, Node] = {}
        self.visits = 0
        self.totals = [0.0] * players
        self.rewards: list[float] | None = None  # a round's end's rewards, when playouts stop there (as they came)

    @property
    def leaf(self) -> bool:
        """True at a round's end or the game's end: the tree does not grow past chance."""
        return self.state.is_chance_node or self.state.is_terminal

    def best_child(self, exploration: float) -> tuple[Move, Node]:
        """The child UCT picks for the seat to move here."""
        seat, scale, sqrt = self.seat, exploration * math.sqrt(math.log(self.visits)), math.sqrt
        best, chosen = -math.inf, None
        for item in self.children.items():
            child = item[1]
            value = child.totals[seat] / child.visits + scale / sqrt(child.visits)
            if value > best:
                best, chosen = value, item
        assert chosen is not None  # a node is searched through only once it has children
        return chosen


Position = State | Offer  # what a tree node holds: an Offer within a standard round's offer, else a State


def gains(state: Position, moves: list[Move]) -> list[int]:
    """Each move's immediate gain (`heuristics.move_gain`) in `state`."""
    if isinstance(state, Offer):
        return state.gains(moves)
    snapshot = state.to_json()
    return [move_gain(snapshot, move) for move in moves]


def best_moves(state: Position) -> list[Move]:
    """The legal moves of the best immediate gain in `state`, in canonical order."""
    if isinstance(state, Offer):
        return state.best_moves()
    moves = state.legal_moves()
    found = gains(state, moves)
    top = max(found)
    return [move for move, gain in zip(moves, found) if gain == top]


def worth(state: Position, weights: Weights = DEFAULT_WEIGHTS) -> list[float]:
    """Every seat's projected worth (`heuristics.values` under `weights`) in `state`."""
    return state.worth(weights) if isinstance(state, Offer) else values(state.to_json(), weights)


def pruned(ordered: list[Move], width: int) -> list[Move]:
    """The moves a tree node keeps of `ordered` (worst immediate gain first).

    Everything to the floor only when no tile can go to a line, then the `width` best by immediate gain; a
    grey wall's column choice keeps every column (its few columns differ in what they leave open, which
    immediate gain does not see).
    """
    if is_tiling(ordered[0]):
        return ordered
    lines = feasible(ordered)
    return (lines or ordered)[-width:]


@dataclass(frozen=True)
class Mcts:
    """Monte Carlo tree search (UCT) to a budget of iterations or seconds a move.

    UCT to a budget of `iterations` (or `seconds`) per move, playouts to `rounds` round ends, tree nodes
    keeping their `width` best moves (0: all), UCT's constant `exploration`; `packed`: a standard round with
    one-round playouts searched on an `Offer` (False: on States, the same search slower, as the bench compares);
    `weights`: those of the projected worth that values where a playout stops (`heuristics.Weights`).
    """

    iterations: int = 1000
    seconds: float | None = None
    playout: str = "greedy"
    rounds: int = 1
    exploration: float = EXPLORATION
    width: int = WIDTH
    packed: bool = True
    weights: Weights = DEFAULT_WEIGHTS

    def __post_init__(self) -> None:
        if not 1 <= self.iterations <= MAX_ITERATIONS:
            raise InputError(f"mcts: iterations must be at least 1 and at most {MAX_ITERATIONS:,}, "
                             f"not {self.iterations}")
        if self.seconds is not None and not 0 < self.seconds <= MAX_MOVE_SECONDS:  # nan and inf fail too
            raise InputError(f"mcts: seconds per move must be above 0 and at most {MAX_MOVE_SECONDS:g}, "
                             f"not {self.seconds}")
        if self.playout not in PLAYOUTS:
            raise InputError(f"mcts: unknown playout {excerpt(self.playout)}; known: {', '.join(PLAYOUTS)}")
        if not 1 <= self.rounds <= MAX_ROUNDS:
            raise InputError(f"mcts: playouts run to at least 1 round end and at most {MAX_ROUNDS}, "
                             f"not {self.rounds}")
        if not 0 <= self.exploration <= MAX_EXPLORATION:  # nan fails too
            raise InputError(f"mcts: the exploration constant is 0 to {MAX_EXPLORATION:g}, not {self.exploration}")
        if not 0 <= self.width <= MAX_WIDTH:
            raise InputError(f"mcts: a node keeps 1 to {MAX_WIDTH} moves (0: all), not {self.width}")

    def __call__(self, state: Mapping[str, Any], moves: list[Move], rng: RandomStream) -> Move:
        """The move with the most visits after the search (a strategy: one number read from `rng`)."""
        return self.search(State.from_json(dict(state)), random.Random(rng.next()))[0]

    def search(self, root_state: State, generator: random.Random) -> tuple[Move, int]:
        """(the most visited move, iterations run) from `root_state`, drawing from `generator`."""
        players = len(root_state.returns())
        packed = self.packed and self.rounds == 1 and Offer.fits(root_state)
        root = Node(Offer(root_state) if packed else root_state, players, self.width)
        if len(root.untried) == 1:
            return root.untried[0], 0
        deadline = work_clock() + self.seconds if self.seconds else None
        done = 0  # one iteration at least, so that the root has a child to choose however short the time
        while not done or (done < self.iterations if deadline is None else work_clock() < deadline):
            self._iterate(root, players, generator)
            done += 1
            if not done % WATCH_EVERY:
                memory.watch()
        move = max(root.children.items(), key=lambda item: item[1].visits)[0]
        return move, done

    def _iterate(self, root: Node, players: int, generator: random.Random) -> None:
        """One selection, expansion, playout and backup."""
        node, path = root, [root]
        while not node.untried and not node.leaf:
            node = node.best_child(self.exploration)[1]
            path.append(node)
        if node.untried:
            move = node.untried.pop()
            child = Node(node.state.child(move), players, self.width)
            node.children[move] = child
            node, path = child, path + [child]
        if node.rewards is None:
            rewards = utilities(worth(self._play_out(node.state, generator), self.weights))
            if node.leaf and self.rounds == 1:  # the playout stopped at once: it would end the same every time
                node.rewards = rewards
        else:
            rewards = node.rewards
        for visited in path:
            visited.visits += 1
            totals = visited.totals
            for seat in range(players):
                totals[seat] += rewards[seat]

    def _play_out(self, state: Position, generator: random.Random) -> Position:
        """A copy of `state` played on to the `rounds`-th round end (or the game's end)."""
        state = state.clone()
        ends = 0
        while not state.is_terminal:
            if state.is_chance_node:
                ends += 1
                if ends >= self.rounds:
                    break
                assert isinstance(state, State)  # an Offer, searched with one-round playouts, stops above
                while state.is_chance_node:
                    outcomes = state.chance_outcomes()
                    state.apply_chance(generator.choices([o for o, _ in outcomes], [w for _, w in outcomes])[0]
                                       if len(outcomes) > 1 else outcomes[0][0])
                continue
            if self.playout == "greedy":
                state.apply_move(generator.choice(best_moves(state)))
            else:
                moves = state.legal_moves()
                state.apply_move(generator.choice(feasible(moves) or moves))
        return state


class _OutOfTime(Exception):
    """A minimax iteration stopped at its deadline (the deeper search is dropped, the shallower one kept)."""


@dataclass(frozen=True)
class Minimax:
    """Paranoid alpha-beta to `depth` plies within the round, leaves valued by `heuristics.values`.

    With `seconds`, iterative deepening (1, 2, ... plies up to `depth`) until the time is up, the move
    of the deepest search finished played.
    """

    depth: int = 2
    seconds: float | None = None

    def __post_init__(self) -> None:
        if not 1 <= self.depth <= MAX_DEPTH:
            raise InputError(f"minimax: depth must be at least 1 and at most {MAX_DEPTH}, not {self.depth}")
        if self.seconds is not None and not 0 < self.seconds <= MAX_MOVE_SECONDS:  # nan and inf fail too
            raise InputError(f"minimax: seconds per move must be above 0 and at most {MAX_MOVE_SECONDS:g}, "
                             f"not {self.seconds}")

    def __call__(self, state: Mapping[str, Any], moves: list[Move], rng: RandomStream) -> Move:
        """The move of best minimax value, the first in best-gain order among equals (reads no number)."""
        root = State.from_json(dict(state))
        if self.seconds is None:
            return self._best(root, self.depth, None)
        deadline = work_clock() + self.seconds
        chosen = self._best(root, 1, None)  # one ply always finishes
        for depth in range(2, self.depth + 1):
            try:
                chosen = self._best(root, depth, deadline)
            except _OutOfTime:
                break
        return chosen

    def _best(self, root: State, depth: int, deadline: float | None) -> Move:
        """The move of best value searched `depth` plies (raising _OutOfTime past `deadline`)."""
        seat = root.current_player
        best, chosen = -math.inf, root.legal_moves()[0]
        for move in self._ordered(root):
            value = self._value(root.child(move), seat, depth - 1, best, math.inf, deadline)
            if value > best:
                best, chosen = value, move
        return chosen

    @staticmethod
    def _ordered(state: State) -> list[Move]:
        """The legal moves, best immediate gain first (alpha-beta prunes more)."""
        snapshot = state.to_json()
        return sorted(state.legal_moves(), key=lambda move: -move_gain(snapshot, move))

    def _value(self, state: State, seat: int, depth: int, alpha: float, beta: float,
               deadline: float | None) -> float:
        """The lead of `seat` over the best other seat, searched `depth` more plies."""
        if deadline is not None and work_clock() > deadline:
            raise _OutOfTime
        if depth == 0 or state.is_chance_node or state.is_terminal:
            worth = values(state.to_json())
            return worth[seat] - max(value for other, value in enumerate(worth) if other != seat)
        maximising = state.current_player == seat
        best = -math.inf if maximising else math.inf
        for move in self._ordered(state):
            value = self._value(state.child(move), seat, depth - 1, alpha, beta, deadline)
            if maximising:
                best, alpha = max(best, value), max(alpha, value)
            else:
                best, beta = min(best, value), min(beta, value)
            if alpha >= beta:
                break
        return best
