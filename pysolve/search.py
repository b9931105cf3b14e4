"""Generic state-space search: one problem interface, many strategies.

In the manner of the course libraries the tokens puzzle comes from (and of
aima-python's search.py): a `Problem` says what the start is, what a goal is,
what the successors of a state are and how far a state looks from a goal;
each strategy is a small function over it that returns a `Result` with the
goal state and the number of states it expanded.

Tree strategies follow the course definitions exactly: the goal test happens
when a state is taken from the frontier (the start first), a goal state is
not expanded, and the flavour (`hs` for the Haskell library, `py` for the
Python one) fixes the order children enter the frontier.

A search records itself when its budget carries a trace (pysolve.trace,
`pysolve solve ... --trace FILE`), the same way prolog/pysolve_search.pl
records Prolog's: a node per state taken from the frontier (the start
first; tested for the goal, then expanded), below the node of the state it
was generated from; the goal taken is the solution, a state expanded into
no new state is a dead end (`fail`). Hill climbing takes the state it climbs
to; `mirrored_shortest_path` takes each state it expands, then the state
where the search meets its mirror image, then the half of the path read in
the mirror, one node a state below it, the goal last; `shortest_path` (A*)
takes each board it pops that is no stale entry. `describe` gives a state's
label and `move`. An unrecorded search reports to NOT_RECORDED (pysolve.trace),
and a tree search chooses its plain problem once, so it pays nothing per state.

How to use it: write the problem, then hand it to any strategy. Here a
state is a number, a move adds 1 or doubles it, and the goal is 10:

>>> class ReachTen:
...     def initial(self): return 1
...     def is_goal(self, n): return n == 10
...     def successors(self, n): return [n + 1, n * 2] if n < 10 else []
...     def heuristic(self, n): return abs(10 - n)
>>> breadth_first(ReachTen())
Result(goal=10, expanded=17)
>>> depth_first(ReachTen()).goal, hill_climbing(ReachTen()).goal
(10, 10)

The graph searches return the path itself, here a shortest one:

>>> shortest_path(ReachTen()).goal
[1, 2, 4, 5, 10]

A budget bounds the states expanded; `Budget.spend` raises SearchLimitExceeded past it:

>>> breadth_first(ReachTen(), budget=Budget(nodes=3))
Traceback (most recent call last):
...
pysolve.errors.SearchLimitExceeded: ...
"""

from __future__ import annotations

import heapq
import itertools
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from pysolve.budget import Budget
from pysolve.trace import Trace, recorder

State = TypeVar("State")
Board = TypeVar("Board", bound=Hashable)

FLAVOURS = ("hs", "py")
DEFAULT_MAX_EXPANSIONS = 2_000_000

Describe = Callable[[Any], tuple[str, dict[str, Any]]]  # a state's label and move in a trace


def labelled(state: object) -> tuple[str, dict[str, Any]]:
    """A state's label in a trace, its text, and its move, `{"state": text}`."""
    text = str(state)
    return text, {"state": text}


class Problem(Protocol[State]):
    """What every strategy needs to know about a problem."""

    def initial(self) -> State: ...
    def is_goal(self, state: State) -> bool: ...
    def successors(self, state: State) -> list[State]: ...
    def heuristic(self, state: State) -> int: ...


@dataclass
class Result(Generic[State]):
    """The goal state reached (None when the strategy failed) and the states expanded."""

    goal: State | None
    expanded: int


def expansions(budget: Budget | None) -> Budget:
    """The budget of one search: the one given, else at most DEFAULT_MAX_EXPANSIONS expanded states."""
    return budget or Budget(nodes=DEFAULT_MAX_EXPANSIONS, label="search of expanded states")


def depth_first(problem: Problem[State], flavour: str = "hs", budget: Budget | None = None) -> Result[State]:
    """Stack frontier; hs explores the first child first, py the last."""
    stack = deque([problem.initial()])
    return frontier_search(problem, stack, stack.pop, flavour == "hs", budget)


def breadth_first(problem: Problem[State], flavour: str = "hs", budget: Budget | None = None) -> Result[State]:
    """Queue frontier; hs enqueues children last-first, py first-first."""
    queue = deque([problem.initial()])
    return frontier_search(problem, queue, queue.popleft, flavour == "hs", budget)


def frontier_search(
    problem: Problem[State],
    frontier: deque[State],
    take: Callable[[], State],
    children_reversed: bool,
    budget: Budget | None,
) -> Result[State]:
    """Take a state, test it, expand it; children join the frontier's right end (reversed if asked)."""
    budget = expansions(budget)
    while frontier:
        state = take()
        if problem.is_goal(state):
            return Result(state, budget.spent)
        budget.spend()
        children = problem.successors(state)
        frontier.extend(reversed(children) if children_reversed else children)
    return Result(None, budget.spent)


def best_first(problem: Problem[State], flavour: str = "hs", budget: Budget | None = None) -> Result[State]:
    """Lowest heuristic first; ties by (-expansion, i) for hs, (expansion, i) for py."""
    budget = expansions(budget)
    start = problem.initial()
    frontier = [(problem.heuristic(start), 0, 0, start)]
    while frontier:
        _, _, _, state = heapq.heappop(frontier)
        if problem.is_goal(state):
            return Result(state, budget.spent)
        budget.spend()
        expansion = budget.spent
        order = -expansion if flavour == "hs" else expansion
        for index, child in enumerate(problem.successors(state)):
            heapq.heappush(frontier, (problem.heuristic(child), order, index, child))
    return Result(None, budget.spent)


def hill_climbing(problem: Problem[State], flavour: str = "hs", budget: Budget | None = None) -> Result[State]:
    """Follow the lowest-heuristic successor (first generated on ties), never backtrack."""
    budget, state = expansions(budget), problem.initial()
    while not problem.is_goal(state):
        budget.spend()
        children = problem.successors(state)
        if not children:
            return Result(None, budget.spent)
        state = min(children, key=problem.heuristic)  # min keeps the first of equals
    return Result(state, budget.spent)


TREE_STRATEGIES = {
    "dfs": depth_first,
    "bfs": breadth_first,
    "best-first": best_first,
    "hill-climbing": hill_climbing,
}


def tree_search(strategy: str, problem: Problem[State], flavour: str, budget: Budget,
                describe: Describe) -> Result[State]:
    """Run the named tree strategy, recorded when the budget carries a trace.

    The tree strategy named `strategy` on `problem`, recorded in `budget.trace` when there is one (`describe`
    labels a state)."""
    plain: TreeSearch = TREE_STRATEGIES[strategy]
    search = recorder(budget.trace).wrap(recorded_search, plain, describe)
    return search(problem, flavour, budget)


TreeSearch = Callable[[Problem[Any], str, Budget | None], Result[Any]]


def recorded_search(trace: Trace, search: TreeSearch, describe: Describe) -> TreeSearch:
    """`search` on its problem as Recorded in `trace`, its result the problem's own goal state again."""

    def recorded(problem: Problem[Any], flavour: str, budget: Budget | None) -> Result[Any]:
        found = search(Recorded(problem, trace, describe), flavour, budget)
        return Result(found.goal.state if found.goal is not None else None, found.expanded)

    return recorded


@dataclass(eq=False, slots=True)
class Taken(Generic[State]):
    """A state of a recorded search: the node it was generated from, and its own node once taken."""

    state: State
    parent: int
    node: int


class Recorded(Generic[State]):
    """A problem whose tree search is recorded in a trace.

    `problem` with its tree search recorded in `trace`: the states are Taken, and the problem's questions
    write the events.

    Every tree strategy above tests a state for the goal once, when it takes
    it from the frontier (or climbs to it), and asks for the successors of
    the states it has taken only: so the goal test enters the state's node
    (below the node it was generated from) and marks the goal the solution,
    and a state with no successors is a dead end.
    """

    def __init__(self, problem: Problem[State], trace: Trace, describe: Describe) -> None:
        self.problem, self.trace, self.describe = problem, trace, describe

    def initial(self) -> Taken[State]:
        return Taken(self.problem.initial(), 0, 0)

    def is_goal(self, taken: Taken[State]) -> bool:
        taken.node = self.trace.enter_as(taken.parent, self.describe, taken.state)
        if self.problem.is_goal(taken.state):
            self.trace.solution(taken.node)
            return True
        return False

    def successors(self, taken: Taken[State]) -> list[Taken[State]]:
        children = [Taken(child, taken.node, 0) for child in self.problem.successors(taken.state)]
        if not children:
            self.trace.fail(taken.node)
        return children

    def heuristic(self, taken: Taken[State]) -> int:
        return self.problem.heuristic(taken.state)


class PathProblem(Generic[Board]):
    """Tree search over simple paths of a board problem: a state is the path so far."""

    def __init__(self, boards: Problem[Board]) -> None:
        self.boards = boards

    def initial(self) -> tuple[Board, ...]:
        return (self.boards.initial(),)

    def is_goal(self, path: tuple[Board, ...]) -> bool:
        return self.boards.is_goal(path[-1])

    def successors(self, path: tuple[Board, ...]) -> list[tuple[Board, ...]]:
        return [path + (board,) for board in self.boards.successors(path[-1]) if board not in path]

    def heuristic(self, path: tuple[Board, ...]) -> int:
        return self.boards.heuristic(path[-1])


class RecordedGraph(Generic[Board]):
    """`problem` with a graph search over its boards recorded in `trace`, its questions writing the events.

    A board's node is entered below the node of the board it was reached
    from (`parent`, the search's own map; `nodes` fills as boards are
    entered) when the search asks whether it is the goal (`tested`: A*,
    which asks it of every board it takes) or else for its successors (the
    mirrored search), and is a dead end when none of its successors `opens`
    (the search's test that a successor joins the frontier, asked here
    before the search asks it: no event comes between). A search takes it
    through `Trace.wrap`, once: unrecorded, it asks `problem` itself.
    """

    def __init__(self, trace: Trace, problem: Problem[Board], describe: Describe, parent: dict[Board, Board | None],
                 nodes: dict[Board | None, int], opens: Callable[[Board, Board], bool], tested: bool) -> None:
        self.trace, self.problem, self.describe = trace, problem, describe
        self.parent, self.nodes, self.opens, self.tested = parent, nodes, opens, tested

    def initial(self) -> Board:
        return self.problem.initial()

    def heuristic(self, board: Board) -> int:
        return self.problem.heuristic(board)

    def enter(self, board: Board) -> int:
        """Enter `board`'s node; its id."""
        node = self.nodes[board] = self.trace.enter_as(self.nodes[self.parent[board]], self.describe, board)
        return node

    def is_goal(self, board: Board) -> bool:
        node = self.enter(board)
        if self.problem.is_goal(board):
            self.trace.solution(node)
            return True
        return False

    def successors(self, board: Board) -> list[Board]:
        node = self.nodes[board] if self.tested else self.enter(board)
        children = self.problem.successors(board)
        if not any(self.opens(board, child) for child in children):
            self.trace.fail(node)
        return children


def shortest_path(
    problem: Problem[Board],
    lower_bound: Callable[[Board], int] | None = None,
    budget: Budget | None = None,
    describe: Describe = labelled,
) -> Result[list[Board]]:
    """A* graph search: a shortest path from the start to a goal.

    A* graph search with a visited set; `lower_bound` (admissible and consistent, default 0) makes it
    Dijkstra/BFS.

    Returns the path from the start to a nearest goal, and the states
    expanded. Recorded in `budget.trace` when there is one: a node per board
    taken from the frontier (a stale entry is no board taken), below the
    board it was reached from (final once taken, the bound being consistent),
    `describe` labelling it; a board that improves on no successor is a dead end.
    """
    estimate = lower_bound or (lambda board: 0)
    budget, start, tie = expansions(budget), problem.initial(), itertools.count()
    best_cost = {start: 0}
    parent: dict[Board, Board | None] = {start: None}
    nodes: dict[Board | None, int] = {None: 0}  # recorded: the node of each board taken (None: the root)
    graph = recorder(budget.trace).wrap(
        RecordedGraph, problem, describe, parent, nodes,
        lambda board, child: child not in best_cost or best_cost[board] + 1 < best_cost[child], True)
    frontier = [(estimate(start), next(tie), 0, start)]
    while frontier:
        _, _, cost, board = heapq.heappop(frontier)
        if cost > best_cost[board]:
            continue  # a stale entry: a cheaper way here was found later
        if graph.is_goal(board):
            return Result(trace_back(parent, board), budget.spent)
        budget.spend()
        for child in graph.successors(board):
            if cost + 1 < best_cost.get(child, cost + 2):
                best_cost[child], parent[child] = cost + 1, board
                heapq.heappush(frontier, (cost + 1 + estimate(child), next(tie), cost + 1, child))
    return Result(None, budget.spent)


def mirrored_shortest_path(
    problem: Problem[Board],
    mirror: Callable[[Board], Board],
    budget: Budget | None = None,
    describe: Describe = labelled,
) -> Result[list[Board]]:
    """A shortest path for a problem whose goal is the start seen in a mirror.

    `mirror` must map the start to the goal and commute with the moves, so that
    the distance from any board to the goal is the distance from the start to
    its mirror image. A search back from the goal would then only repeat the
    forward search in the mirror: one breadth-first search (graph search, a
    visited set) meets itself halfway, at the layer holding a middle board.
    Returns the path and the states expanded. Recorded in `budget.trace`
    when there is one, `describe` labelling a board.
    """
    budget, start = expansions(budget), problem.initial()
    depth: dict[Board, int] = {start: 0}
    parent: dict[Board, Board | None] = {start: None}
    trace = recorder(budget.trace)
    nodes: dict[Board | None, int] = {None: 0}  # recorded: the node of each board expanded (None: the root)
    graph = trace.wrap(RecordedGraph, problem, describe, parent, nodes, lambda board, child: child not in depth, False)
    layer = [start]
    while layer:
        meeting = closest_meeting(layer, depth, mirror)
        if meeting is not None:
            half_back = [mirror(board) for board in trace_back(parent, mirror(meeting))][-2::-1]
            node = nodes.get(parent[meeting], 0)  # 0 when nothing is recorded: the nodes below are not either
            for board in [meeting, *half_back]:
                node = trace.enter_as(node, describe, board)
            trace.solution(node)
            return Result(trace_back(parent, meeting) + half_back, budget.spent)
        next_layer: list[Board] = []
        for board in layer:
            budget.spend()
            for child in graph.successors(board):
                if child not in depth:
                    depth[child], parent[child] = depth[board] + 1, board
                    next_layer.append(child)
        layer = next_layer
    return Result(None, budget.spent)


def closest_meeting(layer: list[Board], depth: dict[Board, int], mirror: Callable[[Board], Board]) -> Board | None:
    """The board of `layer` whose mirror image is already seen and nearest the start, if any."""
    met = [board for board in layer if mirror(board) in depth]
    return min(met, key=lambda board: depth[mirror(board)], default=None)


def trace_back(parent: dict[Board, Board | None], board: Board) -> list[Board]:
    """The path from the root to `board` through a parent map."""
    path: list[Board] = []
    node: Board | None = board
    while node is not None:
        path.append(node)
        node = parent[node]
    return path[::-1]

