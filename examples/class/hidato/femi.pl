% femi: LOOPS. The path is defined by left recursion, which Prolog's depth-first search
% follows forever.

%!  hidato(+Board, -Solution) is nondet.

hidato(Board, Solution) :-
    path(Board, Solution).

path(Board, Solution) :-                    % the mistake: it calls itself first, for ever
    path(Board, Solution),
    Board = Solution.
