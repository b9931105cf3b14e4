/*  plunit tests of fichas.pl and the searches of pysolve_search.pl it
    runs: known shortest paths and expansions, every strategy reaching the
    goal, bad input rejected (`nondet`: the state predicates leave a choice
    point).  Run: swipl -g run_tests -t halt test_fichas.plt
*/

:- use_module(library(plunit)).
:- use_module('../fichas').

:- begin_tests(fichas).

test(board_round_trip, [nondet, Board == 'BBHVV']) :-
    board_state('BBHVV', State),
    board_state(Board, State).

test(start_and_goal, [nondet, [Start, Goal] == ['BBHVV', 'VVHBB']]) :-
    start(2, 2, S), state_label(S, Start),
    goal_state(2, 2, G), state_label(G, Goal).

test(moves_in_the_spec_order, Nexts == ['HBV', 'BVH']) :-
    findall(Next, move('BHV', Next), Nexts).

test(shortest_2_2, [nondet, [Path, Expanded] == [['BBHVV','HBBVV','VBBHV','VHBBV','VVBBH','VVHBB'], 11]]) :-
    shortest(2, 2, Path, Expanded).

test(shortest_3_2_length, [nondet, Length == 8]) :-
    shortest(3, 2, Path, _),
    length(Path, Length).

test(every_strategy_reaches_the_goal, all(S-F == [dfs-hs, dfs-py, bfs-hs, bfs-py, 'best-first'-hs,
                                                 'best-first'-py, 'hill-climbing'-hs, 'hill-climbing'-py])) :-
    member(S, [dfs, bfs, 'best-first', 'hill-climbing']),
    member(F, [hs, py]),
    solve(2, 2, S, F, Path, _),
    last(Path, 'VVHBB').

test(bfs_is_shortest, [nondet, Length == 6]) :-
    solve(2, 2, bfs, hs, Path, _),
    length(Path, Length).

test(heuristic_counts_inversions, [nondet, [Start, Goal] == [4, 0]]) :-
    start(2, 2, S), heuristic(S, Start),
    goal_state(2, 2, G), heuristic(G, Goal).

test(mirror_maps_start_to_goal, [nondet, true(Mirrored == Goal)]) :-
    start(3, 2, S), mirror(S, Mirrored),
    goal_state(3, 2, Goal).

test(bad_order, error(type_error(nonneg, -1))) :-
    start(-1, 2, _).

test(bad_strategy, error(domain_error(strategy, guess))) :-
    solve(1, 1, guess, hs, _, _).

:- end_tests(fichas).
