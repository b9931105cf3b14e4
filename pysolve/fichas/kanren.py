"""The tokens puzzle as miniKanren relations.

`moveo` and `goalo` are the rules as relations over boards (tuples of
'B', 'H', 'V'); paths are found depth-first in successor order (the course
`dfs`, either flavour) or by iterative deepening (shortest first), pruned
by the admissible bound on the moves left and a table of failed boards.

The other course strategies are relations over a frontier term, as in
prolog/pysolve_search.pl: a stack, a queue `(front, reversed back)` or a
leftist heap of paths (each a list of boards, the latest first, sharing
their tails), taken apart with `eq` one clause per shape. A search is a
step relation followed until no step applies (`iterate`, the loop Prolog's
last-call optimisation makes of its recursion).

Every search but A* records itself when the budget carries a trace
(docs/fichas.md, "Searches recorded"): a node per board the relation takes
(tested for the goal, then moved from), as Python's and Prolog's searches
do; a board the bound or the table prunes is never taken.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import count
from typing import Any

from pysolve.fichas.model import HOLE, OFFSETS, Question, describe, goal, heuristic, moves_lower_bound, start
from pysolve.minikanren import (
    Budget,
    Cons,
    Goal,
    Struct,
    collect,
    conj,
    disj,
    disj_over,
    entered,
    eq,
    fail,
    given,
    iterate,
    lazy,
    project,
    reify,
    run,
    solved,
    var,
    where,
)
from pysolve.puzzle import NO_SOLUTION, Found
from pysolve.trace import Trace, recorder

Board = tuple[str, ...]
Path = tuple[Board, ...]  # the boards from the start, in order


def moveo(board, after, length: int, offsets=OFFSETS) -> Goal:
    """`after` is `board` with the hole swapped with a token 1-3 cells away, moves in `offsets` order."""

    cells = [var() for _ in range(length)]

    def with_hole_at(hole: int) -> Goal:
        moves = []
        for offset in offsets:
            other = hole + offset
            if 0 <= other < length:
                moved = list(cells)
                moved[hole], moved[other] = cells[other], HOLE
                moves.append(eq(after, tuple(moved)))
        return conj(eq(cells[hole], HOLE), disj(*moves))

    return conj(eq(board, tuple(cells)), disj_over(range(length), with_hole_at))


def goalo(board, m: int, n: int) -> Goal:
    """`board` is the goal of order (m, n)."""
    return eq(board, tuple(goal(m, n)))


def step(board, visited: Path, then: Callable[[Board, Path], Goal]) -> Goal:
    """Continue with `then(b, visited + (b,))` for the value b of `board`, unless b was visited."""
    return given(lambda value: fail if value in visited else then(value, visited + (value,)), board)


def extend(board, path: Path, then: Callable[[Board, Path], Goal]) -> Goal:
    """Continue with `then(b, path + (b,))` for the value b of `board`."""
    return given(lambda value: then(value, path + (value,)), board)


def depth_first_patho(board: Board, visited: Path, path, question: Question, budget: Budget) -> Goal:
    """`path` is the first simple path from `board` to the goal in depth-first successor order."""
    m, n = question.m, question.n
    offsets = OFFSETS if question.flavour == "hs" else OFFSETS[::-1]
    after = var()

    def deeper(next_board: Board, next_visited: Path) -> Goal:
        return depth_first_patho(next_board, next_visited, path, question, budget)

    return taken(board, question, budget, disj(
        conj(goalo(board, m, n), eq(path, visited), solved(budget.trace)),
        conj(where(lambda b: b != tuple(goal(m, n)), board), budget.tick(),
             moveo(board, after, len(board), offsets), step(after, visited, deeper)),
    ))


def taken(board: Board, question: Question, budget: Budget, goal: Goal) -> Goal:
    """`goal`, the search from `board`, recorded as the node of `board` when the budget carries a trace."""
    return entered(budget.trace, board, lambda cells: describe("".join(cells), question.strategy), goal)


def within_patho(board: Board, path_so_far: Path, path, moves_left: int, question: Question,
                 budget: Budget, failed: dict[Board, int]) -> Goal:
    """`path` reaches the goal from `board` within `moves_left` more moves.

    Pruned by the admissible bound on the moves left, and by a table of
    boards already known to fail with at least as many moves left (a
    shortest path never revisits a board, so no simple-path check is needed).
    """
    m, n = question.m, question.n
    if moves_lower_bound("".join(board)) > moves_left or failed.get(board, -1) >= moves_left:
        return fail
    after = var()

    def deeper(next_board: Board, next_path: Path) -> Goal:
        return within_patho(next_board, next_path, path, moves_left - 1, question, budget, failed)

    search = disj(
        conj(goalo(board, m, n), eq(path, path_so_far), solved(budget.trace)),
        conj(budget.tick(), moveo(board, after, len(board)), extend(after, path_so_far, deeper)),
    )
    return taken(board, question, budget, remember_failure(search, board, moves_left, failed))


def remember_failure(goal: Goal, board: Board, moves_left: int, failed: dict[Board, int]) -> Goal:
    """Run `goal`; when it yields nothing, table that `board` fails with `moves_left` moves left."""

    def remembering_goal(state):
        answered = False
        for answer in goal(state):
            answered = True
            yield answer
        if not answered:
            failed[board] = max(failed.get(board, -1), moves_left)

    return remembering_goal


# --- tree search over a frontier ----------------------------------------------------------------------


def childreno(path, length: int, children) -> Goal:
    """`children` is `path` extended by each successor not already on it.

    `children` is the list of `path` extended by each successor of its latest board not already on it
    (Prolog's children/3: findall over the moves).
    """
    board, after = var(), var()
    return conj(eq(path, Cons(board, var())),
                collect(Cons(after, path),
                        conj(moveo(board, after, length), where(lambda b, p: b not in p, after, path)),
                        children))


def appendo(front, back, joined) -> Goal:
    """`joined` is the list `front` followed by the list `back`."""
    head, tail, rest = var(), var(), var()
    return disj(conj(eq(front, ()), eq(joined, back)),
                conj(eq(front, Cons(head, tail)), eq(joined, Cons(head, rest)), lazy(appendo, tail, back, rest)))


def reverseo(items, reversed_items) -> Goal:
    """`reversed_items` is the list `items` backwards: cells moved one by one onto an accumulator."""

    def move_oneo(term, following) -> Goal:
        head, tail, done = var(), var(), var()
        return conj(eq(term, (Cons(head, tail), done)), eq(following, (tail, Cons(head, done))))

    return iterate(move_oneo, (items, ()), ((), reversed_items))


def flavour_ordero(flavour: str, children, ordered) -> Goal:
    """The order children enter a stack or a queue: as generated for `hs`, reversed for `py`."""
    return eq(ordered, children) if flavour == "hs" else reverseo(children, ordered)


def succo(number, following) -> Goal:
    """`following` is `number` + 1."""
    return project(lambda value: value + 1, following, number)


def heuristico(path, estimate) -> Goal:
    """`estimate` is the heuristic of the latest board of `path`."""
    board = var()
    return conj(eq(path, Cons(board, var())), project(heuristic, estimate, board))


# A leftist heap: () or ("node", rank, key, path, left, right), every key no greater than the keys below it
# and every left rank at least the right one, so that merging walks right spines of logarithmic length.

def ranko(heap, rank) -> Goal:
    """`rank` is the length of the right spine of `heap`."""
    return disj(conj(eq(heap, ()), eq(rank, 0)),
                eq(heap, ("node", rank, var(), var(), var(), var())))


def nodeo(key, path, one, other, node) -> Goal:
    """`node` holds `key` and `path` over the heaps `one` and `other`, the higher rank on the left."""
    one_rank, other_rank, rank = var(), var(), var()
    return conj(ranko(one, one_rank), ranko(other, other_rank),
                disj(conj(where(lambda a, b: a >= b, one_rank, other_rank), succo(other_rank, rank),
                          eq(node, Struct(("node", rank, key, path, one, other)))),
                     conj(where(lambda a, b: a < b, one_rank, other_rank), succo(one_rank, rank),
                          eq(node, Struct(("node", rank, key, path, other, one))))))


def mergeo(one, other, merged) -> Goal:
    """`merged` is the heap of the entries of heaps `one` and `other`."""
    key, path, left, right = var(), var(), var(), var()
    key2, path2, left2, right2 = var(), var(), var(), var()
    rest = var()
    both = conj(eq(one, ("node", var(), key, path, left, right)),
                eq(other, ("node", var(), key2, path2, left2, right2)))
    return disj(conj(eq(one, ()), eq(merged, other)),
                conj(eq(other, ()), eq(one, ("node", var(), var(), var(), var(), var())), eq(merged, one)),
                conj(both, where(lambda a, b: a <= b, key, key2),
                     lazy(mergeo, right, other, rest), lazy(nodeo, key, path, left, rest, merged)),
                conj(both, where(lambda a, b: a > b, key, key2),
                     lazy(mergeo, one, right2, rest), lazy(nodeo, key2, path2, left2, rest, merged)))


def heap_pusho(heap, key, path, pushed) -> Goal:
    """`pushed` is `heap` with `path` added under `key`."""
    return mergeo(heap, Struct(("node", 1, key, path, (), ())), pushed)


def heap_popo(heap, path, rest) -> Goal:
    """`path` has the least key of `heap`; `rest` holds the other entries."""
    left, right = var(), var()
    return conj(eq(heap, ("node", var(), var(), path, left, right)), mergeo(left, right, rest))


def push_childreno(heap, children, order: Any, index: int, pushed) -> Goal:
    """`pushed` is `heap` with each child path added under key (heuristic, order, its index)."""
    child, others, estimate, heap1 = var(), var(), var(), var()
    return disj(conj(eq(children, ()), eq(pushed, heap)),
                conj(eq(children, Cons(child, others)), heuristico(child, estimate),
                     project(lambda h: (h, order, index), key := var(), estimate),
                     heap_pusho(heap, key, child, heap1),
                     lazy(push_childreno, heap1, others, order, index + 1, pushed)))


def takeo(frontier, path, rest) -> Goal:
    """`path` is the next path `frontier` gives up, and `rest` the frontier left (one clause per shape)."""
    stack, front, back, heap, heap1 = var(), var(), var(), var(), var()
    return disj(
        conj(eq(frontier, ("stack", Cons(path, stack))), eq(rest, ("stack", stack))),
        conj(eq(frontier, ("queue", Cons(path, front), back)), eq(rest, ("queue", front, back))),
        conj(eq(frontier, ("queue", (), back)), eq(back, Cons(var(), var())),
             lazy(reverseo, back, Cons(path, front)), eq(rest, ("queue", front, ()))),
        conj(eq(frontier, ("heap", heap)), lazy(heap_popo, heap, path, heap1), eq(rest, ("heap", heap1))),
    )


def emptyo(frontier) -> Goal:
    """`frontier` holds no path."""
    return disj(eq(frontier, ("stack", ())), eq(frontier, ("queue", (), ())), eq(frontier, ("heap", ())))


def add_childreno(frontier, flavour: str, expansion, children, added) -> Goal:
    """`added` is `frontier` with `children` in.

    Pushed on a stack, enqueued, or heaped under (heuristic, order, index), the order making
    `hs` take the latest expansion first on ties.
    """
    stack, front, back, heap, ordered, joined, order = var(), var(), var(), var(), var(), var(), var()
    return disj(
        conj(eq(frontier, ("stack", stack)), lazy(flavour_ordero, flavour, children, ordered),
             lazy(appendo, ordered, stack, joined), eq(added, ("stack", joined))),
        conj(eq(frontier, ("queue", front, back)), lazy(flavour_ordero, flavour, children, ordered),
             lazy(appendo, ordered, back, joined), eq(added, ("queue", front, joined))),
        conj(eq(frontier, ("heap", heap)),
             project(lambda e: -e if flavour == "hs" else e, order, expansion),
             given(lambda o: push_childreno(heap, children, o, 0, joined), order), eq(added, ("heap", joined))),
    )


def goal_patho(path, m: int, n: int) -> Goal:
    """The latest board of `path` is the goal."""
    return eq(path, Cons(tuple(goal(m, n)), var()))


def not_goal_patho(path, m: int, n: int) -> Goal:
    """The latest board of `path` is not the goal."""
    return where(lambda p: p.head != tuple(goal(m, n)), path)


class Recorder:
    """The frontier searches recorded in `trace` as Python's and Prolog's record theirs (pysolve.search.Recorded).

    A node per path taken from the frontier (or climbed to), below the node of the path it extends; the goal
    taken is the solution, a path with no children a dead end. With no trace its goals only succeed.
    """

    def __init__(self, trace: Trace | None, strategy: str) -> None:
        self.trace, self.strategy = recorder(trace), strategy
        self.nodes: dict[tuple[Board, ...], int] = {(): 0}  # a path taken (latest board first) -> its node
        self.node = 0  # the node of the path taken last

    def taken(self, path) -> Goal:
        """Succeed once; `path` enters its node."""
        return self.noted(self.enter, path)

    def solved(self) -> Goal:
        """Succeed once; the path taken last is the solution."""
        return self.noted(lambda: self.trace.solution(self.node))

    def dead_end(self, children) -> Goal:
        """Succeed once; the path taken last is a dead end when `children` is empty."""
        return self.noted(lambda made: self.trace.fail(self.node) if made == () else None, children)

    def enter(self, path: Any) -> None:
        boards = tuple(path)
        label, move = describe("".join(boards[0]), self.strategy)
        self.node = self.nodes[boards] = self.trace.enter(label, self.nodes.get(boards[1:], 0), move)

    def noted(self, action: Callable[..., None], *terms: Any) -> Goal:
        """Succeed once, after `action` saw the values of `terms`.

        Only a recorded search reifies them: unrecorded, the goal only succeeds.
        """

        def plain(state):
            yield state

        def recorded(trace: Trace, plain: Goal) -> Goal:
            def noted_goal(state):
                action(*(reify(term, state) for term in terms))
                yield state

            return noted_goal

        return self.trace.wrap(recorded, plain)


def tree_stepo(search, following, question: Question, budget: Budget, recorder: Recorder) -> Goal:
    """One step of tree search.

    From ("frontier", F, E) (E states expanded so far) take a path; a goal path ends the search ("found",
    Path, E), any other is expanded into the frontier; an empty frontier ends it ("exhausted", E). Hill
    climbing keeps one path, ("climbing", P, E), and moves to its best child.
    """
    m, n, length = question.m, question.n, question.m + question.n + 1
    frontier, expanded, expanded1, path, rest, children, added = (var() for _ in range(7))
    first, others, best = var(), var(), var()
    expand = conj(not_goal_patho(path, m, n), budget.tick(), succo(expanded, expanded1),
                  lazy(childreno, path, length, children), recorder.dead_end(children))
    return disj(
        conj(eq(search, ("frontier", frontier, expanded)), lazy(takeo, frontier, path, rest), recorder.taken(path),
             disj(conj(goal_patho(path, m, n), recorder.solved(), eq(following, ("found", path, expanded))),
                  conj(expand, lazy(add_childreno, rest, question.flavour, expanded1, children, added),
                       eq(following, ("frontier", added, expanded1))))),
        conj(eq(search, ("frontier", frontier, expanded)), emptyo(frontier), eq(following, ("exhausted", expanded))),
        conj(eq(search, ("climbing", path, expanded)), recorder.taken(path),
             disj(conj(goal_patho(path, m, n), recorder.solved(), eq(following, ("found", path, expanded))),
                  conj(expand,
                       disj(conj(eq(children, ()), eq(following, ("exhausted", expanded1))),
                            conj(eq(children, Cons(first, others)), lazy(lowesto, others, first, best),
                                 eq(following, ("climbing", best, expanded1))))))),
    )


def lowesto(paths, best_so_far, best) -> Goal:
    """`best` is the path of lowest heuristic among `best_so_far` and `paths`, the first of equals."""
    path, others, estimate, best_estimate = var(), var(), var(), var()
    return disj(
        conj(eq(paths, ()), eq(best, best_so_far)),
        conj(eq(paths, Cons(path, others)), heuristico(path, estimate), heuristico(best_so_far, best_estimate),
             disj(conj(where(lambda a, b: a < b, estimate, best_estimate), lazy(lowesto, others, path, best)),
                  conj(where(lambda a, b: a >= b, estimate, best_estimate),
                       lazy(lowesto, others, best_so_far, best)))),
    )


def initialo(question: Question, search) -> Goal:
    """`search` is the strategy's start: the path of the start board alone, in its frontier."""
    first = Cons(tuple(start(question.m, question.n)), ())
    estimate, heap = var(), var()
    shapes = {
        "bfs": eq(search, ("frontier", ("queue", Cons(first, ()), ()), 0)),
        "best-first": conj(heuristico(first, estimate), project(lambda h: (h, 0, 0), key := var(), estimate),
                           heap_pusho((), key, first, heap), eq(search, ("frontier", ("heap", heap), 0))),
        "hill-climbing": eq(search, ("climbing", first, 0)),
    }
    return shapes[question.strategy]


def tree_searcho(question: Question, path, expanded, budget: Budget) -> Goal:
    """`path` (latest board first) is what the strategy finds, () when it fails.

    `expanded` counts the states it expanded.
    """
    search, end = var(), var()
    recorder = Recorder(budget.trace, question.strategy)
    return conj(initialo(question, search),
                iterate(lambda term, following: tree_stepo(term, following, question, budget, recorder), search, end),
                disj(eq(end, ("found", path, expanded)), conj(eq(end, ("exhausted", expanded)), eq(path, ()))))


# --- A*: graph search, the cheapest known cost of each board in a search tree term ------------------------


def compareo(order, one, other) -> Goal:
    """`order` is "<", "=" or ">" as `one` stands to `other` in Python's order (Prolog's compare/3)."""
    return project(lambda a, b: "<" if a < b else "=" if a == b else ">", order, one, other)


def lookupo(tree, key, default, value) -> Goal:
    """`value` is what the search tree `tree` holds under `key`.

    `value` is what the search tree `tree` ((), or ("tree", key, value, left, right)) holds under `key`,
    `default` when it holds nothing there.
    """
    here, held, left, right, order = var(), var(), var(), var(), var()
    return disj(
        conj(eq(tree, ()), eq(value, default)),
        conj(eq(tree, ("tree", here, held, left, right)), compareo(order, key, here),
             disj(conj(eq(order, "="), eq(value, held)),
                  conj(eq(order, "<"), lazy(lookupo, left, key, default, value)),
                  conj(eq(order, ">"), lazy(lookupo, right, key, default, value)))),
    )


def inserto(tree, key, value, updated) -> Goal:
    """`updated` is `tree` holding `value` under `key` (in place of what it held there)."""
    here, held, left, right, changed, order = var(), var(), var(), var(), var(), var()
    return disj(
        conj(eq(tree, ()), eq(updated, Struct(("tree", key, value, (), ())))),
        conj(eq(tree, ("tree", here, held, left, right)), compareo(order, key, here),
             disj(conj(eq(order, "="), eq(updated, Struct(("tree", key, value, left, right)))),
                  conj(eq(order, "<"), lazy(inserto, left, key, value, changed),
                       eq(updated, Struct(("tree", here, held, changed, right)))),
                  conj(eq(order, ">"), lazy(inserto, right, key, value, changed),
                       eq(updated, Struct(("tree", here, held, left, changed)))))),
    )


def relaxo(search, children, cost, relaxed) -> Goal:
    """`relaxed` is the A* search term with each child path relaxed into it.

    `relaxed` is the A* search term ("astar", Heap, Costs, Tie, E) with each child path that reaches its
    board in `cost` moves, fewer than known, recorded in Costs and queued under (cost + bound, Tie).
    """
    heap, costs, tie, expanded = var(), var(), var(), var()
    child, others, board, known, estimate, key, heap1, costs1, tie1, following = (var() for _ in range(10))
    improve = conj(eq(child, Cons(board, var())), lookupo(costs, board, cost + 1, known),
                   disj(conj(where(lambda a: cost < a, known), inserto(costs, board, cost, costs1),
                             project(lambda b: moves_lower_bound("".join(b)), estimate, board),
                             project(lambda h, t: (cost + h, t), key, estimate, tie),
                             heap_pusho(heap, key, (cost, child), heap1), succo(tie, tie1),
                             eq(following, ("astar", heap1, costs1, tie1, expanded))),
                        conj(where(lambda a: cost >= a, known), eq(following, search))))
    return disj(conj(eq(children, ()), eq(relaxed, search)),
                conj(eq(children, Cons(child, others)), eq(search, ("astar", heap, costs, tie, expanded)),
                     improve, lazy(relaxo, following, others, cost, relaxed)))


def astar_stepo(search, following, question: Question, budget: Budget) -> Goal:
    """One step of A* from ("astar", Heap, Costs, Tie, E).

    Take the cheapest entry (Cost, Path); skip it when a cheaper way to its board is known, end with
    ("found", Path, E) at the goal, else expand every successor board (graph search: a board seen before
    counts only when reached cheaper); an empty heap ends it.
    """
    m, n, length = question.m, question.n, question.m + question.n + 1
    heap, costs, tie, expanded, rest, cost, path, board, best, expanded1, children, after = (
        var() for _ in range(12))
    return disj(
        conj(eq(search, ("astar", (), var(), var(), expanded)), eq(following, ("exhausted", expanded))),
        conj(eq(search, ("astar", heap, costs, tie, expanded)), lazy(heap_popo, heap, (cost, path), rest),
             eq(path, Cons(board, var())), lazy(lookupo, costs, board, None, best),
             disj(conj(where(lambda c, b: c > b, cost, best), eq(following, ("astar", rest, costs, tie, expanded))),
                  conj(where(lambda c, b: c <= b, cost, best),
                       disj(conj(goal_patho(path, m, n), eq(following, ("found", path, expanded))),
                            conj(not_goal_patho(path, m, n), budget.tick(), succo(expanded, expanded1),
                                 collect(Cons(after, path), lazy(moveo, board, after, length), children),
                                 given(lambda c: relaxo(("astar", rest, costs, tie, expanded1), children, c + 1,
                                                        following), cost)))))),
    )


def astar_searcho(question: Question, path, expanded, budget: Budget) -> Goal:
    """`path` is a shortest path found by A*.

    `path` (latest board first) is a shortest path found by A* under the admissible, consistent bound
    on the moves left, () when there is none; `expanded` counts the boards it expanded.
    """
    first = tuple(start(question.m, question.n))
    heap, search, end = var(), var(), var()
    return conj(heap_pusho((), (moves_lower_bound("".join(first)), 0), (0, Cons(first, ())), heap),
                eq(search, ("astar", heap, Struct(("tree", first, 0, (), ())), 1, 0)),
                iterate(lambda term, following: astar_stepo(term, following, question, budget), search, end),
                disj(eq(end, ("found", path, expanded)), conj(eq(end, ("exhausted", expanded)), eq(path, ()))))


def can_trace(question: Question) -> bool:
    """Every search but A* records itself (iterative deepening: each round a new tree below the root)."""
    return question.strategy != "astar"


def solve(question: Question, budget: Budget) -> Found:
    """Answer a fichas question with the relations of this module.

    Answer `dfs` (recursion in successor order), the other course strategies (tree search over their
    frontier), `astar` or `shortest` (iterative deepening).
    """
    path, expanded = var(), var()
    if question.strategy == "dfs":
        first = tuple(start(question.m, question.n))
        found_paths = run(depth_first_patho(first, (first,), path, question, budget), path, limit=1)
        boards = list(found_paths[0]) if found_paths else []
        states = budget.spent
    elif question.strategy == "shortest":
        first = tuple(start(question.m, question.n))
        failed: dict[Board, int] = {}
        for moves in count(moves_lower_bound("".join(first))):
            answers = run(within_patho(first, (first,), path, moves, question, budget, failed), path, limit=1)
            if answers:
                break
        boards = list(answers[0])
        states = budget.spent
    else:
        searcho = astar_searcho if question.strategy == "astar" else tree_searcho
        latest_first, states = run(searcho(question, path, expanded, budget), (path, expanded))[0]
        boards = list(latest_first)[::-1]
    if not boards:
        return Found([], {"states": states}, status=NO_SOLUTION)
    moves_made = ["".join(board) for board in boards]
    return Found([moves_made], {"states": states, "moves": len(moves_made) - 1})
