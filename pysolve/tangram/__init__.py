"""The rectangle tangram: cover a board exactly with rectangles, on three back ends (docs/tangram.md).

The functions on Placements are in `pysolve.tangram.api`; `pysolve.tangram.puzzle.PUZZLE` is the puzzle
the CLI and `pysolve.solve("tangram", ...)` ask.
"""
