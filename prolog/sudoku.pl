:- module(sudoku,
          [ box_shape/3,                % ?Size, ?BoxRows, ?BoxColumns
            units/2,                    % +Rows, -Units
            solution/3,                 % +Strategy, +Rows, -Solved
            broken_units/2              % +Rows, -Broken
          ]).

/** <module> Sudoku: rows, columns and boxes that hold 1..N once, two solvers

A board is a list of N rows of N integers, 0 for an empty cell and 1..N
for a given, N being 4, 6, 9 or 16 (boxes of 2x2, 2x3, 3x3 and 4x4). A
solution fills every empty cell so that each row, column and box holds
each value once.

Two strategies answer solution/3:

  - `clpfd`: one finite-domain variable per cell in 1..N, all_distinct/1
    on every row, column and box, labeling([ff]) (first-fail: the variable
    with the smallest domain next);
  - `plain`: the reference backtracking: cells in reading order, each
    empty one takes a value from 1 up that its row, column and box do not
    hold yet.
*/

:- use_module(library(clpfd), [(ins)/2, all_distinct/1, labeling/2, transpose/2,
                               op(700, xfx, ins), op(450, xfx, ..)]).
:- use_module(library(lists), [append/2, append/3, member/2, nth0/3, numlist/3]).
:- use_module(library(apply), [maplist/2, maplist/3]).
:- use_module(library(aggregate), [aggregate_all/3]).
:- use_module(library(error), [domain_error/2, must_be/2]).

%!  box_shape(?Size, ?BoxRows, ?BoxColumns) is nondet.
%
%   A Size x Size sudoku has boxes of BoxRows rows by BoxColumns columns.

box_shape(4, 2, 2).
box_shape(6, 2, 3).
box_shape(9, 3, 3).
box_shape(16, 4, 4).

%!  units(+Rows, -Units) is det.
%
%   Units is units(RowUnits, ColumnUnits, BoxUnits) for the board Rows:
%   each a list of units, each unit the list of its cells (the very terms
%   of Rows, so variables are shared), boxes in reading order. Raises a
%   domain error unless Rows is a square board of side 4, 6, 9 or 16.

units(Rows, units(Rows, Columns, Boxes)) :-
    must_be(list(list), Rows),
    board_shape(Rows, _, BoxRows, BoxColumns),
    transpose(Rows, Columns),
    bands(Rows, BoxRows, Bands),
    maplist(band_boxes(BoxColumns), Bands, BoxLists),
    append(BoxLists, Boxes).

% board_shape(+Rows, -Size, -BoxRows, -BoxColumns): the side and box shape
% of a square board of side 4, 6, 9 or 16; a domain error for another.
board_shape(Rows, Size, BoxRows, BoxColumns) :-
    length(Rows, Size),
    (   box_shape(Size, BoxRows, BoxColumns),
        maplist(has_length(Size), Rows)
    ->  true
    ;   domain_error(sudoku_board, Rows)
    ).

has_length(Length, List) :-
    length(List, Length).

% bands(+Rows, +Height, -Bands): Rows cut into consecutive groups of Height.
bands([], _, []).
bands([R|Rs], Height, [Band|Bands]) :-
    length(Band, Height),
    append(Band, Rest, [R|Rs]),
    bands(Rest, Height, Bands).

% band_boxes(+Width, +Band, -Boxes): the boxes of one band, left to right.
band_boxes(Width, Band, Boxes) :-
    maplist(bands_of(Width), Band, Chunked),
    transpose(Chunked, PerBox),
    maplist(append, PerBox, Boxes).

bands_of(Width, Row, Chunks) :-
    bands(Row, Width, Chunks).

%!  solution(+Strategy, +Rows, -Solved) is nondet.
%
%   Solved is a solution of the board Rows found by Strategy, `clpfd` or
%   `plain`; every solution on backtracking. Raises a domain error for
%   another strategy, a board that is not square of side 4, 6, 9 or 16,
%   or a value outside 0..N.

solution(Strategy, Rows, Solved) :-
    must_be(atom, Strategy),
    (   memberchk(Strategy, [clpfd, plain])
    ->  true
    ;   domain_error(sudoku_strategy, Strategy)
    ),
    must_be(list(list(integer)), Rows),
    board_shape(Rows, Size, _, _),
    maplist(maplist(cell_term(Size)), Rows, Cells),
    units(Cells, Units),
    search(Strategy, Size, Cells, Units),
    Solved = Cells.

% cell_term(+Size, +Value, -Cell): a fresh variable for 0, the value for a given.
cell_term(Size, Value, Cell) :-
    (   Value =:= 0
    ->  true
    ;   between(1, Size, Value)
    ->  Cell = Value
    ;   domain_error(sudoku_value, Value)
    ).

search(clpfd, Size, Cells, units(Rows, Columns, Boxes)) :-
    append(Cells, Vars),
    Vars ins 1..Size,
    maplist(all_distinct, Rows),
    maplist(all_distinct, Columns),
    maplist(all_distinct, Boxes),
    labeling([ff], Vars).
search(plain, Size, Cells, units(Rows, Columns, Boxes)) :-
    \+ broken_units(Rows, Columns, Boxes, [_|_]),
    numlist(1, Size, Values),
    box_shape(Size, BoxRows, BoxColumns),
    PerBand is Size // BoxColumns,
    cell_entries(Cells, Columns, Boxes, shape(BoxRows, BoxColumns, PerBand), 0, Entries),
    fill(Entries, Values).

% cell_entries(+Rows, +Columns, +Boxes, +Shape, +R, -Entries): each cell of
% rows R.. as cell(Value, Row, Column, Box), in reading order.
cell_entries([], _, _, _, _, []).
cell_entries([Row|Rows], Columns, Boxes, Shape, R, Entries) :-
    row_entries(Row, Row, Columns, Boxes, Shape, R, 0, Entries, Rest),
    R1 is R + 1,
    cell_entries(Rows, Columns, Boxes, Shape, R1, Rest).

row_entries([], _, _, _, _, _, _, Entries, Entries).
row_entries([V|Vs], Row, [Column|Columns], Boxes, Shape, R, C, [cell(V, Row, Column, Box)|Entries], Rest) :-
    Shape = shape(BoxRows, BoxColumns, PerBand),
    B is R // BoxRows * PerBand + C // BoxColumns,
    nth0(B, Boxes, Box),
    C1 is C + 1,
    row_entries(Vs, Row, Columns, Boxes, Shape, R, C1, Entries, Rest).

% fill(+Entries, +Values): give each empty cell, in order, a value its
% row, column and box do not hold.
fill([], _).
fill([cell(V, Row, Column, Box)|Entries], Values) :-
    (   integer(V)
    ->  true
    ;   member(Value, Values),
        absent(Value, Row),
        absent(Value, Column),
        absent(Value, Box),
        V = Value
    ),
    fill(Entries, Values).

absent(Value, Unit) :-
    \+ ( member(Cell, Unit), Cell == Value ).

%!  broken_units(+Rows, -Broken) is det.
%
%   Broken lists [Kind, Index, Value] for each value that appears more
%   than once in one unit of the board Rows (Kind `row`, `column` or `box`,
%   Index 1-based, boxes in reading order): rows first, then columns, then
%   boxes, each by index, then by value. [] when no unit repeats a value.

broken_units(Rows, Broken) :-
    must_be(list(list(integer)), Rows),
    units(Rows, units(RowUnits, Columns, Boxes)),
    broken_units(RowUnits, Columns, Boxes, Broken).

broken_units(Rows, Columns, Boxes, Broken) :-
    findall([Kind, Index, Value],
            ( member(Kind-Units, [row-Rows, column-Columns, box-Boxes]),
              nth1_unit(Units, Index, Unit),
              repeated(Unit, Value)
            ),
            Broken).

nth1_unit(Units, Index, Unit) :-
    nth0(Index0, Units, Unit),
    Index is Index0 + 1.

% repeated(+Unit, -Value): Value (not 0, not a variable) appears twice or
% more in Unit; each such value once, smallest first.
repeated(Unit, Value) :-
    aggregate_all(set(V), ( append(_, [V|Rest], Unit), integer(V), V =\= 0,
                            member(W, Rest), W == V ), Values),
    member(Value, Values).
