/*  plunit tests of pysolve_traced.pl and pysolve_trace.pl: a search written
    once compiles to a plain search with no trace in it and to a recorded
    one whose events are exactly those of the tree it walks; the real
    searches record the trees they walk; bad input rejected.
    Run: swipl -g run_tests -t halt test_pysolve_traced.plt
*/

:- use_module(library(plunit)).
:- use_module(library(http/json), [atom_json_dict/3]).
:- use_module('../pysolve_trace').
:- use_module('../pysolve_traced').
:- use_module('../tangram', [with_instance/5, count_tilings/4]).
:- use_module('../sudoku', [solution/3]).

:- traceable([subset_sum/3]).

% subset_sum(+Items, +Total, -Chosen): Chosen, a sublist of Items, sums to
% Total; each item taken or left a node, a dead end where Total went below 0.
subset_sum([], 0, []) :-
    trace_solved.
subset_sum([X|Xs], Total, Chosen) :-
    trace_checked(Total >= 0),
    (   trace_node(choice(took, X)),
        Chosen = [X|Rest],
        Left is Total - X
    ;   trace_node(choice(left, X)),
        Chosen = Rest,
        Left = Total
    ),
    subset_sum(Xs, Left, Rest).

choice(How, X, Node, Child) :-
    trace_enter(How-X, [item=X], Node, Child).

recorded_subset_sum(Items, Total, Chosen) :-
    trace_root(Root),
    traced_below(Root, subset_sum(Items, Total, Chosen)).

either_subset_sum(Mode, Items, Total, Chosen) :-
    trace_search(( Mode == traced, trace_root(Root) ), Root, subset_sum(Items, Total, Chosen)).

% recording(:Goal, -Counts, -Events): Goal's answers all found with a trace
% open; Counts as trace_close/1 gives them, Events each event's e-id.
recording(Goal, Counts, Events) :-
    tmp_file(trace, File),
    setup_call_cleanup(trace_open(File, 1000, 0),
                       forall(Goal, true),
                       trace_close(Counts)),
    setup_call_cleanup(open(File, read, In), read_events(In, Events), close(In)),
    delete_file(File).

read_events(In, Events) :-
    read_line_to_string(In, Line),
    (   Line == end_of_file
    ->  Events = []
    ;   atom_json_dict(Line, Event, []),
        atom_string(E, Event.e),
        Events = [E-Event.id|Rest],
        read_events(In, Rest)
    ).

mentions_trace(Body) :-
    sub_term(Goal, Body),
    callable(Goal),
    functor(Goal, Name, _),
    sub_atom(Name, 0, _, _, trace_).

:- begin_tests(pysolve_traced).

test(plain_clauses_hold_no_trace, [true(Bodies = [true, _])]) :-
    findall(Body, clause(subset_sum(_, _, _), Body), Bodies),
    \+ ( member(Body, Bodies), mentions_trace(Body) ).

test(recorded_variant_has_two_more_arguments) :-
    current_predicate(traced_subset_sum/5).

test(plain_answers, Answers == [[1]]) :-
    findall(C, subset_sum([3, 1], 1, C), Answers).

test(recorded_answers_the_same, Answers == [[1]]) :-
    findall(C, recorded_subset_sum([3, 1], 1, C), Answers).

test(recorded_events_are_the_tree_walked,
     [Counts, Events] == [counts(4, 1, 4, 1, 10),
                          [enter-1, fail-1, backtrack-1, enter-2, enter-3, solution-3, backtrack-3,
                           enter-4, backtrack-4, backtrack-2]]) :-
    recording(recorded_subset_sum([3, 1], 1, _), Counts, Events).

test(trace_search_chooses_by_its_condition, [Plain, Traced] == [counts(0, 0, 0, 0, 0), counts(4, 1, 4, 1, 10)]) :-
    recording(either_subset_sum(plain, [3, 1], 1, _), Plain, _),
    recording(either_subset_sum(traced, [3, 1], 1, _), Traced, _).

test(tangram_records_its_tree, Counts == counts(4, 0, 4, 2, 10)) :-
    recording(with_instance(3, 2, [[a, 2, 2], [b, 1, 2]], false, count_tilings(dfs, [a, b], [], _)), Counts, _).

test(sudoku_plain_dead_end_recorded, Counts == counts(0, 1, 0, 0, 1)) :-
    % the first empty cell can take no value (its row holds 1..3, its column 4): the root is a dead end
    recording(solution(traced(plain), [[1,2,3,0],[0,0,0,4],[0,0,0,0],[0,0,0,0]], _), Counts, _).

test(sudoku_fast_records_each_value_tried, true((S == 12, N =:= B, E =:= N + F + B + S, N > S))) :-
    % twelve solutions; every node entered is left again once all are found
    recording(solution(traced(fast), [[1,2,0,0],[0,0,1,2],[0,0,0,0],[0,0,0,0]], _), counts(N, F, B, S, E), _).

test(no_trace_open_writes_nothing, [Active, Node] == [false, node(0, 1)]) :-
    (   trace_active -> Active = true ; Active = false ),
    trace_root(Root),
    once(trace_enter(step, Root, Node)).

test(event_limit_counts_past_it, [Counts, Written] == [counts(4, 1, 4, 1, 10), 3]) :-
    tmp_file(trace, File),
    setup_call_cleanup(trace_open(File, 3, 0),
                       forall(recorded_subset_sum([3, 1], 1, _), true),
                       trace_close(Counts)),
    read_file_to_string(File, Text, []),
    split_string(Text, "\n", "", Lines),
    aggregate_all(count, ( member(L, Lines), L \== "" ), Written).

test(bad_specs, error(type_error(list, walk))) :-
    traceable(walk).

test(bad_trace_file, error(type_error(atom, 42))) :-
    trace_open(42, 10, 0).

test(bad_limit, error(type_error(nonneg, -1))) :-
    trace_open(file, -1, 0).

:- end_tests(pysolve_traced).
