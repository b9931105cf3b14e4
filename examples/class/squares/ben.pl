% ben: WRONG. One quarter turn moves each edge anticlockwise: its grids name turns 1 and 3
% swapped, so under the interface's clockwise turns their edges clash.

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
    between(0, 3, Turns),
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
    turned(Turns1, [E, S, W, N], Turned).  % wrong: a quarter turn anticlockwise

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
