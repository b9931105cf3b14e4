% femi: LOOPS. Generate and test with the generator defined by left recursion: a
% list of values that Prolog's depth-first search never finishes building.

%!  sudoku(+Board, -Solution) is nondet.

sudoku(Board, Solution) :-
    values(Board, Solution),
    Board = Solution.

values(Board, Solution) :-                  % the mistake: it calls itself first, for ever
    values(Board, Solution),
    Solution = [_|_].
