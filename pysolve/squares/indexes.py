"""The tables the fast Python searches read, built once per instance, and the symmetry they break.

- `candidate_index`: per position, the fitting rotations keyed by the labels
  the upper and left neighbours need (the row order: `rows`, `halves`).
- `key_index`: every key of every kind of cell, with any of its sides known,
  to its fitting (piece, turns) as a bit set (most constrained first: `mrv`).
- `rivals` and `first_candidates`: one grid of each rotation class is
  searched, the one whose top-left piece is the smallest of its corners.
"""

from __future__ import annotations

import functools
from itertools import chain

from pysolve.squares.model import E, Instance, Matcher, N, Periods, S, W, oriented

Entry = tuple[int, int, tuple[int, int], tuple[int, ...]]  # its bit, its piece's bits, (piece, turns), and per
#                                                              side what it adds to that neighbour's key


def border_kind(r: int, c: int, rows: int, cols: int) -> tuple[bool, bool, bool, bool]:
    """Which sides of cell (r, c) lie on the border: (North, East, South, West)."""
    return r == 0, c == cols - 1, r == rows - 1, c == 0


@functools.lru_cache(maxsize=4)  # the parts of a split count ask it of one instance, one after another
def key_index(instance: Instance,
              period_pairs: tuple[tuple[int, int], ...]) -> tuple[dict[int, int], dict[int, list[Entry]], list[int]]:
    """Every key of every kind of cell, with its fitting entries.

    Every key of every kind of cell, with any sides known -> its fitting entries; and each cell's first key
    (`period_pairs`: the periods as sorted (piece, turns) pairs, hashable; the tables are only read).

    Labels are coded 0..L-1; a key is the four codes N, E, S, W in base L+2
    (`free` = L where the side is not known, L+1 where it can match nothing)
    plus the kind of cell (which of its sides lie on the border) above them,
    so one dictionary serves every cell. Returns the bit set of the fitting
    entries per key, the entries per key (in the original's order, piece then
    turns, each carrying per side what placing it adds to the key of the
    neighbour on that side), and the key of each cell with no side known.
    """
    periods = dict(period_pairs)
    matcher = Matcher(instance)
    code = {label: number for number, label in enumerate(instance.labels())}
    free = len(code)
    base = free + 2
    weights = (base ** 3, base ** 2, base, 1)
    partner = {label: code[other] for label, other in instance.match_pairs()}
    nibble = {piece.id: 4 * number for number, piece in enumerate(sorted(instance.pieces, key=lambda p: p.id))}
    rows, cols = instance.rows, instance.cols
    kinds = [border_kind(r, c, rows, cols) for r in range(rows) for c in range(cols)]
    number = {kind: index for index, kind in enumerate(dict.fromkeys(kinds))}
    fitting: dict[int, int] = {}
    entries_of: dict[int, list[Entry]] = {}
    for kind, offset in number.items():
        for piece, turns, edges in oriented(instance, periods):
            if not all(matcher.border(label) if on else matcher.inner(label) for label, on in zip(edges, kind)):
                continue
            adds = [(partner.get(edges[side], free + 1) - free) * weights[(side + 2) % 4] for side in range(4)]
            entry = (1 << nibble[piece] + turns, 15 << nibble[piece], (piece, turns), tuple(adds))
            keys = {offset * base ** 4 + sum((code[edges[side]] if known >> side & 1 and not kind[side] else free)
                                             * weights[side] for side in range(4)) for known in range(16)}
            for key in keys:
                fitting[key] = fitting.get(key, 0) | entry[0]
                entries_of.setdefault(key, []).append(entry)
    return fitting, entries_of, [number[kind] * base ** 4 + free * sum(weights) for kind in kinds]


def rivals(rows: int, cols: int) -> list[bool]:
    """Per position, whether it is a corner the top-left corner turns onto when the whole grid turns.

    The grids of one rotation class are distinct (pieces are distinct), and
    turning the grid brings one of these corners to the top-left, so a grid is
    the canonical one of its class (its key, row-major, is the least) exactly
    when its top-left piece has a smaller id than the pieces on these corners.
    """
    if rows * cols == 1:
        return [False]
    corners = [(0, cols - 1), (rows - 1, cols - 1), (rows - 1, 0)] if rows == cols else [(rows - 1, cols - 1)]
    positions = {r * cols + c for r, c in corners}
    return [pos in positions for pos in range(rows * cols)]


def first_candidates(index: list, rival: list[bool]) -> list:
    """The top-left index without pieces that leave too few larger pieces for the rival corners.

    Under the eternity rule only the corner pieces fit the corners, so the
    top-left corner must hold the corner piece with the smallest id.
    """
    fitting = [{entry[0] for entry in chain.from_iterable(keyed)} for pos, keyed in enumerate(index) if rival[pos]]
    needed = len(fitting)

    def possible(piece: int) -> bool:
        return len(set().union(*({p for p in fits if p > piece} for fits in fitting))) >= needed

    return [[entry for entry in entries if possible(entry[0])] for entries in index[0]]


def candidate_index(instance: Instance,
                    periods: Periods | None = None) -> tuple[list[list[list[tuple[int, int, int, int]]]], int]:
    """Per position, per (North need, West need) key, the fitting rotations; and the `free` code.

    Labels are coded 0..L-1 and `free` = L stands for "no neighbour yet". An
    entry is (piece, turns, the code its East edge asks of the right neighbour,
    the code its South edge asks of the lower neighbour).
    """
    rows, cols = instance.rows, instance.cols
    matcher = Matcher(instance)
    labels = instance.labels()
    code = {label: number for number, label in enumerate(labels)}
    free = len(labels)
    partner = {label: code[other] for label, other in instance.match_pairs()}
    index = []
    for r in range(rows):
        for c in range(cols):
            keyed: list[list[tuple[int, int, int, int]]] = [[] for _ in range((free + 1) ** 2)]
            border = (r == 0, c == cols - 1, r == rows - 1, c == 0)
            for piece, turns, edges in oriented(instance, periods):
                if all(matcher.border(label) if on else matcher.inner(label) for label, on in zip(edges, border)):
                    north = code[edges[N]] if r else free
                    west = code[edges[W]] if c else free
                    keyed[north * (free + 1) + west].append(
                        (piece, turns, partner.get(edges[E], free), partner.get(edges[S], free)))
            index.append(keyed)
    return index, free
