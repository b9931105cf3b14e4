:- module(pysolve_traced,
          [ traceable/1                % +Specs
          ]).

/** <module> A search written once, compiled twice: as it is and recorded

A search that pysolve can trace (pysolve_trace) runs in two forms: its
plain clauses, and a variant that threads a node of the search tree
through them and writes the events, which by hand is a copy of the first
to keep in step with it. Here the search is written once, the places where
it makes a choice, meets a dead end or finds an answer marked in its body,
and this module compiles each of its clauses twice (term expansion):

  - the search itself, Name/Arity, with every mark taken out: the very
    clauses one would write without a trace, so the search runs as fast
    as it ever did and counts the same inferences;
  - its recorded variant, `traced_`Name/Arity+2, whose two last arguments
    are the node the clause starts below and the node it ends below (the
    last node it entered, which the next goal of its caller starts from).

A module declares its searches with traceable/1, then marks their bodies
with these goals (each is taken out of the plain search):

  - trace_node(Closure): the search enters a child of the current node:
    call(Closure, Node, Child), as pysolve_trace:trace_enter/4 does (it
    records a backtrack when the search undoes the choice); the goals
    after it run below Child;
  - trace_solved: the current node completes an answer;
  - trace_checked(Goal): Goal, once; where it fails, the current node is
    a dead end;
  - trace_some(Goal): every answer of Goal; where it has none, the
    current node is a dead end.

A call of a search of the same module in such a body calls its recorded
variant in the recorded one. A condition of `->` or `*->` and a `\+` are
left as they are. Outside the searches, two goals start one:

  - trace_search(Cond, Root, Goal): where Cond holds (it may bind Root),
    Goal recorded below the node Root, else Goal as it is;
  - traced_below(Root, Goal): Goal recorded below the node Root.

For example (sudoku.pl's plain search, `placed/4` a closure that enters
the node of a value put on a cell):

```
:- traceable([fill/2]).

fill([], _) :-
    trace_solved.
fill([cell(V, Row, Column, Box, At)|Entries], Values) :-
    (   integer(V)
    ->  true
    ;   trace_some(( member(Value, Values), absent(Value, Row), absent(Value, Column),
                     absent(Value, Box) )),
        V = Value,
        trace_node(placed(At, Value))
    ),
    fill(Entries, Values).
```
*/

:- use_module(library(error), [must_be/2]).
:- use_module(library(lists), [append/3, member/2]).

:- dynamic searched/3.                 % searched(Module, Name, Arity): declared by traceable/1

%!  traceable(+Specs) is det.
%
%   The predicates Specs (a list of Name/Arity) of the module being loaded
%   are searches written once: each clause of theirs that follows is
%   compiled as it is and as its recorded variant (see the module's
%   header). A directive, given before the clauses: sudoku.pl's
%   `:- traceable([fill/2, propagating_search/4]).` makes fill/2 and
%   traced_fill/4, propagating_search/4 and traced_propagating_search/6.
%
%   @error type_error(list, Specs) if Specs is not a list; a
%   type_error(predicate_indicator, Spec) for an element that is not Name/Arity.
%   @error permission_error(declare, traceable, Specs) outside the loading of a module's file.
%
%   ```
%   ?- use_module(sudoku), current_predicate(sudoku:traced_fill/4).
%   true.
%   ```

traceable(Specs) :-
    must_be(list, Specs),
    (   prolog_load_context(module, Module)
    ->  true
    ;   throw(error(permission_error(declare, traceable, Specs), _))
    ),
    forall(member(Spec, Specs), declare(Module, Spec)).

declare(Module, Spec) :-
    (   Spec = Name/Arity, atom(Name), integer(Arity)
    ->  (   searched(Module, Name, Arity)
        ->  true
        ;   assertz(searched(Module, Name, Arity))
        ),
        atom_concat(traced_, Name, TracedName),
        TracedArity is Arity + 2,
        % the two are compiled clause by clause, one after the other (declared
        % again on every load: reloading a file forgets it)
        discontiguous(Module:Name/Arity),
        discontiguous(Module:TracedName/TracedArity)
    ;   throw(error(type_error(predicate_indicator, Spec), _))
    ).

:- multifile user:term_expansion/2, user:goal_expansion/2.

user:term_expansion(Clause, [Plain, Traced]) :-
    prolog_load_context(module, Module),
    searched(Module, _, _),
    searched_clause(Clause, Head, Body),
    functor(Head, Name, Arity),
    searched(Module, Name, Arity),
    plain_body(Body, PlainBody),
    clause_term(Head, PlainBody, Named),
    % fresh variables: a variable only a mark used is no singleton to warn of
    copy_term(Named, Plain),
    traced_goal(Head, Module, Node0, Node, TracedHead),
    traced_body(Body, Module, Node0, Node1, TracedBody),
    Node1 = Node,
    clause_term(TracedHead, TracedBody, Traced).

user:goal_expansion(trace_search(Cond, Root, Goal), (Cond -> Traced ; Plain)) :-
    prolog_load_context(module, Module),
    searched(Module, _, _),
    traced_body(Goal, Module, Root, _, Traced),
    plain_body(Goal, Plain).
user:goal_expansion(traced_below(Root, Goal), Traced) :-
    prolog_load_context(module, Module),
    searched(Module, _, _),
    traced_body(Goal, Module, Root, _, Traced).

searched_clause(Clause, _, _) :-
    var(Clause),
    !,
    fail.
searched_clause((:- _), _, _) :-
    !,
    fail.
searched_clause((Head :- Body), Head, Body) :-
    !,
    callable(Head).
searched_clause(Head, Head, true) :-
    callable(Head).

clause_term(Head, true, Head) :-
    !.
clause_term(Head, Body, (Head :- Body)).

%   plain_body(+Body, -Plain): Body with the marks taken out (a mark alone in
%   a branch leaves `true`, one in a conjunction nothing).

plain_body(Goal, Goal) :-
    var(Goal),
    !.
plain_body((A, B), Plain) :-
    !,
    plain_body(A, PlainA),
    plain_body(B, PlainB),
    conjunction(PlainA, PlainB, Plain).
plain_body((C -> T ; E), (PC -> PT ; PE)) :-
    !,
    plain_body(C, PC), plain_body(T, PT), plain_body(E, PE).
plain_body((C *-> T ; E), (PC *-> PT ; PE)) :-
    !,
    plain_body(C, PC), plain_body(T, PT), plain_body(E, PE).
plain_body((A ; B), (PA ; PB)) :-
    !,
    plain_body(A, PA), plain_body(B, PB).
plain_body((C -> T), (PC -> PT)) :-
    !,
    plain_body(C, PC), plain_body(T, PT).
plain_body(\+ A, \+ PA) :-
    !,
    plain_body(A, PA).
plain_body(trace_node(_), true) :- !.
plain_body(trace_solved, true) :- !.
plain_body(trace_checked(Goal), Plain) :- !, plain_body(Goal, Plain).
plain_body(trace_some(Goal), Plain) :- !, plain_body(Goal, Plain).
plain_body(Goal, Goal).

conjunction(true, B, B) :- !.
conjunction(A, true, A) :- !.
conjunction(A, B, (A, B)).

%   traced_body(+Body, +Module, ?Node0, -Node, -Traced): Body recorded, from
%   the node Node0 to the node Node its last goal leaves. A goal that enters
%   no node leaves Node bound to Node0 here, as it compiles, so the
%   recorded clauses pass nodes on with no unification of their own.

traced_body(Goal, _, Node, Node, Goal) :-
    var(Goal),
    !.
traced_body((A, B), Module, Node0, Node, (TA, TB)) :-
    !,
    traced_body(A, Module, Node0, Node1, TA),
    traced_body(B, Module, Node1, Node, TB).
traced_body((C -> T ; E), Module, Node0, Node, (PC -> TT ; TE)) :-
    !,
    plain_body(C, PC),
    branches([T-TT, E-TE], Module, Node0, Node).
traced_body((C *-> T ; E), Module, Node0, Node, (PC *-> TT ; TE)) :-
    !,
    plain_body(C, PC),
    branches([T-TT, E-TE], Module, Node0, Node).
traced_body((A ; B), Module, Node0, Node, (TA ; TB)) :-
    !,
    branches([A-TA, B-TB], Module, Node0, Node).
traced_body((C -> T), Module, Node0, Node, (PC -> TT)) :-
    !,
    plain_body(C, PC),
    branches([T-TT], Module, Node0, Node).
traced_body(\+ A, _, Node, Node, \+ PA) :-
    !,
    plain_body(A, PA).
traced_body(trace_node(Closure), _, Node0, Node, Goal) :-
    !,
    Closure =.. List,
    append(List, [Node0, Node], GoalList),
    Goal =.. GoalList.
traced_body(trace_solved, _, Node, Node, pysolve_trace:trace_solution(Node)) :- !.
traced_body(trace_checked(Goal), _, Node, Node, (Plain -> true ; pysolve_trace:trace_fail(Node), fail)) :-
    !,
    plain_body(Goal, Plain).
traced_body(trace_some(Goal), _, Node, Node, (Plain *-> true ; pysolve_trace:trace_fail(Node), fail)) :-
    !,
    plain_body(Goal, Plain).
traced_body(Goal, Module, Node0, Node, Traced) :-
    functor(Goal, Name, Arity),
    searched(Module, Name, Arity),
    !,
    traced_goal(Goal, Module, Node0, Node, Traced).
traced_body(Goal, _, Node, Node, Goal).

%   branches(+Pairs, +Module, +Node0, -Node): each Branch-Traced of Pairs
%   recorded from Node0. A branch that enters a node ends below the node
%   Node names (the same variable, bound by its last call); one that enters
%   none, where another does, unifies Node0 with Node at its end.

branches(Pairs, Module, Node0, Node) :-
    branch_goals(Pairs, Module, Node0, Ends, Goals),
    (   forall(member(End, Ends), End == Node0)
    ->  Node = Node0,
        same_goals(Pairs, Goals)
    ;   joined_goals(Pairs, Goals, Ends, Node0, Node)
    ).

branch_goals([], _, _, [], []).
branch_goals([Branch-_|Pairs], Module, Node0, [End|Ends], [Goal|Goals]) :-
    traced_body(Branch, Module, Node0, End, Goal),
    branch_goals(Pairs, Module, Node0, Ends, Goals).

same_goals([], []).
same_goals([_-Goal|Pairs], [Goal|Goals]) :-
    same_goals(Pairs, Goals).

joined_goals([], [], [], _, _).
joined_goals([_-Joined|Pairs], [Goal|Goals], [End|Ends], Node0, Node) :-
    (   End == Node0
    ->  Joined = (Goal, Node0 = Node)
    ;   End = Node,
        Joined = Goal
    ),
    joined_goals(Pairs, Goals, Ends, Node0, Node).

%   traced_goal(+Goal, +Module, ?Node0, ?Node, -Traced): the call of Goal's
%   recorded variant (traced_Name, the nodes added).
traced_goal(Goal, _, Node0, Node, Traced) :-
    Goal =.. [Name|Args],
    atom_concat(traced_, Name, TracedName),
    append(Args, [Node0, Node], TracedArgs),
    Traced =.. [TracedName|TracedArgs].
