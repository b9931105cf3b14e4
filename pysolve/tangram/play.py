"""`pysolve play tangram [FILE] [--backend B]`: the interactive game's command.

Everything that can be wrong (the file, its given pieces, the piece keys,
the back end) is checked before the screen starts, so bad input is one
line on stderr and exit code 2 like every other command.
"""

from __future__ import annotations

import argparse
from typing import Any

from pysolve import backends
from pysolve.tangram.game import Game
from pysolve.tangram.model import load_instance


def add_commands(subparsers: Any) -> None:
    """Add `play` and its `tangram` game to the top-level `pysolve` parser."""
    play = subparsers.add_parser("play", help="play a game in the terminal (mouse and keyboard)")
    games = play.add_subparsers(dest="game", required=True, parser_class=type(play))
    tangram = games.add_parser("tangram", help="place the rectangles on the board; the rules come from a back end")
    tangram.add_argument("file", metavar="FILE", nargs="?", help="instance file (default: the classic 10x10)")
    tangram.add_argument("--backend", choices=backends.NAMES,
                         help="back end answering the rules (default: prolog if available, else kanren)")
    tangram.set_defaults(run=run_tangram)


def new_game(file: str | None, backend: str | None) -> Game:
    """The game the arguments ask for, checked (PysolveError when it cannot start)."""
    return Game.start(load_instance(file), backend or backends.default())


def run_tangram(args: argparse.Namespace) -> int:
    """Check everything, then run the full-screen game until the player quits."""
    game = new_game(args.file, args.backend)
    from pysolve.tangram.game_app import TangramApp  # Textual loads only when a game really starts

    TangramApp(game).run()
    return 0
