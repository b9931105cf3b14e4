"""gus: correct, in Python. Hidato as a miniKanren relation: a walk from the cell of 1, each next number on
its given cell or on a free neighbour, as goals of pysolve.minikanren (a folder holding hidato.py)."""

from pysolve.minikanren import disj_over, eq, lazy


def hidatoo(board, solution):
    """`solution` fills the empty cells (0) of `board` so that 1..N follow each other by king moves."""
    values = {(r, c): value for r, row in enumerate(board) for c, value in enumerate(row) if value != -1}
    given = {value: cell for cell, value in values.items() if value > 0}
    last = len(values)

    def cells_of(number):
        return [given[number]] if number in given else [cell for cell, value in values.items() if value == 0]

    def walk(number, path):
        if number == last:
            return eq(solution, numbered(board, path))
        steps = [cell for cell in cells_of(number + 1) if touches(path[-1], cell) and cell not in path]
        return disj_over(steps, lambda cell: lazy(walk, number + 1, path + [cell]))

    return disj_over(cells_of(1), lambda cell: walk(1, [cell]))


def touches(one, other):
    """One king move apart."""
    return one != other and abs(one[0] - other[0]) <= 1 and abs(one[1] - other[1]) <= 1


def numbered(board, path):
    """The board with each cell of `path` numbered by its place in it."""
    number = {cell: index for index, cell in enumerate(path, start=1)}
    return [[-1 if value == -1 else number[(r, c)] for c, value in enumerate(row)] for r, row in enumerate(board)]
