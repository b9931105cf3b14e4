% carla: WRONG. The walk steps on any open neighbour, given or not, so every given but
% 1 may be overwritten.

%!  hidato(+Board, -Solution) is nondet.

hidato(Board, Solution) :-
    findall(R-C-V, (nth0(R, Board, Row), nth0(C, Row, V), V =\= -1), Open),
    length(Open, N),
    member(Start-1, Open),
    walk(1, N, Start, Open, [Start], Path),
    reverse(Path, InOrder),
    findall(Row, ( nth0(R, Board, Cells),
                   findall(V, ( nth0(C, Cells, Given), number_of(R-C, Given, InOrder, V) ), Row) ),
            Solution).

walk(N, N, _, _, Path, Path).
walk(K, N, Cell, Open, Visited, Path) :-
    K < N,
    K1 is K + 1,
    member(Next-_, Open),          % the bug: the given numbers are not looked at
    touches(Cell, Next),
    \+ memberchk(Next, Visited),
    walk(K1, N, Next, Open, [Next | Visited], Path).

touches(R1-C1, R2-C2) :-
    abs(R1 - R2) =< 1,
    abs(C1 - C2) =< 1,
    R1-C1 \== R2-C2.

number_of(Cell, Given, Path, V) :-
    (   Given =:= -1
    ->  V = -1
    ;   nth1(V, Path, Cell)
    ).
