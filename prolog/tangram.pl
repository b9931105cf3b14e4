:- module(tangram,
          [ with_instance/5,            % +Width, +Height, +Pieces, +Rotations, :Goal
            board/2,                    % ?Width, ?Height
            piece/3,                    % ?Name, ?Width, ?Height
            orientation/3,              % ?Piece, ?Width, ?Height
            placement_cells/2,          % +Placement, -Cells
            free_cells/2,               % +Placements, -Free
            options/3,                  % +Piece, +Free, -Options
            place/3,                    % ?Placement, +Free0, -Free
            tiling/4,                   % +Strategy, +Order, +Placed, -Tiling
            all_tilings/4,              % +Strategy, +Order, +Placed, -Tilings
            count_tilings/4,            % +Strategy, +Order, +Placed, -Count
            memo_count/5,               % +Scan, +Order, +Placed, -Count, -Stats
            bfs_tiling/3,               % +Order, +Placed, -Tiling
            piece_options/3,            % +Piece, +Placed, -Options
            tiling_problems/2,          % +Placements, -Problems
            tangram/5                   % +Width, +Height, +Pieces, +Rotations, -Tiling
          ]).

/** <module> Rectangle tangram: cover a board exactly with rectangles

An instance (the board's size, the pieces in search order, whether they may
turn) is chosen for one goal by with_instance/5, which keeps it as
thread-local facts while the goal runs and removes them after: there is no
instance between two goals, and two threads never see each other's. Cells
are `[X, Y]`, `[0, 0]` bottom-left; a placement is `[Piece, X, Y, Width,
Height]` (the bottom-left cell and the size the piece lies with). Sets of
free cells are integer masks: cell `[X, Y]` is bit `X * BoardHeight + Y`, so
bit order is board order (x-major) and the lowest set bit is the first free
cell.

Searches place the pieces of an Order list one after the other, each at one
of its options in board order (depth-first through backtracking, or
breadth-first with a queue), or (strategy `cell`) cover the first free cell
with each unused piece in turn.

When a trace is open (pysolve_trace.pl), the searches for tilings record
themselves (the recorded variant pysolve_traced compiles from the one
search, chosen once per search): a node per
placement, labelled `piece P at (X, Y) WxH` with the placement as its
`move`, below the placement before it; the placement that completes a
tiling is a solution, one after which the next piece (or the first free
cell) has no option is a dead end. Depth-first searches write a backtrack
when they undo a placement; the breadth-first search enters a partial
tiling when it takes it from the queue, below the one it extends.

The classic instance, counted:

    ?- with_instance(10, 10, [[green, 4, 2], [blue, 4, 5], [red, 3, 8],
                              [orange, 7, 3], [pink, 3, 7], [yellow, 3, 2]], false,
                     count_tilings(cell, [green, blue, red, orange, pink, yellow], [], N)).
    N = 36.
*/

:- set_prolog_flag(optimise, true).   % compile the counter's arithmetic inline (file-local)

:- use_module(library(lists), [append/2, append/3, clumped/2, intersection/3, member/2, numlist/3, reverse/2,
                                select/3]).
:- use_module(pysolve_trace, [trace_active/0, trace_enter/4, trace_fail/1, trace_root/1, trace_solution/1]).
:- use_module(pysolve_traced, [traceable/1]).

:- traceable([strategy_fill/4, place_all/3, cover/3]).
:- use_module(library(yall), [(>>)/4]).
:- use_module(library(apply), [foldl/4, maplist/2, maplist/3]).
:- use_module(library(aggregate), [aggregate_all/3]).
:- use_module(library(pairs), [group_pairs_by_key/2]).
:- use_module(library(error), [domain_error/2, existence_error/2, must_be/2]).
:- use_module(library(settings), [setting/4, setting/2]).

:- meta_predicate with_instance(+, +, +, +, 0).

:- thread_local board_size/2, tile/3, rotations/1, slot/7.
:- thread_local kind/3, fills/3.

:- setting(memo_generation, positive_integer, 1250000,
           'Entries of one generation of the memo of memo_count/5 (it keeps at most two)').

%!  with_instance(+Width, +Height, +Pieces, +Rotations, :Goal) is nondet.
%
%   Run Goal on the board Width x Height with Pieces, a list of
%   `[Name, PieceWidth, PieceHeight]` in search order; Rotations is `true`
%   when a piece may also lie turned. While Goal runs the board, the pieces
%   and every placement of each piece inside the empty board are
%   thread-local facts; they are removed when Goal is done, fails, is cut
%   or raises. Raises a type error for sizes that are not positive
%   integers or a piece that is not `[Name, Width, Height]`.
%
%   ```
%   ?- with_instance(3, 2, [[a, 2, 2], [b, 1, 2]], false, count_tilings(cell, [a, b], [], Count)).
%   Count = 2.
%   ```
%
%   @error type_error(positive_integer, Width) (or Height) for a size that is not a positive
%       integer.
%   @error domain_error(tangram_piece, Piece) for a piece that is not [Name, Width, Height];
%       type_error(boolean, Rotations) unless Rotations is true or false.

with_instance(Width, Height, Pieces, Rotations, Goal) :-
    must_be(positive_integer, Width),
    must_be(positive_integer, Height),
    must_be(list, Pieces),
    maplist(must_be_piece, Pieces),
    must_be(boolean, Rotations),
    setup_call_cleanup(load_instance(Width, Height, Pieces, Rotations), Goal, unload_instance).

must_be_piece(Piece) :-
    (   Piece = [Name, Width, Height]
    ->  must_be(atom, Name),
        must_be(positive_integer, Width),
        must_be(positive_integer, Height)
    ;   must_be(list(any), Piece),
        domain_error(tangram_piece, Piece)
    ).

load_instance(Width, Height, Pieces, Rotations) :-
    unload_instance,
    assertz(board_size(Width, Height)),
    forall(member([Name, W, H], Pieces), assertz(tile(Name, W, H))),
    assertz(rotations(Rotations)),
    index_slots(Width, Height).

unload_instance :-
    retractall(board_size(_, _)),
    retractall(tile(_, _, _)),
    retractall(rotations(_)),
    retractall(slot(_, _, _, _, _, _, _)).

%   slot(Piece, Anchor, X, Y, W, H, Mask): a placement inside the empty
%   board, Anchor its bottom-left cell's bit number; per piece in board order.

index_slots(BoardW, BoardH) :-
    MaxX is BoardW - 1,
    MaxY is BoardH - 1,
    forall(( tile(P, _, _),
             between(0, MaxX, X), between(0, MaxY, Y),
             turned(P, W, H),
             X + W =< BoardW, Y + H =< BoardH ),
           ( rect_mask(BoardH, X, Y, W, H, Mask),
             Anchor is X * BoardH + Y,
             assertz(slot(P, Anchor, X, Y, W, H, Mask)) )).

%   rect_mask(+BoardH, +X, +Y, +W, +H, -Mask): the cells of a W x H
%   rectangle at [X, Y] as a mask (one column of H bits per x).

rect_mask(BoardH, X, Y, W, H, Mask) :-
    Column is ((1 << H) - 1) << Y,
    X1 is X + W - 1,
    aggregate_all(sum(Column << (I * BoardH)), between(X, X1, I), Mask).

%   chosen(+Predicate): raise an existence error unless an instance is
%   chosen (we are inside with_instance/5).

chosen(Name/Arity) :-
    (   board_size(_, _)
    ->  true
    ;   throw(error(existence_error(instance, none),
                    context(tangram:Name/Arity, 'no instance is chosen: ask inside with_instance/5')))
    ).

%!  board(?Width, ?Height) is det.
%
%   The board of the instance of the running with_instance/5 is Width x
%   Height cells. Outside with_instance/5 there is no instance: raises an
%   existence error.
%
%   ```
%   ?- with_instance(3, 2, [[a, 2, 2], [b, 1, 2]], false, board(Width, Height)).
%   Width = 3,
%   Height = 2.
%   ```
%
%   @error existence_error(tangram_instance, board/2) outside with_instance/5.

board(Width, Height) :-
    chosen(board/2),
    board_size(Width, Height).

%!  piece(?Name, ?Width, ?Height) is nondet.
%
%   The pieces of the instance of the running with_instance/5 in search
%   order, with the size as given (before any rotation). Raises an
%   existence error outside with_instance/5.
%
%   ```
%   ?- with_instance(3, 2, [[a, 2, 2], [b, 1, 2]], false, findall(N, piece(N, _, _), Names)).
%   Names = [a, b].
%   ```
%
%   @error existence_error(tangram_instance, piece/3) outside with_instance/5.

piece(Name, Width, Height) :-
    chosen(piece/3),
    tile(Name, Width, Height).

%!  orientation(?Piece, ?Width, ?Height) is nondet.
%
%   Piece may lie Width x Height: as given, then turned when rotations are
%   on and the piece is not a square. Raises an existence error outside
%   with_instance/5.
%
%   ```
%   ?- with_instance(3, 2, [[a, 2, 1], [b, 1, 2]], true, findall(W-H, orientation(a, W, H), Shapes)).
%   Shapes = [2-1, 1-2].
%   ```
%
%   @error existence_error(tangram_instance, orientation/3) outside with_instance/5.

orientation(Piece, Width, Height) :-
    chosen(orientation/3),
    turned(Piece, Width, Height).

turned(Piece, Width, Height) :-
    tile(Piece, W0, H0),
    (   Width = W0, Height = H0
    ;   rotations(true), W0 =\= H0, Width = H0, Height = W0
    ).

%!  placement_cells(+Placement, -Cells) is det.
%
%   Cells are the `[X, Y]` cells a placement `[Piece, X0, Y0, W, H]`
%   covers, in board order.
%
%   ```
%   ?- placement_cells([a, 1, 0, 2, 1], Cells).
%   Cells = [[1, 0], [2, 0]].
%   ```
%
%   @error type_error(list, Placement) unless Placement is [Piece, X, Y, W, H].

placement_cells([_, X0, Y0, W, H], Cells) :-
    findall([X, Y],
            ( X1 is X0 + W - 1, between(X0, X1, X),
              Y1 is Y0 + H - 1, between(Y0, Y1, Y) ),
            Cells).

%!  free_cells(+Placements, -Free) is det.
%
%   Free is the mask of the cells no placement covers.
%
%   ```
%   ?- with_instance(3, 2, [[a, 2, 2], [b, 1, 2]], false, free_cells([[b, 0, 0, 1, 2]], Free)).
%   Free = 60.
%   ```
%
%   @error type_error(list, Placements) if Placements is not a list.

free_cells(Placements, Free) :-
    must_be(list, Placements),
    board(W, H),
    Full is (1 << (W * H)) - 1,
    foldl(remove_placement(H), Placements, Full, Free).

remove_placement(BoardH, [_, X, Y, W, H], Free0, Free) :-
    rect_mask(BoardH, X, Y, W, H, Mask),
    Free is Free0 /\ \ Mask.

%!  options(+Piece, +Free, -Options) is det.
%
%   Options are the `[X, Y, W, H]` where Piece fits on the free cells
%   (mask Free), in board order: the bottom-left cell x-major, then the
%   orientation. Raises an existence error for a piece the instance does
%   not have.
%
%   ```
%   ?- with_instance(3, 2, [[a, 2, 2], [b, 1, 2]], false,
%                    ( free_cells([], Free), options(b, Free, Options) )).
%   Free = 63,
%   Options = [[0, 0, 1, 2], [1, 0, 1, 2], [2, 0, 1, 2]].
%   ```
%
%   @error type_error(integer, Free), type_error(atom, Piece) for arguments of another type.

options(Piece, Free, Options) :-
    known_piece(Piece),
    must_be(integer, Free),
    findall([X, Y, W, H], option([Piece, X, Y, W, H], Free, _), Options).

known_piece(Piece) :-
    must_be(atom, Piece),
    chosen(options/3),
    (   tile(Piece, _, _)
    ->  true
    ;   existence_error(tangram_piece, Piece)
    ).

option([Piece, X, Y, W, H], Free, Mask) :-
    slot(Piece, _, X, Y, W, H, Mask),
    Free /\ Mask =:= Mask.

%!  place(?Placement, +Free0, -Free) is nondet.
%
%   Placement `[Piece, X, Y, W, H]` fits on Free0 (one option, in board
%   order on backtracking) and leaves the free cells Free.
%
%   ```
%   ?- with_instance(3, 2, [[a, 2, 2], [b, 1, 2]], false,
%                    ( free_cells([], Free0), findall(P, place([a|P], Free0, _), Places) )).
%   Free0 = 63,
%   Places = [[0, 0, 2, 2], [1, 0, 2, 2]].
%   ```
%
%   @error type_error(integer, Free0) unless Free0 is an integer.

place(Placement, Free0, Free) :-
    must_be(integer, Free0),
    chosen(place/3),
    step(Placement, Free0, Free).

step(Placement, Free0, Free) :-
    option(Placement, Free0, Mask),
    Free is Free0 xor Mask.

place_all([], _, []) :-
    trace_solved.
place_all([Piece|Pieces], Free0, [[Piece|Where]|Placements]) :-
    trace_some(step([Piece|Where], Free0, Free)),
    trace_node(placement_node([Piece|Where])),
    place_all(Pieces, Free, Placements).

%!  tiling(+Strategy, +Order, +Placed, -Tiling) is nondet.
%
%   Tiling completes the placements Placed with the pieces of Order; on
%   backtracking every tiling, in the search order of Strategy:
%
%     - `dfs`: place the pieces of Order one after the other, each at
%       one of its options in board order (depth-first);
%     - `cell`: cover the first free cell (lowest mask bit) with one of
%       the unused pieces (in Order) whose bottom-left corner fits there:
%       the same tilings, found with far fewer dead ends.
%
%   Tiling lists the placements in piece order. Raises a domain error for
%   another strategy.
%
%   ```
%   ?- with_instance(3, 2, [[a, 2, 2], [b, 1, 2]], false, tiling(dfs, [a, b], [], Tiling)).
%   Tiling = [[a, 0, 0, 2, 2], [b, 2, 0, 1, 2]].
%   ```
%
%   @error domain_error(tangram_strategy, Strategy) for another strategy.
%   @error type_error(list(atom), Order) unless Order is a list of piece names.

tiling(Strategy, Order, Placed, Tiling) :-
    search_start(Strategy, Order, Placed, Free),
    fill(Strategy, Order, Free, New),
    in_piece_order(Placed, New, Tiling).

%   search_start(+Strategy, +Order, +Placed, -Free): the arguments of a
%   search checked, and the free cells it starts from.

search_start(Strategy, Order, Placed, Free) :-
    must_be(atom, Strategy),
    (   memberchk(Strategy, [dfs, cell])
    ->  true
    ;   domain_error(tangram_strategy, Strategy)
    ),
    must_be(list(atom), Order),
    free_cells(Placed, Free).

fill(Strategy, Order, Free, Placements) :-
    trace_search(( trace_active, trace_root(Root) ), Root,
                 strategy_fill(Strategy, Order, Free, Placements)).

%   strategy_fill(+Strategy, +Order, +Free, -Placements): the search of
%   Strategy; recorded (pysolve_traced): each placement a node, a dead end
%   where the next piece has no place.

strategy_fill(dfs, Order, Free, Placements) :-
    place_all(Order, Free, Placements).
strategy_fill(cell, Pieces, Free, Placements) :-
    cover(Free, Pieces, Placements).

cover(Free, Pieces, Placements) :-
    (   Free =:= 0
    ->  Pieces = [], Placements = [],
        trace_solved
    ;   Anchor is lsb(Free),
        trace_some(( select(Piece, Pieces, Rest),
                     slot(Piece, Anchor, X, Y, W, H, Mask),
                     Free /\ Mask =:= Mask )),
        Free1 is Free xor Mask,
        Placements = [[Piece, X, Y, W, H]|More],
        trace_node(placement_node([Piece, X, Y, W, H])),
        cover(Free1, Rest, More)
    ).

%   placement_node(+Placement, +Parent, -Node): Placement recorded as a
%   child of Parent (a backtrack is written when the search undoes it).

placement_node([Piece, X, Y, W, H], Parent, Node) :-
    format(string(Label), "piece ~w at (~w, ~w) ~wx~w", [Piece, X, Y, W, H]),
    trace_enter(Label, [piece=Piece, x=X, y=Y, w=W, h=H], Parent, Node).

in_piece_order(Placed, New, Tiling) :-
    append(Placed, New, All),
    findall(Placement,
            ( tile(Name, _, _), member(Placement, All), Placement = [Name|_] ),
            Tiling).

%!  all_tilings(+Strategy, +Order, +Placed, -Tilings) is det.
%
%   Tilings is every tiling/4 answer, in search order.
%
%   ```
%   ?- with_instance(3, 2, [[a, 2, 2], [b, 1, 2]], false, all_tilings(cell, [a, b], [], Tilings)).
%   Tilings = [[[a, 0, 0, 2, 2], [b, 2, 0, 1, 2]], [[a, 1, 0, 2, 2], [b, 0, 0, 1, 2]]].
%   ```
%
%   @error as tiling/4.

all_tilings(Strategy, Order, Placed, Tilings) :-
    findall(Tiling, tiling(Strategy, Order, Placed, Tiling), Tilings).

%!  count_tilings(+Strategy, +Order, +Placed, -Count) is det.
%
%   Count is the number of tiling/4 answers (counted without building them).
%
%   ```
%   ?- with_instance(3, 2, [[a, 2, 2], [b, 1, 2]], false, count_tilings(dfs, [a, b], [], Count)).
%   Count = 2.
%   ```
%
%   @error as tiling/4.

count_tilings(Strategy, Order, Placed, Count) :-
    search_start(Strategy, Order, Placed, Free),
    aggregate_all(count, fill(Strategy, Order, Free, _), Count).

%!  memo_count(+Scan, +Order, +Placed, -Count, -Stats) is det.
%
%   Count is the number of tilings that complete Placed with the pieces of
%   Order (as count_tilings/4), counted by the memo counter: cover the first
%   free cell, the scan going up the columns (Scan `columns`) or along the
%   rows (`rows`, the board transposed). Pieces of the same shape are one
%   kind, counted in a bit field of the Unused integer, and the count is
%   multiplied by the ways to name them. The memo (SWI-Prolog tries, one
%   a generation, destroyed when the count is done) is keyed on the
%   canonical frontier: the free cells shifted down to the first column
%   that still has one, or that region upside down when its mask is
%   smaller, and the pieces left. Placements that leave a stranded cell (one high or one wide
%   when no piece is), a row width or a column run the pieces left cannot
%   add up to, are not followed. The memo holds at most two generations of
%   1,250,000 entries (the setting `memo_generation`); when it is full the
%   older half is dropped (and counted again where it is needed). Stats is
%   `[Memo, Cleared]`: the entries it holds at the end, the times the older
%   half was dropped.
%
%   ```
%   ?- with_instance(3, 2, [[a, 2, 2], [b, 1, 2]], false, memo_count(columns, [a, b], [], Count, _)).
%   Count = 2.
%   ```
%
%   @error type_error(oneof([columns, rows]), Scan) for another Scan.
%   @error type_error(list(atom), Order) unless Order is a list of piece names.

memo_count(Scan, Order, Placed, Count, Stats) :-
    must_be(oneof([columns, rows]), Scan),
    must_be(list(atom), Order),
    must_be(list, Placed),
    chosen(memo_count/5),
    board(BoardW, BoardH),
    (   Scan == columns
    ->  Across = BoardW, Up = BoardH, Flat = Placed
    ;   Across = BoardH, Up = BoardW, maplist(transposed, Placed, Flat)
    ),
    setup_call_cleanup(load_scan(Scan, Order, Across, Up, Flat, Start, Unused, Naming),
                       scan_count(Start, Unused, Count0, Stats),
                       unload_scan(Start)),
    Count is Count0 * Naming.

transposed([P, X, Y, W, H], [P, Y, X, H, W]).

%   load_scan(+Scan, +Order, +Across, +Up, +Placed, -Start, -Unused, -Naming):
%   the kinds and the anchored placements of one scan order as facts; the
%   start state start(Free, Mirror, Context) and the pieces as kinds.

load_scan(Scan, Order, Across, Up, Placed, start(Free, Mirror, Context), Unused, Naming) :-
    unload_scan,
    maplist(scan_sizes(Scan), Order, Sizes),
    msort(Sizes, Sorted),
    clumped(Sorted, Groups),
    foldl(assert_kind, Groups, 0-0, Bits-Unused),
    foldl(naming, Groups, 1, Naming),
    Full is (1 << (Across * Up)) - 1,
    foldl(remove_placement(Up), Placed, Full, Free),
    maplist(mirrored(Up), Placed, Turned),
    foldl(remove_placement(Up), Turned, Full, Mirror),
    (   suffixes(Free, Across, Up) -> Rows = true ; Rows = false ),
    findall(Cell-Anchor,
            ( kind(Field, Unit, Shapes), member([W, H], Shapes),
              MaxX is Across - W, between(0, MaxX, X),
              MaxY is Up - H, between(0, MaxY, Y),
              anchor(Across, Up, Rows, Field, Unit, X, Y, W, H, Cell, Anchor) ),
            Pairs),
    keysort(Pairs, ByCell),                     % stable: a cell's placements keep their order
    group_pairs_by_key(ByCell, Grouped),
    Cells is Across * Up,
    cell_lists(0, Cells, Grouped, Lists),
    Anchors =.. [anchors|Lists],
    aggregate_all(min(H), (kind(_, _, Shapes), member([_, H], Shapes)), MinH),
    aggregate_all(min(W), (kind(_, _, Shapes), member([W, _], Shapes)), MinW),
    LastX is Across - 1,
    aggregate_all(sum(1 << (X * Up)), between(0, LastX, X), Bottoms),   % each column's bottom cell
    (   MinH >= 2
    ->  Above is Bottoms * ((1 << Up) - 2), Below is Bottoms * ((1 << (Up - 1)) - 1)
    ;   Above = 0, Below = 0
    ),
    (   MinW >= 2 -> Wide = true ; Wide = false ),
    setting(memo_generation, Size),
    new_memo(Size, Memo),
    Context = context(Up, Bits, Above, Below, Wide, Rows, Memo, Anchors).

unload_scan :-
    retractall(kind(_, _, _)),
    retractall(fills(_, _, _)).

unload_scan(start(_, _, Context)) :-
    arg(7, Context, Memo),
    drop_memo(Memo),
    unload_scan.

scan_sizes(Scan, Piece, Sizes) :-
    findall([W, H], scan_turned(Scan, Piece, W, H), Sizes0),
    msort(Sizes0, Sizes).

scan_turned(columns, Piece, W, H) :-
    turned(Piece, W, H).
scan_turned(rows, Piece, H, W) :-
    turned(Piece, W, H).

%   assert_kind(+Shapes-Number, +Offset0-Unused0, -Offset-Unused): a bit
%   field wide enough for Number pieces of the same Shapes, holding Number.

assert_kind(Shapes-Number, Offset0-Unused0, Offset-Unused) :-
    Width is msb(Number) + 1,
    Field is ((1 << Width) - 1) << Offset0,
    Unit is 1 << Offset0,
    assertz(kind(Field, Unit, Shapes)),
    Unused is Unused0 \/ (Number << Offset0),
    Offset is Offset0 + Width.

naming(_-Number, Ways0, Ways) :-
    numlist(1, Number, Factors),
    foldl([F, A0, A]>>(A is A0 * F), Factors, Ways0, Ways).

mirrored(Up, [P, X, Y, W, H], [P, X, Y1, W, H]) :-
    Y1 is Up - Y - H.

%   suffixes(+Free, +Across, +Up): every row's free cells reach the right
%   edge (no cell is free left of a filled one), as on a board filled from
%   the left only.

suffixes(Free, Across, Up) :-
    Column is (1 << Up) - 1,
    Last is Across - 2,
    forall(between(0, Last, X),
           (Free >> (X * Up)) /\ \ (Free >> ((X + 1) * Up)) /\ Column =:= 0).

%   anchor(+Across, +Up, +Rows, +Field, +Unit, +X, +Y, +W, +H, -Cell,
%   -Anchor): a W x H placement of a kind at [X, Y], Cell its bit, as the
%   counter tries it: a(Field, Unit, H, Mask, Flipped, After), Flipped the
%   mask upside down, After the columns right of it (Rows: every row's free
%   cells reach the right edge; 0 otherwise).

anchor(Across, Up, Rows, Field, Unit, X, Y, W, H, Cell, a(Field, Unit, H, Mask, Flipped, After)) :-
    rect_mask(Up, X, Y, W, H, Mask),
    Y1 is Up - Y - H,
    rect_mask(Up, X, Y1, W, H, Flipped),
    Cell is X * Up + Y,
    (   Rows == true -> After is Across - X - W ; After = 0 ).

%   cell_lists(+Cell, +Cells, +Grouped, -Lists): the anchored placements of
%   each cell from Cell on, [] where none is.

cell_lists(Cell, Cells, Grouped, Lists) :-
    (   Cell =:= Cells
    ->  Lists = []
    ;   (   Grouped = [Cell-Anchors|Rest]
        ->  true
        ;   Anchors = [], Rest = Grouped
        ),
        Lists = [Anchors|More],
        Next is Cell + 1,
        cell_lists(Next, Cells, Rest, More)
    ).

scan_count(start(Free, Mirror, Context), Unused, Count, [Memo, Cleared]) :-
    completions(Free, Mirror, Unused, Context, Count),
    arg(7, Context, memo(Generation, Stored, Size, _, _)),
    Memo is Stored + min(Generation, 1) * Size,
    Cleared is max(Generation - 1, 0).

%   completions(+Free, +Mirror, +Unused, +Context, -Count): the tilings of
%   the free cells by the pieces Unused (Mirror: the free cells upside down).

completions(Free, Mirror, Unused, Context, Count) :-
    (   Unused =:= 0
    ->  Count = 1
    ;   Context = context(Up, Bits, _, _, _, _, Memo, Anchors),
        Low is lsb(Free),
        Shift is Low - Low mod Up,
        Key is (min(Free >> Shift, Mirror >> Shift) << Bits) \/ Unused,
        (   known(Key, Memo, Known)
        ->  Count = Known
        ;   Column is Free >> Low,
            Run is min(lsb((Column + 1) /\ \ Column), Up - Low mod Up),
            Cell is Low + 1,
            arg(Cell, Anchors, Placements),
            children(Placements, Free, Mirror, Unused, Run, Context, 0, Count0),
            remember(Key, Count0, Memo),
            Count = Count0
        )
    ).

%   children(+Anchors, +Free, +Mirror, +Unused, +Run, +Context, +Count0,
%   -Count): Count0 plus the tilings that go on with each placement of
%   Anchors (at the first free cell, Run cells free up from it) that is
%   followed.

children([], _, _, _, _, _, Count, Count).
children([a(Field, Unit, H, Mask, Flipped, After)|Anchors], Free, Mirror, Unused, Run, Context, Count0, Count) :-
    (   H =< Run,
        Unused /\ Field =\= 0,
        Context = context(Up, _, Above, Below, Wide, Rows, _, _),
        (   Rows == true -> true ; Free /\ Mask =:= Mask ),  % rows free to the right edge: fits when H =< Run
        Rest is Unused - Unit,
        sums(Rest, Widths, Heights),
        getbit(Widths, After) =:= 1,
        getbit(Heights, Run - H) =:= 1,
        Left is Free xor Mask,
        (   Above =:= 0 -> true ; Left /\ \ (((Left << 1) /\ Above) \/ ((Left >> 1) /\ Below)) =:= 0 ),
        (   Wide == true -> Left /\ \ ((Left << Up) \/ (Left >> Up)) =:= 0 ; true )
    ->  Turned is Mirror xor Flipped,
        completions(Left, Turned, Rest, Context, N),
        Count1 is Count0 + N
    ;   Count1 = Count0
    ),
    children(Anchors, Free, Mirror, Unused, Run, Context, Count1, Count).

%   The memo: two tries, the current generation and the one before it.
%   Memo is memo(Generation, Stored, Size, Current, Older): the current
%   generation's number and entries, how many it takes, and the tries; when
%   the current one is full the older is dropped and a new one begins, so
%   the memo keeps the newest one to two generations.

new_memo(Size, memo(0, 0, Size, Current, Older)) :-
    trie_new(Current),
    trie_new(Older).

%   known(+Key, +Memo, -Count): Count was remembered for Key.

known(Key, memo(Generation, _, _, Current, Older), Count) :-
    (   trie_lookup(Current, Key, Count0)
    ->  Count = Count0
    ;   Generation > 0,
        trie_lookup(Older, Key, Count)
    ).

%   remember(+Key, +Count, +Memo): Count for Key in the memo.

remember(Key, Count, Memo) :-
    Memo = memo(Generation0, Stored0, Size, Current0, Older),
    (   Stored0 >= Size
    ->  trie_destroy(Older),
        trie_new(Current),
        nb_setarg(4, Memo, Current),
        nb_setarg(5, Memo, Current0),
        Generation is Generation0 + 1,
        nb_setarg(1, Memo, Generation),
        Stored = 1
    ;   Current = Current0,
        Stored is Stored0 + 1
    ),
    nb_setarg(2, Memo, Stored),
    trie_insert(Current, Key, Count).

%   drop_memo(+Memo): the memo's tries destroyed.

drop_memo(memo(_, _, _, Current, Older)) :-
    trie_destroy(Current),
    trie_destroy(Older).

%   sums(+Unused, -Widths, -Heights): the widths and the heights the pieces
%   Unused can add up to, as bit sets (bit N set: N is a sum); kept.

sums(Unused, Widths, Heights) :-
    (   fills(Unused, Widths0, Heights0)
    ->  Widths = Widths0, Heights = Heights0
    ;   findall(Number-Shapes, ( kind(Field, Unit, Shapes), Number is (Unused /\ Field) // Unit ), Kinds),
        foldl(add_kind, Kinds, 1-1, Widths0-Heights0),
        assertz(fills(Unused, Widths0, Heights0)),
        Widths = Widths0, Heights = Heights0
    ).

add_kind(Number-Shapes, Sums0, Sums) :-
    (   Number =:= 0
    ->  Sums = Sums0
    ;   foldl(add_shape(Sums0), Shapes, Sums0, Sums1),
        Number1 is Number - 1,
        add_kind(Number1-Shapes, Sums1, Sums)
    ).

add_shape(Widths0-Heights0, [W, H], Ws0-Hs0, Ws-Hs) :-
    Ws is Ws0 \/ (Widths0 << W),
    Hs is Hs0 \/ (Heights0 << H).

%!  bfs_tiling(+Order, +Placed, -Tiling) is semidet.
%
%   Tiling is the first tiling met by a breadth-first search over the
%   `dfs` steps of tiling/4: a FIFO queue of partial placements, each expanded
%   by the next piece of Order at each of its options in board order.
%   Fails when Placed cannot be completed.
%
%   ```
%   ?- with_instance(3, 2, [[a, 2, 2], [b, 1, 2]], false, bfs_tiling([a, b], [], Tiling)).
%   Tiling = [[a, 0, 0, 2, 2], [b, 2, 0, 1, 2]].
%   ```
%
%   @error type_error(list(atom), Order) unless Order is a list of piece names.

bfs_tiling(Order, Placed, Tiling) :-
    must_be(list(atom), Order),
    free_cells(Placed, Free),
    (   trace_active -> Traced = true ; Traced = false ),
    trace_root(Root),
    Queue = [state(Free, Order, [], Root)|Tail],
    breadth_first(Queue, Tail, Traced, Chosen),
    in_piece_order(Placed, Chosen, Tiling).

%   A state of the queue is state(Free, ToPlace, Reversed, Parent): Parent
%   is the node of the state it extends (recorded), else the root.

breadth_first(Queue, Tail, Traced, Chosen) :-
    Queue \== Tail,
    Queue = [state(Free, ToPlace, Reversed, Parent)|Rest],
    taken(Traced, Reversed, Parent, Node),
    (   ToPlace == []
    ->  (   Traced == true -> trace_solution(Node) ; true ),
        reverse(Reversed, Chosen)
    ;   ToPlace = [Piece|Pieces],
        findall(state(Free1, Pieces, [[Piece|Where]|Reversed], Node),
                step([Piece|Where], Free, Free1),
                Children),
        (   Traced == true, Children == [] -> trace_fail(Node) ; true ),
        append(Children, NewTail, Tail),
        breadth_first(Rest, NewTail, Traced, Chosen)
    ).

%   taken(+Traced, +Reversed, +Parent, -Node): the state taken from the
%   queue, whose last placement heads Reversed, recorded below Parent (the
%   start, nothing placed, is the root itself). A queue never backtracks.

taken(false, _, Node, Node).
taken(true, Reversed, Parent, Node) :-
    (   Reversed = [Placement|_]
    ->  once(placement_node(Placement, Parent, Node))
    ;   Node = Parent
    ).

%!  piece_options(+Piece, +Placed, -Options) is det.
%
%   Options of Piece (as options/3) on the cells the placements Placed
%   leave free.
%
%   ```
%   ?- with_instance(3, 2, [[a, 2, 2], [b, 1, 2]], false, piece_options(b, [[a, 0, 0, 2, 2]], Options)).
%   Options = [[2, 0, 1, 2]].
%   ```
%
%   @error type_error(list, Placed) if Placed is not a list; type_error(atom, Piece) if Piece is no
%       name.

piece_options(Piece, Placed, Options) :-
    free_cells(Placed, Free),
    options(Piece, Free, Options).

%!  tangram(+Width, +Height, +Pieces, +Rotations, -Tiling) is nondet.
%
%   The rules interface (docs/tangram.md, "Check your own rules"): Tiling
%   covers the board Width x Height exactly with Pieces (a list of `[Name,
%   PieceWidth, PieceHeight]`; Rotations `true` when a piece may also lie
%   turned), every tiling once on backtracking: one placement `[Piece, X,
%   Y, W, H]` per piece (bottom-left cell, the size it lies with). Here
%   the `cell` search answers it; `pysolve check tangram FILE.pl` asks a
%   rule base of one's own the same.
%
%   ```
%   ?- tangram(3, 2, [[a, 2, 2], [b, 1, 2]], false, Tiling).
%   Tiling = [[a, 0, 0, 2, 2], [b, 2, 0, 1, 2]].
%   ```
%
%   @error as with_instance/5.

tangram(Width, Height, Pieces, Rotations, Tiling) :-
    maplist([[Name | _], Name]>>true, Pieces, Order),
    with_instance(Width, Height, Pieces, Rotations, tiling(cell, Order, [], Tiling)).

%!  tiling_problems(+Placements, -Problems) is det.
%
%   Problems lists what keeps Placements from being a tiling, in piece
%   order: `[out_of_board, P]`, `[overlap, P, Q, SharedCells]` and
%   `[missing, P]`; `[]` when Placements are a tiling.
%
%   ```
%   ?- with_instance(3, 2, [[a, 2, 2], [b, 1, 2]], false, tiling_problems([[a, 0, 0, 2, 2]], Problems)).
%   Problems = [[missing, b]].
%   ```
%
%   @error type_error(list, Placements) if Placements is not a list.

tiling_problems(Placements, Problems) :-
    must_be(list, Placements),
    board(BoardW, BoardH),
    in_piece_order(Placements, [], Sorted),
    findall([out_of_board, P],
            ( member([P|Where], Sorted), \+ inside_board(BoardW, BoardH, Where) ),
            Outside),
    findall([overlap, P, Q, Shared],
            ( append(_, [[P|A]|After], Sorted), member([Q|B], After),
              shared_cells([P|A], [Q|B], Shared), Shared > 0 ),
            Overlaps),
    findall([missing, P],
            ( tile(P, _, _), \+ memberchk([P|_], Placements) ),
            Missing),
    append([Outside, Overlaps, Missing], Problems).

inside_board(BoardW, BoardH, [X, Y, W, H]) :-
    X >= 0, Y >= 0, X + W =< BoardW, Y + H =< BoardH.

shared_cells(First, Second, Count) :-
    placement_cells(First, Cells1),
    placement_cells(Second, Cells2),
    intersection(Cells1, Cells2, Shared),
    length(Shared, Count).
