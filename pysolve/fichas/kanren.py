"""The tokens puzzle as miniKanren relations.

`moveo` and `goalo` are the rules as relations over boards (tuples of
'B', 'H', 'V'); paths are found depth-first in successor order (the course
`dfs`, either flavour) or by iterative deepening (shortest first), pruned
by the admissible bound on the moves left and a table of failed boards.
Both record themselves when the budget carries a trace (docs/fichas.md,
"Searches recorded"): a node per board the relation takes (tested for the
goal, then moved from), as Python's and Prolog's searches do; a board the
bound or the table prunes is never taken.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import count

from pysolve.fichas.model import HOLE, OFFSETS, Question, describe, goal, moves_lower_bound, start
from pysolve.minikanren import Budget, Goal, conj, disj, disj_over, entered, eq, fail, given, run, solved, var, where
from pysolve.puzzle import NO_SOLUTION, Found

Board = tuple[str, ...]
Path = tuple[Board, ...]  # the boards from the start, in order


def moveo(board, after, length: int, offsets=OFFSETS) -> Goal:
    """`after` is `board` with the hole swapped with a token 1-3 cells away, moves in `offsets` order."""

    def with_hole_at(hole: int) -> Goal:
        cells = [var() for _ in range(length)]
        cells[hole] = HOLE
        moves = []
        for offset in offsets:
            other = hole + offset
            if 0 <= other < length:
                moved = list(cells)
                moved[hole], moved[other] = cells[other], HOLE
                moves.append(eq(after, tuple(moved)))
        return conj(eq(board, tuple(cells)), disj(*moves))

    return disj_over(range(length), with_hole_at)


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


STRATEGIES = ("dfs", "shortest")


def can_answer(question: Question) -> bool:
    """Depth-first search and shortest paths; the other strategies need a frontier, not relations."""
    return question.strategy in STRATEGIES


def can_trace(question: Question) -> bool:
    """Both relations record their search (iterative deepening: each round a new tree below the root)."""
    return can_answer(question)


def solve(question: Question, budget: Budget) -> Found:
    """Answer `dfs` (either flavour) or `shortest` (iterative deepening) with relations."""
    first = tuple(start(question.m, question.n))
    path = var()
    if question.strategy == "dfs":
        answers = run(depth_first_patho(first, (first,), path, question, budget), path, limit=1)
    else:
        failed: dict[Board, int] = {}
        for moves in count(moves_lower_bound("".join(first))):
            answers = run(within_patho(first, (first,), path, moves, question, budget, failed), path, limit=1)
            if answers:
                break
    if not answers:
        return Found([], {"states": budget.spent}, status=NO_SOLUTION)
    boards = ["".join(board) for board in answers[0]]
    return Found([boards], {"states": budget.spent, "moves": len(boards) - 1})
