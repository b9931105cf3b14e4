:- module(sudoku,
          [ box_shape/3,                % ?Size, ?BoxRows, ?BoxColumns
            units/2,                    % +Rows, -Units
            solution/3,                 % +Strategy, +Rows, -Solved
            packed_solutions/4,         % +Strategy, +Rows, +Max, -Packed
            broken_units/2,             % +Rows, -Broken
            sudoku/2                    % +Board, -Solution
          ]).

/** <module> Sudoku: rows, columns and boxes that hold 1..N once, three solvers

A board is a list of N rows of N integers, 0 for an empty cell and 1..N
for a given, N being 4, 6, 9 or 16 (boxes of 2x2, 2x3, 3x3 and 4x4). A
solution fills every empty cell so that each row, column and box holds
each value once.

Three strategies answer solution/3:

  - `fast`: Python's fast search, node for node: each cell's
    candidates as a bit set, narrowed to a fixpoint by naked singles (a
    cell left one value takes it from its peers), hidden singles (a
    value left one place in a unit goes there) and locked candidates
    (where a line crosses a box, a value the line holds only there leaves
    the rest of the box, and one the box holds only there the rest of the
    line) and, on 16x16, naked pairs (two cells of a unit left the same
    two values take them from the unit's other cells), then the cell with the fewest candidates (of those the first
    with the most open peers; on 16x16, before that, with the most peers left two values one of which it
    holds, then with the most open peers holding one of its candidates) takes each of them, smallest first;
  - `clpfd`: one finite-domain variable per cell in 1..N, all_distinct/1
    on every row, column and box, labeling([ff]) (first-fail: the variable
    with the smallest domain next);
  - `plain`: the reference backtracking: cells in reading order, each
    empty one takes a value from 1 up that its row, column and box do not
    hold yet.

`traced(fast)` and `traced(plain)` run the same searches recorded as they
run (pysolve_trace): each value tried is a node labelled `r3c4=7` with the
move `{"row": 3, "col": 4, "value": 7}`; a node fails when propagation
breaks a rule (`fast`) or when the next empty cell has no value left
(`plain`). Each search is written once (pysolve_traced): the untraced one
compiles to the clauses it would be without a trace, at the same speed.
*/

:- use_module(library(clpfd), [(ins)/2, all_distinct/1, labeling/2, transpose/2,
                               op(700, xfx, ins), op(450, xfx, ..)]).
:- use_module(library(lists), [append/2, append/3, member/2, nth0/3, numlist/3, same_length/2]).
:- use_module(library(apply), [foldl/4, maplist/2, maplist/3]).
:- use_module(library(aggregate), [aggregate_all/3]).
:- use_module(library(solution_sequences), [limit/2]).
:- use_module(library(error), [domain_error/2, must_be/2]).
:- use_module(pysolve_bits, [bit_member/2]).
:- use_module(pysolve_trace, [trace_enter/4, trace_root/1]).
:- use_module(pysolve_traced, [traceable/1]).
:- use_module(library(ordsets), [ord_del_element/3, ord_union/2]).

:- set_prolog_flag(optimise, true).   % compile the propagation's arithmetic inline (file-local)

:- traceable([fill/2, propagating_search/4]).

%!  box_shape(?Size, ?BoxRows, ?BoxColumns) is nondet.
%
%   A Size x Size sudoku has boxes of BoxRows rows by BoxColumns columns.
%
%   ```
%   ?- box_shape(9, BoxRows, BoxColumns).
%   BoxRows = 3,
%   BoxColumns = 3.
%   ```
%
%   @error none: a Size with no box shape fails.

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
%
%   ```
%   ?- units([[1,2,3,4],[3,4,1,2],[2,1,4,3],[4,3,2,1]], units(_, _, Boxes)), Boxes = [First|_].
%   Boxes = [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]],
%   First = [1, 2, 3, 4].
%   ```
%
%   @error type_error(list(list), Rows) if Rows is no list of lists.
%   @error domain_error(sudoku_board, Rows) unless Rows is square of side 4, 6, 9 or 16.

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
%   Solved is a solution of the board Rows found by Strategy, `fast`,
%   `clpfd` or `plain` (or `traced(fast)`, `traced(plain)`: recorded);
%   every solution on backtracking. Raises a domain error for
%   another strategy, a board that is not square of side 4, 6, 9 or 16,
%   or a value outside 0..N.
%
%   ```
%   ?- solution(fast, [[1,0,0,0],[0,0,1,0],[0,1,0,0],[0,0,0,1]], Solved).
%   Solved = [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]].
%   ```
%
%   @error domain_error(sudoku_strategy, Strategy) for another strategy.
%   @error type_error(list(list(integer)), Rows) if Rows is no board of integers.
%   @error domain_error(sudoku_board, Rows) or domain_error(sudoku_value, Value) for a board of
%       another shape or a value outside 0..N.

solution(Strategy, Rows, Solved) :-
    must_be(callable, Strategy),
    (   memberchk(Strategy, [fast, clpfd, plain, traced(fast), traced(plain)])
    ->  true
    ;   domain_error(sudoku_strategy, Strategy)
    ),
    must_be(list(list(integer)), Rows),
    board_shape(Rows, Size, _, _),
    maplist(maplist(cell_term(Size)), Rows, Cells),
    units(Cells, Units),
    search(Strategy, Size, Cells, Units),
    Solved = Cells.

%!  sudoku(+Board, -Solution) is nondet.
%
%   The rules interface (docs/sudoku.md, "Check your own rules"): Solution
%   is a solution of Board, every solution once on backtracking, both N
%   rows of N integers (0 empty). Here the `fast` strategy answers
%   it; `pysolve check sudoku FILE.pl` asks a rule base of one's own the
%   same.
%
%   ```
%   ?- aggregate_all(count, sudoku([[1,2,0,0],[0,0,1,2],[0,0,0,0],[0,0,0,0]], _), Count).
%   Count = 12.
%   ```
%
%   @error as solution/3.

sudoku(Board, Solution) :-
    solution(fast, Board, Solution).

%!  packed_solutions(+Strategy, +Rows, +Max, -Packed) is det.
%
%   Packed is a string holding the first Max solutions of solution/3
%   (all when Max is 0), one after the other, each cell in reading order
%   as the character whose code is 0'0 + its value. Many solutions cross
%   to Python as one string at about a microsecond each, where lists of
%   lists of integers cost about a hundred (and a copy of them all on the
%   stack).
%
%   ```
%   ?- packed_solutions(plain, [[1,2,3,4],[3,4,1,2],[2,1,4,3],[4,3,2,0]], 0, Packed).
%   Packed = "1234341221434321".
%   ```
%
%   @error type_error(nonneg, Max) for a Max that is not a non-negative integer.
%   @error as solution/3 for Strategy and Rows.

packed_solutions(Strategy, Rows, Max, Packed) :-
    must_be(nonneg, Max),
    (   Max =:= 0
    ->  findall(Text, ( solution(Strategy, Rows, Solved), packed(Solved, Text) ), Texts)
    ;   findall(Text, limit(Max, ( solution(Strategy, Rows, Solved), packed(Solved, Text) )), Texts)
    ),
    atomics_to_string(Texts, Packed).

packed(Solved, Text) :-
    append(Solved, Values),
    maplist(digit_code, Values, Codes),
    string_codes(Text, Codes).

digit_code(Value, Code) :-
    Code is 0'0 + Value.

% cell_term(+Size, +Value, -Cell): a fresh variable for 0, the value for a given.
cell_term(Size, Value, Cell) :-
    (   Value =:= 0
    ->  true
    ;   between(1, Size, Value)
    ->  Cell = Value
    ;   domain_error(sudoku_value, Value)
    ).

search(fast, Size, Cells, _) :-
    masks_search(untraced, Size, Cells).
search(traced(fast), Size, Cells, _) :-
    masks_search(traced, Size, Cells).
search(clpfd, Size, Cells, units(Rows, Columns, Boxes)) :-
    append(Cells, Vars),
    Vars ins 1..Size,
    maplist(all_distinct, Rows),
    maplist(all_distinct, Columns),
    maplist(all_distinct, Boxes),
    labeling([ff], Vars).
search(plain, Size, Cells, Units) :-
    plain_entries(Size, Cells, Units, Values, Entries),
    fill(Entries, Values).
search(traced(plain), Size, Cells, Units) :-
    plain_entries(Size, Cells, Units, Values, Entries),
    trace_root(Root),
    traced_below(Root, fill(Entries, Values)).

% plain_entries(+Size, +Cells, +Units, -Values, -Entries): the values 1..Size
% and the cells in reading order (cell_entries/6); fails when a unit repeats
% a given.
plain_entries(Size, Cells, units(Rows, Columns, Boxes), Values, Entries) :-
    \+ broken_units(Rows, Columns, Boxes, [_|_]),
    numlist(1, Size, Values),
    box_shape(Size, BoxRows, BoxColumns),
    PerBand is Size // BoxColumns,
    cell_entries(Cells, Columns, Boxes, shape(BoxRows, BoxColumns, PerBand), 0, Entries).

% cell_entries(+Rows, +Columns, +Boxes, +Shape, +R, -Entries): each cell of
% rows R.. as cell(Value, Row, Column, Box, At), in reading order, At its
% place as Row-Column from 1.
cell_entries([], _, _, _, _, []).
cell_entries([Row|Rows], Columns, Boxes, Shape, R, Entries) :-
    row_entries(Row, Row, Columns, Boxes, Shape, R, 0, Entries, Rest),
    R1 is R + 1,
    cell_entries(Rows, Columns, Boxes, Shape, R1, Rest).

row_entries([], _, _, _, _, _, _, Entries, Entries).
row_entries([V|Vs], Row, [Column|Columns], Boxes, Shape, R, C, [cell(V, Row, Column, Box, R1-C1)|Entries],
            Rest) :-
    Shape = shape(BoxRows, BoxColumns, PerBand),
    B is R // BoxRows * PerBand + C // BoxColumns,
    nth0(B, Boxes, Box),
    R1 is R + 1,
    C1 is C + 1,
    row_entries(Vs, Row, Columns, Boxes, Shape, R, C1, Entries, Rest).

% fill(+Entries, +Values): give each empty cell, in order, a value its
% row, column and box do not hold. Recorded: each value placed a node, a
% dead end where an empty cell has no value left.
fill([], _) :-
    trace_solved.
fill([cell(V, Row, Column, Box, At)|Entries], Values) :-
    (   integer(V)
    ->  true
    ;   trace_some(( member(Value, Values),
                     absent(Value, Row),
                     absent(Value, Column),
                     absent(Value, Box) )),
        V = Value,
        trace_node(placed(At, Value))
    ),
    fill(Entries, Values).

absent(Value, Unit) :-
    \+ ( member(Cell, Unit), Cell == Value ).

% placed(+At, +Value, +Node, -Child): Child, below Node, is Value placed at
% At, Row-Column (from 1), as the trace says it.
placed(R-C, Value, Node, Child) :-
    format(atom(Label), "r~wc~w=~w", [R, C, Value]),
    trace_enter(Label, [row=R, col=C, value=Value], Node, Child).

%   The propagating search. Cells are numbered 1..N*N in reading order, units
%   1..3N (rows, columns, boxes). Geometry is geometry(Peers, Units, UnitsOf,
%   Full, AllUnits, Bands, PeerBits, Count, SlotsOf): arg Cell of Peers the cells sharing a unit with
%   Cell, arg Unit of Units its cells, arg Cell of UnitsOf the bit set of
%   Cell's units, Full the bit set of every value, AllUnits of every unit,
%   Bands where the lines cross the boxes (band/5), arg Cell of PeerBits the
%   bit set of Cell's peers (bit Cell - 1 for each cell), Count the number
%   of cells, arg Cell of SlotsOf the args Count + Unit of Cell's units.
%
%   Masks holds arg Cell the candidates of Cell, then arg Count + Unit the
%   values of Unit's cells left one (kept as cells are left one, so that a
%   look for hidden singles need not test each cell for it).

:- table geometry/2.   % built once per size (2 ms for 9x9), then copied from the table

geometry(Size, geometry(Peers, Units, UnitsOf, Full, AllUnits, Bands, PeerBits, Count, SlotsOf)) :-
    Count is Size * Size,
    numlist(1, Count, Numbers),
    bands(Numbers, Size, Rows),
    units(Rows, units(RowUnits, ColumnUnits, BoxUnits)),
    append([RowUnits, ColumnUnits, BoxUnits], UnitList),
    Units =.. [units|UnitList],
    length(UnitList, UnitCount),
    maplist(cell_units(UnitList), Numbers, UnitSets),
    UnitsOf =.. [units_of|UnitSets],
    maplist(cell_slots(UnitList, Count), Numbers, SlotLists),
    SlotsOf =.. [slots_of|SlotLists],
    maplist(cell_peers(UnitList), Numbers, PeerLists),
    Peers =.. [peers|PeerLists],
    maplist(cell_bits, PeerLists, BitsList),
    PeerBits =.. [peer_bits|BitsList],
    Full is (1 << Size) - 1,
    AllUnits is (1 << UnitCount) - 1,
    box_shape(Size, BoxRows, BoxColumns),
    bands(RowUnits, BoxRows, RowBands),
    maplist(band(row, BoxColumns, UnitsOf), RowBands, RowCrossings),
    bands(ColumnUnits, BoxColumns, ColumnBands),
    maplist(band(column, BoxRows, UnitsOf), ColumnBands, ColumnCrossings),
    append(RowCrossings, ColumnCrossings, Bands).

% band(+Kind, +Across, +UnitsOf, +Lines, -Band): where Lines (rows or
% columns, Kind, that cross the same boxes: a band) cross the boxes, as
% band(Units, Segments, Groups). Units is the bit set of the band's lines
% and boxes; a segment is a line's Across cells in one box, arg K of
% Segments is seg(Cells, Line, Box) for the K-th (line after line), Line
% and Box the numbers of its line's and its box's groups; arg G of Groups
% lists the segments of a group, the lines first, then the boxes.
band(Kind, Across, UnitsOf, Lines, band(Units, Segments, Groups)) :-
    maplist(bands_of(Across), Lines, Chunked),
    length(Lines, Along),
    Lines = [First|_],
    length(First, Size),
    PerLine is Size // Across,
    findall(seg(Cells, L, B), ( nth1(L, Chunked, Chunks), nth1(J, Chunks, Cells), B is Along + J ), SegList),
    Segments =.. [segments|SegList],
    findall(Ks, ( between(1, Along, L),
                  findall(K, ( between(1, PerLine, J), K is (L - 1) * PerLine + J ), Ks) ), LineGroups),
    findall(Ks, ( between(1, PerLine, J),
                  findall(K, ( between(1, Along, L), K is (L - 1) * PerLine + J ), Ks) ), BoxGroups),
    append(LineGroups, BoxGroups, GroupList),
    Groups =.. [groups|GroupList],
    append(Lines, Cells),
    foldl(band_unit(Kind, Size, UnitsOf), Cells, 0, Units).

% band_unit(+Kind, +Size, +UnitsOf, +Cell, +Units0, -Units): Cell's line and
% box join the bit set Units0 (its row and box for Kind `row`, its column and
% box for `column`).
band_unit(Kind, Size, UnitsOf, Cell, Units0, Units) :-
    arg(Cell, UnitsOf, Of),
    (   Kind == row
    ->  Across is Size + (Cell - 1) mod Size    % the bit of its column
    ;   Across is (Cell - 1) // Size           % the bit of its row
    ),
    Units is Units0 \/ (Of /\ \(1 << Across)).

% cell_bits(+Cells, -Bits): the bit set of Cells (bit Cell - 1 for each).
cell_bits(Cells, Bits) :-
    foldl(cell_bit, Cells, 0, Bits).

cell_bit(Cell, Bits0, Bits) :-
    Bits is Bits0 \/ (1 << (Cell - 1)).

cell_units(UnitList, Cell, Set) :-
    aggregate_all(sum(1 << (Unit - 1)), ( nth1(Unit, UnitList, Members), memberchk(Cell, Members) ), Set).

cell_slots(UnitList, Count, Cell, Slots) :-
    findall(Slot, ( nth1(Unit, UnitList, Members), memberchk(Cell, Members), Slot is Count + Unit ), Slots).

cell_peers(UnitList, Cell, Peers) :-
    findall(Members, ( member(Members, UnitList), memberchk(Cell, Members) ), Lists),
    ord_union(Lists, Near),
    ord_del_element(Near, Cell, Peers).

start_mask(Full, Value, Mask) :-
    (   integer(Value)
    ->  Mask is 1 << (Value - 1)
    ;   Mask = Full
    ).

mask_value(Mask, Value) :-
    Value is msb(Mask) + 1.

% masks_search(+Mode, +Size, ?Cells): the propagating search on the board
% Cells (its givens bound, the rest free), recorded when Mode is `traced`.
masks_search(Mode, Size, Cells) :-
    geometry(Size, Geometry),
    Geometry = geometry(_, _, _, Full, AllUnits, _, _, _, _),
    append(Cells, Values),
    maplist(start_mask(Full), Values, MaskList),
    UnitCount is msb(AllUnits) + 1,
    length(Nothing, UnitCount),
    maplist(=(0), Nothing),
    append(MaskList, Nothing, Slots),
    Masks =.. [masks|Slots],
    findall(Cell, ( nth1(Cell, Values, Value), integer(Value) ), Givens),
    trace_search(( Mode == traced, trace_root(Root) ), Root,
                 propagating_search(Geometry, Masks, Givens, AllUnits)),
    Masks =.. [_|Held],
    same_length(Found, Values),
    append(Found, _, Held),
    maplist(mask_value, Found, Values).

% propagating_search(+Geometry, !Masks, +Singles, +Changed): propagate from
% the cells just left one candidate (Singles) and the units whose cells
% changed (Changed, a bit set), then branch on the cell branch_cell/3
% chooses, smallest value first. Recorded: each value tried a
% node, a dead end where propagation breaks a rule.
propagating_search(Geometry, Masks, Singles, Changed) :-
    trace_checked(propagate(Singles, Changed, Geometry, Masks)),
    branch_cell(Masks, Geometry, Cell),
    (   Cell =:= 0
    ->  trace_solved
    ;   arg(Cell, Masks, Mask),
        bit_member(Bit, Mask),
        setarg(Cell, Masks, Bit),
        trace_node(cell_placed(Geometry, Cell, Bit)),
        Geometry = geometry(_, _, UnitsOf, _, _, _, _, _, _),
        arg(Cell, UnitsOf, Units),
        propagating_search(Geometry, Masks, [Cell], Units)
    ).

% cell_placed(+Geometry, +Cell, +Bit, +Node, -Child): Child, below Node, is
% the value of Bit placed on Cell (numbered in reading order from 1).
cell_placed(geometry(_, _, _, Full, _, _, _, _, _), Cell, Bit, Node, Child) :-
    Size is msb(Full) + 1,
    R is (Cell - 1) // Size + 1,
    C is (Cell - 1) mod Size + 1,
    Value is msb(Bit) + 1,
    placed(R-C, Value, Node, Child).

% branch_cell(+Masks, +Geometry, -Cell): the cell with the fewest candidates
% above one, of those the first with the most open peers; on boards from
% side sharing_from/1 up, before that, with the most peers left two values
% one of which it holds, then with the most open peers holding one of its
% candidates; 0 when every cell has its value.
branch_cell(Masks, Geometry, Cell) :-
    Geometry = geometry(Peers, _, _, Full, _, _, PeerBits, Count, _),
    open_cells(1, Count, Masks, 99, 0, Open, [], Tied),
    (   Open =:= 0
    ->  Cell = 0
    ;   sharing_from(From),
        (   msb(Full) + 1 >= From
        ->  Sharing = sharing(Peers)
        ;   Sharing = none
        ),
        most_open(Tied, Sharing, Masks, PeerBits, Open, 0, k(-1, -1, -1), Cell)
    ).

% sharing_from(-Side): the tie-break by peers sharing a candidate is used on
% boards of this side and up (9x9 searches, and so 9x9 generated puzzles,
% stay as they were).
sharing_from(16).

% open_cells(+Cell, +Count, +Masks, +Fewest, +Open0, -Open, +Tied0, -Tied):
% Open the bit set of the cells from Cell on with more than one candidate,
% Tied those with the fewest, last first.
open_cells(Cell, Count, Masks, Fewest, Open0, Open, Tied0, Tied) :-
    (   Cell > Count
    ->  Open = Open0,
        Tied = Tied0
    ;   arg(Cell, Masks, Mask),
        Next is Cell + 1,
        (   Mask /\ (Mask - 1) =:= 0
        ->  open_cells(Next, Count, Masks, Fewest, Open0, Open, Tied0, Tied)
        ;   Open1 is Open0 \/ (1 << (Cell - 1)),
            Candidates is popcount(Mask),
            (   Candidates < Fewest
            ->  open_cells(Next, Count, Masks, Candidates, Open1, Open, [Cell], Tied)
            ;   Candidates =:= Fewest
            ->  open_cells(Next, Count, Masks, Fewest, Open1, Open, [Cell|Tied0], Tied)
            ;   open_cells(Next, Count, Masks, Fewest, Open1, Open, Tied0, Tied)
            )
        )
    ).

% most_open(+Tied, +Sharing, +Masks, +PeerBits, +Open, +Best0, +Most0, -Best):
% of Tied (last first), the first cell with the most peers left two values
% one of which it holds, then with the most open peers holding one of its
% candidates (neither counted when Sharing is `none`), then with the most
% peers in Open.
most_open([], _, _, _, _, Best, _, Best).
most_open([Cell|Cells], Sharing, Masks, PeerBits, Open, Best0, Most0, Best) :-
    (   Sharing = sharing(Peers)
    ->  arg(Cell, Peers, CellPeers),
        arg(Cell, Masks, Mask),
        sharing_peers(CellPeers, Masks, Mask, 0, Pairs, 0, Shared)
    ;   Pairs = 0,
        Shared = 0
    ),
    arg(Cell, PeerBits, Bits),
    Degree is popcount(Open /\ Bits),
    (   k(Pairs, Shared, Degree) @>= Most0
    ->  most_open(Cells, Sharing, Masks, PeerBits, Open, Cell, k(Pairs, Shared, Degree), Best)
    ;   most_open(Cells, Sharing, Masks, PeerBits, Open, Best0, Most0, Best)
    ).

% sharing_peers(+Peers, +Masks, +Mask, +Pairs0, -Pairs, +Shared0, -Shared):
% Shared0 plus the cells of Peers with more than one candidate, one of them
% in Mask; Pairs0 plus those of them with two.
sharing_peers([], _, _, Pairs, Pairs, Shared, Shared).
sharing_peers([Peer|Peers], Masks, Mask, Pairs0, Pairs, Shared0, Shared) :-
    arg(Peer, Masks, Held),
    (   Held /\ Mask =\= 0,
        Rest is Held /\ (Held - 1),
        Rest =\= 0
    ->  Shared1 is Shared0 + 1,
        (   Rest /\ (Rest - 1) =:= 0
        ->  Pairs1 is Pairs0 + 1
        ;   Pairs1 = Pairs0
        )
    ;   Pairs1 = Pairs0,
        Shared1 = Shared0
    ),
    sharing_peers(Peers, Masks, Mask, Pairs1, Pairs, Shared1, Shared).

% propagate(+Singles, +Changed, +Geometry, !Masks): naked singles leave
% their peers, then the changed units place their hidden singles; when
% neither changes anything, locked candidates (locked_bands/8), and when
% those change nothing either, on boards from side pairs_from/1 up, naked
% pairs (naked_pairs/7); until nothing changes. Fails on a cell without
% candidates, a value without a place in a unit, or one place wanted for two
% values.
propagate(Singles, Changed, Geometry, Masks) :-
    propagate(Singles, Changed, 0, 0, Geometry, Masks).

% propagate(+Singles, +Changed, +Looked, +Paired, +Geometry, !Masks): Looked
% is the bit set of the units looked at for hidden singles since locked
% candidates last looked at their bands, Paired of those since naked pairs
% last looked at them (the others stayed as they left them).
propagate(Singles, Changed0, Looked0, Paired0, Geometry, Masks) :-
    naked_singles(Singles, Geometry, Masks, Changed0, Changed),
    (   Changed =:= 0
    ->  Geometry = geometry(_, _, UnitsOf, Full, _, Bands, _, _, _),
        locked_bands(Bands, Looked0, Masks, UnitsOf, [], Singles1, 0, Changed1),
        (   Changed1 =\= 0
        ->  propagate(Singles1, Changed1, 0, Paired0, Geometry, Masks)
        ;   Paired0 =\= 0,
            pairs_from(From),
            msb(Full) + 1 >= From
        ->  naked_pairs(Paired0, Geometry, Masks, [], Singles2, 0, Changed2),
            (   Changed2 =:= 0
            ->  true
            ;   propagate(Singles2, Changed2, 0, 0, Geometry, Masks)
            )
        ;   true
        )
    ;   Looked is Looked0 \/ Changed,
        Paired is Paired0 \/ Changed,
        hidden_singles(Changed, Geometry, Masks, [], Singles1, 0, Changed1),
        propagate(Singles1, Changed1, Looked, Paired, Geometry, Masks)
    ).

% pairs_from(-Side): naked pairs are looked for on boards of this side and
% up (on 9x9 they cost more time than the nodes they save).
pairs_from(16).

% naked_pairs(+Looking, +Geometry, !Masks, +Singles0, -Singles, +Changed0,
% -Changed): in each unit of the bit set Looking, two cells left the same two
% values take them from the unit's other cells. Cells left one value join
% Singles, the units of the cells narrowed join Changed.
naked_pairs(Looking, Geometry, Masks, Singles0, Singles, Changed0, Changed) :-
    (   Looking =:= 0
    ->  Singles = Singles0,
        Changed = Changed0
    ;   Low is Looking /\ -Looking,
        Rest is Looking xor Low,
        Unit is msb(Low) + 1,
        Geometry = geometry(_, Units, UnitsOf, _, _, _, _, _, _),
        arg(Unit, Units, Cells),
        unit_pairs(Cells, [], Cells, Masks, UnitsOf, Singles0, Singles1, Changed0, Changed1),
        naked_pairs(Rest, Geometry, Masks, Singles1, Singles, Changed1, Changed)
    ).

% unit_pairs(+Cells, +Seen, +Unit, !Masks, +UnitsOf, ...): each of Cells left
% two values that an earlier cell of Unit was left too (Seen, Mask-Cell
% pairs) takes them from Unit's other cells.
unit_pairs([], _, _, _, _, Singles, Singles, Changed, Changed).
unit_pairs([Cell|Cells], Seen, Unit, Masks, UnitsOf, Singles0, Singles, Changed0, Changed) :-
    arg(Cell, Masks, Mask),
    Rest is Mask /\ (Mask - 1),
    (   ( Rest =:= 0 ; Rest /\ (Rest - 1) =\= 0 )
    ->  unit_pairs(Cells, Seen, Unit, Masks, UnitsOf, Singles0, Singles, Changed0, Changed)
    ;   memberchk(Mask-Partner, Seen)
    ->  Keep is \Mask,
        drop_pair(Unit, Cell, Partner, Mask, Keep, Masks, UnitsOf, Singles0, Singles1, Changed0, Changed1),
        unit_pairs(Cells, Seen, Unit, Masks, UnitsOf, Singles1, Singles, Changed1, Changed)
    ;   unit_pairs(Cells, [Mask-Cell|Seen], Unit, Masks, UnitsOf, Singles0, Singles, Changed0, Changed)
    ).

% drop_pair(+Unit, +Cell, +Partner, +Pair, +Keep, !Masks, +UnitsOf, ...): the
% values of Pair leave every cell of Unit but Cell and Partner; fails on a
% cell left without candidates.
drop_pair([], _, _, _, _, _, _, Singles, Singles, Changed, Changed).
drop_pair([Other|Others], Cell, Partner, Pair, Keep, Masks, UnitsOf, Singles0, Singles, Changed0, Changed) :-
    arg(Other, Masks, Mask),
    (   ( Mask /\ Pair =:= 0 ; Other =:= Cell ; Other =:= Partner )
    ->  Singles1 = Singles0,
        Changed1 = Changed0
    ;   Mask1 is Mask /\ Keep,
        Mask1 =\= 0,
        setarg(Other, Masks, Mask1),
        arg(Other, UnitsOf, Units),
        Changed1 is Changed0 \/ Units,
        (   Mask1 /\ (Mask1 - 1) =:= 0
        ->  Singles1 = [Other|Singles0]
        ;   Singles1 = Singles0
        )
    ),
    drop_pair(Others, Cell, Partner, Pair, Keep, Masks, UnitsOf, Singles1, Singles, Changed1, Changed).

% locked_bands(+Bands, +Looked, !Masks, +UnitsOf, +Singles0, -Singles,
% +Changed0, -Changed): in each band holding a unit of the bit set Looked,
% where a line crosses a box (a segment), a value that the line holds only
% there leaves the rest of the box (claiming), and one that the box holds
% only there leaves the rest of the line (pointing), from the values of the
% band's segments taken as it begins (as Python does). Cells left one value
% join Singles, the units of the cells narrowed join Changed.
locked_bands([], _, _, _, Singles, Singles, Changed, Changed).
locked_bands([band(Units, Segments, Groups)|Bands], Looked, Masks, UnitsOf, Singles0, Singles,
             Changed0, Changed) :-
    (   Looked /\ Units =:= 0
    ->  Singles1 = Singles0,
        Changed1 = Changed0
    ;   Segments =.. [_|SegList],
        maplist(segment_union(Masks), SegList, UnionList),
        Unions =.. [unions|UnionList],
        Groups =.. [_|GroupList],
        maplist(group_shared(Unions), GroupList, SharedList),
        Shared =.. [shared|SharedList],
        locked_segments(SegList, 1, Unions, Shared, Segments, Groups, Masks, UnitsOf,
                        Singles0, Singles1, Changed0, Changed1)
    ),
    locked_bands(Bands, Looked, Masks, UnitsOf, Singles1, Singles, Changed1, Changed).

segment_union(Masks, seg(Cells, _, _), Union) :-
    segment_union(Cells, Masks, 0, Union).

segment_union([], _, Union, Union).
segment_union([Cell|Cells], Masks, Union0, Union) :-
    arg(Cell, Masks, Mask),
    Union1 is Union0 \/ Mask,
    segment_union(Cells, Masks, Union1, Union).

% group_shared(+Unions, +Group, -Shared): the values two or more segments of
% Group hold.
group_shared(Unions, Group, Shared) :-
    group_shared(Group, Unions, 0, 0, Shared).

group_shared([], _, _, Shared, Shared).
group_shared([K|Ks], Unions, Once0, Twice0, Shared) :-
    arg(K, Unions, Union),
    Twice1 is Twice0 \/ (Once0 /\ Union),
    Once1 is Once0 \/ Union,
    group_shared(Ks, Unions, Once1, Twice1, Shared).

locked_segments([], _, _, _, _, _, _, _, Singles, Singles, Changed, Changed).
locked_segments([seg(_, Line, Box)|Segs], K, Unions, Shared, Segments, Groups, Masks, UnitsOf,
                Singles0, Singles, Changed0, Changed) :-
    arg(K, Unions, Union),
    arg(Line, Shared, InLine),
    arg(Box, Shared, InBox),
    (   Union /\ (InLine xor InBox) =:= 0
    ->  Singles2 = Singles0,
        Changed2 = Changed0
    ;   Pointing is Union /\ InLine /\ \InBox,
        arg(Line, Groups, LineSegments),
        drop_from(LineSegments, K, Pointing, Segments, Masks, UnitsOf, Singles0, Singles1, Changed0, Changed1),
        Claiming is Union /\ InBox /\ \InLine,
        arg(Box, Groups, BoxSegments),
        drop_from(BoxSegments, K, Claiming, Segments, Masks, UnitsOf, Singles1, Singles2, Changed1, Changed2)
    ),
    K1 is K + 1,
    locked_segments(Segs, K1, Unions, Shared, Segments, Groups, Masks, UnitsOf,
                    Singles2, Singles, Changed2, Changed).

% drop_from(+Group, +K, +Drop, +Segments, !Masks, +UnitsOf, ...): the values
% of Drop leave every cell of the segments of Group but the K-th; fails on a
% cell left without candidates.
drop_from(Group, K, Drop, Segments, Masks, UnitsOf, Singles0, Singles, Changed0, Changed) :-
    (   Drop =:= 0
    ->  Singles = Singles0,
        Changed = Changed0
    ;   Keep is \Drop,
        drop_segments(Group, K, Keep, Segments, Masks, UnitsOf, Singles0, Singles, Changed0, Changed)
    ).

drop_segments([], _, _, _, _, _, Singles, Singles, Changed, Changed).
drop_segments([Other|Others], K, Keep, Segments, Masks, UnitsOf, Singles0, Singles, Changed0, Changed) :-
    (   Other =:= K
    ->  Singles1 = Singles0,
        Changed1 = Changed0
    ;   arg(Other, Segments, seg(Cells, _, _)),
        drop_cells(Cells, Keep, Masks, UnitsOf, Singles0, Singles1, Changed0, Changed1)
    ),
    drop_segments(Others, K, Keep, Segments, Masks, UnitsOf, Singles1, Singles, Changed1, Changed).

drop_cells([], _, _, _, Singles, Singles, Changed, Changed).
drop_cells([Cell|Cells], Keep, Masks, UnitsOf, Singles0, Singles, Changed0, Changed) :-
    arg(Cell, Masks, Mask),
    Mask1 is Mask /\ Keep,
    (   Mask1 =:= Mask
    ->  Singles1 = Singles0,
        Changed1 = Changed0
    ;   Mask1 =\= 0,
        setarg(Cell, Masks, Mask1),
        arg(Cell, UnitsOf, Units),
        Changed1 is Changed0 \/ Units,
        (   Mask1 /\ (Mask1 - 1) =:= 0
        ->  Singles1 = [Cell|Singles0]
        ;   Singles1 = Singles0
        )
    ),
    drop_cells(Cells, Keep, Masks, UnitsOf, Singles1, Singles, Changed1, Changed).

naked_singles([], _, _, Changed, Changed).
naked_singles([Cell|Cells], Geometry, Masks, Changed0, Changed) :-
    Geometry = geometry(Peers, _, UnitsOf, _, _, _, _, _, SlotsOf),
    arg(Cell, Masks, Bit),
    arg(Cell, SlotsOf, Slots),
    mark_placed(Slots, Bit, Masks),
    arg(Cell, Peers, PeerList),
    leave_peers(PeerList, Bit, Masks, UnitsOf, Cells, Cells1, Changed0, Changed1),
    naked_singles(Cells1, Geometry, Masks, Changed1, Changed).

% leave_peers(+Peers, +Bit, !Masks, +UnitsOf, +Singles0, -Singles, +Changed0,
% -Changed): the value Bit leaves every peer's candidates.
leave_peers([], _, _, _, Singles, Singles, Changed, Changed).
leave_peers([Peer|Peers], Bit, Masks, UnitsOf, Singles0, Singles, Changed0, Changed) :-
    arg(Peer, Masks, Mask),
    (   Mask /\ Bit =:= 0
    ->  Singles1 = Singles0,
        Changed1 = Changed0
    ;   Mask1 is Mask xor Bit,
        Mask1 =\= 0,
        setarg(Peer, Masks, Mask1),
        arg(Peer, UnitsOf, Units),
        Changed1 is Changed0 \/ Units,
        (   Mask1 /\ (Mask1 - 1) =:= 0
        ->  Singles1 = [Peer|Singles0]
        ;   Singles1 = Singles0
        )
    ),
    leave_peers(Peers, Bit, Masks, UnitsOf, Singles1, Singles, Changed1, Changed).

% hidden_singles(+Looking, +Geometry, !Masks, +Singles0, -Singles,
% +Changed0, -Changed): in each unit of the bit set Looking, a value with
% one place left, not yet a placed value of the unit, goes there.
hidden_singles(Looking, Geometry, Masks, Singles0, Singles, Changed0, Changed) :-
    (   Looking =:= 0
    ->  Singles = Singles0,
        Changed = Changed0
    ;   Low is Looking /\ -Looking,
        Rest is Looking xor Low,
        Unit is msb(Low) + 1,
        Geometry = geometry(_, Units, UnitsOf, Full, _, _, _, Count, SlotsOf),
        arg(Unit, Units, Cells),
        unit_candidates(Cells, Masks, 0, 0, Once, Twice),
        Once =:= Full,
        Slot is Count + Unit,
        arg(Slot, Masks, Placed),
        Hidden is Once /\ \Twice /\ \Placed,
        place_hidden(Hidden, Cells, Masks, UnitsOf, SlotsOf, Singles0, Singles1, Changed0, Changed1),
        hidden_singles(Rest, Geometry, Masks, Singles1, Singles, Changed1, Changed)
    ).

% first_holder(+Cells, +Masks, +Bit, -Cell): the first of Cells whose
% candidates hold Bit.
first_holder([Cell0|Cells], Masks, Bit, Cell) :-
    arg(Cell0, Masks, Mask),
    (   Mask /\ Bit =\= 0
    ->  Cell = Cell0
    ;   first_holder(Cells, Masks, Bit, Cell)
    ).

% unit_candidates(+Cells, +Masks, +Once0, +Twice0, -Once, -Twice): Once the
% values some cell can take, Twice those two or more cells can (a cell left
% one value adds to Twice only a value it holds, which the unit's placed
% values hold too, so the caller's Placed takes it away again).
unit_candidates([], _, Once, Twice, Once, Twice).
unit_candidates([Cell|Cells], Masks, Once0, Twice0, Once, Twice) :-
    arg(Cell, Masks, Mask),
    Twice1 is Twice0 \/ (Once0 /\ Mask),
    Once1 is Once0 \/ Mask,
    unit_candidates(Cells, Masks, Once1, Twice1, Once, Twice).

% mark_placed(+Slots, +Bit, !Masks): Bit joins the placed values of the
% units whose args in Masks Slots lists.
mark_placed([], _, _).
mark_placed([Slot|Slots], Bit, Masks) :-
    arg(Slot, Masks, Placed0),
    Placed is Placed0 \/ Bit,
    setarg(Slot, Masks, Placed),
    mark_placed(Slots, Bit, Masks).

% place_hidden(+Hidden, +Cells, !Masks, +UnitsOf, +SlotsOf, ...): each value of Hidden
% goes to the first cell of Cells that can take it; fails when none can
% (its one place was just given another value).
place_hidden(Hidden, Cells, Masks, UnitsOf, SlotsOf, Singles0, Singles, Changed0, Changed) :-
    (   Hidden =:= 0
    ->  Singles = Singles0,
        Changed = Changed0
    ;   Bit is Hidden /\ -Hidden,
        Rest is Hidden xor Bit,
        first_holder(Cells, Masks, Bit, Cell),
        setarg(Cell, Masks, Bit),
        arg(Cell, SlotsOf, Slots),
        mark_placed(Slots, Bit, Masks),
        arg(Cell, UnitsOf, Units),
        Changed1 is Changed0 \/ Units,
        place_hidden(Rest, Cells, Masks, UnitsOf, SlotsOf, [Cell|Singles0], Singles, Changed1, Changed)
    ).

%!  broken_units(+Rows, -Broken) is det.
%
%   Broken lists [Kind, Index, Value] for each value that appears more
%   than once in one unit of the board Rows (Kind `row`, `column` or `box`,
%   Index 1-based, boxes in reading order): rows first, then columns, then
%   boxes, each by index, then by value. [] when no unit repeats a value.
%
%   ```
%   ?- broken_units([[1,1,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]], Broken).
%   Broken = [[row, 1, 1], [box, 1, 1]].
%   ```
%
%   @error type_error(list(list(integer)), Rows) if Rows is no board of integers.
%   @error domain_error(sudoku_board, Rows) for a board of another shape.

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
