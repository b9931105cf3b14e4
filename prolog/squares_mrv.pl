:- module(squares_mrv,
          [ mrv_solution/1,     % -Grid
            mrv_solution/2      % +Prefix, -Grid
          ]).

/** <module> Edge-matching squares: the most constrained cell first

The search of mrv_solution/1 over bit sets of (piece, turns), on the puzzle
of the running with_puzzle/6 (squares_puzzle). Its tables are thread-local
facts made on first use and kept with the puzzle's facts: dropped when
another puzzle replaces it (the hook squares_puzzle:drop_tables/0).
*/

:- use_module(library(lists), [append/3, member/2, nth0/3, nth1/3, sum_list/2]).
:- use_module(library(pairs), [group_pairs_by_key/2]).
:- use_module(library(apply), [foldl/4, maplist/2, maplist/3]).
:- use_module(library(solution_sequences), [distinct/2]).
:- use_module(library(aggregate), [aggregate_all/3]).
:- use_module(squares_puzzle, [puzzle_rule/1, rule/1, grid_size/2, tile/2, piece_turn/2, rotated/3,
                               rival_positions/3, cell_kind/4, kind_fits/3, label_code/3, partner_code/5,
                               puzzle_labels/2, trace_placement/5]).
:- use_module(pysolve_trace, [trace_active/0, trace_root/1]).
:- use_module(pysolve_traced, [traceable/1]).

:- set_prolog_flag(optimise, true).   % compile the search's arithmetic inline (file-local)

:- traceable([mrv_fill/7]).

:- thread_local mrv_ready/0, mrv_fitting/2, mrv_entry/5, mrv_start/2, mrv_around/3, mrv_root/1.

squares_puzzle:drop_tables :-
    unload_mrv_index.

		 /*******************************
		 *          THE SEARCH           *
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
%
%   ```
%   ?- with_puzzle(insect, 1, 2, [[1, [a, 'R', m, v]], [2, [v, m, a, r]]],
%                  [['R', r], ['M', m], ['A', a], ['V', v]], squares_mrv:mrv_solution(Grid)).
%   Grid = [[[1, 0], [2, 0]]].
%   ```
%
%   @error error(squares_no_puzzle, _) outside with_puzzle/6 (squares_puzzle).

mrv_solution(Grid) :-
    mrv_solution([], Grid).

%!  mrv_solution(+Prefix, -Grid) is nondet.
%
%   As mrv_solution/1, the first cells of
%   Grid (row-major, [Piece, Turns] each, a variable for a free cell) placed
%   as Prefix before the search.
%
%   ```
%   ?- with_puzzle(insect, 1, 2, [[1, [a, 'R', m, v]], [2, [v, m, a, r]]],
%                  [['R', r], ['M', m], ['A', a], ['V', v]],
%                  squares_mrv:mrv_solution([_, [2, 0]], Grid)).
%   Grid = [[[1, 0], [2, 0]]].
%   ```
%
%   @error error(squares_no_puzzle, _) outside with_puzzle/6 (squares_puzzle).
%   @error type_error(list, Prefix) unless Prefix is a list.
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
    rival_positions(Rows, Cols, Rivals),
    Empty is (1 << Size) - 1,
    State = mrv(Keys, Cells, Allowed, Rivals),
    mrv_begin(Prefix, 0, State, Empty-0-Unused, Empty1-Frontier1-Unused1),
    trace_search(( trace_active, trace_root(Root) ), Root,
                 mrv_fill(Empty1, Frontier1, Unused1, Keys, Cells, Allowed, Rivals)),
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
%   mrv_fill(+Empty, +Frontier, +Unused, +Keys, +Cells, +Allowed, +Rivals):
%   the empty cells filled, the one with the fewest candidates on the
%   frontier first; with nothing placed yet (no frontier), the root piece
%   (mrv_root/1) on each cell it fits. Recorded (pysolve_traced): each
%   placement a node, a dead end where a frontier cell is left no
%   candidate, each grid a solution.
mrv_fill(Empty, Frontier, Unused, Keys, Cells, Allowed, Rivals) :-
    (   Empty =:= 0
    ->  trace_solved
    ;   Frontier =:= 0
    ->  mrv_root(Root),
        Last is msb(Empty),
        between(0, Last, Pos),
        mrv_place(Pos, Root-Turns, mrv(Keys, Cells, Allowed, Rivals), Empty-Frontier-Unused, Empty1-Frontier1-Unused1),
        trace_node(trace_placement(Pos, Root, Turns)),
        mrv_fill(Empty1, Frontier1, Unused1, Keys, Cells, Allowed, Rivals)
    ;   First is lsb(Frontier),
        trace_checked(( cell_count(First, Unused, Keys, Allowed, Count),
                        Rest is Frontier /\ (Frontier - 1),
                        best_cell(Rest, Unused, Keys, Allowed, First, Count, Best) )),
        mrv_place(Best, Cell, mrv(Keys, Cells, Allowed, Rivals), Empty-Frontier-Unused, Empty1-Frontier1-Unused1),
        trace_node(cell_placement(Best, Cell)),
        mrv_fill(Empty1, Frontier1, Unused1, Keys, Cells, Allowed, Rivals)
    ).

%   cell_placement(+Pos, +Piece-Turns, +Node, -Child): trace_placement/5 of
%   the cell mrv_place/5 placed.
cell_placement(Pos, Piece-Turns, Node, Child) :-
    trace_placement(Pos, Piece, Turns, Node, Child).

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

		 /*******************************
		 *          ITS TABLES           *
		 *******************************/

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

unload_mrv_index :-
    retractall(mrv_ready),
    retractall(mrv_fitting(_, _)),
    retractall(mrv_entry(_, _, _, _, _)),
    retractall(mrv_start(_, _)),
    retractall(mrv_around(_, _, _)),
    retractall(mrv_root(_)).
