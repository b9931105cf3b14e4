% carla: WRONG. Turns counted from 1 to 4, not from 0 to 3: a piece that lies as it is
% cut is named turned 4 times.

%!  squares(+Rule, +Rows, +Cols, +Pieces, +Pairs, -Grid) is nondet.
%
%   Grid (Rows rows of Cols cells [Piece, Turns]) places every piece of
%   Pieces ([Id, [N, E, S, W]] each) once so that touching edges match
%   under Rule (insect: a label and its complement in Pairs; eternity:
%   the same colour, the frame colour 0 on the border only).

squares(Rule, Rows, Cols, Pieces, Pairs, Grid) :-
    Cells is Rows * Cols,
    place(0, Cells, Rule-Pairs, Rows, Cols, Pieces, [], Placed),
    reverse(Placed, InOrder),
    maplist(cell, InOrder, Flat),
    rows_of(Cols, Flat, Grid).

% place(+K, +Cells, +Rule, +Rows, +Cols, +Pieces, +Placed0, -Placed):
% cells K.. placed; Placed0 holds the cells before K, the last one first.
place(Cells, Cells, _, _, _, [], Placed, Placed).
place(K, Cells, Rule, Rows, Cols, Pieces, Placed0, Placed) :-
    K < Cells,
    select([Id, Edges], Pieces, Rest),
    between(1, 4, Turns),               % the bug: turns from 1 to 4
    turned(Turns, Edges, [N, E, S, W]),
    R is K // Cols,
    C is K mod Cols,
    (   R =:= 0
    ->  border(Rule, N)
    ;   Back is Cols - 1, nth0(Back, Placed0, _-_-[_, _, Above, _]), fits(Rule, Above, N)
    ),
    (   C =:= 0
    ->  border(Rule, W)
    ;   Placed0 = [_-_-[_, Left, _, _] | _], fits(Rule, Left, W)
    ),
    (   C =:= Cols - 1 -> border(Rule, E) ; true ),
    (   R =:= Rows - 1 -> border(Rule, S) ; true ),
    K1 is K + 1,
    place(K1, Cells, Rule, Rows, Cols, Rest, [Id-Turns-[N, E, S, W] | Placed0], Placed).

% One quarter turn clockwise: (N, E, S, W) becomes (W, N, E, S).
turned(0, Edges, Edges).
turned(Turns, [N, E, S, W], Turned) :-
    Turns > 0,
    Turns1 is Turns - 1,
    turned(Turns1, [W, N, E, S], Turned).

fits(eternity-_, A, B) :-
    A == B,
    A =\= 0.
fits(insect-Pairs, A, B) :-
    (   memberchk([A, B], Pairs) -> true ; memberchk([B, A], Pairs) ).

border(eternity-_, 0).
border(insect-_, _).

cell(Id-Turns-_, [Id, Turns]).

rows_of(_, [], []) :- !.
rows_of(Cols, Flat, [Row | Rows]) :-
    length(Row, Cols),
    append(Row, Rest, Flat),
    rows_of(Cols, Rest, Rows).
