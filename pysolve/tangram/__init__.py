"""The rectangle tangram: cover a board exactly with rectangles, on three back ends.

Functions on Placements (each answered by the back end you name: python, prolog, kanren):
`load_instance`, `options`, `complete`, `tilings`, `count`, `validate`; the
data types `Instance`, `Piece`, `Placement`; `make_placement` builds a checked one.
"""

from pysolve.tangram.api import complete, count, options, tilings, validate
from pysolve.tangram.model import Instance, Piece, Placement, load_instance, make_placement, parse_instance

__all__ = ["Instance", "Piece", "Placement", "complete", "count", "load_instance", "make_placement", "options",
           "parse_instance", "tilings", "validate"]
