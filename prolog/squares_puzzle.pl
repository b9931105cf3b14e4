:- module(squares_puzzle,
          [ with_puzzle/6,      % +Rule, +Rows, +Cols, +Pieces, +Pairs, :Goal
            with_puzzle/7,      % +Rule, +Rows, +Cols, +Pieces, +Pairs, +Options, :Goal
            piece/2,            % ?Id, ?Edges
            rotated/3,          % +Turns, +Edges, -Turned
            matches/2,          % +Edge, ?Other
            canonical/1,        % +Grid
            rotate_grid/2,      % +Grid, -Turned
            grid_turn/2,        % +Grid, -Turned
            % for the searches of squares, squares_rows and squares_mrv:
            puzzle_rule/1,      % -Rule
            rule/1,             % ?Rule
            grid_size/2,        % ?Rows, ?Cols
            tile/2,             % ?Id, ?Edges
            complement/2,       % ?Label, ?Other
            piece_turn/2,       % +Id, -Turns
            meets/2,            % +Neighbour, ?Edge
            closes/2,           % +Kind, +Edge
            rival_positions/3,  % +Rows, +Cols, -Positions
            cell_kind/4,        % +Pos, +Rows, +Cols, -Kind
            kind_fits/3,        % +Rule, +Kind, +Edges
            label_code/3,       % +Labels, +Label, -Code
            partner_code/5,     % +Rule, +Labels, +Free, +Edge, -Code
            puzzle_labels/2,    % -Labels, -Free
            trace_placement/5   % +Pos, +Piece, +Turns, +Node, -Child
          ]).

/** <module> Edge-matching squares: the running puzzle, its pieces, rules and symmetries

A puzzle is chosen for one goal by with_puzzle/6, which keeps its pieces as
thread-local facts while the goal runs: there is no puzzle between two
goals, and two threads never see each other's. The facts stay loaded
(unseen) for the next with_puzzle/6 on the same puzzle (the same variant
hash), as each part of a split count asks, until another puzzle replaces
them; the searches' tables made from them (squares_rows, squares_mrv) are
kept and dropped with them, through the hook drop_tables/0. A piece is
piece(Id, [N, E, S, W]). A quarter turn clockwise moves the edges
(N, E, S, W) to (W, N, E, S). A grid is a list of rows, each a list of
cells [Piece, Turns].

Two rules: `insect` (touching edges are complementary labels, a head and
its body, given as complement/2 facts; the border is free) and `eternity`
(touching edges carry the same colour; colour 0 is the frame and lies
exactly on the border).

Counting convention: a piece whose edges repeat under a half turn (N = S and
E = W) or a quarter turn lies in only 2 (or 1) distinct ways, and only those
turns are tried (turns 0..Period-1), so each distinct board is found once.
with_puzzle/7 with the option turns(every) tries all four turns of every
piece instead (the count of the older versions).

The last exports are the searches' shared vocabulary: the current puzzle's
facts, how an edge meets a neighbour or closes a row, the integer codes
of labels and kinds of cell that the indexed searches' tables are keyed by,
and how a search that records itself says a placement (pysolve_trace).
*/

:- use_module(library(lists), [append/2, member/2, nth0/3, reverse/2]).
:- use_module(library(apply), [maplist/2, maplist/3, maplist/4]).
:- use_module(library(error), [domain_error/2, must_be/2, permission_error/3]).
:- use_module(pysolve_trace, [trace_enter/4]).

:- meta_predicate with_puzzle(+, +, +, +, +, 0), with_puzzle(+, +, +, +, +, +, 0).

:- thread_local running/0, loaded/1, tile/2, complement/2, rule/1, grid_size/2, period/2.

%!  rule(?Rule) is semidet.
%!  grid_size(?Rows, ?Cols) is semidet.
%!  tile(?Id, ?Edges) is nondet.
%!  complement(?Label, ?Other) is nondet.
%
%   The facts of the loaded puzzle (thread-local): its rule, its size, its
%   pieces at turn 0 and its complementary labels (both ways). The searches
%   read them only inside with_puzzle/6, once puzzle_rule/1 has said that a
%   puzzle is running.
%
%   ```
%   ?- with_puzzle(insect, 1, 2, [[1, [a, 'R', m, v]], [2, [v, m, a, r]]],
%                  [['R', r], ['M', m], ['A', a], ['V', v]],
%                  ( squares_puzzle:rule(Rule), squares_puzzle:grid_size(Rows, Cols) )).
%   Rule = insect,
%   Rows = 1,
%   Cols = 2.
%   ```
%
%   @error none: outside with_puzzle/6 they simply fail.

%!  drop_tables is nondet.
%
%   Hook: each search module that keeps tables made from the puzzle's facts
%   adds a clause that retracts them; run when another puzzle replaces the
%   loaded one.
%
%   ```
%   ?- forall(squares_puzzle:drop_tables, true).
%   true.
%   ```
%
%   @error none: a hook, its clauses retract.

:- multifile drop_tables/0.
:- dynamic drop_tables/0.

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
%
%   ```
%   ?- with_puzzle(insect, 1, 2, [[1, [a, 'R', m, v]], [2, [v, m, a, r]]],
%                  [['R', r], ['M', m], ['A', a], ['V', v]],
%                  aggregate_all(count, solve(original, all, _), Count)).
%   Count = 2.
%   ```
%
%   @error domain_error(squares_rule, Rule) for another rule; type_error(positive_integer, Rows) (or
%       Cols) for a size that is no positive integer.
%   @error type_error(list, Pieces) (or Pairs) unless a list; permission_error(nest, with_puzzle,
%       Rule) inside another with_puzzle/6.

with_puzzle(Rule, Rows, Cols, Pieces, Pairs, Goal) :-
    with_puzzle(Rule, Rows, Cols, Pieces, Pairs, [], Goal).

%!  with_puzzle(+Rule, +Rows, +Cols, +Pieces, +Pairs, +Options, :Goal) is nondet.
%
%   As with_puzzle/6, with Options: turns(distinct) (the default: a
%   piece that looks the same turned is tried once per distinct look) or
%   turns(every) (every piece in all four turns). Raises a domain error
%   for another option.
%
%   ```
%   ?- with_puzzle(insect, 1, 2, [[1, [a, 'R', m, v]], [2, [v, m, a, r]]],
%                  [['R', r], ['M', m], ['A', a], ['V', v]], [turns(every)],
%                  aggregate_all(count, solve(original, all, _), Count)).
%   Count = 2.
%   ```
%
%   @error domain_error(squares_option, Option) for another option; type_error(list, Options) unless
%       a list.
%   @error as with_puzzle/6 for the other arguments.

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

%!  piece_turn(+Id, -Turns) is nondet.
%
%   The turns of piece Id that count (0 .. Period-1).
%
%   ```
%   ?- with_puzzle(insect, 1, 2, [[1, [a, 'R', m, v]], [2, [v, m, a, r]]],
%                  [['R', r], ['M', m], ['A', a], ['V', v]],
%                  findall(T, squares_puzzle:piece_turn(1, T), Turns)).
%   Turns = [0, 1, 2, 3].
%   ```
%
%   @error none: an unknown Id fails.
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
    forall(drop_tables, true).

%!  piece(?Id, ?Edges) is nondet.
%
%   Piece Id of the puzzle of the running with_puzzle/6 shows Edges =
%   [N, E, S, W] at turn 0. Outside with_puzzle/6 there is no puzzle:
%   raises an existence error saying so.
%
%   ```
%   ?- with_puzzle(insect, 1, 2, [[1, [a, 'R', m, v]], [2, [v, m, a, r]]],
%                  [['R', r], ['M', m], ['A', a], ['V', v]], findall(Id-E, piece(Id, E), Pieces)).
%   Pieces = [1-[a, 'R', m, v], 2-[v, m, a, r]].
%   ```
%
%   @error error(squares_no_puzzle, _) outside with_puzzle/6.

piece(Id, Edges) :-
    puzzle_rule(_),
    tile(Id, Edges).

%!  puzzle_rule(-Rule) is det.
%
%   The rule of the running with_puzzle/6, else an
%   existence error (there is no puzzle between two goals).
%
%   ```
%   ?- with_puzzle(insect, 1, 2, [[1, [a, 'R', m, v]], [2, [v, m, a, r]]],
%                  [['R', r], ['M', m], ['A', a], ['V', v]], squares_puzzle:puzzle_rule(Rule)).
%   Rule = insect.
%   ```
%
%   @error error(squares_no_puzzle, _) outside with_puzzle/6.
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
%
%   ```
%   ?- rotated(1, [n, e, s, w], Turned).
%   Turned = [w, n, e, s].
%   ```
%
%   @error type_error(integer, Turns) unless Turns is an integer (the arithmetic's).

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
%
%   ```
%   ?- with_puzzle(insect, 1, 2, [[1, [a, 'R', m, v]], [2, [v, m, a, r]]],
%                  [['R', r], ['M', m], ['A', a], ['V', v]], findall(O, matches('R', O), Others)).
%   Others = [r].
%   ```
%
%   @error error(squares_no_puzzle, _) outside with_puzzle/6.

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

%!  meets(+Neighbour, ?Edge) is nondet.
%
%   Edge fits against Neighbour, `border` or edge(Label).
%
%   ```
%   ?- with_puzzle(insect, 1, 2, [[1, [a, 'R', m, v]], [2, [v, m, a, r]]],
%                  [['R', r], ['M', m], ['A', a], ['V', v]],
%                  findall(E, squares_puzzle:meets(edge(r), E), Edges)).
%   Edges = ['R'].
%   ```
%
%   @error none: a Neighbour of another form fails.
meets(border, Edge) :-
    rule(Rule),
    border_edge(Rule, Edge).
meets(edge(Label), Edge) :-
    rule(Rule),
    matches(Rule, Label, Edge).

%!  closes(+Kind, +Edge) is semidet.
%
%   An East or South edge is on the border (`last`) or inside.
%
%   ```
%   ?- with_puzzle(insect, 1, 2, [[1, [a, 'R', m, v]], [2, [v, m, a, r]]],
%                  [['R', r], ['M', m], ['A', a], ['V', v]],
%                  ( squares_puzzle:closes(last, x) -> Closes = true ; Closes = false )).
%   Closes = true.
%   ```
%
%   @error none: a Kind of another form fails.
closes(last, Edge) :-
    rule(Rule),
    border_edge(Rule, Edge).
closes(inner, Edge) :-
    rule(Rule),
    inner_edge(Rule, Edge).

		 /*******************************
		 *    SYMMETRIES OF THE GRID     *
		 *******************************/

%!  canonical(+Grid) is semidet.
%
%   No turn of the whole grid that keeps its shape sorts before Grid, when
%   grids are compared as lists of Piece * 4 + Turns, row by row. Inside
%   with_puzzle/6 a turned piece's turns are taken modulo its period.
%
%   ```
%   ?- with_puzzle(insect, 1, 2, [[1, [a, 'R', m, v]], [2, [v, m, a, r]]],
%                  [['R', r], ['M', m], ['A', a], ['V', v]],
%                  ( canonical([[[1, 0], [2, 0]]]) -> Canonical = true ; Canonical = false )).
%   Canonical = true.
%   ```
%
%   @error error(squares_no_puzzle, _) outside with_puzzle/6.

canonical(Grid) :-
    grid_key(Grid, Key),
    \+ ( grid_turn(Grid, Turned),
         grid_key(Turned, Other),
         Other @< Key ).

%!  grid_turn(+Grid, -Turned) is nondet.
%
%   Turned is another grid of Grid's class: a turn of the whole grid that
%   keeps its shape (three for a square grid, the half turn otherwise),
%   each piece's turns modulo its period.
%
%   ```
%   ?- with_puzzle(insect, 1, 2, [[1, [a, 'R', m, v]], [2, [v, m, a, r]]],
%                  [['R', r], ['M', m], ['A', a], ['V', v]],
%                  findall(T, squares_puzzle:grid_turn([[[1, 0], [2, 0]]], T), Turns)).
%   Turns = [[[[2, 2], [1, 2]]]].
%   ```
%
%   @error error(squares_no_puzzle, _) outside with_puzzle/6.

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
%
%   ```
%   ?- with_puzzle(insect, 1, 2, [[1, [a, 'R', m, v]], [2, [v, m, a, r]]],
%                  [['R', r], ['M', m], ['A', a], ['V', v]], rotate_grid([[[1, 0], [2, 0]]], Turned)).
%   Turned = [[[1, 1]], [[2, 1]]].
%   ```
%
%   @error error(squares_no_puzzle, _) outside with_puzzle/6.

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
		 *        CELLS AND CODES        *
		 *******************************/

%   The indexed searches (squares_rows, squares_mrv) key their tables by
%   integer codes: a label's code is its place among the puzzle's labels
%   (puzzle_labels/2), a cell's kind says which of its sides lie on the
%   border.

%!  rival_positions(+Rows, +Cols, -Rivals) is det.
%
%   The positions (0-based) of the corners
%   the turns of the whole grid bring to the top-left (see corners_rule/1).
%
%   ```
%   ?- squares_puzzle:rival_positions(3, 3, Rivals).
%   Rivals = [2, 8, 6].
%   ```
%
%   @error none: sizes that are not integers raise the type error of is/2.
rival_positions(Rows, Cols, Rivals) :-
    Last is Rows * Cols - 1,
    (   Last =:= 0
    ->  Rivals = []
    ;   Rows =:= Cols
    ->  TopRight is Cols - 1,
        BottomLeft is (Rows - 1) * Cols,
        Rivals = [TopRight, Last, BottomLeft]
    ;   Rivals = [Last]
    ).

%!  cell_kind(+Pos, +Rows, +Cols, -Kind) is det.
%
%   Which sides of the cell lie on the
%   border, as a list of four booleans (N, E, S, W).
%
%   ```
%   ?- squares_puzzle:cell_kind(4, 3, 3, Kind).
%   Kind = [false, false, false, false].
%   ```
%
%   @error none: arguments that are not integers raise the type error of is/2.
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

%!  kind_fits(+Rule, +Kind, +Edges) is semidet.
%
%   A piece showing Edges fits a cell of Kind (see cell_kind/4) under Rule:
%   a border edge on each border side, an inner edge on each other side.
%
%   ```
%   ?- ( squares_puzzle:kind_fits(insect, 4, [a, b, c, d]) -> Fits = true ; Fits = false ).
%   Fits = false.
%   ```
%
%   @error none: an unknown Rule or Kind fails.

kind_fits(Rule, Kind, Edges) :-
    maplist(side_fits(Rule), Kind, Edges).

side_fits(Rule, true, Edge) :-
    border_edge(Rule, Edge).
side_fits(Rule, false, Edge) :-
    inner_edge(Rule, Edge).
%!  label_code(+Labels, +Label, -Code) is det.
%
%   Code is the place of Label in Labels (see puzzle_labels/2).
%
%   ```
%   ?- squares_puzzle:label_code([a, b, c], b, Code).
%   Code = 1.
%   ```
%
%   @error none: a Label missing from Labels fails.

label_code(Labels, Label, Code) :-
    once(nth0(Code, Labels, Label)).

%!  partner_code(+Rule, +Labels, +Free, +Edge, -Code) is det.
%
%   The code of the label
%   a neighbour must show against Edge (Free + 1: none can).
%
%   ```
%   ?- squares_puzzle:partner_code(eternity, [a, b, c], 0, b, Code).
%   Code = 1.
%   ```
%
%   @error none: a Label missing from Labels fails.
partner_code(Rule, Labels, Free, Edge, Code) :-
    (   matches(Rule, Edge, Other)
    ->  label_code(Labels, Other, Code)
    ;   Code is Free + 1
    ).

%!  puzzle_labels(-Labels, -Free) is det.
%
%   The labels on the pieces and in the pairs,
%   sorted (a label's code is its place), and their number.
%
%   ```
%   ?- with_puzzle(insect, 1, 2, [[1, [a, 'R', m, v]], [2, [v, m, a, r]]],
%                  [['R', r], ['M', m], ['A', a], ['V', v]],
%                  squares_puzzle:puzzle_labels(Labels, Free)).
%   Labels = ['A', 'M', 'R', 'V', a, m, r, v],
%   Free = 8.
%   ```
%
%   @error error(squares_no_puzzle, _) outside with_puzzle/6.
puzzle_labels(Labels, Free) :-
    findall(Label, ( tile(_, Edges), member(Label, Edges) ), Labels0),
    findall(Label, complement(Label, _), Paired),
    append(Labels0, Paired, Labels1),
    sort(Labels1, Labels),
    length(Labels, Free).

		 /*******************************
		 *        SEARCHES RECORDED      *
		 *******************************/

%!  trace_placement(+Pos, +Piece, +Turns, +Node, -Child) is multi.
%
%   Child, below Node, is Piece turned Turns times on position Pos
%   (row-major from 0), as the trace says it: the label `piece 7 turned 1
%   at r1c2` and the move `{"row": 1, "col": 2, "piece": 7, "turns": 1}`
%   (rows and columns from 1).
%
%   ```
%   ?- with_puzzle(insect, 1, 2, [[1, [a, 'R', m, v]], [2, [v, m, a, r]]],
%                  [['R', r], ['M', m], ['A', a], ['V', v]],
%                  ( trace_root(Root), squares_puzzle:trace_placement(1, 2, 0, Root, Child) )).
%   Root = node(0, 0),
%   Child = node(0, 1).
%   ```
%
%   @error none: with no trace open it only makes the node.

trace_placement(Pos, Piece, Turns, Node, Child) :-
    grid_size(_, Cols),
    R is Pos // Cols + 1,
    C is Pos mod Cols + 1,
    format(atom(Label), "piece ~w turned ~w at r~wc~w", [Piece, Turns, R, C]),
    trace_enter(Label, [row=R, col=C, piece=Piece, turns=Turns], Node, Child).
