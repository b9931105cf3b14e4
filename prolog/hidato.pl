:- module(hidato,
          [ king_adjacent/2,            % +Cell1, +Cell2
            open_cells/2,               % +Rows, -Cells
            solution/3,                 % +Strategy, +Rows, -Solved
            broken_pairs/2              % +Rows, -Pairs
          ]).

/** <module> Hidato: king-move paths through a board, two solvers

A board is given in the original encoding: a list of rows of integers, -1
for a blocked cell (not part of the board), 0 for an empty cell and a
positive number for a given; rows may have different lengths. The open
cells are numbered 1..N in reading order, and a solution puts 1..N on them
so that consecutive numbers are a king move apart.

Two strategies answer solution/3:

  - `original`: the original's depth-first walk from the cell of 1, each
    next number on a free neighbour (or its given cell), pruned when the
    number just placed (a) has no free neighbour while its successor is not
    given, or (b) has a given successor that is not adjacent;
  - `clpfd`: one finite-domain variable per number holding its cell,
    tuples_in/2 against the king-adjacency table for each consecutive
    pair, all_distinct/1, labeling([ff]).
*/

:- use_module(library(clpfd), [(ins)/2, all_distinct/1, labeling/2, tuples_in/2,
                               op(700, xfx, ins), op(450, xfx, ..)]).
:- use_module(library(lists), [append/3, member/2, nth0/3, nth1/3, reverse/2]).
:- use_module(library(apply), [foldl/4, foldl/5, maplist/2, maplist/3]).
:- use_module(library(assoc), [get_assoc/3, list_to_assoc/2, put_assoc/4]).
:- use_module(library(pairs), [pairs_values/2]).
:- use_module(library(error), [domain_error/2, must_be/2]).

%!  king_adjacent(+Cell1, +Cell2) is semidet.
%
%   Cell1 and Cell2, each Row-Column, are one king move apart.

king_adjacent(R1-C1, R2-C2) :-
    DR is abs(R1 - R2),
    DC is abs(C1 - C2),
    DR =< 1,
    DC =< 1,
    DR + DC > 0.

%!  open_cells(+Rows, -Cells) is det.
%
%   Cells lists the open cells of the board as Row-Column-Value (0-based
%   coordinates, Value 0 or a given), in reading order.

open_cells(Rows, Cells) :-
    findall(R-C-V, ( nth0(R, Rows, Row), nth0(C, Row, V), V =\= -1 ), Cells).

%!  solution(+Strategy, +Rows, -Solved) is nondet.
%
%   Solved is a solution of the board Rows (same shape, -1 kept for
%   blocked cells), found by Strategy, `original` or `clpfd`; every
%   solution on backtracking. Raises a domain error for another strategy
%   and a type error unless Rows is a list of lists of integers.

solution(Strategy, Rows, Solved) :-
    must_be(atom, Strategy),
    (   memberchk(Strategy, [clpfd, original])
    ->  true
    ;   domain_error(hidato_strategy, Strategy)
    ),
    must_be(list(list(integer)), Rows),
    board(Rows, Board),
    positions(Strategy, Board, Positions),
    numbers_in_cell_order(Positions, Numbers),
    foldl(fill_row, Rows, Solved0, Numbers, []),
    Solved = Solved0.

%!  broken_pairs(+Rows, -Pairs) is det.
%
%   For a filled board, Pairs lists each [K, K1] (K1 = K+1) whose cells are
%   not a king move apart; [] when the board is a solution.

broken_pairs(Rows, Pairs) :-
    must_be(list(list(integer)), Rows),
    open_cells(Rows, Cells),
    findall(K-(R-C), member(R-C-K, Cells), Placed0),
    keysort(Placed0, Placed),
    findall([K, K1],
            ( append(_, [K-A, K1-B|_], Placed),
              \+ king_adjacent(A, B)
            ),
            Pairs).

% board(+Rows, -Board): board(N, Values, Adjacent, Givens) with Values and
% Adjacent indexed by cell (arg/3), Givens a list of Number-Cell.
board(Rows, board(N, Values, Adjacent, Givens)) :-
    open_cells(Rows, Cells),
    length(Cells, N),
    findall(R-C, member(R-C-_, Cells), Coords),
    findall(V, member(_-_-V, Cells), ValueList),
    Values =.. [values|ValueList],
    maplist(neighbour_indexes(Coords), Coords, NeighbourLists),
    Adjacent =.. [adjacent|NeighbourLists],
    findall(V-I, ( arg(I, Values, V), V > 0 ), Givens).

neighbour_indexes(Coords, Cell, Indexes) :-
    findall(J, ( nth1(J, Coords, Other), king_adjacent(Cell, Other) ), Indexes).

% positions(+Strategy, +Board, -Positions): Positions lists the cell of 1..N.
positions(clpfd, Board, Positions) :-
    clpfd_positions(Board, Positions).
positions(original, Board, Positions) :-
    walk_positions(Board, Positions).

clpfd_positions(board(N, _, Adjacent, Givens), Positions) :-
    length(Positions, N),
    Positions ins 1..N,
    maplist(given_position(Positions), Givens),
    findall([I, J], ( arg(I, Adjacent, Js), member(J, Js) ), Table),
    consecutive_pairs(Positions, Pairs),
    tuples_in(Pairs, Table),
    all_distinct(Positions),
    labeling([ff], Positions).

given_position(Positions, Number-Cell) :-
    nth1(Number, Positions, Cell).

consecutive_pairs([], []).
consecutive_pairs([_], []).
consecutive_pairs([A, B|Rest], [[A, B]|Pairs]) :-
    consecutive_pairs([B|Rest], Pairs).

walk_positions(board(N, _, Adjacent, Givens), Positions) :-
    list_to_assoc(Givens, GivenCells),
    findall(Cell-given, member(_-Cell, Givens), UsedPairs),
    list_to_assoc(UsedPairs, Used),
    get_assoc(1, GivenCells, Start),
    Walk = walk(N, Adjacent, GivenCells),
    viable(Walk, 1, Start, Used),
    walk(Walk, 1, Start, Used, [Start], Reversed),
    reverse(Reversed, Positions).

% walk(+Walk, +K, +Cell, +Used, +Placed, -Reversed): K sits on Cell; place K+1..N.
walk(Walk, K, Cell, Used, Placed, Reversed) :-
    Walk = walk(N, _, _),
    (   K =:= N
    ->  Reversed = Placed
    ;   K1 is K + 1,
        next_cell(Walk, K1, Cell, Used, Next, Used1),
        viable(Walk, K1, Next, Used1),
        walk(Walk, K1, Next, Used1, [Next|Placed], Reversed)
    ).

% next_cell(+Walk, +K, +Cell, +Used, -Next, -Used1): K's cell next to Cell.
next_cell(walk(_, _, GivenCells), K, _, Used, Next, Used) :-
    get_assoc(K, GivenCells, Next).
next_cell(walk(_, Adjacent, GivenCells), K, Cell, Used, Next, Used1) :-
    \+ get_assoc(K, GivenCells, _),
    arg(Cell, Adjacent, Neighbours),
    member(Next, Neighbours),
    \+ get_assoc(Next, Used, _),
    put_assoc(Next, Used, placed, Used1).

% viable(+Walk, +K, +Cell, +Used): the original's prunings (a) and (b)
% after K was put on Cell.
viable(walk(N, Adjacent, GivenCells), K, Cell, Used) :-
    (   K =:= N
    ->  true
    ;   K1 is K + 1,
        arg(Cell, Adjacent, Neighbours),
        (   get_assoc(K1, GivenCells, Next)
        ->  memberchk(Next, Neighbours)
        ;   member(Free, Neighbours),
            \+ get_assoc(Free, Used, _)
        ->  true
        )
    ).

numbers_in_cell_order(Positions, Numbers) :-
    findall(Cell-Number, nth1(Number, Positions, Cell), Pairs0),
    keysort(Pairs0, Pairs),
    pairs_values(Pairs, Numbers).

fill_row(Row, Filled, Numbers0, Numbers) :-
    foldl(fill_cell, Row, Filled, Numbers0, Numbers).

fill_cell(Value, Filled, Numbers0, Numbers) :-
    (   Value =:= -1
    ->  Filled = -1,
        Numbers = Numbers0
    ;   Numbers0 = [Filled|Numbers]
    ).
