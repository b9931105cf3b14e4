% A Hidato rule base that never answers (tests/test_check.py): a path
% defined by left recursion, which Prolog's depth-first search follows
% forever.

hidato(Board, Solution) :-
    path(Board, Solution).

path(Board, Solution) :-
    path(Board, Solution).
