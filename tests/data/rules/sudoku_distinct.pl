% A Sudoku rule base of one's own in plain Prolog, written from the rules
% interface alone (docs/sudoku.md, "Check your own rules"): correct. Its
% helper is named distinct/1, as library(solution_sequences) names one: a
% fresh `swipl` loads it (a library predicate is only autoloaded when the
% file does not define its own), and so must `pysolve check`.

%!  sudoku(+Board, -Solution) is nondet.
%
%   Solution fills the empty cells (0) of the N x N Board so that every
%   row, column and box holds 1..N once.

sudoku(Board, Solution) :-
    length(Board, N),
    box(N, BoxRows, BoxCols),
    maplist(cell_variables, Board, Solution),
    units(Solution, BoxRows, BoxCols, Units),
    maplist(distinct, Units),               % the givens may clash already
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
%   that keeps every unit distinct.

fill([], _, _).
fill([Cell|Cells], Units, Values) :-
    (   var(Cell)
    ->  member(Cell, Values),
        maplist(distinct, Units)
    ;   true
    ),
    fill(Cells, Units, Values).

%   distinct(+Cells): the values filled in among Cells are all different.

distinct(Cells) :-
    include(nonvar, Cells, Values),
    sort(Values, Sorted),
    length(Values, Count),
    length(Sorted, Count).

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
