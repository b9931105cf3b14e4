:- module(pysolve_bridge,
          [ load_rule_base/3,          % +File, +Module, -Problems
            bounded_solutions/9,       % +GoalText, +Module, +Max, +Seconds, +Guard, +Inferences,
                                       % -Answer, -Status, -Message
            call_with_cpu_limit/3      % +Seconds, +Guard, :Goal
          ]).

/** <module> The Prolog side of pysolve's bridge

Helpers that the Python bridge (`pysolve.bridge`) calls so that loading a
rule base reports its syntax errors and warnings instead of only printing
them, and so that every query runs bounded in results, time and inferences
and comes back as plain data (integers, atoms and lists).
*/

:- use_module(library(time), [alarm/4, install_alarm/2, uninstall_alarm/1, remove_alarm/1]).
:- use_module(library(solution_sequences), [limit/2]).
:- use_module(library(apply), [foldl/4, foldl/5, maplist/4]).
:- use_module(library(readutil), [read_file_to_string/3]).

:- dynamic captured/3.                  % Kind, Location, Message

:- multifile user:message_hook/3.
:- dynamic user:message_hook/3.

user:message_hook(Term, Kind, Lines) :-
    nb_current(pysolve_capture, on),
    memberchk(Kind, [error, warning]),
    message_location(Term, Location),
    with_output_to(string(Text), print_message_lines(current_output, '', Lines)),
    split_string(Text, "", " \n", [Trimmed]),
    assertz(captured(Kind, Location, Trimmed)).

message_location(Term, Location) :-
    (   Term = error(_, file(File, Line, _, _))
    ->  Location = File:Line
    ;   source_location(File, Line)
    ->  Location = File:Line
    ;   Location = unknown
    ).

%!  load_rule_base(+File, +Module, -Problems) is det.
%
%   Load File into Module (a plain file) or as its own module (a module
%   file), importing nothing into `user`. Problems is a list of atoms
%   'Location: Kind: Text', one for every error and warning raised while
%   loading (and not printed), so that a syntax error is an answer, not a
%   side effect.
%
%   ```
%   ?- tmp_file_stream(text, _File, _S), format(_S, 'f(1).~n', []), close(_S), load_rule_base(_File,
%                      doc_example, Problems), doc_example:f(X).
%   Problems = [],
%   X = 1.
%   ```
%
%   @error none: what loading File raises is caught and listed in Problems.

load_rule_base(File, Module, Problems) :-
    retractall(captured(_, _, _)),
    setup_call_cleanup(
        nb_setval(pysolve_capture, on),
        catch(load_files(Module:File, [imports([])]), Error,
              record_error(Error)),
        nb_setval(pysolve_capture, off)),
    findall(Problem,
            ( captured(Kind, Location, Text),
              format(atom(Problem), '~w: ~w: ~w', [Location, Kind, Text])
            ),
            Problems),
    retractall(captured(_, _, _)).

record_error(Error) :-
    message_to_text(Error, Text),
    assertz(captured(error, unknown, Text)).

message_to_text(Term, Text) :-
    message_to_codes(Term, Codes),
    string_codes(Text, Codes).

message_to_codes(Term, Codes) :-
    '$messages':translate_message(Term, Lines, []),
    with_output_to(codes(Codes), print_message_lines(current_output, '', Lines)).

%!  bounded_solutions(+GoalText, +Module, +Max, +Seconds, +Guard, +Inferences,
%!                    -Answer, -Status, -Message) is det.
%
%   Read GoalText, call it in Module and collect at most Max solutions
%   (Max = 0 means all) within Seconds of this thread's CPU time (Guard
%   seconds of wall time at most: call_with_cpu_limit/3) and Inferences
%   logical inferences (0 means unbounded). The limits cover making the
%   rows plain data too. Answer is
%   answer(Names, Rows, Wide): Names the goal's variable names and Rows one
%   list of values per solution, each value plain data (numbers, atoms,
%   lists; other terms written as atoms, integers beyond 64 bits as strings
%   of their digits); Wide is `true` when some value is such a string (the
%   bridge then turns them back into integers), else `false`. Status is `complete`, `max_solutions`,
%   `time_limit`, `wall_limit` (the guard), `inference_limit`, `resource_limit` (a stack or table
%   space overflow; Message names it), `interrupted` (SIGINT, Ctrl-C,
%   arrived; the caller restores its own handler) or `error` when reading or running
%   the goal raised an error; Message is then the error's text (else '').
%
%   ```
%   ?- bounded_solutions('member(X, [a, b])', user, 0, 5, 10, 0, Answer, Status, _).
%   Answer = answer(['X'], [[a], [b]], false),
%   Status = complete.
%   ```
%
%   @error none: an error the goal raises is caught: Status `error` and Message its text.

bounded_solutions(GoalText, Module, Max, Seconds, Guard, Inferences, Answer, Status, Message) :-
    on_signal(int, _, throw),           % Ctrl-C ends the goal (status interrupted)
    catch(term_string(Goal, GoalText, [variable_names(Bindings), module(Module)]),
          Error, true),
    (   nonvar(Error)
    ->  Answer = answer([], [], false),
        error_status(Error, Status, Message)
    ;   maplist(binding_name_var, Bindings, Names, Vars),
        Answer = answer(Names, Rows, Wide),
        limited_goal(Module:Goal, Max, Limited),
        collect(Vars, Limited, Seconds-Guard, Inferences, Rows, Wide, Status0, Message),
        length(Rows, Count),
        (   Status0 == complete, Max > 0, Count >= Max
        ->  Status = max_solutions
        ;   Status = Status0
        )
    ).

binding_name_var(Name = Var, Name, Var).

%   plain_row(+Values, -Row, +Wide0, -Wide): Values as plain data, their
%   unbound variables named _G1, _G2, ... in order of appearance, so that a
%   variable shared by two bindings reads the same in both; Wide is `true`
%   when Wide0 is or a value holds an integer beyond 64 bits. The copy
%   leaves the variables' attributes behind: a constrained variable (a
%   clpfd variable never labelled) is named as any other, where naming it
%   would wake its constraints (a type error).

plain_row(Values, Row, Wide0, Wide) :-
    copy_term_nat(Values, Copy),
    term_variables(Copy, Fresh),
    foldl(name_variable, Fresh, 1, _),
    foldl(plain_value, Copy, Row, Wide0, Wide).

name_variable('$VAR'(Name), Number, Number1) :-
    format(atom(Name), '_G~d', [Number]),
    Number1 is Number + 1.

limited_goal(Goal, Max, Limited) :-
    (   Max =:= 0
    ->  Limited = Goal
    ;   Limited = limit(Max, Goal)
    ).

%   collect(+Vars, +Goal, +Seconds-Guard, +Inferences, -Rows, -Wide,
%   -Status, -Message): the bindings of Vars as plain rows (Wide as in
%   plain_row/4); a limit or an error met while searching or while making
%   the rows plain (a stack overflow on very many rows) leaves no rows and
%   says why.

collect(Vars, Goal, Seconds-Guard, Inferences, Rows, Wide, Status, Message) :-
    catch(( call_with_cpu_limit(Seconds, Guard,
                                ( counted_collect(Vars, Goal, Inferences, Found, Status),
                                  foldl(plain_row, Found, Rows, false, Wide) )),
            Message = ''
          ),
          Error,
          ( Rows = [], Wide = false, error_status(Error, Status, Message) )).

%!  call_with_cpu_limit(+Seconds, +Guard, :Goal) is semidet.
%
%   Call Goal once, stopped with the exception `time_limit_exceeded` once
%   it has taken Seconds of this thread's CPU time, or with
%   `wall_limit_exceeded` once Guard seconds of wall time have passed,
%   less those this thread waited, ready to run, for a processor
%   (guard_clock/1: the guard against a goal that sleeps or waits, not one
%   kept waiting on a busy machine). An alarm looks at the
%   clocks when the CPU limit could first be reached (CPU time never runs
%   ahead of the wall clock), and again as late as it can each time it
%   was not: a loaded machine costs a few more looks, an idle one none.
%   Not nested: one such limit per thread at a time.
%
%   ```
%   ?- call_with_cpu_limit(5, 10, X is 6 * 7).
%   X = 42.
%   ```
%
%   @error time_limit_exceeded when Goal runs past Seconds of CPU time; type_error(number, Seconds)
%       for a Seconds that is no number.

call_with_cpu_limit(Seconds, Guard, Goal) :-
    statistics(cputime, Cpu0),
    guard_clock(Wall0),
    CpuEnd is Cpu0 + Seconds,
    WallEnd is Wall0 + Guard,
    First is max(min(Seconds, Guard), 0.001),
    setup_call_cleanup(
        ( alarm(First, clock_due(CpuEnd, WallEnd), Alarm, [remove(false)]),
          nb_setval(pysolve_cpu_alarm, Alarm)
        ),
        once(Goal),
        remove_alarm(Alarm)).

clock_due(CpuEnd, WallEnd) :-
    statistics(cputime, Cpu),
    guard_clock(Wall),
    (   Cpu >= CpuEnd
    ->  throw(time_limit_exceeded)
    ;   Wall >= WallEnd
    ->  throw(wall_limit_exceeded)
    ;   Next is max(0.005, min(CpuEnd - Cpu, WallEnd - Wall)),
        nb_getval(pysolve_cpu_alarm, Alarm),
        uninstall_alarm(Alarm),
        install_alarm(Alarm, Next)
    ).

%!  guard_clock(-Seconds) is det.
%
%   The wall clock less the seconds this thread has waited, ready to run,
%   for a processor (Linux's run-queue delay, from
%   /proc/thread-self/schedstat; none counted where there is no such file).

guard_clock(Seconds) :-
    get_time(Wall),
    catch(( read_file_to_string('/proc/thread-self/schedstat', Text, []),
            split_string(Text, " ", " \n", [_, Waited|_]),
            number_string(Nanoseconds, Waited)
          ), _, Nanoseconds = 0),
    Seconds is Wall - Nanoseconds / 1.0e9.

counted_collect(Vars, Goal, Inferences, Found, Status) :-
    (   Inferences > 0
    ->  call_with_inference_limit(findall(Vars, Goal, Found0), Inferences, Result),
        (   Result == inference_limit_exceeded
        ->  Found = [], Status = inference_limit
        ;   Found = Found0, Status = complete
        )
    ;   findall(Vars, Goal, Found),
        Status = complete
    ).

error_status(Error, Status, Message) :-
    (   Error == time_limit_exceeded
    ->  Status = time_limit, Message = ''
    ;   Error == wall_limit_exceeded
    ->  Status = wall_limit, Message = ''
    ;   Error = error(signal(int, _), _)
    ->  Status = interrupted, Message = ''
    ;   Error = error(resource_error(Resource), _)
    ->  Status = resource_limit,
        resource_words(Resource, Message)
    ;   Status = error,
        message_to_text(Error, Text),
        atom_string(Message, Text)
    ).

%   resource_words(+Resource, -Words): the exhausted resource in words,
%   with its limit where Prolog has one.

resource_words(Resource, Words) :-
    (   Resource == stack
    ->  current_prolog_flag(stack_limit, Bytes),
        GB is Bytes / 2**30,
        format(atom(Words), 'memory limit (the Prolog stack limit of ~1f GB)', [GB])
    ;   Resource == table_space
    ->  current_prolog_flag(table_space, Bytes),
        GB is Bytes / 2**30,
        format(atom(Words), 'memory limit (the Prolog table space of ~1f GB)', [GB])
    ;   format(atom(Words), 'memory limit (Prolog ran out of ~w)', [Resource])
    ).

%!  plain_value(+Term, -Value, +Wide0, -Wide) is det.
%
%   Value is Term as data pyswip carries without loss: atoms, floats and
%   64-bit integers as they are, a wider integer as the string of its
%   digits (pyswip takes no integer past 64 bits; Wide is then `true`, else
%   Wide0), lists element by element, strings as atoms (so that a string
%   reaching Python is always a wide integer), anything else (compound
%   terms) written as an atom in Prolog syntax, and a variable (named by
%   plain_row/4) as its name.

plain_value(Term, Value, Wide0, Wide) :-
    (   ( atom(Term) ; float(Term) ; integer(Term), Term >= -(2**63), Term < 2**63 )
    ->  Value = Term, Wide = Wide0
    ;   integer(Term)
    ->  number_string(Term, Value), Wide = true
    ;   is_list(Term)
    ->  foldl(plain_value, Term, Value, Wide0, Wide)
    ;   string(Term)
    ->  atom_string(Value, Term), Wide = Wide0
    ;   Term = '$VAR'(Name)
    ->  Value = Name, Wide = Wide0
    ;   format(atom(Value), '~W', [Term, [quoted(true), numbervars(true)]]),
        Wide = Wide0
    ).
