"""Puzzles that fill a board (Hidato, Sudoku): one question shape and one puzzle side, written once.

Such a puzzle asks three things of a board read from FILE: a first
solution, the number of solutions up to K (`--count 2` answers "unique?"),
or whether a filled board is a solution (`--validate`, naming what breaks
it). The package is shaped as a puzzle's own: `model` holds `BoardQuestion`,
which the puzzles' models extend, and `searched`, the answer their back ends
build; `puzzle` holds the options (`board_options`) and `BoardPuzzle`, the
answers' canonical form, text and SVG. The back ends import `model` only.
"""
