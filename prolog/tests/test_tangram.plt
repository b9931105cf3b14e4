/*  plunit tests of tangram.pl: the classic board's known tiling counts on
    every search and the memo counter, a small board's tilings, the
    recorded search answering as the plain one, bad input rejected.
    Run: swipl -g run_tests -t halt test_tangram.plt
*/

:- use_module(library(plunit)).
:- use_module('../tangram').

% data/tangram/classic.txt: a 10 x 10 board, six rectangles.
classic(10, 10, [['1',4,2], ['2',4,5], ['3',3,8], ['4',7,3], ['5',3,7], ['6',3,2]], ['1','2','3','4','5','6']).

on_classic(Rotations, Goal) :-
    classic(W, H, Pieces, _),
    with_instance(W, H, Pieces, Rotations, Goal).

small(Goal) :-
    with_instance(3, 2, [[a, 2, 2], [b, 1, 2]], false, Goal).

:- begin_tests(tangram).

test(classic_counts, all(S-N == [dfs-36, cell-36])) :-
    classic(_, _, _, Order),
    member(S, [dfs, cell]),
    on_classic(false, count_tilings(S, Order, [], N)).

test(classic_memo_count_agrees, all(Scan-N == [columns-36, rows-36])) :-
    classic(_, _, _, Order),
    member(Scan, [columns, rows]),
    on_classic(false, memo_count(Scan, Order, [], N, _)).

test(classic_with_rotations, N == 240) :-
    classic(_, _, _, Order),
    on_classic(true, count_tilings(dfs, Order, [], N)).

test(small_board_tilings, Tilings == [[[a,0,0,2,2],[b,2,0,1,2]], [[a,1,0,2,2],[b,0,0,1,2]]]) :-
    small(all_tilings(dfs, [a, b], [], Tilings)).

test(searches_give_the_same_set, [true(Dfs == Cell)]) :-
    classic(_, _, _, Order),
    on_classic(false, ( findall(T, tiling(dfs, Order, [], T), D), findall(T, tiling(cell, Order, [], T), C) )),
    msort(D, Dfs),
    msort(C, Cell).

test(bfs_finds_a_tiling_dfs_finds, [true(memberchk(Tiling, All))]) :-
    small(( bfs_tiling([a, b], [], Tiling), all_tilings(dfs, [a, b], [], All) )).

test(placed_pieces_kept, [nondet, Tiling == [[a,1,0,2,2],[b,0,0,1,2]]]) :-
    small(tiling(cell, [a], [[b, 0, 0, 1, 2]], Tiling)).

test(problems_of_a_partial_tiling, Problems == [[missing, b]]) :-
    small(tiling_problems([[a, 0, 0, 2, 2]], Problems)).

test(rules_interface, N == 2) :-
    aggregate_all(count, tangram(3, 2, [[a, 2, 2], [b, 1, 2]], false, _), N).

test(bad_strategy, error(domain_error(tangram_strategy, guess))) :-
    small(tiling(guess, [a, b], [], _)).

test(bad_size, error(type_error(positive_integer, 0))) :-
    with_instance(0, 2, [[a, 1, 1]], false, true).

test(bad_piece, error(domain_error(tangram_piece, [a, 1]))) :-
    with_instance(3, 2, [[a, 1]], false, true).

test(no_instance_outside_with_instance, error(existence_error(_, _))) :-
    board(_, _).

:- end_tests(tangram).
