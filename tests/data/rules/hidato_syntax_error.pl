% A syntax error on line 4 (tests/test_check.py).

hidato(Board, Solution) :-
    Solution = Board Board.
