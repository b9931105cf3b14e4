:- module(squares_rows,
          [ indexed_solution/2, % +Which, -Grid
            halves_count/1      % -Count
          ]).

/** <module> Edge-matching squares: row by row over an index, and counts as halves joined

The original's row order made cheap (indexed_solution/2) and the count of
halves_count/1 that joins top halves to bottom halves filled in that order,
on the puzzle of the running with_puzzle/6 (squares_puzzle). Their tables
are thread-local facts made on first use and kept with the puzzle's facts:
dropped when another puzzle replaces it (the hook
squares_puzzle:drop_tables/0).
*/

:- use_module(library(lists), [append/3, member/2, nth0/3, nth1/3]).
:- use_module(library(apply), [foldl/4, maplist/2, maplist/3]).
:- use_module(library(aggregate), [aggregate_all/3]).
:- use_module(library(error), [domain_error/2, must_be/2, resource_error/1]).
:- use_module(squares_puzzle, [puzzle_rule/1, rule/1, grid_size/2, tile/2, piece_turn/2, rotated/3,
                               rival_positions/3, cell_kind/4, kind_fits/3, label_code/3, partner_code/5,
                               puzzle_labels/2, trace_placement/5]).
:- use_module(pysolve_trace, [trace_active/0, trace_root/1]).
:- use_module(pysolve_traced, [traceable/1]).

:- set_prolog_flag(optimise, true).   % compile the searches' arithmetic inline (file-local)

:- traceable([fill_indexed/7, indexed_row/8]).

:- thread_local row_ready/0, row_entry/6, row_first/1, row_kinds/1, row_top_left/1.

squares_puzzle:drop_tables :-
    unload_row_index.

		 /*******************************
		 *      ROW BY ROW, INDEXED      *
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
%
%   ```
%   ?- with_puzzle(insect, 1, 2, [[1, [a, 'R', m, v]], [2, [v, m, a, r]]],
%                  [['R', r], ['M', m], ['A', a], ['V', v]], squares_rows:indexed_solution(all, Grid)).
%   Grid = [[[1, 0], [2, 0]]].
%   ```
%
%   @error type_error(oneof([all, canonical]), Which) for another Which.
%   @error error(squares_no_puzzle, _) outside with_puzzle/6 (squares_puzzle).

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
    trace_search(( trace_active, trace_root(Root) ), Root,
                 fill_indexed(Rows, Above, Free, 0-_, _, Grid, _)).

unguarded(Base-_, Base-none).

%   fill_indexed(+Rows, +Above, +Free, +Used0-Used, ?TopLeft, -Grid, -Below):
%   the rows of Rows (their cells' kinds) filled in the original's order
%   under the North needs Above, the pieces of the bit set Used0 left out
%   (Used: with the placed ones); Below is what the last row needs of the
%   row under it. Recorded (pysolve_traced): each placement a node (its
%   position: the pieces placed so far), each grid a solution.
fill_indexed([], Above, _, Used-Used, _, [], Above) :-
    trace_solved.
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
    trace_node(placement_after(Used0, Piece, Turns)),
    indexed_row(Kinds, Ups, East, Used1, Used, TopLeft, Cells, Below).

% placement_after(+Used0, +Piece, +Turns, +Node, -Child): trace_placement/5
% of Piece turned Turns times on the position after the pieces of Used0.
placement_after(Used0, Piece, Turns, Node, Child) :-
    Pos is popcount(Used0),
    trace_placement(Pos, Piece, Turns, Node, Child).

%   corner_check(+Corner, +Piece, ?TopLeft): in a canonical grid the top-left
%   piece (`top_left`) leaves enough larger pieces for the rival corners
%   (row_top_left(Piece), made by row_index) and a `rival` corner takes a
%   larger piece; `none` is any other cell (every cell for `all`).
corner_check(none, _, _).
corner_check(top_left, Piece, Piece) :-
    row_top_left(Piece).
corner_check(rival, Piece, TopLeft) :-
    Piece > TopLeft.

		 /*******************************
		 *         HALVES JOINED         *
		 *******************************/

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
%
%   ```
%   ?- with_puzzle(eternity, 2, 2,
%                  [[1, [0, 1, 2, 0]], [2, [0, 0, 3, 1]], [3, [2, 4, 0, 0]], [4, [3, 0, 0, 4]]], [],
%                  halves_count(Count)).
%   Count = 1.
%   ```
%
%   @error error(squares_no_puzzle, _) outside with_puzzle/6 (squares_puzzle).
%   @error domain_error(eternity_rule_on_two_rows, Rule-Rows) for a grid the halves cannot split.

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
    rival_positions(Rows, Cols, Rivals),
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
    rival_positions(Rows, Cols, Rivals),
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

unload_row_index :-
    retractall(row_ready),
    retractall(row_entry(_, _, _, _, _, _)),
    retractall(row_first(_)),
    retractall(row_kinds(_)),
    retractall(row_top_left(_)).
