% dan: WRONG. Fills each empty cell with a value its row, column and box lack, but never
% checks the givens against each other: a board whose givens clash gets solutions.

%!  sudoku(+Board, -Solution) is nondet.
%
%   Solution fills the empty cells (0) of the N x N Board so that every
%   row, column and box holds 1..N once.

sudoku(Board, Solution) :-
    length(Board, N),
    box(N, BoxRows, BoxCols),
    maplist(cell_variables, Board, Solution),
    units(Solution, BoxRows, BoxCols, Units),
    numlist(1, N, Values),
    append(Solution, Cells),
    fill(Cells, Units, Values).

box(4, 2, 2).
box(6, 2, 3).
box(9, 3, 3).
box(16, 4, 4).

cell_variables(Row, Cells) :-
    maplist(cell_variable, Row, Cells).

cell_variable(0, _) :- !.
cell_variable(Value, Value).

%   fill(+Cells, +Units, +Values): each empty cell in turn takes a value
%   that no cell of its units holds.

fill([], _, _).
fill([Cell|Cells], Units, Values) :-
    (   var(Cell)
    ->  include(holds(Cell), Units, Mine),
        member(Value, Values),
        \+ ( member(Unit, Mine), member(Other, Unit), Other == Value ),
        Cell = Value
    ;   true                                % the bug: a given is taken as it is
    ),
    fill(Cells, Units, Values).

holds(Cell, Unit) :-
    member(Other, Unit),
    Other == Cell,
    !.

units(Rows, BoxRows, BoxCols, Units) :-
    transpose_rows(Rows, Columns),
    boxes(Rows, BoxRows, BoxCols, Boxes),
    append([Rows, Columns, Boxes], Units).

transpose_rows([[]|_], []) :- !.
transpose_rows(Rows, [Column|Columns]) :-
    maplist(first_rest, Rows, Column, Rests),
    transpose_rows(Rests, Columns).

first_rest([First|Rest], First, Rest).

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
