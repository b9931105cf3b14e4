/*  plunit tests of sudoku.pl: known solution counts and boards, the three
    strategies agreeing, the recorded search answering as the plain one,
    and bad input rejected.  Run: swipl -g run_tests -t halt test_sudoku.plt
*/

:- use_module(library(plunit)).
:- use_module(library(lists), [nth1/3]).
:- use_module('../sudoku').
:- use_module('../pysolve_bits', [bit_member/2]).

empty(Size, Rows) :-
    length(Rows, Size),
    maplist(zeros(Size), Rows).

zeros(Size, Row) :-
    length(Row, Size),
    maplist(=(0), Row).

% The board of Wikipedia's "Sudoku" article and the first row of its solution.
classic([[5,3,0,0,7,0,0,0,0],[6,0,0,1,9,5,0,0,0],[0,9,8,0,0,0,0,6,0],
         [8,0,0,0,6,0,0,0,3],[4,0,0,8,0,3,0,0,1],[7,0,0,0,2,0,0,0,6],
         [0,6,0,0,0,0,2,8,0],[0,0,0,4,1,9,0,0,5],[0,0,0,0,8,0,0,7,9]]).

:- begin_tests(sudoku).

test(box_shapes, Shapes == [4-2-2, 6-2-3, 9-3-3, 16-4-4]) :-
    findall(S-R-C, box_shape(S, R, C), Shapes).

test(empty_4x4_has_288_grids, all(Strategy-Count == [fast-288, clpfd-288, plain-288])) :-
    empty(4, Rows),
    member(Strategy, [fast, clpfd, plain]),
    aggregate_all(count, solution(Strategy, Rows, _), Count).

test(classic_board_solved_once, [Count, Row1] == [1, [5,3,4,6,7,8,9,1,2]]) :-
    classic(Rows),
    aggregate_all(count, solution(fast, Rows, _), Count),
    once(solution(plain, Rows, [Row1|_])).

test(strategies_agree_on_the_classic_board, [true(Fast == Clpfd)]) :-
    classic(Rows),
    once(solution(fast, Rows, Fast)),
    once(solution(clpfd, Rows, Clpfd)).

test(recorded_search_gives_the_same_solutions_with_no_trace_open, all(S == [fast, plain])) :-
    member(S, [fast, plain]),
    empty(4, Rows),
    findall(X, solution(S, Rows, X), Plain),
    findall(X, solution(traced(S), Rows, X), Traced),
    Plain == Traced.

test(packed_solutions_of_two, Length == 32) :-
    empty(4, Rows),
    packed_solutions(fast, Rows, 2, Packed),
    string_length(Packed, Length).

test(broken_units_named, Broken == [[row, 1, 1], [box, 1, 1]]) :-
    broken_units([[1,1,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]], Broken).

test(repeated_given_has_no_solution, fail) :-
    solution(fast, [[1,1,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]], _).

test(bad_strategy, error(domain_error(sudoku_strategy, guess))) :-
    empty(4, Rows),
    solution(guess, Rows, _).

test(bad_shape, error(domain_error(sudoku_board, _))) :-
    solution(fast, [[1,2],[2,1]], _).

test(bad_value, error(domain_error(sudoku_value, 5))) :-
    solution(fast, [[5,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]], _).

test(not_integers, error(type_error(_, _))) :-
    solution(fast, [[a,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]], _).

test(bit_member_lowest_first, Bits == [1, 4, 16]) :-
    findall(B, bit_member(B, 0b10101), Bits).

:- end_tests(sudoku).
