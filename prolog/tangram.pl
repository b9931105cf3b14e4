:- module(tangram,
          [ board/2,                    % ?Width, ?Height
            piece/5,                    % ?Name, ?Key, ?Colour, ?Width, ?Height
            orientation/3,              % ?Piece, ?Width, ?Height
            use_instance/5,             % +Key, +Width, +Height, +Pieces, +Rotations
            placement_cells/2,          % +Placement, -Cells
            cells_mask/2,               % +Cells, -Mask
            free_cells/2,               % +Placements, -Free
            options/3,                  % +Piece, +Free, -Options
            place/3,                    % ?Placement, +Free0, -Free
            tiling/4,                   % +Strategy, +Order, +Placed, -Tiling
            all_tilings/4,              % +Strategy, +Order, +Placed, -Tilings
            count_tilings/4,            % +Strategy, +Order, +Placed, -Count
            bfs_tiling/3,               % +Order, +Placed, -Tiling
            piece_options/3,            % +Piece, +Placed, -Options
            tiling_problems/2           % +Placements, -Problems
          ]).

/** <module> Rectangle tangram: cover a board exactly with rectangles

The board and the pieces are facts (the classic 10 x 10 instance below;
use_instance/5 swaps in any other). Cells are `[X, Y]`, `[0, 0]` bottom-left;
a placement is `[Piece, X, Y, Width, Height]` (the bottom-left cell and the
size the piece lies with). Sets of free cells are integer masks: cell
`[X, Y]` is bit `X * BoardHeight + Y`, so bit order is board order (x-major)
and the lowest set bit is the first free cell.

Searches place the pieces of an Order list one after the other, each at one
of its options in board order (depth-first through backtracking, or
breadth-first with a queue), or (strategy `cell`) cover the first free cell
with each unused piece in turn.
*/

:- use_module(library(lists)).
:- use_module(library(apply)).
:- use_module(library(aggregate)).

:- dynamic board/2, piece/5, rotations/1, slot/7, loaded/1.

%!  board(?Width, ?Height) is semidet.
%
%   The board of the current instance, Width x Height cells.

board(10, 10).

%!  piece(?Name, ?Key, ?Colour, ?Width, ?Height) is nondet.
%
%   The pieces of the current instance in search order: name, selection
%   key, colour and size as given (before any rotation).

piece(green,  '1', '#2e9e4f', 4, 2).
piece(blue,   '2', '#2f6fd6', 4, 5).
piece(red,    '3', '#d63a2f', 3, 8).
piece(orange, '4', '#f08c1a', 7, 3).
piece(pink,   '5', '#e96fb4', 3, 7).
piece(yellow, '6', '#f2d02b', 3, 2).

rotations(false).
loaded(classic).

:- initialization(index_slots).

%!  orientation(?Piece, ?Width, ?Height) is nondet.
%
%   Piece may lie Width x Height: as given, then turned when rotations are
%   on and the piece is not a square.

orientation(Piece, Width, Height) :-
    piece(Piece, _, _, W0, H0),
    (   Width = W0, Height = H0
    ;   rotations(true), W0 =\= H0, Width = H0, Height = W0
    ).

%!  use_instance(+Key, +Width, +Height, +Pieces, +Rotations) is det.
%
%   Make the board Width x Height with Pieces (a list of
%   `piece(Name, Key, Colour, Width, Height)`) the current instance;
%   Rotations is `true` or `false`. Key names the instance: when it is
%   already current nothing is redone.

use_instance(Key, Width, Height, Pieces, Rotations) :-
    (   loaded(Key)
    ->  true
    ;   retractall(loaded(_)),
        retractall(board(_, _)),
        retractall(piece(_, _, _, _, _)),
        retractall(rotations(_)),
        assertz(board(Width, Height)),
        forall(member(piece(N, K, C, W, H), Pieces), assertz(piece(N, K, C, W, H))),
        assertz(rotations(Rotations)),
        index_slots,
        assertz(loaded(Key))
    ).

%   slot(Piece, Anchor, X, Y, W, H, Mask): a placement inside the empty
%   board, Anchor its bottom-left cell's bit number; per piece in board order.

index_slots :-
    retractall(slot(_, _, _, _, _, _, _)),
    board(BoardW, BoardH),
    MaxX is BoardW - 1,
    MaxY is BoardH - 1,
    forall(( piece(P, _, _, _, _),
             between(0, MaxX, X), between(0, MaxY, Y),
             orientation(P, W, H),
             X + W =< BoardW, Y + H =< BoardH ),
           ( placement_cells([P, X, Y, W, H], Cells),
             cells_mask(Cells, Mask),
             Anchor is X * BoardH + Y,
             assertz(slot(P, Anchor, X, Y, W, H, Mask)) )).

%!  placement_cells(+Placement, -Cells) is det.
%
%   Cells are the `[X, Y]` cells a placement `[Piece, X0, Y0, W, H]`
%   covers, in board order.

placement_cells([_, X0, Y0, W, H], Cells) :-
    findall([X, Y],
            ( X1 is X0 + W - 1, between(X0, X1, X),
              Y1 is Y0 + H - 1, between(Y0, Y1, Y) ),
            Cells).

%!  cells_mask(+Cells, -Mask) is det.
%
%   Mask has the bit of every `[X, Y]` in Cells set (cells on the board).

cells_mask(Cells, Mask) :-
    board(_, BoardH),
    foldl(add_cell(BoardH), Cells, 0, Mask).

add_cell(BoardH, [X, Y], Mask0, Mask) :-
    Mask is Mask0 \/ (1 << (X * BoardH + Y)).

%!  free_cells(+Placements, -Free) is det.
%
%   Free is the mask of the cells no placement covers.

free_cells(Placements, Free) :-
    board(W, H),
    Full is (1 << (W * H)) - 1,
    foldl(remove_placement, Placements, Full, Free).

remove_placement(Placement, Free0, Free) :-
    placement_cells(Placement, Cells),
    cells_mask(Cells, Mask),
    Free is Free0 /\ \ Mask.

%!  options(+Piece, +Free, -Options) is det.
%
%   Options are the `[X, Y, W, H]` where Piece fits on the free cells
%   (mask Free), in board order: the bottom-left cell x-major, then the
%   orientation.

options(Piece, Free, Options) :-
    findall([X, Y, W, H], option([Piece, X, Y, W, H], Free, _), Options).

option([Piece, X, Y, W, H], Free, Mask) :-
    slot(Piece, _, X, Y, W, H, Mask),
    Free /\ Mask =:= Mask.

%!  place(?Placement, +Free0, -Free) is nondet.
%
%   Placement `[Piece, X, Y, W, H]` fits on Free0 (one option, in board
%   order on backtracking) and leaves the free cells Free.

place(Placement, Free0, Free) :-
    option(Placement, Free0, Mask),
    Free is Free0 xor Mask.

place_all([], _, []).
place_all([Piece|Pieces], Free0, [[Piece|Where]|Placements]) :-
    place([Piece|Where], Free0, Free),
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
%   Tiling lists the placements in piece order.

tiling(Strategy, Order, Placed, Tiling) :-
    free_cells(Placed, Free),
    fill(Strategy, Order, Free, New),
    in_piece_order(Placed, New, Tiling).

fill(dfs, Order, Free, Placements) :-
    place_all(Order, Free, Placements).
fill(cell, Pieces, Free, Placements) :-
    cover(Free, Pieces, Placements).

cover(Free, Pieces, Placements) :-
    (   Free =:= 0
    ->  Pieces = [], Placements = []
    ;   Anchor is lsb(Free),
        select(Piece, Pieces, Rest),
        slot(Piece, Anchor, X, Y, W, H, Mask),
        Free /\ Mask =:= Mask,
        Free1 is Free xor Mask,
        Placements = [[Piece, X, Y, W, H]|More],
        cover(Free1, Rest, More)
    ).

in_piece_order(Placed, New, Tiling) :-
    append(Placed, New, All),
    findall(Placement,
            ( piece(Name, _, _, _, _), member(Placement, All), Placement = [Name|_] ),
            Tiling).

%!  all_tilings(+Strategy, +Order, +Placed, -Tilings) is det.
%
%   Tilings is every tiling/4 answer, in search order.

all_tilings(Strategy, Order, Placed, Tilings) :-
    findall(Tiling, tiling(Strategy, Order, Placed, Tiling), Tilings).

%!  count_tilings(+Strategy, +Order, +Placed, -Count) is det.
%
%   Count is the number of tiling/4 answers (counted without building them).

count_tilings(Strategy, Order, Placed, Count) :-
    free_cells(Placed, Free),
    aggregate_all(count, fill(Strategy, Order, Free, _), Count).

%!  bfs_tiling(+Order, +Placed, -Tiling) is semidet.
%
%   Tiling is the first tiling met by a breadth-first search over the
%   `dfs` steps of tiling/4: a FIFO queue of partial placements, each expanded
%   by the next piece of Order at each of its options in board order.
%   Fails when Placed cannot be completed.

bfs_tiling(Order, Placed, Tiling) :-
    free_cells(Placed, Free),
    Queue = [state(Free, Order, [])|Tail],
    breadth_first(Queue, Tail, Chosen),
    in_piece_order(Placed, Chosen, Tiling).

breadth_first(Queue, Tail, Chosen) :-
    Queue \== Tail,
    Queue = [state(Free, ToPlace, Reversed)|Rest],
    (   ToPlace == []
    ->  reverse(Reversed, Chosen)
    ;   ToPlace = [Piece|Pieces],
        findall(state(Free1, Pieces, [[Piece|Where]|Reversed]),
                place([Piece|Where], Free, Free1),
                Children),
        append(Children, NewTail, Tail),
        breadth_first(Rest, NewTail, Chosen)
    ).

%!  piece_options(+Piece, +Placed, -Options) is det.
%
%   Options of Piece (as options/3) on the cells the placements Placed
%   leave free.

piece_options(Piece, Placed, Options) :-
    free_cells(Placed, Free),
    options(Piece, Free, Options).

%!  tiling_problems(+Placements, -Problems) is det.
%
%   Problems lists what keeps Placements from being a tiling, in piece
%   order: `[out_of_board, P]`, `[overlap, P, Q, SharedCells]` and
%   `[missing, P]`; `[]` when Placements are a tiling.

tiling_problems(Placements, Problems) :-
    in_piece_order(Placements, [], Sorted),
    findall([out_of_board, P],
            ( member([P|Where], Sorted), \+ inside_board(Where) ),
            Outside),
    findall([overlap, P, Q, Shared],
            ( append(_, [[P|A]|After], Sorted), member([Q|B], After),
              shared_cells([P|A], [Q|B], Shared), Shared > 0 ),
            Overlaps),
    findall([missing, P],
            ( piece(P, _, _, _, _), \+ memberchk([P|_], Placements) ),
            Missing),
    append([Outside, Overlaps, Missing], Problems).

inside_board([X, Y, W, H]) :-
    board(BoardW, BoardH),
    X >= 0, Y >= 0, X + W =< BoardW, Y + H =< BoardH.

shared_cells(First, Second, Count) :-
    placement_cells(First, Cells1),
    placement_cells(Second, Cells2),
    intersection(Cells1, Cells2, Shared),
    length(Shared, Count).
