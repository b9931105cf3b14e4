"""Random tangram instances: a board cut into rectangles by random guillotine cuts.

Every generated instance has at least one tiling (the cut itself), which makes
them good material for cross-checks and for measuring how the searches scale.
`min_side` keeps every piece at least that wide and high; `distinct` asks for
pieces of different sizes (no two alike, turned or not): cuts are drawn again
until they give that, a bounded number of times.
"""

from __future__ import annotations

import random

from pysolve.errors import InputError
from pysolve.tangram.model import MAX_CELLS, Instance, Piece, check_area

KEYS = "123456789abcdefghijklmnopqrstuvwxyz"
PALETTE = ("#2e9e4f", "#2f6fd6", "#d63a2f", "#f08c1a", "#e96fb4", "#f2d02b", "#8e5cc7", "#3bb8c4",
           "#8c6b3e", "#9acd32", "#ff7f7f", "#6f7f8f")
ATTEMPTS = 2000  # cuts drawn before giving up on `distinct`

Rect = tuple[int, int, int, int]  # x, y, width, height


def cut(width: int, height: int, pieces: int, rng: random.Random, min_side: int = 1) -> list[Rect] | None:
    """`pieces` rectangles from guillotine cuts of the board, larger ones cut first more often; None when stuck."""
    rects: list[Rect] = [(0, 0, width, height)]
    while len(rects) < pieces:
        cuttable = [r for r in rects if r[2] >= 2 * min_side or r[3] >= 2 * min_side]
        if not cuttable:
            return None
        chosen = rng.choices(cuttable, weights=[r[2] * r[3] for r in cuttable])[0]
        rects.remove(chosen)
        rects.extend(split(chosen, rng, min_side))
    return rects


def split(rect: Rect, rng: random.Random, min_side: int = 1) -> list[Rect]:
    """Two rectangles from one random straight cut across the longer (or a random) side, each side >= min_side."""
    x, y, w, h = rect
    across, down = w >= 2 * min_side, h >= 2 * min_side
    vertical = across and (not down or rng.random() < w / (w + h))
    if vertical:
        at = rng.randint(min_side, w - min_side)
        return [(x, y, at, h), (x + at, y, w - at, h)]
    at = rng.randint(min_side, h - min_side)
    return [(x, y, w, at), (x, y + at, w, h - at)]


def distinct_sizes(rects: list[Rect]) -> bool:
    """True when no two rectangles have the same size, turned or not."""
    sizes = {tuple(sorted((w, h))) for _, _, w, h in rects}
    return len(sizes) == len(rects)


def generate(width: int, height: int, pieces: int, seed: int | None = None, rotations: bool = False,
             min_side: int = 1, distinct: bool = False) -> Instance:
    """A random instance of `pieces` rectangles that tile a `width` x `height` board."""
    if width < 1 or height < 1:
        raise InputError(f"board size {width}x{height} must be positive")
    if width * height > MAX_CELLS:
        raise InputError(f"board {width}x{height} has {width * height} cells; tangram takes at most {MAX_CELLS}")
    if min_side < 1 or min_side > min(width, height):
        raise InputError(f"--min-side {min_side}: choose 1 to {min(width, height)} for a {width}x{height} board")
    most = min((width // min_side) * (height // min_side), len(KEYS))
    if not 1 <= pieces <= most:
        raise InputError(f"--pieces {pieces}: choose 1 to {most} for a {width}x{height} board"
                         + (f" with sides of at least {min_side}" if min_side > 1 else ""))
    rng = random.Random(seed)
    for _ in range(ATTEMPTS):
        rects = cut(width, height, pieces, rng, min_side)
        if rects is not None and (not distinct or distinct_sizes(rects)):
            break
    else:
        raise InputError(f"no cut of the {width}x{height} board into {pieces} pieces"
                         f"{' of different sizes' if distinct else ''} with sides of at least {min_side} "
                         f"found in {ATTEMPTS} tries; ask for fewer pieces")
    rng.shuffle(rects)
    made = tuple(Piece(f"p{i + 1}", KEYS[i], PALETTE[i % len(PALETTE)], w, h) for i, (_, _, w, h) in enumerate(rects))
    extra = f"-min{min_side}" if min_side > 1 else ""
    extra += "-distinct" if distinct else ""
    instance = Instance(width, height, made, rotations, f"random-{width}x{height}-{pieces}{extra}-seed{seed}")
    check_area(instance)
    return instance
