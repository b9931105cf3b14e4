"""`pysolve play tangram [FILE] [--backend B]`: start the interactive game.

Everything that can be wrong (the file, its given pieces, the piece keys,
the back end) is checked before the screen starts, so bad input is one
line on stderr and exit code 2 like every other command.
"""

from __future__ import annotations

from pysolve.tangram.game import Game
from pysolve.tangram.model import load_instance


def play(file: str | None, backend: str) -> int:
    """Check FILE (default: the classic board) and `backend`, then run the game until the player quits."""
    game = Game.start(load_instance(file), backend)
    from pysolve.tangram.game_app import TangramApp  # Textual loads only when a game really starts

    TangramApp(game).run()
    return 0
