"""hana: EXITS, in Python. Meant to print each board and stop the script, it calls sys.exit() in the relation:
the first question ends the process answering it."""

import sys


def hidatoo(board, solution):
    """Prints the board, then ends the program (the mistake: sys.exit in a relation)."""
    print(board)
    sys.exit(0)
