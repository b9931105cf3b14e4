"""Random solvable edge-matching puzzles, deterministic per seed.

A solved R x C grid is drawn first (each inner seam gets a random colour),
then its pieces are cut out, turned at random and shuffled, so the instance
has at least that solution. Insect rule: K colours give K pairs of labels,
heads `A`, `B`, ... with bodies `a`, `b`, ...; each seam puts a head on one
side and its body on the other, and border edges are random labels.
Eternity rule: colours 1..K on the seams, the frame colour 0 on the border.
"""

from __future__ import annotations

import random
import string

from pysolve.errors import InputError
from pysolve.files import excerpt
from pysolve.squares.model import ETERNITY, FRAME, INSECT, RULES, Instance, Label, Piece, rotate, validated

MAX_SIDE = 12


def check_size(rows: int, cols: int, colours: int, rule: str) -> None:
    """InputError unless the size, colour count and rule make a puzzle."""
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
        raise InputError(f"--rows and --cols must be between 1 and {MAX_SIDE}, not {rows} and {cols}")
    if rule not in RULES:
        raise InputError(f"unknown rule {excerpt(rule)}; use one of {', '.join(RULES)}")
    if not 1 <= colours <= len(string.ascii_uppercase):
        raise InputError(f"--colours must be between 1 and {len(string.ascii_uppercase)}, not {colours}")


def seam(rng: random.Random, rule: str, colours: int) -> tuple[Label, Label]:
    """The two labels of one inner seam: (the first side's, the second side's)."""
    colour = rng.randrange(colours)
    if rule == ETERNITY:
        return colour + 1, colour + 1
    head, body = string.ascii_uppercase[colour], string.ascii_lowercase[colour]
    return (head, body) if rng.random() < 0.5 else (body, head)


def border_label(rng: random.Random, rule: str, colours: int) -> Label:
    """A label for an edge on the border of the grid."""
    if rule == ETERNITY:
        return FRAME
    return rng.choice(string.ascii_uppercase[:colours] + string.ascii_lowercase[:colours])


def generate(rows: int, cols: int, colours: int, seed: int, rule: str = INSECT) -> Instance:
    """A random solvable rows x cols puzzle with `colours` edge colours, the same for the same seed."""
    check_size(rows, cols, colours, rule)
    rng = random.Random(f"squares {rows} {cols} {colours} {seed} {rule}")
    edges = [[[border_label(rng, rule, colours) for _ in range(4)] for _ in range(cols)] for _ in range(rows)]
    for r in range(rows):
        for c in range(cols):
            if c + 1 < cols:
                edges[r][c][1], edges[r][c + 1][3] = seam(rng, rule, colours)
            if r + 1 < rows:
                edges[r][c][2], edges[r + 1][c][0] = seam(rng, rule, colours)
    cut = [rotate(tuple(cell), rng.randrange(4)) for row in edges for cell in row]  # type: ignore[arg-type]
    rng.shuffle(cut)
    pieces = tuple(Piece(number, edges) for number, edges in enumerate(cut, start=1))
    pairs = () if rule == ETERNITY else tuple(zip(string.ascii_uppercase[:colours], string.ascii_lowercase[:colours]))
    name = f"generated {rule} {rows}x{cols} K={colours} seed={seed}"
    return validated(Instance(name, rows, cols, rule, pieces, pairs))
