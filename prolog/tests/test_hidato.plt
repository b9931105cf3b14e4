/*  plunit tests of hidato.pl: known solution counts on every strategy,
    a unique board's known solution, the pairs check, bad input rejected.
    Run: swipl -g run_tests -t halt test_hidato.plt
*/

:- use_module(library(plunit)).
:- use_module('../hidato').

% A 3x3 board with 1 and 9 in opposite corners: 30 paths.
corners([[1,0,0],[0,0,0],[0,0,9]]).

% data/hidato/rect_5x5_s11.txt and holes_6x6_s21.txt: one solution each.
unique([[0,0,25,0,6],[23,0,0,8,0],[0,18,0,0,3],[0,0,0,0,0],[0,0,0,15,1]]).
holes([[0,31,0,0,0,0],[0,0,25,0,-1,7],[0,-1,0,0,0,5],[-1,0,0,0,0,3],[0,0,-1,18,0,0],[-1,21,0,0,17,1]]).

:- begin_tests(hidato).

test(corner_board_has_30_solutions, all(S-Count == [logic-30, walk-30, original-30, clpfd-30])) :-
    corners(Rows),
    member(S, [logic, walk, original, clpfd]),
    aggregate_all(count, solution(S, Rows, _), Count).

test(strategies_find_the_same_set, [true(Logic == Walk)]) :-
    corners(Rows),
    findall(X, solution(logic, Rows, X), L), msort(L, Logic),
    findall(X, solution(original, Rows, X), W), msort(W, Walk).

test(unique_board_known_solution, all(S == [fast, logic, walk, original, clpfd])) :-
    member(S, [fast, logic, walk, original, clpfd]),
    unique(Rows),
    solutions(S, Rows, 0, Solutions),
    Solutions == [[[22,24,25,7,6],[23,21,9,8,5],[20,18,10,4,3],[19,11,17,16,2],[12,13,14,15,1]]].

test(blocked_cells_kept, Solutions == [[[30,31,26,10,9,8],[29,27,25,11,-1,7],[28,-1,24,12,6,5],
                                       [-1,23,13,14,4,3],[22,20,-1,18,15,2],[-1,21,19,16,17,1]]]) :-
    holes(Rows),
    solutions(logic, Rows, 0, Solutions).

test(recorded_search_gives_the_same_solutions_with_no_trace_open, all(S == [logic, original, walk])) :-
    member(S, [logic, original, walk]),
    corners(Rows),
    findall(X, solution(S, Rows, X), Plain),
    findall(X, solution(traced(S), Rows, X), Traced),
    Plain == Traced.

test(solutions_capped, Count == 5) :-
    corners(Rows),
    solutions(walk, Rows, 5, Solutions),
    length(Solutions, Count).

test(broken_pairs_named, Pairs == [[6, 7]]) :-
    broken_pairs([[1,2,3],[6,5,4],[9,8,7]], Pairs).

test(king_adjacent_diagonal) :-
    king_adjacent(2-3, 3-4).

test(king_adjacent_not_two_apart, fail) :-
    king_adjacent(2-3, 4-3).

test(hidato_rules_interface, Count == 30) :-
    corners(Rows),
    aggregate_all(count, hidato(Rows, _), Count).

test(bad_strategy, error(domain_error(hidato_strategy, guess))) :-
    corners(Rows),
    solution(guess, Rows, _).

test(not_integers, error(type_error(_, _))) :-
    solution(logic, [[1, x]], _).

test(bad_max, error(type_error(nonneg, -1))) :-
    corners(Rows),
    solutions(fast, Rows, -1, _).

:- end_tests(hidato).
