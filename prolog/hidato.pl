:- module(hidato,
          [ king_adjacent/2,            % +Cell1, +Cell2
            open_cells/2,               % +Rows, -Cells
            solution/3,                 % +Strategy, +Rows, -Solved
            solutions/4,                % +Strategy, +Rows, +Max, -Solutions
            broken_pairs/2,             % +Rows, -Pairs
            hidato/2                    % +Board, -Solution
          ]).

/** <module> Hidato: king-move paths through a board, four solvers

A board is given in the original encoding: a list of rows of integers, -1
for a blocked cell (not part of the board), 0 for an empty cell and a
positive number for a given; rows may have different lengths. The open
cells are numbered 1..N in reading order, and a solution puts 1..N on them
so that consecutive numbers are a king move apart.

Four strategies answer solution/3:

  - `original`: the original's depth-first walk from the cell of 1, each
    next number on a free neighbour (or its given cell), pruned when the
    number just placed (a) has no free neighbour while its successor is not
    given, or (b) has a given successor that is not adjacent;
  - `clpfd`: one finite-domain variable per number holding its cell,
    tuples_in/2 against the king-adjacency table for each consecutive
    pair, all_distinct/1, labeling([ff]);
  - `walk`: the original's walk strengthened, with the board kept as bit
    sets in one (unbounded) integer: the most cornered free neighbour is
    tried first, every free cell keeps two free-or-head neighbours, every
    later given stays within reach of the head in its number of moves, and
    the free cells stay connected to the head;
  - `logic`: the position model on bit sets, Python's propagating search:
    the set of cells each number may take, narrowed to a fixpoint by king
    moves between consecutive numbers and by all-different (a number's
    only cell leaves the other sets, a cell left to one number goes to
    it), branching on the number with the fewest cells.

solutions/4 with `fast` runs the portfolio Python's fast strategy runs:
`logic` for at most logic_share/1 search nodes (it proves sparse boards
unique in a few hundred nodes, where the walk would wander), then the
walk (it runs the long thin boards, where propagation wanders).

`traced(original)`, `traced(walk)`, `traced(logic)` and `traced(fast)` run
the same searches recorded as they run (pysolve_trace): each number put on
a cell is a node labelled `12 at r2c5` with the move `{"number": 12,
"row": 2, "col": 5}` (rows and columns from 1); a node fails where the
walk's prunings or the propagation reject it. Each search is written once
(pysolve_traced): the untraced one compiles to the clauses it would be
without a trace, at the same speed.
*/

:- use_module(library(clpfd), [(ins)/2, all_distinct/1, labeling/2, tuples_in/2,
                               op(700, xfx, ins), op(450, xfx, ..)]).
:- use_module(library(lists), [append/3, member/2, nth0/3, nth1/3, numlist/3, reverse/2, sum_list/2]).
:- use_module(library(aggregate), [aggregate_all/3]).
:- use_module(library(apply), [foldl/4, foldl/5, maplist/2, maplist/3]).
:- use_module(library(assoc), [get_assoc/3, list_to_assoc/2, put_assoc/4]).
:- use_module(library(pairs), [pairs_values/2]).
:- use_module(library(error), [domain_error/2, must_be/2]).
:- use_module(pysolve_bits, [bit_member/2]).
:- use_module(library(solution_sequences), [limit/2]).
:- use_module(pysolve_trace, [trace_enter/4, trace_root/1]).
:- use_module(pysolve_traced, [traceable/1]).

:- traceable([walk/6, strong_walk/7, logic_search/3]).

:- set_prolog_flag(optimise, true).   % compile the searches' arithmetic inline (file-local)

%   The search nodes of `logic` in the `fast` portfolio (Python's
%   LOGIC_FIRST_NODES); past them the walk takes over.
logic_share(500).

%!  king_adjacent(+Cell1, +Cell2) is semidet.
%
%   Cell1 and Cell2, each Row-Column, are one king move apart.
%
%   ```
%   ?- king_adjacent(2-3, 3-4).
%   true.
%   ```
%
%   @error none: cells that are not Row-Column pairs of integers raise the type error of is/2.

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
%
%   ```
%   ?- open_cells([[1,0],[-1,4]], Cells).
%   Cells = [0-0-1, 0-1-0, 1-1-4].
%   ```
%
%   @error type_error(list(list(integer)), Rows) if Rows is no board of integers.

open_cells(Rows, Cells) :-
    findall(R-C-V, ( nth0(R, Rows, Row), nth0(C, Row, V), V =\= -1 ), Cells).

%!  solution(+Strategy, +Rows, -Solved) is nondet.
%
%   Solved is a solution of the board Rows (same shape, -1 kept for
%   blocked cells), found by Strategy (`original`, `walk`, `logic` or
%   `clpfd`, or `traced(S)` for the first three: recorded); every solution
%   on backtracking. Raises a domain error for another strategy
%   and a type error unless Rows is a list of lists of integers.
%
%   ```
%   ?- solution(logic, [[1,0,0],[0,0,0],[0,0,9]], Solved).
%   Solved = [[1, 2, 3], [6, 8, 4], [7, 5, 9]].
%   ```
%
%   @error domain_error(hidato_strategy, Strategy) for another strategy.
%   @error type_error(list(list(integer)), Rows) if Rows is no board of integers.

solution(Strategy, Rows, Solved) :-
    checked(Strategy, Rows),
    solved(Strategy, Rows, Solved).

checked(Strategy, Rows) :-
    must_be(callable, Strategy),
    (   memberchk(Strategy, [clpfd, logic, original, walk, traced(logic), traced(original), traced(walk)])
    ->  true
    ;   domain_error(hidato_strategy, Strategy)
    ),
    must_be(list(list(integer)), Rows).

% solved(+Strategy, +Rows, -Solved): solution/3 without its checks;
% Strategy may also be logic(Nodes), `logic` within Nodes search nodes.
solved(Strategy, Rows, Solved) :-
    board(Rows, Board),
    positions(Strategy, Board, Positions),
    numbers_in_cell_order(Positions, Numbers),
    foldl(fill_row, Rows, Solved0, Numbers, []),
    Solved = Solved0.

%!  hidato(+Board, -Solution) is nondet.
%
%   The rules interface (docs/hidato.md, "Check your own rules"): Solution
%   is a solution of Board, every solution once on backtracking, both in
%   the encoding above (rows of integers, -1 blocked, 0 empty). Here the
%   `logic` strategy answers it; `pysolve check hidato FILE.pl` asks a rule
%   base of one's own the same.
%
%   ```
%   ?- aggregate_all(count, hidato([[1,0,0],[0,0,0],[0,0,9]], _), Count).
%   Count = 30.
%   ```
%
%   @error as solution/3.

hidato(Board, Solution) :-
    solution(logic, Board, Solution).

%!  solutions(+Strategy, +Rows, +Max, -Solutions) is det.
%
%   Solutions lists the first Max solutions of the board Rows (all when
%   Max is 0). Strategy is one of solution/3's, or `fast`: `logic` while
%   it stays within logic_share/1 search nodes, else the strengthened walk
%   (`traced(fast)`: both recorded, the walk from the root again).
%
%   ```
%   ?- solutions(fast, [[1,0,0],[0,0,0],[0,0,9]], 0, _Solutions), length(_Solutions, Count).
%   Count = 30.
%   ```
%
%   @error type_error(nonneg, Max) for a Max that is not a non-negative integer.
%   @error as solution/3 for Strategy and Rows.

solutions(Strategy, Rows, Max, Solutions) :-
    must_be(nonneg, Max),
    (   portfolio(Strategy, Logic, Walk)
    ->  must_be(list(list(integer)), Rows),
        catch(first_solutions(Logic, Rows, Max, Solutions),
              hidato_logic_share_spent,
              first_solutions(Walk, Rows, Max, Solutions))
    ;   checked(Strategy, Rows),
        first_solutions(Strategy, Rows, Max, Solutions)
    ).

portfolio(fast, logic(Nodes), walk) :-
    logic_share(Nodes).
portfolio(traced(fast), traced(logic(Nodes)), traced(walk)) :-
    logic_share(Nodes).

first_solutions(Strategy, Rows, Max, Solutions) :-
    (   Max =:= 0
    ->  findall(Solved, solved(Strategy, Rows, Solved), Solutions)
    ;   findall(Solved, limit(Max, solved(Strategy, Rows, Solved)), Solutions)
    ).

%!  broken_pairs(+Rows, -Pairs) is det.
%
%   For a filled board, Pairs lists each [K, K1] (K1 = K+1) whose cells are
%   not a king move apart; [] when the board is a solution.
%
%   ```
%   ?- broken_pairs([[1,2,3],[6,5,4],[9,8,7]], Pairs), broken_pairs([[1,3],[2,4]], Broken).
%   Pairs = [[6, 7]],
%   Broken = [].
%   ```
%
%   @error type_error(list(list(integer)), Rows) if Rows is no board of integers.

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

% board(+Rows, -Board): board(N, Values, Adjacent, Givens, Coords) with
% Values and Adjacent indexed by cell (arg/3), Givens a list of Number-Cell,
% Coords the cells' Row-Column in cell order.
board(Rows, board(N, Values, Adjacent, Givens, Coords)) :-
    open_cells(Rows, Cells),
    length(Cells, N),
    findall(R-C, member(R-C-_, Cells), Coords),
    findall(V, member(_-_-V, Cells), ValueList),
    Values =.. [values|ValueList],
    findall(Coord-Index, nth1(Index, Coords, Coord), Indexed),
    list_to_assoc(Indexed, IndexOf),
    maplist(neighbour_indexes(IndexOf), Coords, NeighbourLists),
    Adjacent =.. [adjacent|NeighbourLists],
    findall(V-I, ( arg(I, Values, V), V > 0 ), Givens).

% neighbour_indexes(+IndexOf, +Cell, -Indexes): the indexes of Cell's open
% king neighbours, in cell order (IndexOf maps Row-Column to index).
neighbour_indexes(IndexOf, R-C, Indexes) :-
    findall(J, ( member(DR, [-1, 0, 1]), member(DC, [-1, 0, 1]),
                 DR-DC \== 0-0,
                 R1 is R + DR, C1 is C + DC,
                 get_assoc(R1-C1, IndexOf, J)
               ), Unsorted),
    sort(Unsorted, Indexes).

% positions(+Strategy, +Board, -Positions): Positions lists the cell of
% 1..N; traced(S) records the search of S below the root.
positions(Strategy, Board, Positions) :-
    (   Strategy = traced(Search)
    ->  Board = board(_, _, _, _, Coords),
        Places =.. [places|Coords],
        trace_root(Root),
        Mode = traced(Places, Root)
    ;   Search = Strategy,
        Mode = untraced
    ),
    mode_positions(Search, Board, Mode, Positions).

% mode_positions(+Strategy, +Board, +Mode, -Positions): positions/3 of
% Strategy, `untraced` or traced(Places, Root) (recorded below Root; Places:
% arg Cell is its Row-Column from 0).
mode_positions(clpfd, Board, _, Positions) :-
    clpfd_positions(Board, Positions).
mode_positions(original, Board, Mode, Positions) :-
    walk_positions(Board, Mode, Positions).
mode_positions(walk, Board, Mode, Positions) :-
    strong_walk_positions(Board, Mode, Positions).
mode_positions(logic, Board, Mode, Positions) :-
    logic_positions(Board, inf, Mode, Positions).
mode_positions(logic(Nodes), Board, Mode, Positions) :-
    logic_positions(Board, Nodes, Mode, Positions).

% number_at(+Places, +K, +Cell, +Node, -Child): Child, below Node, is K put
% on Cell, as the trace says it (Places: arg Cell is its Row-Column from 0).
number_at(Places, K, Cell, Node, Child) :-
    arg(Cell, Places, R0-C0),
    R is R0 + 1,
    C is C0 + 1,
    format(atom(Label), "~w at r~wc~w", [K, R, C]),
    trace_enter(Label, [number=K, row=R, col=C], Node, Child).

clpfd_positions(board(N, _, Adjacent, Givens, _), Positions) :-
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

% walk_positions(+Board, +Mode, -Positions): the original's walk,
% `untraced` or traced(Places, Root) (recorded below Root). Walk is
% walk(N, Adjacent, GivenCells, Places), Places free when untraced.
walk_positions(board(N, _, Adjacent, Givens, _), Mode, Positions) :-
    list_to_assoc(Givens, GivenCells),
    findall(Cell-given, member(_-Cell, Givens), UsedPairs),
    list_to_assoc(UsedPairs, Used),
    get_assoc(1, GivenCells, Start),
    Walk = walk(N, Adjacent, GivenCells, Places),
    trace_search(Mode = traced(Places, Root), Root,
                 ( trace_checked(viable(Walk, 1, Start, Used)),
                   walk(Walk, 1, Start, Used, [Start], Reversed) )),
    reverse(Reversed, Positions).

% walk(+Walk, +K, +Cell, +Used, +Placed, -Reversed): K sits on Cell; place
% K+1..N. Recorded (pysolve_traced): each number placed a node, a dead end
% where the prunings reject it.
walk(Walk, K, Cell, Used, Placed, Reversed) :-
    Walk = walk(N, _, _, Places),
    (   K =:= N
    ->  Reversed = Placed,
        trace_solved
    ;   K1 is K + 1,
        next_cell(Walk, K1, Cell, Used, Next, Used1),
        trace_node(number_at(Places, K1, Next)),
        trace_checked(viable(Walk, K1, Next, Used1)),
        walk(Walk, K1, Next, Used1, [Next|Placed], Reversed)
    ).

% next_cell(+Walk, +K, +Cell, +Used, -Next, -Used1): K's cell next to Cell.
next_cell(walk(_, _, GivenCells, _), K, _, Used, Next, Used) :-
    get_assoc(K, GivenCells, Next).
next_cell(walk(_, Adjacent, GivenCells, _), K, Cell, Used, Next, Used1) :-
    \+ get_assoc(K, GivenCells, _),
    arg(Cell, Adjacent, Neighbours),
    member(Next, Neighbours),
    \+ get_assoc(Next, Used, _),
    put_assoc(Next, Used, placed, Used1).

% viable(+Walk, +K, +Cell, +Used): the original's prunings (a) and (b)
% after K was put on Cell.
viable(walk(N, Adjacent, GivenCells, _), K, Cell, Used) :-
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

%   The strengthened walk. Cells are bits of one integer: cell I (row R,
%   column C, 0-based) is bit (R+1)*Stride + C+1, rows padded by a blocked
%   column on each side so that a shift never wraps. Bits is
%   bits(Stride, Open, CellBits, Near) with CellBits/Near indexed by cell:
%   its bit, and the bits of its king neighbours.

strong_walk_positions(board(N, _, Adjacent, Givens, Coords), Mode, Positions) :-
    cell_bits(Coords, Adjacent, Bits),
    Bits = bits(_, Open, CellBits, _),
    list_to_assoc(Givens, GivenCells),
    foldl(given_bit(CellBits), Givens, 0, Used),
    get_assoc(1, GivenCells, Start),
    get_assoc(N, GivenCells, LastCell),
    arg(LastCell, CellBits, Last),
    later_givens(N, Givens, CellBits, Later),
    Walk = strong(N, GivenCells, Bits, Last, Later, Adjacent, Places),
    arg(Start, CellBits, StartBit),
    Free is Open /\ \StartBit,
    trace_search(Mode = traced(Places, Root), Root,
                 ( trace_checked(strong_viable(Walk, 1, Start, Free, Used)),
                   strong_walk(Walk, 1, Start, Free, Used, [Start], Reversed) )),
    reverse(Reversed, Positions).

cell_bits(Coords, Adjacent, bits(Stride, Open, CellBits, Near)) :-
    aggregate_all(max(C), member(_-C, Coords), MaxColumn),
    Stride is MaxColumn + 3,
    maplist(coord_bit(Stride), Coords, BitList),
    sum_list(BitList, Open),
    CellBits =.. [cells|BitList],
    functor(Adjacent, _, Count),
    numlist(1, Count, Indexes),
    maplist(near_bits(Adjacent, CellBits), Indexes, NearList),
    Near =.. [near|NearList].

coord_bit(Stride, R-C, Bit) :-
    Bit is 1 << ((R + 1) * Stride + C + 1).

near_bits(Adjacent, CellBits, Cell, Near) :-
    arg(Cell, Adjacent, Neighbours),
    foldl(cell_bit_sum(CellBits), Neighbours, 0, Near).

cell_bit_sum(CellBits, Cell, Sum0, Sum) :-
    arg(Cell, CellBits, Bit),
    Sum is Sum0 \/ Bit.

given_bit(CellBits, _Number-Cell, Used0, Used) :-
    arg(Cell, CellBits, Bit),
    Used is Used0 \/ Bit.

%   later_givens(+N, +Givens, +CellBits, -Later): arg K of Later lists the
%   givens G > K as G-Bit, smallest first.

later_givens(N, Givens, CellBits, Later) :-
    keysort(Givens, Sorted),
    numlist(1, N, Ks),
    maplist(givens_after(Sorted, CellBits), Ks, Lists),
    Later =.. [later|Lists].

givens_after(Sorted, CellBits, K, After) :-
    findall(G-Bit, ( member(G-Cell, Sorted), G > K, arg(Cell, CellBits, Bit) ), After).

%   strong_walk(+Walk, +K, +Cell, +Free, +Used, +Placed, -Reversed): K sits
%   on Cell; place K+1..N, the neighbours with the fewest exits first.
%   Recorded (pysolve_traced) as walk/6.

strong_walk(Walk, K, Cell, Free, Used, Placed, Reversed) :-
    Walk = strong(N, GivenCells, Bits, _, _, Adjacent, Places),
    (   K =:= N
    ->  Reversed = Placed,
        trace_solved
    ;   K1 is K + 1,
        (   get_assoc(K1, GivenCells, Target)
        ->  Next = Target
        ;   cornered_first(Bits, Adjacent, Cell, Used, Candidates),
            member(Next, Candidates)
        ),
        trace_node(number_at(Places, K1, Next)),
        Bits = bits(_, _, CellBits, _),
        arg(Next, CellBits, Bit),
        Free1 is Free /\ \Bit,
        Used1 is Used \/ Bit,
        trace_checked(strong_viable(Walk, K1, Next, Free1, Used1)),
        strong_walk(Walk, K1, Next, Free1, Used1, [Next|Placed], Reversed)
    ).

%   cornered_first(+Bits, +Adjacent, +Cell, +Used, -Candidates): the unused
%   neighbours of Cell, those with the fewest unused neighbours first
%   (Warnsdorff), ties in cell order.

cornered_first(bits(_, Open, CellBits, Near), Adjacent, Cell, Used, Candidates) :-
    arg(Cell, Adjacent, Neighbours),
    findall(Degree-Other,
            ( member(Other, Neighbours),
              arg(Other, CellBits, Bit),
              Used /\ Bit =:= 0,
              arg(Other, Near, OtherNear),
              Degree is popcount(OtherNear /\ Open /\ \Used)
            ),
            Pairs),
    keysort(Pairs, Sorted),
    pairs_values(Sorted, Candidates).

strong_viable(strong(N, GivenCells, Bits, Last, Later, _, _), K, Cell, Free, Used) :-
    (   K =:= N
    ->  true
    ;   Bits = bits(Stride, Open, CellBits, Near),
        arg(Cell, Near, NearBits),
        K1 is K + 1,
        (   get_assoc(K1, GivenCells, Next)
        ->  arg(Next, CellBits, NextBit),
            NearBits /\ NextBit =\= 0                          % pruning (b)
        ;   NearBits /\ \Used =\= 0                            % pruning (a)
        ),
        arg(Cell, CellBits, Head),
        no_dead_ends(Stride, Open, Free, Head, Last),
        arg(K, Later, Pending),
        reach(Stride, Open, Free, K, Pending, Head, Head, 0)
    ).

%   no_dead_ends(+Stride, +Open, +Free, +Head, +Last): every free cell has two
%   free-or-head neighbours, the cell of N (Last) one.

no_dead_ends(Stride, Open, Free, Head, Last) :-
    Mask is Free \/ Head,
    S1 is Stride - 1, S2 is Stride + 1,
    foldl(count_neighbours(Mask), [1, S1, Stride, S2], 0-0, Once0-Twice0),
    Once is Once0 /\ Open,
    Twice is Twice0 /\ Open,
    Free /\ \Twice /\ \Last =:= 0,
    Last /\ Free /\ \Once =:= 0.

count_neighbours(Mask, Shift, Once0-Twice0, Once-Twice) :-
    Up is Mask << Shift,
    Down is Mask >> Shift,
    Twice1 is Twice0 \/ (Once0 /\ Up),
    Once1 is Once0 \/ Up,
    Twice is Twice1 \/ (Once1 /\ Down),
    Once is Once1 \/ Down.

%   reach(+Stride, +Open, +Free, +K, +Pending, +Reach, +Frontier, +Moves): a
%   flood from the head through free cells, Moves king moves out, meets every
%   pending given G within G-K moves and, at its end, every free cell.

reach(Stride, Open, Free, K, Pending, Reach, Frontier, Moves) :-
    due_givens(Pending, K, Moves, Reach, Rest),
    (   Frontier =:= 0
    ->  Free /\ \Reach =:= 0
    ;   Row is Frontier \/ (Frontier << 1) \/ (Frontier >> 1),
        Spread is (Row \/ (Row << Stride) \/ (Row >> Stride)) /\ Open,
        Frontier1 is Spread /\ Free /\ \Reach,
        Reach1 is Reach \/ Frontier1,
        Moves1 is Moves + 1,
        reach(Stride, Open, Free, K, Rest, Reach1, Frontier1, Moves1)
    ).

due_givens([], _, _, _, []).
due_givens([G-Bit|Pending], K, Moves, Reach, Rest) :-
    (   G - K =< Moves
    ->  Reach /\ Bit =\= 0,
        due_givens(Pending, K, Moves, Reach, Rest)
    ;   Rest = [G-Bit|Pending]
    ).

%   The position model (`logic`): arg K of Domains is the set of cells number
%   K may take, as bits laid out as in the walk. setarg/3 narrows a set in
%   place and is undone on backtracking, so a branch costs no copy. Spent
%   counts the search nodes against Nodes (`inf`: no bound); past them the
%   ball hidato_logic_share_spent ends the search.

logic_positions(board(N, _, Adjacent, Givens, Coords), Nodes, Mode, Positions) :-
    cell_bits(Coords, Adjacent, bits(Stride, Open, CellBits, _)),
    numlist(1, N, Numbers),
    maplist(start_domain(Givens, CellBits, Open), Numbers, Sets),
    Domains =.. [domains|Sets],
    CellBits =.. [_|BitList],
    findall(Bit-Cell, nth1(Cell, BitList, Bit), BitCells),
    list_to_assoc(BitCells, CellOf),
    Logic = logic(N, Stride, Open, spent(0, Nodes), Places, CellOf),
    trace_search(Mode = traced(Places, Root), Root,
                 logic_search(Logic, Domains, Numbers)),
    Domains =.. [_|Cells],
    maplist(cell_of_set(CellOf), Cells, Positions0),
    Positions = Positions0.

start_domain(Givens, CellBits, Open, Number, Set) :-
    (   memberchk(Number-Cell, Givens)
    ->  arg(Cell, CellBits, Set)
    ;   Set = Open
    ).

cell_of_set(CellOf, Set, Cell) :-
    get_assoc(Set, CellOf, Cell).

% logic_search(+Logic, !Domains, +Changed): propagate from the numbers whose
% sets Changed, then give the number with the fewest cells (above one) each
% of them in turn, lowest bit first. Recorded (pysolve_traced): each number
% placed a node, a dead end where propagation fails.
logic_search(Logic, Domains, Changed) :-
    Logic = logic(N, _, _, Spent, _, _),
    spend_node(Spent),
    trace_checked(logic_propagate(Logic, Domains, Changed)),
    most_constrained(1, N, Domains, 0, inf, Number),
    (   Number =:= 0
    ->  trace_solved
    ;   arg(Number, Domains, Set),
        bit_member(Bit, Set),
        setarg(Number, Domains, Bit),
        trace_node(number_on_bit(Logic, Number, Bit)),
        logic_search(Logic, Domains, [Number])
    ).

% number_on_bit(+Logic, +Number, +Bit, +Node, -Child): number_at/5 of Number
% put on the cell of Bit.
number_on_bit(logic(_, _, _, _, Places, CellOf), Number, Bit, Node, Child) :-
    get_assoc(Bit, CellOf, Cell),
    number_at(Places, Number, Cell, Node, Child).

spend_node(Spent) :-
    Spent = spent(Count0, Nodes),
    Count is Count0 + 1,
    (   Nodes \== inf,
        Count > Nodes
    ->  throw(hidato_logic_share_spent)
    ;   nb_setarg(1, Spent, Count)
    ).

% most_constrained(+K, +N, +Domains, +Best0, +Fewest0, -Best): the number
% from K on with the fewest cells above one (the first of a tie), else Best0.
most_constrained(K, N, Domains, Best0, Fewest0, Best) :-
    (   K > N
    ->  Best = Best0
    ;   arg(K, Domains, Set),
        Count is popcount(Set),
        K1 is K + 1,
        (   Count > 1,
            ( Fewest0 == inf -> true ; Count < Fewest0 )
        ->  most_constrained(K1, N, Domains, K, Count, Best)
        ;   most_constrained(K1, N, Domains, Best0, Fewest0, Best)
        )
    ).

% logic_propagate(+Logic, !Domains, +Changed): narrow to the fixpoint of two
% rules, king moves between consecutive numbers (a changed set narrows its
% two neighbours', which then narrow theirs) and all-different once those
% settle; fails when a set empties, two numbers share their only cell or a
% cell is left to no number. The fixpoint does not depend on the order the
% rules run in, so this is Python's search node for node.
logic_propagate(Logic, Domains, Changed) :-
    Logic = logic(N, Stride, Open, _, _, _),
    chain(Changed, N, Stride, Open, Domains),
    all_different(N, Open, Domains, Placed),
    (   Placed == []
    ->  true
    ;   logic_propagate(Logic, Domains, Placed)
    ).

% chain(+Queue, ...): each number of Queue narrows the sets of the numbers
% before and after it to the cells a king move from its own; those that
% change join the queue.
chain([], _, _, _, _).
chain([K|Queue], N, Stride, Open, Domains) :-
    arg(K, Domains, Set),
    Row is Set \/ (Set << 1) \/ (Set >> 1),
    Near is (Row \/ (Row << Stride) \/ (Row >> Stride)) /\ Open,
    K0 is K - 1,
    K1 is K + 1,
    within(K0, Near, N, Domains, Queue, Queue1),
    within(K1, Near, N, Domains, Queue1, Queue2),
    chain(Queue2, N, Stride, Open, Domains).

% within(+K, +Near, +N, !Domains, +Queue0, -Queue): the set of K (when K is
% a number) keeps its cells in Near; K joins the queue when its set changed.
within(K, Near, N, Domains, Queue0, Queue) :-
    (   ( K < 1 ; K > N )
    ->  Queue = Queue0
    ;   arg(K, Domains, Set),
        Set1 is Set /\ Near,
        (   Set1 =:= Set
        ->  Queue = Queue0
        ;   Set1 =\= 0,
            setarg(K, Domains, Set1),
            Queue = [K|Queue0]
        )
    ).

% all_different(+N, +Open, !Domains, -Changed): every cell is some number's;
% the only cell of a number leaves the other sets; a cell in one set only
% is that number's. Changed lists the numbers whose sets this narrowed.
all_different(N, Open, Domains, Changed) :-
    cover(1, N, Domains, 0, 0, 0, Fixed, Once, Twice),
    Once \/ Fixed =:= Open,
    leave_fixed(1, N, Domains, Fixed, [], Changed1),
    Hidden is Once /\ \Twice /\ \Fixed,
    place_hidden(Hidden, N, Domains, Changed1, Changed).

% cover(+K, +N, +Domains, ...): Fixed the cells of the numbers with one
% (each once), Once and Twice the cells in one and in two or more of the
% other sets.
cover(K, N, Domains, Fixed0, Once0, Twice0, Fixed, Once, Twice) :-
    (   K > N
    ->  Fixed = Fixed0, Once = Once0, Twice = Twice0
    ;   arg(K, Domains, Set),
        K1 is K + 1,
        (   Set /\ (Set - 1) =:= 0
        ->  Set =\= 0,
            Fixed0 /\ Set =:= 0,
            Fixed1 is Fixed0 \/ Set,
            cover(K1, N, Domains, Fixed1, Once0, Twice0, Fixed, Once, Twice)
        ;   Twice1 is Twice0 \/ (Once0 /\ Set),
            Once1 is Once0 \/ Set,
            cover(K1, N, Domains, Fixed0, Once1, Twice1, Fixed, Once, Twice)
        )
    ).

leave_fixed(K, N, Domains, Fixed, Changed0, Changed) :-
    (   K > N
    ->  Changed = Changed0
    ;   arg(K, Domains, Set),
        (   Set /\ (Set - 1) =\= 0,
            Set /\ Fixed =\= 0
        ->  Set1 is Set /\ \Fixed,
            Set1 =\= 0,
            setarg(K, Domains, Set1),
            Changed1 = [K|Changed0]
        ;   Changed1 = Changed0
        ),
        K1 is K + 1,
        leave_fixed(K1, N, Domains, Fixed, Changed1, Changed)
    ).

% place_hidden(+Hidden, +N, !Domains, +Changed0, -Changed): each cell of
% Hidden goes to the one number whose set holds it; fails when none does
% (that number took another such cell).
place_hidden(Hidden, N, Domains, Changed0, Changed) :-
    (   Hidden =:= 0
    ->  Changed = Changed0
    ;   Low is Hidden /\ -Hidden,
        Rest is Hidden xor Low,
        holder(1, N, Domains, Low, Number),
        setarg(Number, Domains, Low),
        place_hidden(Rest, N, Domains, [Number|Changed0], Changed)
    ).

holder(K, N, Domains, Bit, Number) :-
    K =< N,
    arg(K, Domains, Set),
    (   Set /\ Bit =\= 0
    ->  Number = K
    ;   K1 is K + 1,
        holder(K1, N, Domains, Bit, Number)
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
