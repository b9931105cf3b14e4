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
            canonical/1         % +Grid
          ]).

/** <module> Edge-matching squares: the 3x3 insect puzzle and any R x C set

A puzzle is chosen for one goal by with_puzzle/6, which keeps its pieces as
thread-local facts while the goal runs: there is no puzzle between two
goals, and two threads never see each other's. The facts and the search
tables made from them stay loaded (unseen) for the next with_puzzle/6 on the
same puzzle, as each part of a split count asks, until another puzzle
replaces them. A piece
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
(select, rotate, check); strategy `indexed` asks a table of the rotations
that fit each kind of cell, keyed by the labels the upper and left
neighbours need (one integer, which SWI-Prolog's first-argument index
answers directly; see indexed_solution/2). Both enumerate the solutions in
the same order. Strategy `mrv` fills the most constrained cell first (see
mrv_solution/1). Under the eternity rule, halves_count/1 counts the grids
as top halves joined to bottom halves, both filled by the indexed row order.

Counting convention: a piece whose edges repeat under a half turn (N = S and
E = W) or a quarter turn lies in only 2 (or 1) distinct ways, and only those
turns are tried (turns 0..Period-1), so each distinct board is found once.
with_puzzle/7 with the option turns(every) tries all four turns of every
piece instead (the count of the older versions).
*/

:- use_module(library(lists), [append/2, append/3, last/2, member/2, nth0/3, nth1/3, reverse/2, select/3,
                                sum_list/2]).
:- use_module(library(pairs), [group_pairs_by_key/2]).
:- use_module(library(apply), [foldl/4, maplist/2, maplist/3, maplist/4]).
:- use_module(library(solution_sequences), [distinct/2]).
:- use_module(library(aggregate), [aggregate_all/3]).
:- use_module(library(error), [domain_error/2, must_be/2, permission_error/3, resource_error/1]).

:- set_prolog_flag(optimise, true).   % compile the searches' arithmetic inline (file-local)

:- meta_predicate with_puzzle(+, +, +, +, +, 0), with_puzzle(+, +, +, +, +, +, 0).

:- thread_local running/0, loaded/1, tile/2, complement/2, rule/1, grid_size/2, period/2,
                mrv_ready/0, mrv_fitting/2, mrv_entry/5, mrv_start/2, mrv_around/3, mrv_root/1,
                row_ready/0, row_entry/6, row_first/1, row_kinds/1, row_top_left/1.

%!  with_puzzle(+Rule, +Rows, +Cols, +Pieces, +Pairs, :Goal) is nondet.
%
%   Run Goal on a puzzle: Rule is `insect` or `eternity`, the grid Rows x
%   Cols, Pieces a list of [Id, [N, E, S, W]] (ids positive integers) and
%   Pairs a list of [Head, Body] complementary labels (insect rule). While
%   Goal runs the pieces, the complements (both ways) and the search
%   tables (made on first use) are thread-local facts, which no puzzle
%   predicate answers from once Goal is done, fails, is cut or raises; they
%   stay loaded for the next call on the same puzzle (the tables of a split
%   count's parts are made once) and are replaced by the next puzzle's.
%   Raises a domain error for another rule, a type error for
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
    variant_sha1(puzzle(Rule, Rows, Cols, Pieces, Pairs, Turns), Hash),
    setup_call_cleanup(enter_puzzle(Hash, Rule, Rows, Cols, Pieces, Pairs, Turns), Goal, retractall(running)).

%   enter_puzzle(+Hash, +Rule, +Rows, +Cols, +Pieces, +Pairs, +Turns): the
%   puzzle made the running one, its facts loaded unless they are already
%   (Hash: the puzzle's variant hash). Raises a permission error inside
%   another with_puzzle/6.
enter_puzzle(Hash, Rule, Rows, Cols, Pieces, Pairs, Turns) :-
    (   running
    ->  permission_error(nest, with_puzzle, Rule)
    ;   loaded(Hash)
    ->  true
    ;   unload_puzzle,
        load_puzzle(Rule, Rows, Cols, Pieces, Pairs, Turns),
        assertz(loaded(Hash))
    ),
    assertz(running).

known_option(Option) :-
    (   memberchk(Option, [turns(distinct), turns(every)])
    ->  true
    ;   domain_error(squares_option, Option)
    ).

load_puzzle(Rule, Rows, Cols, Pieces, Pairs, Turns) :-
    assertz(rule(Rule)),
    assertz(grid_size(Rows, Cols)),
    forall(member([Id, Edges], Pieces),
           ( assertz(tile(Id, Edges)),
             piece_period(Turns, Edges, Period),
             assertz(period(Id, Period)) )),
    forall(member([Head, Body], Pairs),
           ( assertz(complement(Head, Body)),
             assertz(complement(Body, Head)) )).

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
    retractall(loaded(_)),
    retractall(rule(_)),
    retractall(grid_size(_, _)),
    retractall(tile(_, _)),
    retractall(complement(_, _)),
    retractall(period(_, _)),
    unload_mrv_index,
    unload_row_index.

unload_mrv_index :-
    retractall(mrv_ready),
    retractall(mrv_fitting(_, _)),
    retractall(mrv_entry(_, _, _, _, _)),
    retractall(mrv_start(_, _)),
    retractall(mrv_around(_, _, _)),
    retractall(mrv_root(_)).

unload_row_index :-
    retractall(row_ready),
    retractall(row_entry(_, _, _, _, _, _)),
    retractall(row_first(_)),
    retractall(row_kinds(_)),
    retractall(row_top_left(_)).

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
    (   running,
        rule(Chosen)
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

solution(indexed, Grid) :-
    puzzle_rule(_),
    indexed_solution(all, Grid).
solution(original, Grid) :-
    puzzle_rule(_),
    grid_size(Rows, Cols),
    findall(Id, tile(Id, _), Unused),
    length(Top, Cols),
    maplist(=(border), Top),
    fill_rows(Rows, Top, Unused, Grid).

fill_rows(0, _, [], []).
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
    fill_row(Ups, edge(E), Bottom, Unused1, Unused, Cells, Below).

%   candidate(+Up, +Left, +Unused0, -Unused, -Piece, -Turns, -Edges): an
%   unused piece in a rotation that meets the upper and left neighbours.
candidate(Up, Left, Unused0, Unused, Piece, Turns, [N, E, S, W]) :-
    select(Piece, Unused0, Unused),
    tile(Piece, Edges),
    piece_turn(Piece, Turns),
    rotated(Turns, Edges, [N, E, S, W]),
    meets(Up, N),
    meets(Left, W).

%!  solve(+Strategy, +Rotation, -Grid) is nondet.
%
%   Grid is a solution of the puzzle of the running with_puzzle/6.
%   Strategy `original` or `indexed` searches row by row (see
%   solution/2); `mrv` fills the most constrained cell first (see
%   mrv_solution/1) and gives the same solutions in another order.
%   Rotation `all`: every solution, in the original's order (`mrv`: by class).
%   `up_to_rotation`: only the canonical solution of each class under
%   turns of the whole grid. `by_class`: every solution, each canonical one
%   followed by its turns. The last two break the symmetry during the
%   search (see corners_rule/1), so they search about a quarter of the tree.
%   Raises a domain error for another strategy or rotation, an existence
%   error outside with_puzzle/6.

solve(Strategy, Rotation, Grid) :-
    must_be(atom, Strategy),
    must_be(atom, Rotation),
    (   memberchk(Strategy, [original, indexed, mrv])
    ->  true
    ;   domain_error(squares_strategy, Strategy)
    ),
    (   memberchk(Rotation, [all, up_to_rotation, by_class])
    ->  true
    ;   domain_error(squares_rotation, Rotation)
    ),
    puzzle_rule(_),
    rotation_solve(Rotation, Strategy, Grid).

rotation_solve(all, mrv, Grid) :-
    rotation_solve(by_class, mrv, Grid).
rotation_solve(all, Strategy, Grid) :-
    Strategy \== mrv,
    solution(Strategy, Grid).
rotation_solve(up_to_rotation, mrv, Grid) :-
    mrv_solution(Grid),
    canonical(Grid).
rotation_solve(up_to_rotation, indexed, Grid) :-
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
%   free cell): one part of a count split into parts. Strategy `indexed`
%   searches row by row from the end of Prefix, `mrv` places Prefix and then
%   fills the most constrained cell first. Raises a domain error for another
%   strategy.

prefix_solution(Strategy, Prefix, Grid) :-
    must_be(list, Prefix),
    puzzle_rule(_),
    (   Strategy == indexed
    ->  grid_size(Rows, Cols),
        length(Grid, Rows),
        maplist(cell_row(Cols), Grid),
        append(Grid, Cells),
        append(Prefix, _, Cells),
        rotation_solve(up_to_rotation, indexed, Grid)
    ;   Strategy == mrv
    ->  mrv_solution(Prefix, Grid),
        canonical(Grid)
    ;   domain_error(squares_prefix_strategy, Strategy)
    ).

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


		 /*******************************
		 *   MOST CONSTRAINED CELL FIRST *
		 *******************************/

%!  mrv_solution(-Grid) is nondet.
%
%   Grid is a canonical solution of the puzzle of the running
%   with_puzzle/6 (see canonical/1 and corners_rule/1): the search fills
%   the empty cell with the fewest fitting (piece, turns) first. Each cell
%   has a key, an integer that codes the label each of its four sides must
%   show (or `free` where no neighbour is placed yet) and which of its
%   sides lie on the border; mrv_fitting(Key, Bits) holds the bit set of
%   the fitting (piece, turns) of every key with any sides known (four bits
%   a piece, one a turn), so a cell's number of candidates is one indexed
%   look-up and a popcount of that set with the unused pieces. Unused
%   pieces, the empty cells and the frontier (empty cells next to a placed
%   one) are bit sets; the keys, cells and the pieces each corner may take
%   (the symmetry breaking of corners_rule/1, as bit masks) are arguments
%   of terms changed by setarg/3, which backtracking undoes. A cell with
%   no candidate ends the branch. Raises an existence error outside
%   with_puzzle/6.

mrv_solution(Grid) :-
    mrv_solution([], Grid).

%   mrv_solution(+Prefix, -Grid): as mrv_solution/1, the first cells of
%   Grid (row-major, [Piece, Turns] each, a variable for a free cell) placed
%   as Prefix before the search.
mrv_solution(Prefix, Grid) :-
    puzzle_rule(_),
    mrv_index,
    grid_size(Rows, Cols),
    Size is Rows * Cols,
    findall(Key, mrv_start(_, Key), StartKeys),
    Keys =.. [keys|StartKeys],
    functor(Cells, cells, Size),
    aggregate_all(count, tile(_, _), Pieces),
    Unused is (1 << (4 * Pieces)) - 1,
    length(AllowedList, Size),
    maplist(=(Unused), AllowedList),
    Allowed =.. [allowed|AllowedList],
    mrv_rivals(Rows, Cols, Rivals),
    Empty is (1 << Size) - 1,
    State = mrv(Keys, Cells, Allowed, Rivals),
    mrv_begin(Prefix, 0, State, Empty-0-Unused, Empty1-Frontier1-Unused1),
    mrv_fill(Empty1, Frontier1, Unused1, Keys, Cells, Allowed, Rivals),
    Cells =.. [_|Placed],
    cells_grid(Placed, Cols, Grid).

%   mrv_begin(+Prefix, +Pos, +State, +Empty0-Frontier0-Unused0, -Empty-Frontier-Unused):
%   the cells of Prefix placed from position Pos on, as the search places them.
mrv_begin([], _, _, Sets, Sets).
mrv_begin([Cell|Prefix], Pos, State, Sets0, Sets) :-
    (   var(Cell)                       % a free cell
    ->  Sets1 = Sets0
    ;   Cell = [Piece, Turns],
        mrv_place(Pos, Piece-Turns, State, Sets0, Sets1)
    ),
    Next is Pos + 1,
    mrv_begin(Prefix, Next, State, Sets1, Sets).

%   mrv_place(+Pos, ?Cell, +State, +Empty0-Frontier0-Unused0, -Empty-Frontier-Unused):
%   Cell (Piece-Turns) placed on cell Pos: one of its fitting unused
%   candidates, on backtracking the next (State: the terms setarg/3 changes).
mrv_place(Pos, Cell, mrv(Keys, Cells, Allowed, Rivals), Empty0-Frontier0-Unused0, Empty-Frontier-Unused) :-
    I is Pos + 1,
    arg(I, Keys, Key),
    arg(I, Allowed, May),
    Mask is Unused0 /\ May,
    mrv_entry(Key, Bit, PieceBits, Cell, Adds),
    Bit /\ Mask =\= 0,
    setarg(I, Cells, Cell),
    mrv_around(Pos, Around, Neighbours),
    add_keys(Around, Adds, Keys),
    guard_corners(Pos, PieceBits, Allowed, Rivals),
    Unused is Unused0 xor PieceBits,
    Empty is Empty0 /\ \ (1 << Pos),
    Frontier is (Frontier0 \/ Neighbours) /\ Empty.

cells_grid([], _, []).
cells_grid(Cells, Cols, [Row|Rows]) :-
    length(Prefix, Cols),
    append(Prefix, Rest, Cells),
    maplist(cell_pair, Prefix, Row),
    cells_grid(Rest, Cols, Rows).

cell_pair(Piece-Turns, [Piece, Turns]).

%   mrv_rivals(+Rows, +Cols, -Rivals): the positions (0-based) of the corners
%   the turns of the whole grid bring to the top-left (see corners_rule/1).
mrv_rivals(Rows, Cols, Rivals) :-
    Last is Rows * Cols - 1,
    (   Last =:= 0
    ->  Rivals = []
    ;   Rows =:= Cols
    ->  TopRight is Cols - 1,
        BottomLeft is (Rows - 1) * Cols,
        Rivals = [TopRight, Last, BottomLeft]
    ;   Rivals = [Last]
    ).

%   mrv_fill(+Empty, +Frontier, +Unused, +Keys, +Cells, +Allowed, +Rivals):
%   the empty cells filled, the one with the fewest candidates on the
%   frontier first; with nothing placed yet (no frontier), the root piece
%   (mrv_root/1) on each cell it fits.
mrv_fill(Empty, Frontier, Unused, Keys, Cells, Allowed, Rivals) :-
    (   Empty =:= 0
    ->  true
    ;   Frontier =:= 0
    ->  mrv_root(Root),
        Last is msb(Empty),
        between(0, Last, Pos),
        mrv_place(Pos, Root-_, mrv(Keys, Cells, Allowed, Rivals), Empty-Frontier-Unused, Empty1-Frontier1-Unused1),
        mrv_fill(Empty1, Frontier1, Unused1, Keys, Cells, Allowed, Rivals)
    ;   First is lsb(Frontier),
        cell_count(First, Unused, Keys, Allowed, Count),
        Rest is Frontier /\ (Frontier - 1),
        best_cell(Rest, Unused, Keys, Allowed, First, Count, Best),
        mrv_place(Best, _, mrv(Keys, Cells, Allowed, Rivals), Empty-Frontier-Unused, Empty1-Frontier1-Unused1),
        mrv_fill(Empty1, Frontier1, Unused1, Keys, Cells, Allowed, Rivals)
    ).

%   cell_count(+Pos, +Unused, +Keys, +Allowed, -Count): the candidates of
%   cell Pos, more than 0 (else the branch fails).
cell_count(Pos, Unused, Keys, Allowed, Count) :-
    I is Pos + 1,
    arg(I, Keys, Key),
    mrv_fitting(Key, Bits),
    arg(I, Allowed, May),
    Count is popcount(Bits /\ Unused /\ May),
    Count > 0.

%   best_cell(+Scan, +Unused, +Keys, +Allowed, +Best0, +Count0, -Best): the
%   cell of Scan (a bit set) with the fewest candidates, fails when one has
%   none; stops at a cell with one candidate.
best_cell(Scan, Unused, Keys, Allowed, Best0, Count0, Best) :-
    (   ( Scan =:= 0 ; Count0 =:= 1 )
    ->  Best = Best0
    ;   Pos is lsb(Scan),
        cell_count(Pos, Unused, Keys, Allowed, Count),
        Rest is Scan /\ (Scan - 1),
        (   Count < Count0
        ->  best_cell(Rest, Unused, Keys, Allowed, Pos, Count, Best)
        ;   best_cell(Rest, Unused, Keys, Allowed, Best0, Count0, Best)
        )
    ).

add_keys([], _, _).
add_keys([Other-Side|Around], Adds, Keys) :-
    arg(Side, Adds, Add),
    arg(Other, Keys, Key0),
    Key is Key0 + Add,
    setarg(Other, Keys, Key),
    add_keys(Around, Adds, Keys).

%   guard_corners(+Pos, +PieceBits, +Allowed, +Rivals): placing the top-left
%   corner allows only larger pieces on the rival corners; placing a rival
%   corner first allows only smaller pieces on the top-left.
guard_corners(Pos, PieceBits, Allowed, Rivals) :-
    (   Rivals == []
    ->  true
    ;   Pos =:= 0
    ->  Larger is \ ((PieceBits /\ -PieceBits) << 4 - 1),
        maplist(restrict(Allowed, Larger), Rivals)
    ;   memberchk(Pos, Rivals)
    ->  Smaller is (PieceBits /\ -PieceBits) - 1,
        restrict(Allowed, Smaller, 0)
    ;   true
    ).

restrict(Allowed, Mask, Pos) :-
    I is Pos + 1,
    arg(I, Allowed, May0),
    May is May0 /\ Mask,
    setarg(I, Allowed, May).

%   mrv_index: the tables of the search, made once per puzzle:
%   mrv_entry(Key, Bit, PieceBits, Piece-Turns, adds(N, E, S, W)) for every
%   fitting (piece, turns) of every key (Adds: what placing it adds to the
%   key of the neighbour on each side), mrv_fitting(Key, Bits), the first key
%   of each cell mrv_start(Pos, Key), its neighbours
%   mrv_around(Pos, [Arg-Side, ...], Bits), and mrv_root(Piece).
mrv_index :-
    (   mrv_ready
    ->  true
    ;   unload_mrv_index,                   % what a build cut short by a limit left
        build_mrv_index,
        assertz(mrv_ready)
    ).

build_mrv_index :-
    rule(Rule),
    grid_size(Rows, Cols),
    puzzle_labels(Labels, Free),
    Base is Free + 2,
    findall(Id, tile(Id, _), Ids0),
    sort(Ids0, Ids),
    Last is Rows * Cols - 1,
    findall(Kind, ( between(0, Last, Pos), cell_kind(Pos, Rows, Cols, Kind) ), Kinds0),
    sort(Kinds0, Kinds),
    forall(( nth0(Offset, Kinds, Kind),
             nth0(Index, Ids, Id),
             piece_turn(Id, Turns),
             tile(Id, Edges),
             rotated(Turns, Edges, Turned),
             kind_fits(Rule, Kind, Turned) ),
           assert_entries(Rule, Labels, Base, Offset, Kind, Index, Id, Turns, Turned)),
    forall(distinct(Key, mrv_entry(Key, _, _, _, _)),
           ( aggregate_all(bag(Bit), mrv_entry(Key, Bit, _, _, _), Bits),
             foldl(bit_or, Bits, 0, Fitting),
             assertz(mrv_fitting(Key, Fitting)) )),
    Start is Free * (Base ** 3 + Base ** 2 + Base + 1),
    forall(between(0, Last, Pos),
           ( cell_kind(Pos, Rows, Cols, Kind),
             nth0(Offset, Kinds, Kind),
             Key is Offset * Base ** 4 + Start,
             assertz(mrv_start(Pos, Key)),
             cell_around(Pos, Rows, Cols, Around, Neighbours),
             assertz(mrv_around(Pos, Around, Neighbours)) )),
    length(Ids, Pieces),
    Every is (1 << (4 * Pieces)) - 1,
    root_piece(Every, Root),
    assertz(mrv_root(Root)).

%   root_piece(+Every, -Root): the piece the search places first, on each
%   cell it fits. Each placement of a piece on the empty grid leaves its
%   neighbours some candidates, and the search goes on at the neighbour with
%   the fewest: Root is the piece whose placements leave the fewest of those
%   second placements in all, the smallest id among equals (Every: the bits
%   of every piece), as Python's `root_piece`.
root_piece(Every, Root) :-
    findall(Id-Second,
            ( mrv_start(Pos, Key),
              mrv_entry(Key, _, PieceBits, Id-_, Adds),
              mrv_around(Pos, Around, _),
              Rest is Every xor PieceBits,
              (   aggregate_all(min(Left), ( member(Neighbour, Around), left_count(Adds, Rest, Neighbour, Left) ),
                                Second)
              ->  true
              ;   Second = 0                    % one cell: no neighbour
              ) ),
            Seconds),
    keysort(Seconds, Sorted),
    group_pairs_by_key(Sorted, Grouped),
    findall(Sum-Id, ( member(Id-Counts, Grouped), sum_list(Counts, Sum) ), Sums),
    msort(Sums, [_-Root|_]).

%   left_count(+Adds, +Rest, +Arg-Side, -Count): the candidates (of the
%   pieces in Rest) the neighbour at argument Arg keeps once a piece adding
%   Adds faces it with side Side.
left_count(Adds, Rest, Arg-Side, Count) :-
    Other is Arg - 1,
    mrv_start(Other, Key0),
    arg(Side, Adds, Add),
    Key is Key0 + Add,
    (   mrv_fitting(Key, Bits)
    ->  Count is popcount(Bits /\ Rest)
    ;   Count = 0
    ).

bit_or(Bit, Bits0, Bits) :-
    Bits is Bits0 \/ Bit.

%   cell_kind(+Pos, +Rows, +Cols, -Kind): which sides of the cell lie on the
%   border, as a list of four booleans (N, E, S, W).
cell_kind(Pos, Rows, Cols, [N, E, S, W]) :-
    R is Pos // Cols,
    C is Pos mod Cols,
    truth(R =:= 0, N),
    truth(C =:= Cols - 1, E),
    truth(R =:= Rows - 1, S),
    truth(C =:= 0, W).

truth(Test, Value) :-
    (   call(Test)
    ->  Value = true
    ;   Value = false
    ).

kind_fits(Rule, Kind, Edges) :-
    maplist(side_fits(Rule), Kind, Edges).

side_fits(Rule, true, Edge) :-
    border_edge(Rule, Edge).
side_fits(Rule, false, Edge) :-
    inner_edge(Rule, Edge).

%   cell_around(+Pos, +Rows, +Cols, -Around, -Bits): the neighbours of a
%   cell as Arg-Side (Arg its argument in the keys term, Side 1..4 the side
%   of the placed cell that faces it), and as a bit set of positions.
cell_around(Pos, Rows, Cols, Around, Bits) :-
    R is Pos // Cols,
    C is Pos mod Cols,
    findall(Arg-Side,
            ( nth1(Side, [-1-0, 0-1, 1-0, 0-(-1)], DR-DC),
              R1 is R + DR, C1 is C + DC,
              R1 >= 0, R1 < Rows, C1 >= 0, C1 < Cols,
              Arg is R1 * Cols + C1 + 1 ),
            Around),
    foldl(arg_bit, Around, 0, Bits).

arg_bit(Arg-_, Bits0, Bits) :-
    Bits is Bits0 \/ (1 << (Arg - 1)).

%   assert_entries(...): the entry of one (piece, turns) on one kind of cell
%   under every key that has some of its inner sides known.
assert_entries(Rule, Labels, Base, Offset, Kind, Index, Id, Turns, Edges) :-
    length(Labels, Free),
    Weights = [W0, W1, W2, W3],
    W0 is Base ** 3, W1 is Base ** 2, W2 is Base, W3 = 1,
    maplist(label_code(Labels), Edges, Codes),
    maplist(partner_code(Rule, Labels, Free), Edges, Partners),
    opposite_weights(Weights, Opposite),
    maplist(side_add(Free), Partners, Opposite, AddList),
    Adds =.. [adds|AddList],
    Bit is 1 << (4 * Index + Turns),
    PieceBits is 15 << (4 * Index),
    findall(Key,
            ( between(0, 15, Known),
              known_codes(Kind, Codes, Known, Free, 0, Sides),
              foldl(weighted, Sides, Weights, 0, Sum),
              Key is Offset * Base ** 4 + Sum ),
            Keys0),
    sort(Keys0, Keys),
    forall(member(Key, Keys),
           assertz(mrv_entry(Key, Bit, PieceBits, Id-Turns, Adds))).

label_code(Labels, Label, Code) :-
    once(nth0(Code, Labels, Label)).

%   partner_code(+Rule, +Labels, +Free, +Edge, -Code): the code of the label
%   a neighbour must show against Edge (Free + 1: none can).
partner_code(Rule, Labels, Free, Edge, Code) :-
    (   matches(Rule, Edge, Other)
    ->  label_code(Labels, Other, Code)
    ;   Code is Free + 1
    ).

opposite_weights([WN, WE, WS, WW], [WS, WW, WN, WE]).

side_add(Free, Partner, Weight, Add) :-
    Add is (Partner - Free) * Weight.

known_codes([], [], _, _, _, []).
known_codes([Border|Kind], [Code|Codes], Known, Free, Side, [Value|Values]) :-
    (   Border == false,
        Known >> Side /\ 1 =:= 1
    ->  Value = Code
    ;   Value = Free
    ),
    Next is Side + 1,
    known_codes(Kind, Codes, Known, Free, Next, Values).

weighted(Code, Weight, Sum0, Sum) :-
    Sum is Sum0 + Code * Weight.


		 /*******************************
		 *     ROW BY ROW, INDEXED      *
		 *******************************/

%!  indexed_solution(+Which, -Grid) is nondet.
%
%   Grid is a solution of the puzzle of the running with_puzzle/6, found
%   row by row from the top-left in the original's order. Labels are coded
%   as integers (`Free` for a border side); row_entry(Key, Bit, Piece,
%   Turns, East, South) lists the rotations that fit a kind of cell (which sides
%   lie on the border) under the key Kind, North need, West need, and what
%   they ask of the right and lower neighbours, so no candidate is tried
%   that cannot fit. Used pieces are a bit set. Which is `all` (every
%   solution) or `canonical` (only grids whose top-left piece has a smaller
%   id than the pieces on the rival corners, see corners_rule/1: one grid
%   of each class of turned grids). Raises an existence error outside
%   with_puzzle/6.

indexed_solution(Which, Grid) :-
    must_be(oneof([all, canonical]), Which),
    puzzle_rule(_),
    row_index,
    row_kinds(Rows0),
    (   Which == all
    ->  maplist(maplist(unguarded), Rows0, Rows)
    ;   Rows = Rows0
    ),
    row_first(Free),
    Rows = [Top|_],
    length(Top, Cols),
    length(Above, Cols),
    maplist(=(Free), Above),
    fill_indexed(Rows, Above, Free, 0-_, _, Grid, _).

unguarded(Base-_, Base-none).

%   fill_indexed(+Rows, +Above, +Free, +Used0-Used, ?TopLeft, -Grid, -Below):
%   the rows of Rows (their cells' kinds) filled in the original's order
%   under the North needs Above, the pieces of the bit set Used0 left out
%   (Used: with the placed ones); Below is what the last row needs of the
%   row under it.
fill_indexed([], Above, _, Used-Used, _, [], Above).
fill_indexed([Kinds|Rows], Above, Free, Used0-Used, TopLeft, [Cells|Grid], Below) :-
    indexed_row(Kinds, Above, Free, Used0, Used1, TopLeft, Cells, Middle),
    fill_indexed(Rows, Middle, Free, Used1-Used, TopLeft, Grid, Below).

indexed_row([], [], _, Used, Used, _, [], []).
indexed_row([Base-Corner|Kinds], [Up|Ups], Left, Used0, Used, TopLeft,
            [[Piece, Turns]|Cells], [South|Below]) :-
    Key is Base + Up * 65536 + Left,
    row_entry(Key, Bit, Piece, Turns, East, South),
    Used0 /\ Bit =:= 0,
    corner_check(Corner, Piece, TopLeft),
    Used1 is Used0 \/ Bit,
    indexed_row(Kinds, Ups, East, Used1, Used, TopLeft, Cells, Below).

%   corner_check(+Corner, +Piece, ?TopLeft): in a canonical grid the top-left
%   piece (`top_left`) leaves enough larger pieces for the rival corners
%   (row_top_left(Piece), made by row_index) and a `rival` corner takes a
%   larger piece; `none` is any other cell (every cell for `all`).
corner_check(none, _, _).
corner_check(top_left, Piece, Piece) :-
    row_top_left(Piece).
corner_check(rival, Piece, TopLeft) :-
    Piece > TopLeft.

%!  halves_count(-Count) is det.
%
%   Count is the number of canonical grids (see corners_rule/1) of the
%   puzzle of the running with_puzzle/6, counted as top halves joined to
%   bottom halves, the same count as Python's `halves`. The top half is
%   the first half of the rows (the larger half when they are odd), filled
%   by the row order of indexed_solution/2 with its top-left piece fixed;
%   the bottom half is the rest, filled the same way as the top rows of the
%   grid turned a half turn, without the top-left's piece and with larger
%   pieces only on the rival corners. A half's key is Line-Pieces: the
%   colour codes its last row shows across the middle line as one number
%   (the bottom's read the other way round) and the bit set of the pieces
%   the top half holds (the bottom's: the pieces it lacks). The top halves
%   are counted by key in a trie (SWI-Prolog's hashed tries), each bottom
%   half adds the count of its key; once per piece the top-left may hold.
%   The trie counts against the table space (flag table_space), as
%   tabling's tables do: past it the count raises a resource error. Under
%   the eternity rule a seam's two sides show the same colour, so both
%   halves write the same codes on their middle line: the count needs the
%   eternity rule and two rows or more, and raises a domain error otherwise
%   (an existence error outside with_puzzle/6).

halves_count(Count) :-
    puzzle_rule(Rule),
    grid_size(Rows, Cols),
    (   Rule == eternity,
        Rows >= 2
    ->  true
    ;   domain_error(eternity_rule_on_two_rows, Rule-Rows)
    ),
    row_index,
    row_kinds(Kinds),
    row_first(Free),
    TopRows is (Rows + 1) // 2,
    length(TopKinds, TopRows),
    append(TopKinds, _, Kinds),
    BottomRows is Rows - TopRows,
    mrv_rivals(Rows, Cols, Rivals),
    Last is Rows * Cols - 1,
    findall(Row,
            ( between(1, BottomRows, R),
              nth1(R, Kinds, KindRow),
              findall(Base-Corner,
                      ( nth1(C, KindRow, Base-_),
                        Turned is Last - ((R - 1) * Cols + C - 1),
                        turned_role(Turned, Rivals, Corner) ),
                      Row) ),
            BottomKinds),
    length(Above, Cols),
    maplist(=(Free), Above),
    findall(Id, tile(Id, _), Ids),
    foldl(id_bit, Ids, 0, All),
    Halves = halves(TopKinds, BottomKinds, Above, Free, All),
    aggregate_all(sum(Joined),
                  ( row_top_left(TopLeft),
                    setup_call_cleanup(trie_new(Trie),
                                       joined_halves(Halves, TopLeft, Trie, Joined),
                                       trie_destroy(Trie)) ),
                  Count).

%   turned_role(+Turned, +Rivals, -Corner): the role in the bottom half of a
%   cell that lies on position Turned of the grid: a rival corner or none.
turned_role(Turned, Rivals, Corner) :-
    (   memberchk(Turned, Rivals)
    ->  Corner = rival
    ;   Corner = none
    ).

id_bit(Id, Bits0, Bits) :-
    Bits is Bits0 \/ (1 << Id).

%   joined_halves(+Halves, +TopLeft, +Trie, -Joined): the canonical grids
%   with the top-left piece TopLeft, as pairs of a top and a bottom half
%   with one key; Trie (empty) holds the top halves' counts.
joined_halves(halves(TopKinds, BottomKinds, Above, Free, All), TopLeft, Trie, Joined) :-
    Base is Free + 2,
    current_prolog_flag(table_space, Space),
    Room is Space // 160,               % bytes a key and its count take in the trie (measured: 155)
    Keys = keys(0),
    forall(fill_indexed(TopKinds, Above, Free, 0-Used, TopLeft, _, Below),
           ( line_number_reversed(Below, Base, Line),
             count_half(Trie, Line-Used, Keys, Room) )),
    Left is 1 << TopLeft,
    aggregate_all(sum(Tops),
                  ( fill_indexed(BottomKinds, Above, Free, Left-Used, TopLeft, _, Below),
                    line_number(Below, Base, 0, Line),
                    Wanted is (All xor Used) \/ Left,
                    trie_lookup(Trie, Line-Wanted, Tops) ),
                  Joined).

%   count_half(+Trie, +Key, +Keys, +Room): one more top half of Key in
%   Trie; Keys (keys(N), changed by nb_setarg/3) counts the keys, which
%   may not pass Room (a resource error of the table space).
count_half(Trie, Key, Keys, Room) :-
    (   trie_lookup(Trie, Key, Count0)
    ->  Count is Count0 + 1,
        trie_update(Trie, Key, Count)
    ;   arg(1, Keys, Number0),
        Number is Number0 + 1,
        (   Number > Room
        ->  resource_error(table_space)
        ;   nb_setarg(1, Keys, Number),
            trie_insert(Trie, Key, 1)
        )
    ).

%   line_number(+Codes, +Base, +Number0, -Number): the codes of a middle
%   line as the digits of one number in Base, the first the highest
%   (line_number_reversed/3: the first the lowest, for the top half, whose
%   line the bottom half reads the other way round).
line_number([], _, Number, Number).
line_number([Code|Codes], Base, Number0, Number) :-
    Number1 is Number0 * Base + Code,
    line_number(Codes, Base, Number1, Number).

line_number_reversed([], _, 0).
line_number_reversed([Code|Codes], Base, Number) :-
    line_number_reversed(Codes, Base, Higher),
    Number is Higher * Base + Code.

%   row_index: the tables of indexed_solution/2, made once per puzzle:
%   row_kinds(Rows) (per row, per cell Base-Corner: Base the key part of its
%   kind, Corner `top_left`, `rival` or `none`), row_first(Free) and
%   row_entry/6. Codes and needs stay below 65536 labels.
row_index :-
    (   row_ready
    ->  true
    ;   unload_row_index,                   % what a build cut short by a limit left
        build_row_index,
        assertz(row_ready)
    ).

build_row_index :-
    rule(Rule),
    grid_size(Rows, Cols),
    puzzle_labels(Labels, Free),
    Last is Rows * Cols - 1,
    mrv_rivals(Rows, Cols, Rivals),
    findall(Kind, ( between(0, Last, Pos), cell_kind(Pos, Rows, Cols, Kind) ), Kinds0),
    sort(Kinds0, Kinds),
    forall(( nth0(Number, Kinds, Kind),
             tile(Id, Edges),
             piece_turn(Id, Turns),
             rotated(Turns, Edges, Turned),
             kind_fits(Rule, Kind, Turned) ),
           assert_row_entry(Rule, Labels, Free, Number, Kind, Id, Turns, Turned)),
    findall(Row,
            ( between(1, Rows, R),
              findall(Base-Corner,
                      ( between(1, Cols, C),
                        Pos is (R - 1) * Cols + C - 1,
                        cell_kind(Pos, Rows, Cols, Kind),
                        nth0(Number, Kinds, Kind),
                        Base is Number * 65536 * 65536,
                        corner_role(Pos, Rivals, Corner) ),
                      Row) ),
            KindRows),
    assertz(row_kinds(KindRows)),
    assertz(row_first(Free)),
    forall(top_left_candidate(Rows, Cols, Kinds, Rivals, Piece),
           assertz(row_top_left(Piece))).

corner_role(Pos, Rivals, Corner) :-
    (   Rivals == []
    ->  Corner = none
    ;   Pos =:= 0
    ->  Corner = top_left
    ;   memberchk(Pos, Rivals)
    ->  Corner = rival
    ;   Corner = none
    ).

%   top_left_candidate(...): a piece that fits the top-left corner and leaves
%   at least as many larger pieces fitting the rival corners as there are
%   rival corners.
top_left_candidate(Rows, Cols, Kinds, Rivals, Piece) :-
    length(Rivals, Needed),
    findall(Ids,
            ( member(Pos, Rivals),
              corner_pieces(Pos, Rows, Cols, Kinds, Ids) ),
            RivalIds),
    corner_pieces(0, Rows, Cols, Kinds, Candidates),
    member(Piece, Candidates),
    findall(Id, ( member(Ids, RivalIds), member(Id, Ids), Id > Piece ), Larger0),
    sort(Larger0, Larger),
    length(Larger, Count),
    Count >= Needed.

corner_pieces(Pos, Rows, Cols, Kinds, Ids) :-
    cell_kind(Pos, Rows, Cols, Kind),
    nth0(Number, Kinds, Kind),
    Low is Number * 65536 * 65536,
    findall(Id, ( row_entry(Key, _, Id, _, _, _), Key >= Low, Key < Low + 65536 * 65536 ), Ids0),
    sort(Ids0, Ids).

assert_row_entry(Rule, Labels, Free, Number, [NB, _, _, WB], Id, Turns, [N, E, S, W]) :-
    side_need(NB, Labels, Free, N, NorthNeed),
    side_need(WB, Labels, Free, W, WestNeed),
    partner_code(Rule, Labels, Free, E, East),
    partner_code(Rule, Labels, Free, S, South),
    Key is Number * 65536 * 65536 + NorthNeed * 65536 + WestNeed,
    Bit is 1 << Id,
    assertz(row_entry(Key, Bit, Id, Turns, East, South)).

%   side_need(+Border, +Labels, +Free, +Label, -Code): the code a neighbour
%   must ask of this side (Free on the border).
side_need(true, _, Free, _, Free).
side_need(false, Labels, _, Label, Code) :-
    label_code(Labels, Label, Code).

%   puzzle_labels(-Labels, -Free): the labels on the pieces and in the pairs,
%   sorted (a label's code is its place), and their number.
puzzle_labels(Labels, Free) :-
    findall(Label, ( tile(_, Edges), member(Label, Edges) ), Labels0),
    findall(Label, complement(Label, _), Paired),
    append(Labels0, Paired, Labels1),
    sort(Labels1, Labels),
    length(Labels, Free).
