/*  plunit tests of pysolve_bridge.pl: a goal's answers, its bounds (count,
    CPU time, inferences) and its error come back as data; a rule base
    loads into a module of its own, its problems listed.
    Run: swipl -g run_tests -t halt test_pysolve_bridge.plt
*/

:- use_module(library(plunit)).
:- use_module('../pysolve_bridge').

rule_base(Text, File) :-
    tmp_file_stream(text, File, Stream),
    write(Stream, Text),
    close(Stream).

:- begin_tests(pysolve_bridge).

test(answers_as_rows, [Answer, Status] == [answer(['X'], [[a], [b]], false), complete]) :-
    bounded_solutions('member(X, [a, b])', user, 0, 5, 10, 0, Answer, Status, _).

test(max_solutions_stop, Rows == [[a]]) :-
    bounded_solutions('member(X, [a, b])', user, 1, 5, 10, 0, answer(_, Rows, _), _, _).

test(inference_limit, Status == inference_limit) :-
    bounded_solutions('repeat, fail', user, 0, 5, 10, 10000, _, Status, _).

test(time_limit, Status == time_limit) :-
    bounded_solutions('repeat, fail', user, 0, 0.2, 10, 0, _, Status, _).

test(error_as_status, [true(sub_string(Message, _, _, _, "foo"))]) :-
    bounded_solutions('atom_length(foo(1), _)', user, 0, 5, 10, 0, _, error, Message).

test(cpu_limit_passes_the_answer, X == 42) :-
    call_with_cpu_limit(5, 10, X is 6 * 7).

test(cpu_limit_stops, throws(time_limit_exceeded)) :-
    call_with_cpu_limit(0.2, 10, ( repeat, fail )).

test(rule_base_in_its_module, [Problems, X] == [[], 1]) :-
    rule_base("f(1).\n", File),
    load_rule_base(File, plunit_bridge_good, Problems),
    plunit_bridge_good:f(X).

test(rule_base_problems_listed, [true(Problems = [_|_])]) :-
    rule_base("f(1.\n", File),
    load_rule_base(File, plunit_bridge_bad, Problems).

:- end_tests(pysolve_bridge).
