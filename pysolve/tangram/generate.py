"""Random tangram instances: a board cut into rectangles by random guillotine cuts.

Every generated instance has at least one tiling (the cut itself), which makes
them good material for cross-checks and for measuring how the searches scale.
"""

from __future__ import annotations

import random

from pysolve.errors import InputError
from pysolve.tangram.model import Instance, Piece, check_area

KEYS = "123456789abcdefghijklmnopqrstuvwxyz"
PALETTE = ("#2e9e4f", "#2f6fd6", "#d63a2f", "#f08c1a", "#e96fb4", "#f2d02b", "#8e5cc7", "#3bb8c4",
           "#8c6b3e", "#9acd32", "#ff7f7f", "#6f7f8f")

Rect = tuple[int, int, int, int]  # x, y, width, height


def cut(width: int, height: int, pieces: int, rng: random.Random) -> list[Rect]:
    """`pieces` rectangles from guillotine cuts of the board, larger rectangles cut first more often."""
    rects: list[Rect] = [(0, 0, width, height)]
    while len(rects) < pieces:
        cuttable = [r for r in rects if r[2] > 1 or r[3] > 1]
        chosen = rng.choices(cuttable, weights=[r[2] * r[3] for r in cuttable])[0]
        rects.remove(chosen)
        rects.extend(split(chosen, rng))
    return rects


def split(rect: Rect, rng: random.Random) -> list[Rect]:
    """Two rectangles from one random straight cut across the longer (or a random) side."""
    x, y, w, h = rect
    vertical = w > 1 and (h == 1 or rng.random() < w / (w + h))
    if vertical:
        at = rng.randint(1, w - 1)
        return [(x, y, at, h), (x + at, y, w - at, h)]
    at = rng.randint(1, h - 1)
    return [(x, y, w, at), (x, y + at, w, h - at)]


def generate(width: int, height: int, pieces: int, seed: int | None = None, rotations: bool = False) -> Instance:
    """A random instance of `pieces` rectangles that tile a `width` x `height` board."""
    if width < 1 or height < 1:
        raise InputError(f"board size {width}x{height} must be positive")
    if not 1 <= pieces <= min(width * height, len(KEYS)):
        raise InputError(f"--pieces {pieces}: choose 1 to {min(width * height, len(KEYS))} for a {width}x{height} board")
    rng = random.Random(seed)
    rects = cut(width, height, pieces, rng)
    rng.shuffle(rects)
    made = tuple(Piece(f"p{i + 1}", KEYS[i], PALETTE[i % len(PALETTE)], w, h) for i, (_, _, w, h) in enumerate(rects))
    instance = Instance(width, height, made, rotations, f"random-{width}x{height}-{pieces}-seed{seed}")
    check_area(instance)
    return instance
