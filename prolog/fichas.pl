:- module(fichas,
          [ start/3,                   % +M, +N, -State
            goal_state/3,              % +M, +N, -State
            goal/1,                    % +State
            successor/2,               % +State, -Next
            heuristic/2,               % +State, -H
            state_label/2,             % +State, -Board
            mirror/2,                  % +State, -Mirrored
            board_state/2,             % ?Board, ?State
            move/2,                    % +Board, -Next
            solve/6,                   % +M, +N, +Strategy, +Flavour, -Path, -Expanded
            shortest/4,                % +M, +N, -Path, -Expanded
            fichas/3                   % +M, +N, -Path
          ]).

/** <module> The tokens puzzle ("el problema de las fichas")

A row of M white tokens B, a hole H and N green tokens V must become N
greens, the hole and M whites; a move slides the token one, two or three
cells from the hole into it. Boards are atoms such as 'BBHVV' at the
boundary (move/2, solve/6, shortest/4).

Inside, a board is one integer (a "state"), so that search can index and
compare states in constant time: the cells as base-4 digits (H = 0, B = 1,
V = 2, cell 0 the least significant), then five bits of hole position,
then five bits of length:  State = (Cells << 10) \/ (Hole << 5) \/ Length.

This module is a problem for pysolve_search.pl: it defines successor/2,
goal/1, heuristic/2 and state_label/2 over states.
*/

:- set_prolog_flag(optimise, true).   % compile the arithmetic of the moves inline
:- use_module(pysolve_search, [tree_search/6, mirrored_shortest_path/4]).
:- use_module(library(lists), [append/3, member/2, nth0/3, numlist/3]).
:- use_module(library(apply), [foldl/4, foldl/5, maplist/2, maplist/3]).
:- use_module(library(error), [must_be/2]).

cell_digit('H', 0).
cell_digit('B', 1).
cell_digit('V', 2).

%!  board_state(?Board, ?State) is det.
%
%   Board is the atom of the board that State encodes ('BBHVV'); one of
%   the two must be given.
%
%   ```
%   ?- board_state('BBHVV', State), board_state(Board, State).
%   State = 660549,
%   Board = 'BBHVV'.
%   ```
%
%   @error instantiation_error if neither Board nor State is given.

board_state(Board, State) :-
    (   atom(Board)
    ->  atom_chars(Board, Cells),
        length(Cells, Length),
        nth0(Hole, Cells, 'H'),
        foldl(add_cell, Cells, 0-0, Digits-_),
        encode(Length, Hole, Digits, State)
    ;   decode(State, Length, _, Digits),
        numlist(1, Length, Positions),
        foldl(cell_char(Digits), Positions, Chars, 0, _),
        atom_chars(Board, Chars)
    ).

add_cell(Cell, Digits0-Index, Digits-Index1) :-
    cell_digit(Cell, Digit),
    Digits is Digits0 \/ (Digit << (2 * Index)),
    Index1 is Index + 1.

cell_char(Digits, _, Char, Index, Index1) :-
    Digit is (Digits >> (2 * Index)) /\ 3,
    cell_digit(Char, Digit),
    Index1 is Index + 1.

decode(State, Length, Hole, Digits) :-
    Length is State /\ 31,
    Hole is (State >> 5) /\ 31,
    Digits is State >> 10.

encode(Length, Hole, Digits, State) :-
    State is (Digits << 10) \/ (Hole << 5) \/ Length.

%!  start(+M, +N, -State) is det.
%
%   State is the start of order (M, N): M whites, the hole, N greens.
%   Raises a type error unless M and N are non-negative integers.
%
%   ```
%   ?- start(2, 2, State), state_label(State, Board).
%   State = 660549,
%   Board = 'BBHVV'.
%   ```
%
%   @error type_error(nonneg, M) or type_error(nonneg, N) unless a non-negative integer.

start(M, N, State) :-
    must_be(nonneg, M),
    must_be(nonneg, N),
    line_up('B', M, 'V', N, State).

%!  goal_state(+M, +N, -State) is det.
%
%   State is the goal of order (M, N): N greens, the hole, M whites.
%
%   ```
%   ?- goal_state(2, 2, State), state_label(State, Board).
%   State = 337989,
%   Board = 'VVHBB'.
%   ```
%
%   @error type_error(nonneg, M) or type_error(nonneg, N) unless a non-negative integer.

goal_state(M, N, State) :-
    line_up('V', N, 'B', M, State).

%   line_up(+Left, +LeftCount, +Right, +RightCount, -State): LeftCount
%   tokens Left, the hole, RightCount tokens Right.

line_up(Left, LeftCount, Right, RightCount, State) :-
    length(Lefts, LeftCount),
    maplist(=(Left), Lefts),
    length(Rights, RightCount),
    maplist(=(Right), Rights),
    append(Lefts, ['H'|Rights], Cells),
    atom_chars(Board, Cells),
    board_state(Board, State).

%!  goal(+State) is semidet.
%
%   Every green stands left of the hole and every white right of it: with
%   counts conserved by every move, that is one board per hole position.
%
%   ```
%   ?- goal_state(1, 2, State), ( goal(State) -> Goal = true ; Goal = false ).
%   State = 75844,
%   Goal = true.
%   ```
%
%   @error none: a State that is no encoded board fails or raises the type error of is/2.

goal(State) :-
    decode(State, Length, Hole, Digits),
    Greens is 2 * ((1 << (2 * Hole)) - 1) // 3,
    Whites is ((1 << (2 * Length)) - (1 << (2 * (Hole + 1)))) // 3,
    Digits =:= Greens + Whites.

%!  successor(+State, -Next) is nondet.
%
%   Next is State after one move. On backtracking the moves come in the
%   spec's order: the token 1, 2, 3 cells left of the hole, then 1, 2, 3
%   cells right of it.
%
%   ```
%   ?- board_state('BHV', State), findall(B, ( successor(State, N), state_label(N, B) ), Boards).
%   State = 33827,
%   Boards = ['HBV', 'BVH'].
%   ```
%
%   @error none: as goal/1.

successor(State, Next) :-
    decode(State, Length, Hole, Digits),
    member(Offset, [-1, -2, -3, 1, 2, 3]),
    Other is Hole + Offset,
    Other >= 0,
    Other < Length,
    Token is (Digits >> (2 * Other)) /\ 3,
    Digits1 is Digits - (Token << (2 * Other)) + (Token << (2 * Hole)),
    encode(Length, Other, Digits1, Next).

%!  mirror(+State, -Mirrored) is det.
%
%   Mirrored is the board read right to left. It maps the start of any
%   order to its goal and every move to a move, which lets
%   mirrored_shortest_path/4 search from one end only.
%
%   ```
%   ?- start(2, 1, State), mirror(State, Mirrored), state_label(Mirrored, Board).
%   State = 136260,
%   Mirrored = 84004,
%   Board = 'VHBB'.
%   ```
%
%   @error none: as goal/1.

mirror(State, Mirrored) :-
    decode(State, Length, Hole, Digits),
    reverse_digits(Length, Digits, 0, Reversed),
    Hole1 is Length - 1 - Hole,
    encode(Length, Hole1, Reversed, Mirrored).

reverse_digits(0, _, Reversed, Reversed).
reverse_digits(Count, Digits, Reversed0, Reversed) :-
    Count > 0,
    Reversed1 is (Reversed0 << 2) \/ (Digits /\ 3),
    Digits1 is Digits >> 2,
    Count1 is Count - 1,
    reverse_digits(Count1, Digits1, Reversed1, Reversed).

%!  move(+Board, -Next) is nondet.
%
%   successor/2 on board atoms: move('BHV', Next) gives 'HBV', then 'BVH'.
%
%   ```
%   ?- findall(Next, move('BHV', Next), Nexts).
%   Nexts = ['HBV', 'BVH'].
%   ```
%
%   @error instantiation_error if Board is unbound.

move(Board, Next) :-
    board_state(Board, State),
    successor(State, NextState),
    board_state(Next, NextState).

%!  heuristic(+State, -H) is det.
%
%   H sums, for every white, the greens to its right: M*N at the start,
%   0 at the goal.
%
%   ```
%   ?- start(2, 2, State), heuristic(State, H).
%   State = 660549,
%   H = 4.
%   ```
%
%   @error none: as goal/1.

heuristic(State, H) :-
    decode(State, Length, _, Digits),
    count_inversions(Length, Digits, 0, 0, H).

count_inversions(0, _, _, H, H).
count_inversions(Index, Digits, Greens0, H0, H) :-
    Index > 0,
    Cell is Index - 1,
    Digit is (Digits >> (2 * Cell)) /\ 3,
    (   Digit =:= 2
    ->  Greens is Greens0 + 1, H1 = H0
    ;   Digit =:= 1
    ->  Greens = Greens0, H1 is H0 + Greens0
    ;   Greens = Greens0, H1 = H0
    ),
    count_inversions(Cell, Digits, Greens, H1, H).

%!  state_label(+State, -Board) is det.
%
%   Board is the atom of State: the label of its node when the search is
%   recorded ('BBHVV').
%
%   ```
%   ?- start(1, 2, State), state_label(State, Board).
%   State = 164900,
%   Board = 'BHVV'.
%   ```
%
%   @error none: as goal/1.

state_label(State, Board) :-
    board_state(Board, State).

%!  solve(+M, +N, +Strategy, +Flavour, -Path, -Expanded) is det.
%
%   Tree search of order (M, N) with Strategy (dfs, bfs, 'best-first',
%   'hill-climbing') in Flavour (hs, py). Path is the list of board atoms
%   from start to goal ([] when the strategy fails); Expanded counts the
%   states expanded.
%
%   ```
%   ?- solve(1, 1, bfs, hs, Path, Expanded).
%   Path = ['BHV', 'BVH', 'HVB', 'VHB'],
%   Expanded = 5.
%   ```
%
%   @error type_error(nonneg, M) or type_error(nonneg, N) unless a non-negative integer.
%   @error domain_error(strategy, Strategy) or domain_error(flavour, Flavour) for another strategy
%       or flavour.

solve(M, N, Strategy, Flavour, Path, Expanded) :-
    start(M, N, Start),
    tree_search(fichas, Strategy, Flavour, Start, States, Expanded),
    maplist(board_state, Path, States).

%!  shortest(+M, +N, -Path, -Expanded) is det.
%
%   Path is a shortest solution of order (M, N) as board atoms, found by
%   breadth-first graph search from the start meeting its own mirror image
%   (the goal is the start read right to left); Expanded counts the states
%   expanded.
%
%   ```
%   ?- shortest(2, 1, Path, Expanded).
%   Path = ['BBHV', 'HBBV', 'VBBH', 'VHBB'],
%   Expanded = 4.
%   ```
%
%   @error type_error(nonneg, M) or type_error(nonneg, N) unless a non-negative integer.

shortest(M, N, Path, Expanded) :-
    start(M, N, Start),
    mirrored_shortest_path(fichas, Start, States, Expanded),
    maplist(board_state, Path, States).

%!  fichas(+M, +N, -Path) is nondet.
%
%   The rules interface (docs/fichas.md, "Check your own rules"): Path is
%   a shortest solution of order (M, N), the board atoms from the start
%   ('BBHVV') to the goal ('VVHBB'); only the first Path is read. Here
%   shortest/4 answers it; `pysolve check fichas FILE.pl` asks a rule base
%   of one's own the same and compares the length and the moves.
%
%   ```
%   ?- fichas(1, 1, Path).
%   Path = ['BHV', 'HBV', 'VBH', 'VHB'].
%   ```
%
%   @error type_error(nonneg, M) or type_error(nonneg, N) unless a non-negative integer.

fichas(M, N, Path) :-
    shortest(M, N, Path, _).
