:- module(squares,
          [ with_puzzle/6,      % +Rule, +Rows, +Cols, +Pieces, +Pairs, :Goal
            with_puzzle/7,      % +Rule, +Rows, +Cols, +Pieces, +Pairs, +Options, :Goal
            piece/2,            % ?Id, ?Edges
            rotated/3,          % +Turns, +Edges, -Turned
            matches/2,          % +Edge, ?Other
            solution/2,         % +Strategy, -Grid
            solve/3,            % +Strategy, +Rotation, -Grid
            rotate_grid/2,      % +Grid, -Turned
            canonical/1         % +Grid
          ]).

/** <module> Edge-matching squares: the 3x3 insect puzzle and any R x C set

A puzzle is chosen for one goal by with_puzzle/6, which keeps its pieces as
thread-local facts while the goal runs and removes them after: there is no
puzzle between two goals, and two threads never see each other's. A piece
is piece(Id, [N, E, S, W]). A quarter turn clockwise moves the
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

Counting convention: a piece whose edges repeat under a half turn (N = S and
E = W) or a quarter turn lies in only 2 (or 1) distinct ways, and only those
turns are tried (turns 0..Period-1), so each distinct board is found once.
with_puzzle/7 with the option turns(every) tries all four turns of every
piece instead (the count of the older versions).
*/

:- use_module(library(lists), [append/2, last/2, member/2, reverse/2, select/3, selectchk/3]).
:- use_module(library(apply), [maplist/2, maplist/3, maplist/4]).
:- use_module(library(aggregate), [aggregate_all/3]).
:- use_module(library(error), [domain_error/2, must_be/2, permission_error/3]).

:- meta_predicate with_puzzle(+, +, +, +, +, 0), with_puzzle(+, +, +, +, +, +, 0).

:- thread_local tile/2, complement/2, rule/1, grid_size/2, oriented/6, period/2.

%!  with_puzzle(+Rule, +Rows, +Cols, +Pieces, +Pairs, :Goal) is nondet.
%
%   Run Goal on a puzzle: Rule is `insect` or `eternity`, the grid Rows x
%   Cols, Pieces a list of [Id, [N, E, S, W]] (ids positive integers) and
%   Pairs a list of [Head, Body] complementary labels (insect rule). While
%   Goal runs the pieces, the complements (both ways) and the table
%   oriented(N, W, Id, Turns, E, S) of every piece in every rotation are
%   thread-local facts; they are removed when Goal is done, fails, is cut
%   or raises. Raises a domain error for another rule, a type error for
%   sizes that are not positive integers, and a permission error when
%   called inside another with_puzzle/6 (one puzzle at a time). Each
%   piece lies only in its distinct turns (see the counting convention).

with_puzzle(Rule, Rows, Cols, Pieces, Pairs, Goal) :-
    with_puzzle(Rule, Rows, Cols, Pieces, Pairs, [], Goal).

%!  with_puzzle(+Rule, +Rows, +Cols, +Pieces, +Pairs, +Options, :Goal) is nondet.
%
%   As with_puzzle/6, with Options: turns(distinct) (the default: a
%   piece that looks the same turned is tried once per distinct look) or
%   turns(every) (every piece in all four turns). Raises a domain error
%   for another option.

with_puzzle(Rule, Rows, Cols, Pieces, Pairs, Options, Goal) :-
    must_be(list, Options),
    forall(member(Option, Options), known_option(Option)),
    (   memberchk(turns(every), Options)
    ->  Turns = every
    ;   Turns = distinct
    ),
    must_be(atom, Rule),
    (   memberchk(Rule, [insect, eternity])
    ->  true
    ;   domain_error(squares_rule, Rule)
    ),
    must_be(positive_integer, Rows),
    must_be(positive_integer, Cols),
    must_be(list, Pieces),
    must_be(list, Pairs),
    setup_call_cleanup(load_puzzle(Rule, Rows, Cols, Pieces, Pairs, Turns), Goal, unload_puzzle).

known_option(Option) :-
    (   memberchk(Option, [turns(distinct), turns(every)])
    ->  true
    ;   domain_error(squares_option, Option)
    ).

load_puzzle(Rule, Rows, Cols, Pieces, Pairs, Turns) :-
    (   rule(_)
    ->  permission_error(nest, with_puzzle, Rule)
    ;   true
    ),
    assertz(rule(Rule)),
    assertz(grid_size(Rows, Cols)),
    forall(member([Id, Edges], Pieces),
           ( assertz(tile(Id, Edges)),
             piece_period(Turns, Edges, Period),
             assertz(period(Id, Period)) )),
    forall(member([Head, Body], Pairs),
           ( assertz(complement(Head, Body)),
             assertz(complement(Body, Head)) )),
    forall(( tile(Id, Edges), piece_turn(Id, Turn), rotated(Turn, Edges, [N, E, S, W]) ),
           assertz(oriented(N, W, Id, Turn, E, S))).

%   piece_period(+Turns, +Edges, -Period): how many turns of a piece count
%   as different: 1, 2 or 4 (every: always 4).
piece_period(every, _, 4).
piece_period(distinct, Edges, Period) :-
    (   rotated(1, Edges, Edges)
    ->  Period = 1
    ;   rotated(2, Edges, Edges)
    ->  Period = 2
    ;   Period = 4
    ).

%   piece_turn(+Id, -Turns): the turns of piece Id that count (0 .. Period-1).
piece_turn(Id, Turns) :-
    period(Id, Period),
    Last is Period - 1,
    between(0, Last, Turns).

unload_puzzle :-
    retractall(rule(_)),
    retractall(grid_size(_, _)),
    retractall(tile(_, _)),
    retractall(complement(_, _)),
    retractall(oriented(_, _, _, _, _, _)),
    retractall(period(_, _)).

%!  piece(?Id, ?Edges) is nondet.
%
%   Piece Id of the puzzle of the running with_puzzle/6 shows Edges =
%   [N, E, S, W] at turn 0. Outside with_puzzle/6 there is no puzzle:
%   raises an existence error saying so.

piece(Id, Edges) :-
    puzzle_rule(_),
    tile(Id, Edges).

%   puzzle_rule(-Rule): the rule of the running with_puzzle/6, else an
%   existence error (there is no puzzle between two goals).
puzzle_rule(Rule) :-
    (   rule(Chosen)
    ->  Rule = Chosen
    ;   throw(error(squares_no_puzzle, _))
    ).

:- multifile prolog:error_message//1.

%   The error of a puzzle predicate asked outside with_puzzle/6: one line
%   that says how to choose a puzzle, with a goal that runs as it stands.
prolog:error_message(squares_no_puzzle) -->
    [ 'no squares puzzle is chosen: ask inside with_puzzle(Rule, Rows, Cols, Pieces, Pairs, Goal), ',
      'e.g. with_puzzle(insect, 1, 2, [[1, [a, b, a, b]], [2, [a, b, a, b]]], [[a, b]], piece(1, E))' ].

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
%   An edge Edge may touch an edge Other under the rule of the puzzle of
%   the running with_puzzle/6: its complement (insect) or the same colour,
%   never the frame (eternity). Raises an existence error outside
%   with_puzzle/6.

matches(Edge, Other) :-
    puzzle_rule(Rule),
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
    rule(Rule),
    matches(Rule, Label, Edge).

%   closes(+Kind, +Edge): an East or South edge is on the border (`last`) or inside.
closes(last, Edge) :-
    rule(Rule),
    border_edge(Rule, Edge).
closes(inner, Edge) :-
    rule(Rule),
    inner_edge(Rule, Edge).

%!  solution(+Strategy, -Grid) is nondet.
%
%   Grid is a solution of the puzzle of the running with_puzzle/6, found
%   row by row from the top-left; Strategy is `original` or `indexed` (same
%   solutions, same order). Raises an existence error outside with_puzzle/6.

solution(Strategy, Grid) :-
    puzzle_rule(_),
    grid_size(Rows, Cols),
    findall(Id, tile(Id, _), Unused),
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
    tile(Piece, Edges),
    piece_turn(Piece, Turns),
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
%   Grid is a solution of the puzzle of the running with_puzzle/6.
%   Rotation `all`: every solution, in the original's order.
%   `up_to_rotation`: only the canonical solution of each class under
%   turns of the whole grid. `by_class`: every solution, each canonical one
%   followed by its turns. The last two break the symmetry during the
%   search (see corners_rule/1), so they search about a quarter of the tree.
%   Raises a domain error for another strategy or rotation, an existence
%   error outside with_puzzle/6.

solve(Strategy, Rotation, Grid) :-
    must_be(atom, Strategy),
    must_be(atom, Rotation),
    (   memberchk(Strategy, [original, indexed])
    ->  true
    ;   domain_error(squares_strategy, Strategy)
    ),
    (   memberchk(Rotation, [all, up_to_rotation, by_class])
    ->  true
    ;   domain_error(squares_rotation, Rotation)
    ),
    puzzle_rule(_),
    rotation_solve(Rotation, Strategy, Grid).

rotation_solve(all, Strategy, Grid) :-
    solution(Strategy, Grid).
rotation_solve(up_to_rotation, Strategy, Grid) :-
    corners_rule(Grid),
    solution(Strategy, Grid),
    canonical(Grid).
rotation_solve(by_class, Strategy, Grid) :-
    rotation_solve(up_to_rotation, Strategy, Canonical),
    class_member(Canonical, Grid).

class_member(Grid, Grid).
class_member(Grid, Turned) :-
    grid_turn(Grid, Turned).

%!  corners_rule(-Grid) is det.
%
%   Grid is a skeleton of the puzzle's grid whose corners are
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
    tile(Id, Edges),
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
%   grids are compared as lists of Piece * 4 + Turns, row by row. Inside
%   with_puzzle/6 a turned piece's turns are taken modulo its period.

canonical(Grid) :-
    grid_key(Grid, Key),
    \+ ( grid_turn(Grid, Turned),
         grid_key(Turned, Other),
         Other @< Key ).

grid_turn(Grid, Turned) :-
    puzzle_rotate_grid(Grid, Once),
    puzzle_rotate_grid(Once, Twice),
    puzzle_rotate_grid(Twice, Thrice),
    length(Grid, Rows),
    Grid = [Row|_],
    length(Row, Cols),
    (   Rows =:= Cols
    ->  Turns = [Once, Twice, Thrice]
    ;   Turns = [Twice]
    ),
    sort([Grid|Turns], Distinct),       % a single cell with a symmetric piece repeats
    member(Turned, Distinct),
    Turned \== Grid.

%   puzzle_rotate_grid(+Grid, -Turned): rotate_grid/2, each piece's turns
%   modulo its period inside with_puzzle/6 (4 outside it).
puzzle_rotate_grid(Grid, Turned) :-
    rotate_grid(Grid, Plain),
    maplist(maplist(period_turns), Plain, Turned).

period_turns([Piece, Turns], [Piece, Normal]) :-
    (   period(Piece, Period)
    ->  Normal is Turns mod Period
    ;   Normal = Turns
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
