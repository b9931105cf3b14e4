"""Hidato generator: a shape, a random Hamiltonian king path, then givens removed while unique.

The recipe of sgt-puzzles' "Hamilton": find any Hamiltonian path (a Warnsdorff
walk with backtracking), shuffle it with random backbite moves (both ends
move), then take givens away in random order, putting one back whenever the
propagating solver (`python.LOGIC`) cannot prove the puzzle unique within a
node budget. Everything
runs on one `random.Random(seed)` and node budgets only, so a seed always
gives the same puzzle.
"""

from __future__ import annotations

import contextlib
import math
import random
from dataclasses import dataclass
from typing import Any

from pysolve.budget import Budget
from pysolve.errors import InputError, SearchLimitExceeded
from pysolve.hidato import python
from pysolve.hidato.model import BLOCKED, EMPTY, MAX_CELLS, Board, Grid, make_board
from pysolve.puzzle import SOLVED

PATH_NODES = 20_000  # per attempt at a Hamiltonian path
PATH_ATTEMPTS = 30
SHAPE_ATTEMPTS = 30
# per uniqueness check while removing givens (propagating search nodes); the same share
# as in a FAST solve, so that `solve --count 2` proves every generated puzzle unique at once
CHECK_NODES = python.LOGIC_FIRST_NODES
REMOVAL_SECONDS = 60.0  # CPU seconds of a generation: taking givens away stops here, the puzzle keeps the givens it has


@dataclass(frozen=True)
class Recipe:
    """What to generate: the shape (or its size and holes), the givens fraction to stop at, the seed."""

    rows: int
    cols: int
    seed: int
    holes: int = 0
    givens: float = 0.0
    shape: Board | None = None
    check_nodes: int = CHECK_NODES
    seconds: float = REMOVAL_SECONDS


def rectangle(rows: int, cols: int) -> Board:
    """An empty rows x cols board."""
    if rows < 1 or cols < 1 or rows * cols < 2:
        raise InputError(f"a hidato board needs at least 2 cells, not {rows} x {cols}")
    if rows * cols > MAX_CELLS:
        raise InputError(f"a {rows} x {cols} board has {rows * cols} cells; hidato takes at most {MAX_CELLS} "
                         "(docs/hidato.md, Limits)")
    return Board(tuple((EMPTY,) * cols for _ in range(rows)), f"{rows}x{cols}")


def with_holes(shape: Board, holes: int, rng: random.Random) -> Board:
    """`shape` with `holes` random open cells blocked, the rest still king-connected."""
    if holes >= shape.size - 1:
        raise InputError(f"--holes {holes} leaves fewer than 2 of the {shape.size} cells open")
    for _ in range(SHAPE_ATTEMPTS):
        blocked = set(rng.sample(range(shape.size), holes))
        rows = [list(row) for row in shape.rows]
        for index in blocked:
            r, c = shape.cells[index]
            rows[r][c] = BLOCKED
        candidate = Board(tuple(tuple(row) for row in rows), shape.source)
        if connected(candidate):
            return candidate
    raise InputError(f"could not place {holes} holes keeping the board connected")


def connected(board: Board) -> bool:
    """True when the open cells form one king-connected region."""
    bits = python.Bits(board)
    reach = bits.bit[0]
    while True:
        grown = bits.spread(reach)
        if grown == reach:
            return reach == bits.open
        reach = grown


def hamiltonian_path(board: Board, rng: random.Random, clock: Budget | None = None) -> list[int]:
    """A random Hamiltonian king path through the open cells.

    A random Hamiltonian king path through the open cells, or InputError when none is found;
    SearchLimitExceeded when `clock` runs out first."""
    for _ in range(PATH_ATTEMPTS):
        path = warnsdorff_path(board, rng, clock or Budget())
        if path:
            backbite(path, board, rng, 10 * board.size)
            return path
    raise InputError(f"{board.source}: found no path through all {board.size} open cells "
                     f"(tried {PATH_ATTEMPTS} times); the shape may have none")


def warnsdorff_path(board: Board, rng: random.Random, clock: Budget) -> list[int] | None:
    """A Hamiltonian path by Warnsdorff's rule, or None.

    A Hamiltonian path by depth-first Warnsdorff search from a random low-degree cell, or None when
    PATH_NODES pass first; SearchLimitExceeded when `clock` runs out."""
    degree = [len(others) for others in board.neighbours]
    lowest = min(degree)
    start = rng.choice([i for i in range(board.size) if degree[i] <= lowest + 1])
    bits = python.Bits(board)
    path, used, budget = [start], {start}, Budget(PATH_NODES)
    taken = bits.bit[start]  # the cells of `used`, as bits

    def free_neighbours(cell: int) -> list[int]:
        return [other for other in board.neighbours[cell] if other not in used]

    def cut_off(head: int) -> bool:
        free = bits.open & ~taken
        reach = frontier = bits.bit[head]
        while frontier:
            frontier = bits.spread(frontier) & free & ~reach
            reach |= frontier
        return free & ~reach != 0

    def extend(head: int) -> bool:
        nonlocal taken
        budget.spend()
        clock.spend()
        if len(path) == board.size:
            return True
        options = free_neighbours(head)
        rng.shuffle(options)
        options.sort(key=lambda other: len(free_neighbours(other)))
        for other in options:
            path.append(other)
            used.add(other)
            taken |= bits.bit[other]
            if not cut_off(other) and extend(other):
                return True
            path.pop()
            used.discard(other)
            taken &= ~bits.bit[other]
        return False

    try:
        with python.deep_enough(board):
            return path if extend(start) else None
    except SearchLimitExceeded:
        clock.check()  # raised again when the clock ran out, not the nodes of this attempt
        return None


def backbite(path: list[int], board: Board, rng: random.Random, moves: int) -> None:
    """Shuffle a Hamiltonian path in place: join an end to a random neighbour, reverse the loop made."""
    for _ in range(moves):
        if rng.random() < 0.5:
            path.reverse()
        joined = rng.choice(board.neighbours[path[0]])
        where = path.index(joined)
        if where > 1:
            path[:where] = path[where - 1::-1]


def puzzle_rows(board: Board, path: list[int], shown: set[int]) -> Grid:
    """The board's rows with the numbers in `shown` written on their cells of `path`."""
    rows = board.grid()
    for number in shown:
        r, c = board.cells[path[number - 1]]
        rows[r][c] = number
    return rows


def is_unique(board: Board, nodes: int) -> tuple[bool, int]:
    """(proved unique within `nodes`, nodes spent) by the propagating search counting to 2."""
    found = python.search(board, 2, python.LOGIC, Budget(nodes=nodes, label="uniqueness check"))
    return found.status == SOLVED and len(found.solutions) == 1, found.stats["states"]


def remove_givens(shape: Board, path: list[int], recipe: Recipe, rng: random.Random,
                  clock: Budget) -> tuple[set[int], str]:
    """Take givens away while the puzzle stays provably unique.

    Take givens away in random order while the puzzle stays provably unique; keep 1 and N. Stops when
    `clock` (the recipe's time limit) runs out, with the givens it has (each removal kept was proved unique),
    saying so."""
    n = shape.size
    shown = set(range(1, n + 1))
    keep_at_least = max(2, math.ceil(recipe.givens * n))
    order = list(range(2, n))
    rng.shuffle(order)
    clock.label = "taking givens away"
    from pysolve.report import Progress  # the progress line loads with a generator that runs, not with its options

    progress = Progress(len(order), "hidato generate: uniqueness checks")
    try:
        for number in order:
            if len(shown) <= keep_at_least:
                break
            clock.check()
            shown.discard(number)
            trial = Board(tuple(map(tuple, puzzle_rows(shape, path, shown))), shape.source)
            if not is_unique(trial, recipe.check_nodes)[0]:
                shown.add(number)
            progress.step(f"{len(shown)} givens")
    except SearchLimitExceeded as error:
        return shown, f"{error}; the puzzle keeps {len(shown)} givens"
    finally:
        progress.close()
    return shown, ""


def difficulty(nodes: int) -> str:
    """A label from the propagating search's effort to prove uniqueness: 1 node is pure logic."""
    for label, bound in (("easy", 1), ("medium", 30), ("hard", 150)):
        if nodes <= bound:
            return label
    return "expert"


def shape_and_path(recipe: Recipe, rng: random.Random, clock: Budget) -> tuple[Board, list[int]]:
    """The board's shape and a random Hamiltonian path through it.

    The board's shape and a random Hamiltonian path through it. Random holes may leave a connected shape
    that no path covers (a cell walled into a corner): they are drawn again, up to SHAPE_ATTEMPTS times in
    all; a seed whose first draw has a path makes what it always made."""
    base = recipe.shape or rectangle(recipe.rows, recipe.cols)
    for _ in range(SHAPE_ATTEMPTS - 1 if recipe.holes else 0):
        shape = with_holes(base, recipe.holes, rng)
        with contextlib.suppress(InputError):
            return shape, hamiltonian_path(shape, rng, clock)
    shape = with_holes(base, recipe.holes, rng) if recipe.holes else base
    if not connected(shape):
        raise InputError(f"{shape.source}: the open cells are not king-connected, no path covers them")
    return shape, hamiltonian_path(shape, rng, clock)


def generate(recipe: Recipe) -> dict[str, Any]:
    """A unique-solution puzzle by the recipe, as JSON-able data with its solution and seed."""
    rng = random.Random(recipe.seed)
    clock = Budget(seconds=recipe.seconds, label="finding a path through the board")
    shape, path = shape_and_path(recipe, rng, clock)
    shown, stopped = remove_givens(shape, path, recipe, rng, clock)
    puzzle = make_board(puzzle_rows(shape, path, shown), "generated")
    unique, nodes = is_unique(puzzle, 0)
    return {**({"stopped": stopped} if stopped else {}),
        "puzzle": puzzle.grid(),
        "solution": puzzle_rows(shape, path, set(range(1, shape.size + 1))),
        "seed": recipe.seed,
        "rows": shape.height,
        "cols": shape.width,
        "cells": shape.size,
        "givens": len(shown),
        "unique": unique,
        "difficulty": {"label": difficulty(nodes), "states": nodes,
                       "givens_fraction": round(len(shown) / shape.size, 3)},
    }
