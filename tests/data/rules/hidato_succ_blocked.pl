% A Hidato rule base that raises an error on boards with a blocked cell:
% the walk of examples/class/hidato/ana.pl, but a cell's number is looked up when succ/2
% says the cell was given a number or 0. WRONG on purpose
% (tests/test_check.py): succ(_, -1) raises a domain error where the student
% expected it to fail, so every board with a blocked cell that has a
% solution is an error.

%!  hidato(+Board, -Solution) is nondet.
%
%   Solution fills the empty cells (0) of Board so that 1..N follow each
%   other by king moves; -1 marks a blocked cell.

hidato(Board, Solution) :-
    findall(R-C-V, (nth0(R, Board, Row), nth0(C, Row, V), V =\= -1), Open),
    length(Open, N),
    member(Start-1, Open),
    walk(1, N, Start, Open, [Start], Path),
    reverse(Path, InOrder),
    numbered(Board, InOrder, Solution).

% walk(+K, +N, +Cell, +Open, +Visited, -Path): Cell holds K; Path is
% Visited extended to N, the last cell first.
walk(N, N, _, _, Path, Path).
walk(K, N, Cell, Open, Visited, Path) :-
    K < N,
    K1 is K + 1,
    next(K1, Cell, Open, Next),
    \+ memberchk(Next, Visited),
    walk(K1, N, Next, Open, [Next | Visited], Path).

% next(+K, +Cell, +Open, -Next): the cell of K, given or free, a king
% move from Cell.
next(K, Cell, Open, Next) :-
    (   memberchk(Next-K, Open)
    ->  touches(Cell, Next)
    ;   member(Next-0, Open),
        touches(Cell, Next)
    ).

touches(R1-C1, R2-C2) :-
    abs(R1 - R2) =< 1,
    abs(C1 - C2) =< 1,
    R1-C1 \== R2-C2.

numbered(Board, Path, Solution) :-
    findall(Row, ( nth0(R, Board, Cells),
                   findall(V, ( nth0(C, Cells, Given), number_of(R-C, Given, Path, V) ), Row) ),
            Solution).

number_of(Cell, Given, Path, V) :-
    (   ( Given =:= 0 ; succ(_, Given) )    % wrong: raises on -1 instead of failing
    ->  nth1(V, Path, Cell)
    ;   V = -1
    ).
