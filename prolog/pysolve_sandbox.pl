:- module(pysolve_sandbox, [main/0]).

/** <module> The child process that runs a rule base of one's own

pysolve (`pysolve.sandbox`) starts this file in a `swipl` process of its
own, so that the rules a user brings (and the goals a user types) cannot
end, hang, flood or crash pysolve's own engine: they end at most this
child, which pysolve then replaces.

Requests arrive on the file descriptor named by the first argument, one
Prolog term per line:

  - load(+File, +Seconds, +Guard): load File into a free module, within
    Seconds of CPU time (Guard seconds of wall time);
  - ask(+GoalText, +Module, +Max, +Seconds, +Guard, +Inferences): run a goal
    through pysolve_bridge:bounded_solutions/9;
  - top(+GoalText, +Module, +Max, +Look, +Seconds, +Guard): run a goal for
    `pysolve query`, each answer also written as SWI-Prolog's top level
    writes it; with Look = true, once Max answers are found (the last
    leaving a choice point), they are sent and the search goes on for one
    more, whose reply says only whether there is one.

Each gets one line of JSON on the file descriptor named by the second
(a top request with Look = true may get two). Standard output and
standard error are the rules' own: pysolve sends them to files it only
measures. A rule base that halts makes at_halt/1 write a marker reply
first (with the file and line when it halts while loading), one that
aborts gets a marker too, and one that tries to start a process gets a
permission error and a reply that says so (`refused`).
*/

:- use_module(library(apply), [maplist/3]).
:- use_module(library(lists), [last/2, member/2, nth1/3]).
:- use_module(library(process), []).
:- use_module(library(unix), []).
:- use_module(library(shell), []).
:- use_module(pysolve_bridge, []).

:- dynamic reply_stream/1.              % the stream replies go to
:- dynamic serving/1.                   % what the request being served is: load(File) or ask

%!  main is det.
%
%   Serve requests until the parent closes the request pipe (the file
%   descriptors are the program's arguments: `-- In Out`). Each request
%   runs in a failure-driven loop, so nothing it leaves on the stacks
%   outlives its reply.
%
%   ```
%   ?- main.
%   true.  % it serves requests until its request stream ends
%   ```
%
%   @error none: a malformed request gets a JSON reply saying so; the process ends when its request
%       stream does.

main :-
    set_prolog_flag(debug_on_error, false),
    set_prolog_flag(report_error, true),
    on_signal(xcpu, _, default),        % the parent's CPU backstop (RLIMIT_CPU) ends the process
    refuse_processes,
    current_prolog_flag(argv, [InFd, OutFd]),
    atom_concat('/dev/fd/', InFd, InFile),
    atom_concat('/dev/fd/', OutFd, OutFile),
    open(InFile, read, In, [encoding(utf8)]),
    open(OutFile, write, Out, [encoding(utf8)]),
    assertz(reply_stream(Out)),
    at_halt(halt_marker),
    repeat,
    read_term(In, Request, []),
    (   Request == end_of_file
    ->  !, retractall(serving(_)), halt(0)
    ;   serve(Request),
        fail
    ).

serve(Request) :-
    nb_setval(pysolve_refused, none),
    nb_setval(pysolve_aborted, false),
    nb_setval(pysolve_halt, null),
    request_kind(Request, Kind),
    retractall(serving(_)),
    assertz(serving(Kind)),
    reply(Request, Reply),
    flush_printed,
    retractall(serving(_)),
    send(Reply).

request_kind(load(File, _, _), load(File)).
request_kind(ask(_, _, _, _, _, _), ask).
request_kind(top(_, _, _, _, _, _), ask).

%   reply(+Request, -Reply): the answer to Request, or `failed` with the
%   reason when serving it failed or raised (a fault of this file's, never
%   of the rules: their errors are answers), so that every request gets
%   its reply.

reply(Request, Reply) :-
    (   catch(answer(Request, Answer), Error, true)
    ->  (   var(Error)
        ->  Reply = Answer
        ;   message_to_codes(Error, Codes),
            atom_codes(Text, Codes),
            Reply = json([failed-Text])
        )
    ;   Reply = json([failed-'the request failed'])
    ).

message_to_codes(Term, Codes) :-
    '$messages':translate_message(Term, Lines, []),
    with_output_to(codes(Codes), print_message_lines(current_output, '', Lines)).

%   answer(+Request, -Reply): the reply to one request, as json(Pairs),
%   with `refused` naming the process-starting predicate it called, if any.

answer(load(File, Seconds, Guard), json(Pairs)) :-
    free_module(File, Target),
    catch(pysolve_bridge:call_with_cpu_limit(Seconds, Guard,
                                             pysolve_bridge:load_rule_base(File, Target, Problems)),
          Error, load_stopped(Error, Seconds, Guard, Problems)),
    loaded_module(File, Target, Module),
    refused(Refused),
    statistics(process_cputime, Process),
    Pairs = [module-Module, problems-list(Problems), refused-Refused, process_cpu-Process].
answer(ask(GoalText, Module, Max, Seconds, Guard, Inferences), Reply) :-
    statistics(cputime, Cpu0),
    statistics(inferences, Inferences0),
    get_time(Wall0),
    pysolve_bridge:bounded_solutions(GoalText, Module, Max, Seconds, Guard, Inferences,
                                     answer(Names, Rows, _), Status0, Message0),
    statistics(cputime, Cpu1),
    get_time(Wall1),
    Left is max(Seconds - (Cpu1 - Cpu0), 0.001),
    GuardLeft is max(Guard - (Wall1 - Wall0), 0.001),
    statistics(inferences, Inferences1),
    Counted is Inferences1 - Inferences0,
    written_rows(Status0, Message0, Rows, Left, GuardLeft, Status, Message, RowsText),
    refused(Refused),
    statistics(cputime, Cpu),
    statistics(process_cputime, Process),
    Used is Cpu - Cpu0,
    Reply = json([status-Status, message-Message, names-list(Names), rows-raw(RowsText),
                  refused-Refused, cpu-Used, process_cpu-Process, inferences-Counted]).

answer(top(GoalText, Module, Max, Look, Seconds, Guard), Reply) :-
    statistics(cputime, Cpu0),
    statistics(inferences, Inferences0),
    get_time(Wall0),
    nb_setval(pysolve_sent, false),
    on_signal(int, _, throw),           % Ctrl-C ends the goal (status interrupted)
    set_prolog_flag(answer_write_options,  % the top level's, without its max_depth(10) (pysolve cuts lines),
                    [quoted(true), portray(true), spacing(next_argument), module(Module)]),  % Module's operators
    catch(term_string(Goal, GoalText, [variable_names(Bindings), module(Module)]), Error, true),
    (   var(Error)
    ->  maplist(pysolve_bridge:binding_name_var, Bindings, Names, Vars),
        Asked = asked(Cpu0, Inferences0, Names),
        Search = pysolve_sandbox:top_answer(Module:Goal, Bindings, Vars),
        catch(pysolve_bridge:call_with_cpu_limit(
                  Seconds, Guard, pysolve_sandbox:top_answers(Search, Max, Look, Asked, Answers, Ended)),
              Error, true)
    ;   Asked = asked(Cpu0, Inferences0, [])
    ),
    (   var(Error)
    ->  ended_status(Ended, Status0), Message0 = ''
    ;   Answers = [],                   % a limit or an error: no answers (as bounded_solutions/9)
        pysolve_bridge:error_status(Error, Status0, Message0)
    ),
    (   nb_getval(pysolve_sent, true)   % the answers went out: this reply says whether there is one more
    ->  more(Status0, More),
        used(Cpu0, Inferences0, Used),
        Reply = json([status-Status0, message-Message0, more-raw(More) | Used])
    ;   statistics(cputime, Cpu1),
        get_time(Wall1),
        Left is max(Seconds - (Cpu1 - Cpu0), 0.001),
        GuardLeft is max(Guard - (Wall1 - Wall0), 0.001),
        written_rows(Status0, Message0, answers(Answers), Left, GuardLeft, Status, Message, Text),
        top_reply(Asked, Answers, Status, Message, Text, false, Reply)
    ).

%   top_answers(:Search, +Max, +Look, +Asked, -Answers, -Ended): Answers
%   the Search's answers (top_answer/6), at most Max of them (0: all);
%   Ended says how the search ended: `all` (no more answers), `det` (the
%   Max-th left no choice point), `max` (it left one), or, with Look =
%   true, `more` or `all` once the Max answers were sent (as a reply) and
%   the search went on for one more.

top_answers(Search, Max, Look, Asked, Answers, Ended) :-
    (   Max =:= 0
    ->  findall(Answer, call(Search, Answer), Answers),
        Ended = all
    ;   Count = count(Max),
        (   findnsols(Count, Answer, call(Search, Answer), Chunk),
            top_chunk(Chunk, Count, Look, Asked, Answers, Ended)
        ->  true
        ;   Answers = [], Ended = all     % the Max answers were sent and there is no other
        )
    ).

%   top_chunk(+Chunk, !Count, +Look, +Asked, -Answers, -Ended): the
%   answers findnsols/4 found, the first Count or the one after them;
%   fails for that one after sending the first (Look = true, the last of
%   them leaving a choice point).

top_chunk(Chunk, Count, Look, Asked, Answers, Ended) :-
    (   nb_getval(pysolve_sent, true)
    ->  Answers = [],
        ( Chunk == [] -> Ended = all ; Ended = more )
    ;   arg(1, Count, Max),
        length(Chunk, Found),
        last_det(Chunk, Det),
        Answers = Chunk,
        (   Found < Max
        ->  Ended = all
        ;   Det == true
        ->  Ended = det
        ;   Look == true
        ->  with_output_to(string(Text), json_value(answers(Chunk))),
            top_reply(Asked, Chunk, max_solutions, '', Text, true, Sent),
            flush_printed,
            send(Sent),
            nb_setval(pysolve_sent, true),
            nb_setarg(1, Count, 1),
            fail
        ;   Ended = max
        )
    ).

%   last_det(+Answers, -Det): Det is `true` when the last of Answers left
%   no choice point (its own Det is bound), else `false`.

last_det(Answers, Det) :-
    (   last(Answers, answer(_, _, Last)), Last == true -> Det = true ; Det = false ).

ended_status(all, complete).
ended_status(det, complete).
ended_status(max, max_solutions).
ended_status(more, max_solutions).

more(complete, false) :- !.
more(max_solutions, true) :- !.
more(_, null).                          % a limit or an error stopped the search for one more

%   top_answer(:Goal, +Bindings, +Vars, -Answer): an answer of Goal, as
%   answer(Row, Lines, Det): its values as plain data (as
%   bounded_solutions/9 makes them), its lines as the top level writes
%   them, and Det `true` when it left no choice point.

top_answer(Goal, Bindings, Vars, answer(Row, Lines, Det)) :-
    call_cleanup(Goal, Det = true),
    pysolve_bridge:plain_row(Vars, Row, false, _),
    answer_lines(Bindings, Lines).

%   answer_lines(+Bindings, -Lines): the answer's bindings and residual
%   goals as the top level writes them (`X = 'BHV',`, `Y in 1..3`), one
%   atom a line; none when it binds nothing (the top level's `true`).

answer_lines(Bindings0, Lines) :-
    prolog:residual_goals(Goals, []),
    prolog:translate_bindings(Bindings0, Bindings, [], Goals, _:Residuals),
    (   Bindings == [], Residuals == []-[]
    ->  Lines = []
    ;   with_output_to(string(Text),
                       \+ \+ ( '$toplevel':name_vars(Bindings, Residuals, true),
                               '$messages':translate_message(query(more(Bindings, true, Residuals)), Parts, []),
                               print_message_lines(current_output, '', Parts) )),
        split_string(Text, "\n", " ", Strings),
        maplist(atom_string, Lines, Strings)
    ).

%   top_reply(+Asked, +Answers, +Status, +Message, +Text, +Looking,
%   -Reply): the reply to a top request, Text its Answers as JSON (of
%   answers(Answers)); `det` says whether the last left no choice point;
%   Looking is `true` when the search goes on for one more.

top_reply(asked(Cpu0, Inferences0, Names), Answers, Status, Message, Text, Looking, Reply) :-
    last_det(Answers, Det),
    used(Cpu0, Inferences0, Used),
    Reply = json([status-Status, message-Message, names-list(Names), answers-raw(Text), det-raw(Det),
                  looking-raw(Looking) | Used]).

%   used(+Cpu0, +Inferences0, -Pairs): the request's CPU seconds and
%   inferences since Cpu0 and Inferences0, whether the rules tried to
%   start a process, and the process's CPU seconds, as reply pairs.

used(Cpu0, Inferences0, [refused-Refused, cpu-Cpu, process_cpu-Process, inferences-Inferences]) :-
    refused(Refused),
    statistics(cputime, Cpu1),
    statistics(process_cputime, Process),
    statistics(inferences, Inferences1),
    Cpu is Cpu1 - Cpu0,
    Inferences is Inferences1 - Inferences0.

%   load_stopped(+Error, +Seconds, +Guard, -Problems): the problem of a
%   load that a limit (or an error outside the rules) stopped.

load_stopped(Error, Seconds, Guard, [Problem]) :-
    pysolve_bridge:error_status(Error, Status, Message),
    (   Status == time_limit
    ->  format(atom(Problem), 'loading passed its time limit of ~w CPU seconds', [Seconds])
    ;   Status == wall_limit
    ->  format(atom(Problem), 'loading passed its wall-clock guard of ~w s', [Guard])
    ;   Problem = Message
    ).

%   written_rows(+Status0, +Message0, +Rows, +Seconds, +Guard, -Status,
%   -Message, -Text): Rows as JSON text, written within what is left of
%   the goal's limits (the limits cover copying the rows out too); when
%   that runs out (or the stacks do), no rows and the limit's status.

written_rows(Status0, Message0, Rows, Seconds, Guard, Status, Message, Text) :-
    catch(pysolve_bridge:call_with_cpu_limit(Seconds, Guard,
                                             with_output_to(string(Text), pysolve_sandbox:json_value(Rows))),
          Error, true),
    (   var(Error)
    ->  Status = Status0, Message = Message0
    ;   Text = "[]",
        pysolve_bridge:error_status(Error, Status, Message)
    ).

free_module(File, Module) :-
    file_base_name(File, Base),
    file_name_extension(Stem, _, Base),
    free_module(Stem, 1, Module).

free_module(Stem, N, Module) :-
    (   N =:= 1 -> Name = Stem ; format(atom(Name), '~w_~d', [Stem, N]) ),
    (   current_module(Name)
    ->  N1 is N + 1,
        free_module(Stem, N1, Module)
    ;   Module = Name
    ).

loaded_module(File, Target, Module) :-
    (   source_file_property(File, module(Module0))
    ->  Module = Module0
    ;   Module = Target
    ).

flush_printed :-
    catch(flush_output(user_output), _, true),
    catch(flush_output(user_error), _, true).

send(Reply) :-
    reply_stream(Out),
    json_value(Out, Reply),
    nl(Out),
    flush_output(Out).

%   The marker a halt leaves: the parent tells a rule base that halted
%   from one that crashed, and knows the line of a `:- halt.` directive.
%   The marker holds the exit status (halt/1's wrapper keeps it): the
%   parent kills the process once it has the marker, since SWI-Prolog
%   9.0.4 can hang on its way out when halt/1 is called while an alarm is
%   due (library(time)'s cleanup waits for a lock). abort/0 ends the
%   process too (the bridge's catch-all catches '$aborted', and SWI-Prolog
%   throws it again up to the top, which halts): its wrapper marks it
%   first.

halt_marker :-
    (   retract(serving(Kind))
    ->  halt_location(Kind, Location),
        refused(Refused),
        nb_getval(pysolve_aborted, Aborted),
        nb_getval(pysolve_halt, Status),
        send(json([halted-raw(true), status-Status, aborted-raw(Aborted), refused-Refused | Location]))
    ;   true                            % pysolve's own halt: no request was being served
    ).

halt_location(load(File), [file-File, line-Line]) :-
    source_location(File, Line),
    !.
halt_location(_, []).

% ------------------------------------------------------------------ refused

%   Predicates that start a process: a rule base checked by pysolve has no
%   business starting one, so each raises a permission error (and the
%   reply names it even when the rules catch the error).

refuse_processes :-
    set_prolog_flag(access_level, system),
    forall(refused_predicate(Head, Indicator), refuse(Head, Indicator)),
    refuse_pipes,
    wrap_predicate(system:abort, pysolve_sandbox, Abort,
                   ( nb_setval(pysolve_aborted, true), Abort )),
    wrap_predicate(system:halt(Status), pysolve_sandbox, Halt,
                   ( nb_setval(pysolve_halt, Status), Halt )),
    set_prolog_flag(access_level, user).

refused_predicate('$syspreds':shell(_), shell/1).
refused_predicate(system:shell(_, _), shell/2).
refused_predicate(shell:shell, shell/0).
refused_predicate(process:process_create(_, _, _), process_create/3).
refused_predicate(unix:fork(_), fork/1).
refused_predicate(unix:fork_exec(_), fork_exec/1).
refused_predicate(unix:exec(_), exec/1).

refuse(Head, Indicator) :-
    wrap_predicate(Head, pysolve_sandbox, _, pysolve_sandbox:refused_call(Indicator)).

%   open/3,4 start a shell for a source pipe(Command).

refuse_pipes :-
    wrap_predicate(system:open(Source, _, _), pysolve_sandbox, Open3,
                   ( pysolve_sandbox:pipe_refused(Source, open/3), Open3 )),
    wrap_predicate(system:open(Source4, _, _, _), pysolve_sandbox, Open4,
                   ( pysolve_sandbox:pipe_refused(Source4, open/4), Open4 )).

pipe_refused(Source, Indicator) :-
    (   nonvar(Source), Source = pipe(_)
    ->  refused_call(Indicator)
    ;   true
    ).

refused_call(Indicator) :-
    nb_setval(pysolve_refused, Indicator),
    throw(error(permission_error(call, process_starting_predicate, Indicator),
                context(Indicator, 'pysolve refuses to start processes from rules it checks'))).

refused(Refused) :-
    nb_getval(pysolve_refused, Indicator),
    (   Indicator == none
    ->  Refused = null
    ;   format(atom(Refused), '~w', [Indicator])
    ).

% ------------------------------------------------------------------ JSON

%   json_value(+Value): Value written as JSON on the current output, and
%   json_value(+Stream, +Value) on Stream. Values are what the bridge
%   makes plain (pysolve_bridge:plain_value/4): integers, floats, atoms
%   (JSON strings), lists (arrays) and strings, which hold the digits of an
%   integer past 64 bits (written as the number, which JSON allows);
%   besides json(Pairs) objects, list(Atoms) arrays of text, raw(Text)
%   text already JSON, and null.

json_value(Out, Value) :-
    with_output_to(Out, json_value(Value)).

json_value(Value) :-
    (   integer(Value)
    ->  write(Value)
    ;   string(Value)
    ->  write(Value)
    ;   float(Value)
    ->  json_float(Value)
    ;   Value == null
    ->  write(null)
    ;   atom(Value)
    ->  json_string(Value)
    ;   Value = json(Pairs)
    ->  json_object(Pairs)
    ;   Value = list(Items)
    ->  maplist(text_atom, Items, Atoms),
        json_array(Atoms)
    ;   Value = raw(Text)
    ->  write(Text)
    ;   Value = answers(Answers)
    ->  answers_json(Answers)
    ;   is_list(Value)
    ->  json_array(Value)
    ;   format(atom(Atom), '~q', [Value]),
        json_string(Atom)
    ).

%   answers_json(+Answers): top_answer/4's answers as [Rows, Texts],
%   each answer's values and its lines.

answers_json(Answers) :-
    findall(Row, member(answer(Row, _, _), Answers), Rows),
    findall(list(Lines), member(answer(_, Lines, _), Answers), Texts),
    json_array([Rows, Texts]).

text_atom(Text, Atom) :-
    (   atom(Text) -> Atom = Text ; format(atom(Atom), '~w', [Text]) ).

json_array([]) :-
    write('[]').
json_array([First|Rest]) :-
    put_char('['),
    json_value(First),
    forall(member(Item, Rest), (put_char(','), json_value(Item))),
    put_char(']').

json_object(Pairs) :-
    put_char('{'),
    forall(nth1(Index, Pairs, Key-Value),
           ( ( Index > 1 -> put_char(',') ; true ),
             json_string(Key), put_char(':'), json_value(Value) )),
    put_char('}').

json_float(Float) :-
    float_class(Float, Class),
    (   Class == nan
    ->  write('NaN')
    ;   Class == infinite
    ->  (   Float > 0 -> write('Infinity') ; write('-Infinity') )
    ;   write(Float)
    ).

%   json_string(+Atom): the atom as a JSON string; most atoms need no
%   escape and are written at once.

json_string(Atom) :-
    (   plain_text(Atom)
    ->  put_char('"'), write(Atom), put_char('"')
    ;   atom_codes(Atom, Codes),
        put_char('"'),
        maplist(json_code, Codes),
        put_char('"')
    ).

plain_text(Atom) :-
    \+ ( sub_atom(Atom, _, 1, _, Char),
         ( Char @< ' ' ; Char == '"' ; Char == '\\' )
       ).

json_code(0'") :- !, write('\\"').
json_code(0'\\) :- !, write('\\\\').
json_code(0'\n) :- !, write('\\n').
json_code(0'\t) :- !, write('\\t').
json_code(Code) :-
    (   Code < 32
    ->  format('\\u~|~`0t~16r~4+', [Code])
    ;   put_code(Code)
    ).
