:- module(pysolve_trace,
          [ trace_open/3,              % +File, +Limit, +NodesBefore
            trace_close/1,             % -Counts
            trace_enter/3,             % +Label, +Parent, -Node
            trace_enter/4,             % +Label, +Move, +Parent, -Node
            trace_fail/1,              % +Node
            trace_solution/1,          % +Node
            trace_root/1,              % -Node
            trace_active/0
          ]).

/** <module> A Prolog search recorded as it runs

The Prolog half of pysolve's trace format (`pysolve/trace.py` documents
it): a search calls trace_enter/3 for each choice it makes, trace_fail/1
at a dead end and trace_solution/1 at an answer, and the events are
appended, one JSON object a line, events to a file of its own, which Python adds to the trace (after the
events it wrote itself) with the counts from trace_close/1.

A node is `node(Id, Depth)`; the root is `node(0, 0)`. trace_enter/3
writes the `backtrack` event itself when the search backtracks into it, so
a search is traced by threading nodes through its clauses, with no other
change to its control. When no trace is open every predicate here only
computes the node and writes nothing.

The file is one per process, opened by trace_open/2 and closed by
trace_close/1; the counters are global flags, so a search traced in one
thread is counted whole.
*/

:- use_module(library(http/json), [json_write/3]).
:- use_module(library(error), [must_be/2]).

:- dynamic tracing/2.                  % tracing(Stream, Limit): a trace is open
:- dynamic nodes_before/1.             % the nodes the trace held when it was opened

counter(nodes).
counter(fails).
counter(backtracks).
counter(solutions).
counter(events).

%!  trace_open(+File, +Limit, +NodesBefore) is det.
%
%   Append the events of the searches that follow to File, at most Limit
%   of them (past that they are only counted); node ids go on from
%   NodesBefore, the nodes the trace already holds.
%
%   ```
%   ?- tmp_file(trace, _File), trace_open(_File, 100, 0), trace_root(_Root), trace_enter(step, _Root,
%               _), trace_close(Counts).
%   Counts = counts(1, 0, 0, 0, 1).
%   ```
%
%   @error type_error(atom, File), type_error(nonneg, Limit) or type_error(nonneg, NodesBefore) for
%       arguments of another type.
%   @error existence_error or permission_error of open/4 when File cannot be written.

trace_open(File, Limit, NodesBefore) :-
    must_be(atom, File),
    must_be(nonneg, Limit),
    must_be(nonneg, NodesBefore),
    trace_close(_),
    open(File, append, Stream, [encoding(utf8)]),
    forall(counter(Name), (flag_name(Name, Flag), flag(Flag, _, 0))),
    flag(pysolve_trace_nodes, _, NodesBefore),
    retractall(nodes_before(_)),
    assertz(nodes_before(NodesBefore)),
    assertz(tracing(Stream, Limit)).

%!  trace_close(-Counts) is det.
%
%   Close the trace file; Counts is `counts(Nodes, Fails, Backtracks,
%   Solutions, Events)` of what was recorded since trace_open/3.
%
%   ```
%   ?- tmp_file(trace, _File), trace_open(_File, 10, 0), trace_root(_Root), trace_enter(a, _Root,
%               _Node), trace_fail(_Node), trace_close(Counts).
%   Counts = counts(1, 1, 0, 0, 2).
%   ```
%
%   @error none.

trace_close(counts(Nodes, Fails, Backtracks, Solutions, Events)) :-
    forall(retract(tracing(Stream, _)), close(Stream)),
    count(nodes, Last),
    (   nodes_before(Before) -> true ; Before = 0 ),
    Nodes is Last - Before,
    count(fails, Fails),
    count(backtracks, Backtracks),
    count(solutions, Solutions),
    count(events, Events).

%!  trace_root(-Node) is det.
%
%   The root of the search tree: `node(0, 0)`.
%
%   ```
%   ?- trace_root(Root).
%   Root = node(0, 0).
%   ```
%
%   @error none.

trace_root(node(0, 0)).

%!  trace_active is semidet.
%
%   A trace is open: a search that records itself only then (a traced
%   variant of its loop) asks this once, when it starts.
%
%   ```
%   ?- ( trace_active -> Open = true ; Open = false ).
%   Open = false.
%   ```
%
%   @error none.

trace_active :-
    tracing(_, _).

%!  trace_enter(+Label, +Parent, -Node) is multi.
%!  trace_enter(+Label, +Move, +Parent, -Node) is multi.
%
%   Node is a new child of Parent, made by the choice Label (any term,
%   written as text). Move, where given, is the same choice as data: a
%   list of Key=Value pairs, written as the event's `move` object (values
%   integers, atoms or lists of them). Succeeds once; on backtracking it
%   records that the search left Node, then fails.
%
%   ```
%   ?- trace_root(Root), trace_enter(step, Root, Node).
%   Root = node(0, 0),
%   Node = node(0, 1).
%   ```
%
%   @error none: with no trace open it only makes the node; a Parent that is no node(Id, Depth)
%       fails.

trace_enter(Label, Parent, Node) :-
    trace_enter(Label, [], Parent, Node).

trace_enter(Label, Move, node(ParentId, ParentDepth), node(Id, Depth)) :-
    Depth is ParentDepth + 1,
    (   tracing(_, _)
    ->  format(string(Text), "~w", [Label]),
        (   Move == []
        ->  Event = _{e:enter, id:Id, parent:ParentId, depth:Depth, label:Text}
        ;   Event = _{e:enter, id:Id, parent:ParentId, depth:Depth, label:Text, move:json(Move)}
        ),
        record(nodes, Id, Event),
        (   true
        ;   record(backtracks, _, _{e:backtrack, id:Id, depth:Depth}),
            fail
        )
    ;   Id = 0
    ).

%!  trace_fail(+Node) is det.
%
%   Node is a dead end.
%
%   ```
%   ?- trace_root(Root), trace_fail(Root).
%   Root = node(0, 0).
%   ```
%
%   @error none: a Node that is no node(Id, Depth) fails.

trace_fail(node(Id, Depth)) :-
    (   tracing(_, _)
    ->  record(fails, _, _{e:fail, id:Id, depth:Depth})
    ;   true
    ).

%!  trace_solution(+Node) is det.
%
%   Node completes an answer.
%
%   ```
%   ?- trace_root(Root), trace_solution(Root).
%   Root = node(0, 0).
%   ```
%
%   @error none: a Node that is no node(Id, Depth) fails.

trace_solution(node(Id, Depth)) :-
    (   tracing(_, _)
    ->  record(solutions, Count, _{e:solution, id:Id, depth:Depth, count:Count})
    ;   true
    ).

%   record(+Counter, -Value, +Event): bump Counter (Value: its new value,
%   which Event may hold) and write Event, signals held off meanwhile: a
%   search stopped by its time limit leaves every event it counted written
%   whole.

record(Counter, Value, Event) :-
    sig_atomic(( bump(Counter, Value), emit(Event) )).

emit(Event) :-
    bump(events, N),
    tracing(Stream, Limit),
    (   N =< Limit
    ->  json_write_dict_line(Stream, Event)
    ;   true
    ).

json_write_dict_line(Stream, Event) :-
    dict_pairs(Event, _, Pairs),
    event_order(Pairs, Ordered),
    json_write(Stream, json(Ordered), [width(0)]),
    nl(Stream).

%   The keys in the order the Python writer uses: e, id, parent, depth, then the rest.
event_order(Pairs, Ordered) :-
    findall(Key=Value,
            ( member(Key, [e, id, parent, depth, label, move, count]),
              memberchk(Key-Value, Pairs)
            ),
            Ordered).

bump(Name, Value) :-
    flag_name(Name, Flag),
    flag(Flag, Old, Old + 1),
    Value is Old + 1.

count(Name, Value) :-
    flag_name(Name, Flag),
    flag(Flag, Value, Value).

flag_name(Name, Flag) :-
    atom_concat(pysolve_trace_, Name, Flag).
