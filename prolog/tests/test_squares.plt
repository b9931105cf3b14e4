/*  plunit tests of the squares rule bases (squares.pl, squares_puzzle.pl,
    squares_rows.pl, squares_mrv.pl): the insect puzzle's known solutions
    on every strategy and rotation, the halves' count, the recorded search
    answering as the plain one, and bad input rejected.
    Run: swipl -g run_tests -t halt test_squares.plt
*/

:- use_module(library(plunit)).
:- use_module('../squares').

% data/squares/insects.txt: one solution up to turns of the grid, four in all.
insects(insect, 3, 3,
        [[1,[r,v,'A','M']], [2,[a,v,'R','A']], [3,['R',m,a,'V']], [4,['R',v,'A','M']], [5,['R',r,'V','M']],
         [6,[m,'R','V','A']], [7,[a,r,v,m]], [8,[r,'M','A',v]], [9,[v,m,'A','M']]],
        [['R',r], ['M',m], ['A',a], ['V',v]]).

on_insects(Goal) :-
    insects(Rule, Rows, Cols, Pieces, Pairs),
    with_puzzle(Rule, Rows, Cols, Pieces, Pairs, Goal).

% A 2x2 eternity puzzle (0 the border) with one grid up to turns.
corners(eternity, 2, 2, [[1,[0,1,2,0]], [2,[0,0,3,1]], [3,[2,4,0,0]], [4,[3,0,0,4]]], []).

:- begin_tests(squares).

test(counts_by_strategy_and_rotation,
     all(S-R-N == [original-all-4, rows-all-4, mrv-all-4, original-up_to_rotation-1, rows-up_to_rotation-1,
                   mrv-up_to_rotation-1, original-by_class-4, rows-by_class-4, mrv-by_class-4])) :-
    member(R, [all, up_to_rotation, by_class]),
    member(S, [original, rows, mrv]),
    on_insects(aggregate_all(count, solve(S, R, _), N)).

test(first_solution_known, Grid == [[[5,0],[2,1],[9,1]], [[4,3],[3,1],[8,3]], [[7,1],[1,1],[6,2]]]) :-
    on_insects(once(solve(original, all, Grid))).

test(original_and_rows_same_order, [true(Original == Rows)]) :-
    on_insects(( findall(G, solve(original, all, G), Original),
                 findall(G, solve(rows, all, G), Rows) )).

test(recorded_search_gives_the_same_solutions_with_no_trace_open, all(S == [original, rows, mrv])) :-
    member(S, [original, rows, mrv]),
    on_insects(( findall(G, solve(S, all, G), Plain),
                 findall(G, solve(traced(S), all, G), Traced) )),
    Plain == Traced.

test(halves_count_of_the_eternity_2x2, [Halves, Classes] == [1, 1]) :-
    corners(Rule, Rows, Cols, Pieces, Pairs),
    with_puzzle(Rule, Rows, Cols, Pieces, Pairs,
                ( halves_count(Halves), aggregate_all(count, solve(rows, up_to_rotation, _), Classes) )).

test(prefix_part_of_the_count, Count == 1) :-
    on_insects(aggregate_all(count, prefix_solution(rows, [[5, 0]], _), Count)).

test(rules_interface, Count == 4) :-
    insects(Rule, Rows, Cols, Pieces, Pairs),
    aggregate_all(count, squares(Rule, Rows, Cols, Pieces, Pairs, _), Count).

test(every_turn_option_counts_the_same_here, Count == 4) :-
    insects(Rule, Rows, Cols, Pieces, Pairs),
    with_puzzle(Rule, Rows, Cols, Pieces, Pairs, [turns(every)], aggregate_all(count, solve(rows, all, _), Count)).

test(rotated_edges, Turned == [w, n, e, s]) :-
    once(rotated(1, [n, e, s, w], Turned)).

test(no_puzzle_outside_with_puzzle, error(squares_no_puzzle)) :-
    piece(_, _).

test(bad_strategy, error(domain_error(squares_strategy, guess))) :-
    on_insects(solve(guess, all, _)).

test(bad_rotation, error(domain_error(squares_rotation, sideways))) :-
    on_insects(solve(rows, sideways, _)).

test(bad_rule, error(domain_error(squares_rule, chess))) :-
    with_puzzle(chess, 1, 1, [], [], true).

test(bad_size, error(type_error(positive_integer, 0))) :-
    with_puzzle(insect, 0, 1, [], [], true).

test(one_puzzle_at_a_time, error(permission_error(nest, with_puzzle, insect))) :-
    on_insects(on_insects(true)).

:- end_tests(squares).
