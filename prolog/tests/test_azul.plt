/*  plunit tests of azul.pl and azul_facts.pl: the deal, the moves on
    offer, scoring by the rules, whole random games, a state's round trip,
    bad input rejected.  Run: swipl -g run_tests -t halt test_azul.plt
*/

:- use_module(library(plunit)).
:- use_module('../azul').
:- use_module('../azul_facts').

randoms(N, Randoms) :-
    numlist(1, N, Randoms).

empty_wall([[0,0,0,0,0],[0,0,0,0,0],[0,0,0,0,0],[0,0,0,0,0],[0,0,0,0,0]]).

:- begin_tests(azul, [cleanup(forall(member(Id, [t, u]), drop_game(Id)))]).

test(deal_fills_five_factories_of_four, [Used, Tiles, Bag] == [20, 20, 80]) :-
    randoms(100, R),
    new_game(t, 2, standard, 0, R, Used),
    export_state(t, [_, _, _, _, _, _, Factories, _, BagCounts|_]),
    foldl([F, S0, S]>>( sum_list(F, N), S is S0 + N ), Factories, 0, Tiles),
    sum_list(BagCounts, Bag).

test(moves_on_offer, [Count, First] == [36, [0, 0, 0]]) :-
    randoms(100, R),
    new_game(t, 2, standard, 0, R, _),
    legal_moves(t, Moves),
    length(Moves, Count),
    Moves = [First|_].

test(a_move_passes_the_turn, [nondet, Seat == 1]) :-
    randoms(100, R),
    new_game(t, 2, standard, 0, R, _),
    legal_moves(t, [Move|_]),
    play_move(t, Move, [], _),
    turn(t, Seat).

test(illegal_move_fails, fail) :-
    randoms(100, R),
    new_game(t, 2, standard, 0, R, _),
    play_move(t, [9, 9, 9], [], _).

test(scoring_runs, [Alone, Run] == [1, 5]) :-
    empty_wall(Empty),
    tile_score(Empty, 2, 2, Alone),
    tile_score([[1,1,1,0,0],[0,0,1,0,0],[0,0,0,0,0],[0,0,0,0,0],[0,0,0,0,0]], 0, 2, Run).

test(floor_capped_at_seven_slots, [Three, Nine] == [4, 14]) :-
    floor_points(3, Three),
    floor_points(9, Nine).

test(end_bonus_of_a_row, Points == 2) :-
    end_bonus([[1,1,1,1,1],[0,0,0,0,0],[0,0,0,0,0],[0,0,0,0,0],[0,0,0,0,0]], Points).

test(winners_tie_broken_by_rows, Seats == [2]) :-
    winners_of([10, 12, 12], [1, 0, 2], Seats).

test(whole_random_games_end, all(Variant-Status == [standard-over, grey-over])) :-
    member(Variant, [standard, grey]),
    randoms(5000, R),
    random_games(2, Variant, [[u, 0, R]], [[_, Status, Text, [_|_]]]),
    sub_atom(Text, 0, _, _, '[').

test(state_round_trip, [true(State == Copy)]) :-
    randoms(100, R),
    new_game(t, 3, grey, 1, R, _),
    export_state(t, State),
    import_state(u, State),
    export_state(u, Copy).

test(wall_pattern_shifts, Colours == [4, 0, 1, 2, 3]) :-
    findall(C, wall_colour(1, _, C), Colours).

test(bad_variant, error(type_error(_, chess))) :-
    new_game(t, 2, chess, 0, [], _).

test(bad_players, error(type_error(_, 5))) :-
    new_game(t, 5, standard, 0, [], _).

test(bad_move, error(type_error(list(integer), take))) :-
    randoms(100, R),
    new_game(t, 2, standard, 0, R, _),
    play_move(t, take, [], _).

:- end_tests(azul).
