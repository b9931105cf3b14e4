% carla: WRONG. Boxes K x K with K the square root of N: right at 4x4, but 2x2 at 6x6,
% whose boxes are 2x3.

:- use_module(library(clpfd)).

%!  sudoku(+Board, -Solution) is nondet.
%
%   Solution fills the empty cells (0) of the N x N Board so that every
%   row, column and box holds 1..N once.

sudoku(Board, Solution) :-
    length(Board, N),
    box(N, BoxRows, BoxCols),
    maplist(cell_variables, Board, Solution),
    append(Solution, Cells),
    Cells ins 1..N,
    maplist(all_distinct, Solution),
    transpose(Solution, Columns),
    maplist(all_distinct, Columns),
    boxes(Solution, BoxRows, BoxCols, Boxes),
    maplist(all_distinct, Boxes),
    labeling([ff], Cells).

box(N, K, K) :-                             % the bug: a 6x6 box is 2x3
    K is truncate(sqrt(N)).

cell_variables(Row, Cells) :-
    maplist(cell_variable, Row, Cells).

cell_variable(0, _) :- !.
cell_variable(Value, Value).

boxes([], _, _, []).
boxes(Rows, BoxRows, BoxCols, Boxes) :-
    length(Band, BoxRows),
    append(Band, Rest, Rows),
    band_boxes(Band, BoxCols, BandBoxes),
    boxes(Rest, BoxRows, BoxCols, More),
    append(BandBoxes, More, Boxes).

band_boxes(Band, BoxCols, Boxes) :-
    (   Band = [[] | _]
    ->  Boxes = []
    ;   maplist(split(BoxCols), Band, Heads, Tails),
        append(Heads, Box),
        Boxes = [Box | More],
        band_boxes(Tails, BoxCols, More)
    ).

split(K, Row, Head, Tail) :-
    length(Head, K),
    append(Head, Tail, Row).
