:- module(squares,
          [ with_puzzle/6,      % +Rule, +Rows, +Cols, +Pieces, +Pairs, :Goal
            with_puzzle/7,      % +Rule, +Rows, +Cols, +Pieces, +Pairs, +Options, :Goal
            piece/2,            % ?Id, ?Edges
            rotated/3,          % +Turns, +Edges, -Turned
            matches/2,          % +Edge, ?Other
            solution/2,         % +Strategy, -Grid
            solve/3,            % +Strategy, +Rotation, -Grid
            mrv_solution/1,     % -Grid
            halves_count/1,     % -Count
            prefix_solution/3,  % +Strategy, +Prefix, -Grid
            rotate_grid/2,      % +Grid, -Turned
            canonical/1,        % +Grid
            squares/6           % +Rule, +Rows, +Cols, +Pieces, +Pairs, -Grid
          ]).

/** <module> Edge-matching squares: the 3x3 insect puzzle and any R x C set

The face of the squares rule base: the puzzle chosen by with_puzzle/6 and
its rules come from squares_puzzle, the fast searches from squares_rows
(row by row over an index, and counts as halves joined) and squares_mrv
(the most constrained cell first); this module holds the original
program's search and asks each question of the search it names.

The search is the original program's: positions row by row from the
top-left, every unused piece in every rotation, kept when it matches the
left and upper neighbours. Strategy `original` tries the pieces literally
(select, rotate, check); strategy `rows` asks a table of the rotations
that fit each kind of cell, keyed by the labels the upper and left
neighbours need (one integer, which SWI-Prolog's first-argument index
answers directly; see indexed_solution/2). Both enumerate the solutions in
the same order. Strategy `mrv` fills the most constrained cell first (see
mrv_solution/1). Under the eternity rule, halves_count/1 counts the grids
as top halves joined to bottom halves, both filled by the indexed row order.

While a trace is open (pysolve_trace), the search solve/3 runs records
itself as it runs (what a question asking `traced(Strategy)` wants): each
placement a node labelled `piece 7 turned 1 at r1c2`, each complete grid a
solution (the `mrv` search: a node fails where an empty cell is left no
candidate). The halves' count records nothing. Each search is written
once (pysolve_traced): the untraced one compiles to the clauses it would
be without a trace, at the same speed.
*/

:- use_module(library(lists), [append/2, append/3, last/2, member/2, select/3]).
:- use_module(library(apply), [maplist/2, maplist/3]).
:- use_module(library(aggregate), [aggregate_all/3]).
:- use_module(library(error), [domain_error/2, must_be/2]).
:- reexport(squares_puzzle, [with_puzzle/6, with_puzzle/7, piece/2, rotated/3, matches/2, canonical/1,
                             rotate_grid/2]).
:- use_module(squares_puzzle, [puzzle_rule/1, grid_size/2, tile/2, piece_turn/2, meets/2, closes/2,
                               grid_turn/2, trace_placement/5]).
:- use_module(pysolve_trace, [trace_active/0, trace_root/1]).
:- use_module(pysolve_traced, [traceable/1]).
:- reexport(squares_mrv, [mrv_solution/1]).
:- use_module(squares_mrv, [mrv_solution/2]).
:- reexport(squares_rows, [halves_count/1]).
:- use_module(squares_rows, [indexed_solution/2]).

:- set_prolog_flag(optimise, true).   % compile the searches' arithmetic inline (file-local)

:- traceable([fill_rows/4, fill_row/7]).

		 /*******************************
		 *     THE ORIGINAL'S SEARCH     *
		 *******************************/

%!  solution(+Strategy, -Grid) is nondet.
%
%   Grid is a solution of the puzzle of the running with_puzzle/6, found
%   row by row from the top-left; Strategy is `original` or `rows` (same
%   solutions, same order). Raises an existence error outside with_puzzle/6.
%
%   ```
%   ?- with_puzzle(insect, 1, 2, [[1, [a, 'R', m, v]], [2, [v, m, a, r]]],
%                  [['R', r], ['M', m], ['A', a], ['V', v]], solution(original, Grid)).
%   Grid = [[[1, 0], [2, 0]]].
%   ```
%
%   @error error(squares_no_puzzle, _) outside with_puzzle/6 (squares_puzzle).
%   @error none else: another Strategy fails.

solution(rows, Grid) :-
    puzzle_rule(_),
    indexed_solution(all, Grid).
solution(original, Grid) :-
    puzzle_rule(_),
    grid_size(Rows, Cols),
    findall(Id, tile(Id, _), Unused),
    length(Top, Cols),
    maplist(=(border), Top),
    trace_search(( trace_active, trace_root(Root) ), Root,
                 fill_rows(Rows, Top, Unused, Grid)).

% fill_rows(+Rows, +Above, +Unused0, -Grid): Rows rows under the edges
% Above filled with the pieces Unused0. Recorded (pysolve_traced): each
% placement a node (its position: the pieces placed so far), below the
% placement before it, each grid a solution.
fill_rows(0, _, [], []) :-
    trace_solved.
fill_rows(Rows, Above, Unused0, [Cells|Grid]) :-
    Rows > 0,
    (   Rows =:= 1
    ->  Bottom = last
    ;   Bottom = inner
    ),
    fill_row(Above, border, Bottom, Unused0, Unused, Cells, Below),
    Left is Rows - 1,
    fill_rows(Left, Below, Unused, Grid).

fill_row([], _, _, Unused, Unused, [], []).
fill_row([Up|Ups], Left, Bottom, Unused0, Unused,
         [[Piece, Turns]|Cells], [edge(S)|Below]) :-
    (   Ups == []
    ->  Right = last
    ;   Right = inner
    ),
    candidate(Up, Left, Unused0, Unused1, Piece, Turns, [_, E, S, _]),
    closes(Right, E),
    closes(Bottom, S),
    trace_node(placed_after(Unused0, Piece, Turns)),
    fill_row(Ups, edge(E), Bottom, Unused1, Unused, Cells, Below).

% placed_after(+Unused0, +Piece, +Turns, +Node, -Child): Child, below Node,
% is Piece turned Turns times on the next position, the pieces of Unused0
% not yet placed.
placed_after(Unused0, Piece, Turns, Node, Child) :-
    grid_size(Rows, Cols),
    length(Unused0, Free),
    Pos is Rows * Cols - Free,
    trace_placement(Pos, Piece, Turns, Node, Child).

%   candidate(+Up, +Left, +Unused0, -Unused, -Piece, -Turns, -Edges): an
%   unused piece in a rotation that meets the upper and left neighbours.
candidate(Up, Left, Unused0, Unused, Piece, Turns, [N, E, S, W]) :-
    select(Piece, Unused0, Unused),
    tile(Piece, Edges),
    piece_turn(Piece, Turns),
    rotated(Turns, Edges, [N, E, S, W]),
    meets(Up, N),
    meets(Left, W).

		 /*******************************
		 *           QUESTIONS           *
		 *******************************/

%!  solve(+Strategy, +Rotation, -Grid) is nondet.
%
%   Grid is a solution of the puzzle of the running with_puzzle/6.
%   Strategy `original` or `rows` searches row by row (see
%   solution/2); `mrv` fills the most constrained cell first (see
%   mrv_solution/1) and gives the same solutions in another order.
%   Rotation `all`: every solution, in the original's order (`mrv`: by class).
%   `up_to_rotation`: only the canonical solution of each class under
%   turns of the whole grid. `by_class`: every solution, each canonical one
%   followed by its turns. The last two break the symmetry during the
%   search (see corners_rule/1), so they search about a quarter of the tree.
%   Strategy traced(S) runs S, recorded while a trace is open (pysolve_trace). Raises a domain
%   error for another strategy or rotation, an existence error outside
%   with_puzzle/6.
%
%   ```
%   ?- with_puzzle(insect, 1, 2, [[1, [a, 'R', m, v]], [2, [v, m, a, r]]],
%                  [['R', r], ['M', m], ['A', a], ['V', v]], findall(G, solve(rows, all, G), Grids)).
%   Grids = [[[[1, 0], [2, 0]]], [[[2, 2], [1, 2]]]].
%   ```
%
%   @error type_error(callable, Strategy), type_error(atom, Rotation) for arguments of another type.
%   @error domain_error(squares_strategy, Strategy), domain_error(squares_rotation, Rotation) for
%       another strategy or rotation.

solve(Strategy, Rotation, Grid) :-
    must_be(callable, Strategy),
    must_be(atom, Rotation),
    (   Strategy = traced(Search)
    ->  true
    ;   Search = Strategy
    ),
    (   memberchk(Search, [original, rows, mrv])
    ->  true
    ;   domain_error(squares_strategy, Strategy)
    ),
    (   memberchk(Rotation, [all, up_to_rotation, by_class])
    ->  true
    ;   domain_error(squares_rotation, Rotation)
    ),
    puzzle_rule(_),
    rotation_solve(Rotation, Search, Grid).

rotation_solve(all, mrv, Grid) :-
    rotation_solve(by_class, mrv, Grid).
rotation_solve(all, Strategy, Grid) :-
    Strategy \== mrv,
    solution(Strategy, Grid).
rotation_solve(up_to_rotation, mrv, Grid) :-
    mrv_solution(Grid),
    canonical(Grid).
rotation_solve(up_to_rotation, rows, Grid) :-
    indexed_solution(canonical, Grid),
    canonical(Grid).
rotation_solve(up_to_rotation, original, Grid) :-
    corners_rule(Grid),
    solution(original, Grid),
    canonical(Grid).
rotation_solve(by_class, Strategy, Grid) :-
    rotation_solve(up_to_rotation, Strategy, Canonical),
    class_member(Canonical, Grid).

class_member(Grid, Grid).
class_member(Grid, Turned) :-
    grid_turn(Grid, Turned).

%!  prefix_solution(+Strategy, +Prefix, -Grid) is nondet.
%
%   Grid is a canonical solution (see solve/3, `up_to_rotation`) of the
%   puzzle of the running with_puzzle/6 whose first cells, row by row from
%   the top-left, are Prefix (a list of [Piece, Turns], or a variable for a
%   free cell): one part of a count split into parts. Strategy `rows`
%   searches row by row from the end of Prefix, `mrv` places Prefix and then
%   fills the most constrained cell first. Raises a domain error for another
%   strategy.
%
%   ```
%   ?- with_puzzle(insect, 1, 2, [[1, [a, 'R', m, v]], [2, [v, m, a, r]]],
%                  [['R', r], ['M', m], ['A', a], ['V', v]],
%                  findall(G, prefix_solution(rows, [[1, 0]], G), Grids)).
%   Grids = [[[[1, 0], [2, 0]]]].
%   ```
%
%   @error type_error(list, Prefix) unless Prefix is a list.
%   @error domain_error(squares_prefix_strategy, Strategy) for a strategy other than rows or mrv.

prefix_solution(Strategy, Prefix, Grid) :-
    must_be(list, Prefix),
    puzzle_rule(_),
    (   Strategy == rows
    ->  grid_size(Rows, Cols),
        length(Grid, Rows),
        maplist(cell_row(Cols), Grid),
        append(Grid, Cells),
        append(Prefix, _, Cells),
        rotation_solve(up_to_rotation, rows, Grid)
    ;   Strategy == mrv
    ->  mrv_solution(Prefix, Grid),
        canonical(Grid)
    ;   domain_error(squares_prefix_strategy, Strategy)
    ).

		 /*******************************
		 *      ONE GRID PER CLASS       *
		 *******************************/

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
%
%   ```
%   ?- with_puzzle(insect, 1, 2, [[1, [a, 'R', m, v]], [2, [v, m, a, r]]],
%                  [['R', r], ['M', m], ['A', a], ['V', v]],
%                  findall(G, ( squares:corners_rule(G), solution(original, G) ), Grids)).
%   Grids = [[[[1, 0], [2, 0]]]].
%   ```
%
%   @error error(squares_no_puzzle, _) outside with_puzzle/6 (squares_puzzle).

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

%!  squares(+Rule, +Rows, +Cols, +Pieces, +Pairs, -Grid) is nondet.
%
%   The rules interface (docs/squares.md, "Check your own rules"): Grid
%   is a solution of the puzzle with_puzzle/6 takes (Pieces a list of
%   `[Id, [N, E, S, W]]`, Pairs of `[Head, Body]`), every solution once on
%   backtracking: Rows rows of Cols cells `[Piece, Turns]`, every piece
%   in each of its four turns (a piece that looks the same turned still
%   lies four ways). Here the row-order search answers it; `pysolve check
%   squares FILE.pl` asks a rule base of one's own the same.
%
%   ```
%   ?- squares(insect, 1, 2, [[1, [a, 'R', m, v]], [2, [v, m, a, r]]],
%              [['R', r], ['M', m], ['A', a], ['V', v]], Grid).
%   Grid = [[[1, 0], [2, 0]]].
%   ```
%
%   @error as with_puzzle/6 for the puzzle's arguments.

squares(Rule, Rows, Cols, Pieces, Pairs, Grid) :-
    with_puzzle(Rule, Rows, Cols, Pieces, Pairs, [turns(every)], solve(rows, all, Grid)).
