:- module(squares,
          [ load_puzzle/5,      % +Rule, +Rows, +Cols, +Pieces, +Pairs
            piece/2,            % ?Id, ?Edges
            rotated/3,          % +Turns, +Edges, -Turned
            matches/2,          % +Edge, ?Other
            solution/2,         % +Strategy, -Grid
            solve/3,            % +Strategy, +Rotation, -Grid
            rotate_grid/2,      % +Grid, -Turned
            canonical/1         % +Grid
          ]).

/** <module> Edge-matching squares: the 3x3 insect puzzle and any R x C set

Pieces are facts piece(Id, [N, E, S, W]). A quarter turn clockwise moves the
edges (N, E, S, W) to (W, N, E, S). A grid is a list of rows, each a list of
cells [Piece, Turns].

Two rules: `insect` (touching edges are complementary labels, a head and
its body, given as complement/2 facts; the border is free) and `eternity`
(touching edges carry the same colour; colour 0 is the frame and lies
exactly on the border).

The search is the original program's: positions row by row from the
top-left, every unused piece in every rotation, kept when it matches the
left and upper neighbours. Strategy `original` tries the pieces literally
(select, rotate, check); strategy `indexed` asks the table oriented/6 for
the rotations whose North and West edges are the labels the neighbours need,
which SWI-Prolog's argument indexing answers directly. Both enumerate the
solutions in the same order.
*/

:- use_module(library(lists)).
:- use_module(library(apply)).
:- use_module(library(aggregate)).

%!  piece(?Id, ?Edges) is nondet.
%
%   Piece Id of the current puzzle shows Edges = [N, E, S, W] at turn 0
%   (dynamic: load_puzzle/5 asserts one fact per piece).

:- dynamic piece/2, complement/2, rule/1, grid_size/2, oriented/6.

%!  load_puzzle(+Rule, +Rows, +Cols, +Pieces, +Pairs) is det.
%
%   Replace the current puzzle: Rule is `insect` or `eternity`, the grid
%   Rows x Cols, Pieces a list of [Id, [N, E, S, W]] and Pairs a list of
%   [Head, Body] complementary labels (insect rule). Asserts piece/2,
%   complement/2 (both ways) and the table oriented(N, W, Id, Turns, E, S)
%   of every piece in every rotation.

load_puzzle(Rule, Rows, Cols, Pieces, Pairs) :-
    retractall(rule(_)),
    retractall(grid_size(_, _)),
    retractall(piece(_, _)),
    retractall(complement(_, _)),
    retractall(oriented(_, _, _, _, _, _)),
    assertz(rule(Rule)),
    assertz(grid_size(Rows, Cols)),
    forall(member([Id, Edges], Pieces), assertz(piece(Id, Edges))),
    forall(member([Head, Body], Pairs),
           ( assertz(complement(Head, Body)),
             assertz(complement(Body, Head)) )),
    forall(( piece(Id, Edges), between(0, 3, Turns), rotated(Turns, Edges, [N, E, S, W]) ),
           assertz(oriented(N, W, Id, Turns, E, S))).

%!  rotated(+Turns, +Edges, -Turned) is det.
%
%   Turned is the edge list [N, E, S, W] after Turns quarter turns
%   clockwise; one turn gives [W, N, E, S].

rotated(0, Edges, Edges).
rotated(Turns, [N, E, S, W], Turned) :-
    Turns > 0,
    Less is Turns - 1,
    rotated(Less, [W, N, E, S], Turned).

%!  matches(+Edge, ?Other) is nondet.
%
%   An edge Edge may touch an edge Other under the current rule: its
%   complement (insect) or the same colour, never the frame (eternity).

matches(Edge, Other) :-
    rule(Rule),
    matches(Rule, Edge, Other).

matches(insect, Edge, Other) :-
    complement(Edge, Other).
matches(eternity, Colour, Colour) :-
    Colour \== 0.

%   border_edge(+Rule, ?Edge): Edge may lie on the border of the grid.
border_edge(insect, _).
border_edge(eternity, 0).

%   inner_edge(+Rule, +Edge): Edge may lie inside the grid.
inner_edge(insect, _).
inner_edge(eternity, Colour) :-
    Colour \== 0.

%   meets(+Neighbour, ?Edge): Edge fits against Neighbour, `border` or edge(Label).
meets(border, Edge) :-
    rule(Rule),
    border_edge(Rule, Edge).
meets(edge(Label), Edge) :-
    matches(Label, Edge).

%   closes(+Kind, +Edge): an East or South edge is on the border (`last`) or inside.
closes(last, Edge) :-
    rule(Rule),
    border_edge(Rule, Edge).
closes(inner, Edge) :-
    rule(Rule),
    inner_edge(Rule, Edge).

%!  solution(+Strategy, -Grid) is nondet.
%
%   Grid is a solution of the current puzzle, found row by row from the
%   top-left; Strategy is `original` or `indexed` (same solutions, same order).

solution(Strategy, Grid) :-
    grid_size(Rows, Cols),
    findall(Id, piece(Id, _), Unused),
    length(Top, Cols),
    maplist(=(border), Top),
    fill_rows(Strategy, Rows, Top, Unused, Grid).

fill_rows(_, 0, _, [], []).
fill_rows(Strategy, Rows, Above, Unused0, [Cells|Grid]) :-
    Rows > 0,
    (   Rows =:= 1
    ->  Bottom = last
    ;   Bottom = inner
    ),
    fill_row(Above, border, Strategy, Bottom, Unused0, Unused, Cells, Below),
    Left is Rows - 1,
    fill_rows(Strategy, Left, Below, Unused, Grid).

fill_row([], _, _, _, Unused, Unused, [], []).
fill_row([Up|Ups], Left, Strategy, Bottom, Unused0, Unused,
         [[Piece, Turns]|Cells], [edge(S)|Below]) :-
    (   Ups == []
    ->  Right = last
    ;   Right = inner
    ),
    candidate(Strategy, Up, Left, Unused0, Unused1, Piece, Turns, [_, E, S, _]),
    closes(Right, E),
    closes(Bottom, S),
    fill_row(Ups, edge(E), Strategy, Bottom, Unused1, Unused, Cells, Below).

%   candidate(+Strategy, +Up, +Left, +Unused0, -Unused, -Piece, -Turns, -Edges):
%   an unused piece in a rotation that meets the upper and left neighbours.
candidate(original, Up, Left, Unused0, Unused, Piece, Turns, [N, E, S, W]) :-
    select(Piece, Unused0, Unused),
    piece(Piece, Edges),
    between(0, 3, Turns),
    rotated(Turns, Edges, [N, E, S, W]),
    meets(Up, N),
    meets(Left, W).
candidate(indexed, Up, Left, Unused0, Unused, Piece, Turns, [N, E, S, W]) :-
    meets(Up, N),
    meets(Left, W),
    oriented(N, W, Piece, Turns, E, S),
    selectchk(Piece, Unused0, Unused).

%!  solve(+Strategy, +Rotation, -Grid) is nondet.
%
%   Grid is a solution. Rotation `all`: every solution, in the original's
%   order. `up_to_rotation`: only the canonical solution of each class under
%   turns of the whole grid. `by_class`: every solution, each canonical one
%   followed by its turns. The last two break the symmetry during the
%   search (see corners_rule/1), so they search about a quarter of the tree.

solve(Strategy, all, Grid) :-
    solution(Strategy, Grid).
solve(Strategy, up_to_rotation, Grid) :-
    corners_rule(Grid),
    solution(Strategy, Grid),
    canonical(Grid).
solve(Strategy, by_class, Grid) :-
    solve(Strategy, up_to_rotation, Canonical),
    class_member(Canonical, Grid).

class_member(Grid, Grid).
class_member(Grid, Turned) :-
    grid_turn(Grid, Turned).

%!  corners_rule(-Grid) is det.
%
%   Grid is a skeleton of the current puzzle's grid whose corners are
%   constrained (by coroutines that fire as the search places pieces) so
%   that only canonical grids remain: the pieces of a class are distinct
%   and each turn brings another corner to the top-left, so a grid is
%   canonical exactly when its top-left piece has a smaller id than the
%   pieces on those rival corners. The top-left piece must also leave enough
%   larger pieces able to fill the rival corners (under the eternity rule:
%   it is the corner piece with the smallest id).

corners_rule(Grid) :-
    grid_size(Rows, Cols),
    length(Grid, Rows),
    maplist(cell_row(Cols), Grid),
    Grid = [[[TopLeft, _]|_]|_],
    rival_corners(Grid, Rivals),
    length(Rivals, Needed),
    (   Needed =:= 0
    ->  true
    ;   findall(Id, corner_fit(Rows, Cols, Id), Ids0),
        sort(Ids0, Ids),
        freeze(TopLeft, enough_larger(TopLeft, Ids, Needed)),
        maplist(larger_than(TopLeft), Rivals)
    ).

cell_row(Cols, Row) :-
    length(Row, Cols),
    maplist(cell_skeleton, Row).

cell_skeleton([_, _]).

rival_corners([[_]], []).
rival_corners(Grid, Rivals) :-
    Grid = [Top|_],
    \+ Grid = [[_]],
    last(Grid, Bottom),
    last(Top, [TopRight, _]),
    Bottom = [[BottomLeft, _]|_],
    last(Bottom, [BottomRight, _]),
    length(Grid, Rows),
    length(Top, Cols),
    (   Rows =:= Cols
    ->  Rivals = [TopRight, BottomRight, BottomLeft]
    ;   Rivals = [BottomRight]
    ).

corner_fit(Rows, Cols, Id) :-
    piece(Id, Edges),
    between(0, 3, Turns),
    rotated(Turns, Edges, [N, E, S, W]),
    meets(border, N),
    meets(border, W),
    closes_if(Cols =:= 1, E),
    closes_if(Rows =:= 1, S).

closes_if(Test, Edge) :-
    (   call(Test)
    ->  closes(last, Edge)
    ;   closes(inner, Edge)
    ).

enough_larger(TopLeft, Ids, Needed) :-
    aggregate_all(count, (member(Id, Ids), Id > TopLeft), Larger),
    Larger >= Needed.

larger_than(TopLeft, Piece) :-
    when(ground(TopLeft-Piece), Piece > TopLeft).

%!  canonical(+Grid) is semidet.
%
%   No turn of the whole grid that keeps its shape sorts before Grid, when
%   grids are compared as lists of Piece * 4 + Turns, row by row.

canonical(Grid) :-
    grid_key(Grid, Key),
    \+ ( grid_turn(Grid, Turned),
         grid_key(Turned, Other),
         Other @< Key ).

grid_turn(Grid, Turned) :-
    rotate_grid(Grid, Once),
    rotate_grid(Once, Twice),
    rotate_grid(Twice, Thrice),
    length(Grid, Rows),
    Grid = [Row|_],
    length(Row, Cols),
    (   Rows =:= Cols
    ->  member(Turned, [Once, Twice, Thrice])
    ;   Turned = Twice
    ).

grid_key(Grid, Key) :-
    append(Grid, Cells),
    maplist(cell_key, Cells, Key).

cell_key([Piece, Turns], Key) :-
    Key is Piece * 4 + Turns.

%!  rotate_grid(+Grid, -Turned) is det.
%
%   Turned is Grid turned a quarter turn clockwise as a whole: the bottom
%   row becomes the left column, and every piece turns once more.

rotate_grid(Grid, Turned) :-
    reverse(Grid, Upwards),
    transpose_rows(Upwards, Columns),
    maplist(maplist(turn_cell), Columns, Turned).

turn_cell([Piece, Turns], [Piece, More]) :-
    More is (Turns + 1) mod 4.

transpose_rows([], []).
transpose_rows([Row|Rows], Columns) :-
    transpose_columns(Row, [Row|Rows], Columns).

transpose_columns([], _, []).
transpose_columns([_|Rest], Rows, [Column|Columns]) :-
    maplist(first_rest, Rows, Column, Tails),
    transpose_columns(Rest, Tails, Columns).

first_rest([First|Rest], First, Rest).
