% Defines solve/2, not the interface's hidato/2 (tests/test_check.py).

solve(Board, Board).
