:- module(pysolve_search,
          [ tree_search/6,             % :Problem, +Strategy, +Flavour, +Start, -Path, -Expanded
            mirrored_shortest_path/4   % :Problem, +Start, -Path, -Expanded
          ]).

/** <module> Generic state-space search

The search strategies of the course libraries, written once and
parametrised by a problem: Problem is a module-sensitive argument (a
meta-argument `:`) naming the module that defines

  - successor(+State, -Next): the next states, on backtracking, in order;
  - goal(+State): State is a goal;
  - heuristic(+State, -H): an integer estimate, lower is closer;
  - state_label(+State, -Label): the state in the problem's words, asked
    only when the search is recorded.

Tree search works on simple paths (a state's successors leave out states
already on its path); the goal test happens when a state is taken from the
frontier, never when it is generated, and a goal state is not expanded.
The flavour fixes the order children enter the frontier: `hs` (the Haskell
library) or `py` (the Python library).

When a trace is open (pysolve_trace.pl) a search records itself, the same
way pysolve.search records Python's: a node per state taken from the
frontier (the start first; tested for the goal, then expanded), below the
node of the state it was generated from; the goal taken is the solution,
a state expanded into no new state is a dead end (`fail`). Hill climbing
takes the state it climbs to; the shortest path takes each state it
expands, then the state where the search meets its mirror image, then the
half of the path read in the mirror, one node a state below it, the goal
last. States are labelled by state_label/2, their `move` is `state` (and
`h`, the heuristic, for best-first and hill climbing). Whether a trace is
open is asked once per search: the untraced search only threads an atom
through.
*/

:- use_module(library(lists), [append/3, member/2, reverse/2]).
:- use_module(library(apply), [foldl/4, maplist/3]).
:- use_module(library(heaps), [add_to_heap/4, get_from_heap/4, singleton_heap/3]).
:- use_module(library(error), [domain_error/2, must_be/2]).
:- use_module(pysolve_trace, [trace_active/0, trace_enter/4, trace_fail/1, trace_root/1, trace_solution/1]).

:- meta_predicate
    tree_search(:, +, +, +, -, -),
    mirrored_shortest_path(:, +, -, -).

%!  tree_search(+Problem, +Strategy, +Flavour, +Start, -Path, -Expanded) is det.
%
%   Search from Start with Strategy (`dfs`, `bfs`, `'best-first'` or
%   `'hill-climbing'`) in Flavour (`hs` or `py`). Path is the list of
%   states from Start to the goal found, or [] when the strategy fails;
%   Expanded is the number of states expanded. Problem is the module of
%   the problem's predicates, qualified as `Module:_` by the meta-argument
%   declaration (pass the module's name, or `Module:problem`). Raises a
%   domain error for an unknown strategy or flavour.
%
%   ```
%   ?- use_module(fichas), fichas:start(1, 1, Start), tree_search(fichas, bfs, hs, Start, Path,
%                 Expanded), length(Path, Steps).
%   Start = 33827,
%   Path = [33827, 9283, 24579, 18467],
%   Expanded = 5,
%   Steps = 4.
%   ```
%
%   @error domain_error(strategy, Strategy), domain_error(flavour, Flavour) for another strategy or
%       flavour (type_error(atom, _) for a non-atom).

tree_search(Qualified, Strategy, Flavour, Start, Path, Expanded) :-
    problem_module(Qualified, Problem),
    must_be_one_of(strategy, [dfs, bfs, 'best-first', 'hill-climbing'], Strategy),
    must_be_one_of(flavour, [hs, py], Flavour),
    tracer(Strategy, Tracer),
    trace_root(Root),
    strategy_search(Strategy, Flavour, Problem, Tracer, Root, Start, Reversed, Expanded),
    reverse(Reversed, Path).

strategy_search('hill-climbing', _Flavour, Problem, Tracer, Root, Start, Reversed, Expanded) :-
    hill_climbing([Start], Problem, Tracer, Root, 0, Reversed, Expanded).
strategy_search(Strategy, Flavour, Problem, Tracer, Root, Start, Reversed, Expanded) :-
    items(Tracer, Root, [[Start]], [Item]),
    initial_frontier(Strategy, Problem, Item, Frontier),
    frontier_search(Frontier, Flavour, Problem, Tracer, 0, Reversed, Expanded).

%   A frontier holds items, one per path (most recent state first): the
%   path itself, or Parent-Path when the search is recorded (Parent: the
%   node of the state the path's last step came from). It is stack(Items)
%   for depth-first, queue(Front, ReversedBack) for breadth-first and
%   heap(Heap) keyed by key(H, Order, Index) for best-first.

initial_frontier(dfs, _, Item, stack([Item])).
initial_frontier(bfs, _, Item, queue([Item], [])).
initial_frontier('best-first', Problem, Item, heap(Heap)) :-
    item_state(Item, Start),
    Problem:heuristic(Start, H),
    singleton_heap(Heap, key(H, 0, 0), Item).

frontier_search(Frontier0, Flavour, Problem, Tracer, Expanded0, Reversed, Expanded) :-
    (   take(Frontier0, Item, Frontier1)
    ->  taken(Tracer, Problem, Item, Path, Node),
        Path = [State|_],
        (   Problem:goal(State)
        ->  solved(Tracer, Node), Reversed = Path, Expanded = Expanded0
        ;   Expanded1 is Expanded0 + 1,
            children(Problem, Path, Children),
            items(Tracer, Node, Children, Items),
            add_children(Frontier1, Flavour, Problem, Expanded1, Items, Frontier2),
            frontier_search(Frontier2, Flavour, Problem, Tracer, Expanded1, Reversed, Expanded)
        )
    ;   Reversed = [], Expanded = Expanded0
    ).

take(stack([Path|Stack]), Path, stack(Stack)).
take(queue([Path|Front], Back), Path, queue(Front, Back)).
take(queue([], Back), Path, queue(Front, [])) :-
    reverse(Back, [Path|Front]).
take(heap(Heap0), Path, heap(Heap)) :-
    get_from_heap(Heap0, _Key, Path, Heap).

%   add_children(+Frontier0, +Flavour, +Problem, +Expansion, +Children, -Frontier)
%   is det: one clause per frontier, so the search runs without choice
%   points and in constant local stack (last-call optimisation).

add_children(stack(Stack), Flavour, _, _, Children, stack(Stack1)) :-
    flavour_order(Flavour, Children, Pushed),      % hs: s1 explored first
    append(Pushed, Stack, Stack1).
add_children(queue(Front, Back), Flavour, _, _, Children, queue(Front, Back1)) :-
    flavour_order(Flavour, Children, Enqueued),    % Back is reversed: hs enqueues sk..s1
    append(Enqueued, Back, Back1).
add_children(heap(Heap0), Flavour, Problem, Expansion, Children, heap(Heap)) :-
    expansion_order(Flavour, Expansion, Order),
    foldl(push_child(Problem, Order), Children, Heap0-0, Heap-_).

flavour_order(hs, Children, Children).
flavour_order(py, Children, Reversed) :-
    reverse(Children, Reversed).

expansion_order(hs, Expansion, Order) :-         % latest expansion first on ties
    Order is -Expansion.
expansion_order(py, Expansion, Expansion).       % first in, first out on ties

push_child(Problem, Order, Item, Heap0-Index, Heap-Index1) :-
    item_state(Item, State),
    Problem:heuristic(State, H),
    add_to_heap(Heap0, key(H, Order, Index), Item, Heap),
    Index1 is Index + 1.

hill_climbing(Path, Problem, Tracer, Parent, Expanded0, Reversed, Expanded) :-
    Path = [State|_],
    visit(Tracer, Problem, State, Parent, Node),
    (   Problem:goal(State)
    ->  solved(Tracer, Node), Reversed = Path, Expanded = Expanded0
    ;   Expanded1 is Expanded0 + 1,
        children(Problem, Path, Children),
        (   Children = [First|Rest]
        ->  foldl(lower_heuristic(Problem), Rest, First, Best),
            hill_climbing(Best, Problem, Tracer, Node, Expanded1, Reversed, Expanded)
        ;   dead_end(Tracer, Node),
            Reversed = [], Expanded = Expanded1
        )
    ).

lower_heuristic(Problem, Path, Best0, Best) :-  % keeps the first of equals
    Path = [State|_],
    Best0 = [BestState|_],
    Problem:heuristic(State, H),
    Problem:heuristic(BestState, H0),
    (   H < H0
    ->  Best = Path
    ;   Best = Best0
    ).

%   children(+Problem, +Path, -Children): Path extended by each successor
%   not already on it. findall/3 collects only the new states, so every
%   child shares Path as its tail instead of holding a copy: the frontier
%   stays linear in the depth, and garbage collection stays short.

children(Problem, Path, Children) :-
    Path = [State|_],
    findall(Next,
            ( Problem:successor(State, Next),
              \+ memberchk(Next, Path)
            ),
            Nexts),
    maplist(extend_path(Path), Nexts, Children).

extend_path(Path, Next, [Next|Path]).

%   Recording (see the module's header). Tracer is `untraced`, or
%   traced(Scored) when a trace is open: Scored is `scored` when the
%   strategy orders states by their heuristic (its `move` then gives `h`),
%   else `plain`. A node is pysolve_trace's node(Id, Depth); the untraced
%   search passes `none` for it.

tracer(Strategy, Tracer) :-
    (   trace_active
    ->  (   memberchk(Strategy, ['best-first', 'hill-climbing'])
        ->  Tracer = traced(scored)
        ;   Tracer = traced(plain)
        )
    ;   Tracer = untraced
    ).

%   taken(+Tracer, +Problem, +Item, -Path, -Node): the path of the frontier
%   item taken, its last state recorded as Node below the node its last step
%   came from; item_state(+Item, -State): an item's last state.

taken(untraced, _, Path, Path, none).
taken(traced(Scored), Problem, Parent-Path, Path, Node) :-
    Path = [State|_],
    visit(traced(Scored), Problem, State, Parent, Node).

item_state([State|_], State).
item_state(_-[State|_], State).

%   items(+Tracer, +Node, +Paths, -Items): the paths generated from Node as
%   frontier items; when none is, Node is a dead end.

items(untraced, _, Paths, Paths).
items(traced(_), Node, Paths, Items) :-
    (   Paths == []
    ->  trace_fail(Node)
    ;   true
    ),
    maplist(item_of(Node), Paths, Items).

item_of(Node, Path, Node-Path).

%   visit(+Tracer, +Problem, +State, +Parent, -Node): State is taken,
%   recorded as a node below Parent. Frontier searches never backtrack, so
%   the node is entered once (no backtrack event).

visit(untraced, _, _, _, none).
visit(traced(Scored), Problem, State, Parent, Node) :-
    Problem:state_label(State, Label),
    (   Scored == scored
    ->  Problem:heuristic(State, H),
        Move = [state=Label, h=H]
    ;   Move = [state=Label]
    ),
    once(trace_enter(Label, Move, Parent, Node)).

solved(untraced, _).
solved(traced(_), Node) :-
    trace_solution(Node).

dead_end(untraced, _).
dead_end(traced(_), Node) :-
    trace_fail(Node).

%!  mirrored_shortest_path(+Problem, +Start, -Path, -Expanded) is det.
%
%   Path is a shortest path from Start to the goal (states, Start first), or
%   [] when there is none; Expanded counts the states expanded. Problem must
%   also define mirror(+State, -Mirrored), mapping Start to the goal and
%   commuting with the moves: the distance from a state to the goal is then
%   the distance from Start to its mirror image, so a search back from the
%   goal would only repeat this one. One breadth-first graph search (with a
%   visited set) meets itself halfway, at the first layer holding a state
%   whose mirror image it has already seen. States must be atomic (atoms or
%   integers): the visited set is a table of clauses hashed on them.
%
%   ```
%   ?- use_module(fichas), fichas:start(1, 1, Start), mirrored_shortest_path(fichas, Start, Path,
%                 Expanded), length(Path, Steps).
%   Start = 33827,
%   Path = [33827, 36867, 6211, 18467],
%   Expanded = 3,
%   Steps = 4.
%   ```
%
%   @error type_error(atomic, Start) unless Start is atomic.

:- thread_local seen/3.                  % State, Depth, Parent
:- thread_local node_of/2.               % State, Node: the node of a state expanded, when recorded

mirrored_shortest_path(Qualified, Start, Path, Expanded) :-
    problem_module(Qualified, Problem),
    must_be(atomic, Start),
    tracer(shortest, Tracer),
    setup_call_cleanup(
        forget_seen,
        (   assertz(seen(Start, 0, none)),
            layers([Start], 0, Problem, Tracer, 0, Meeting, Expanded),
            meeting_path(Meeting, Problem, Tracer, Path)
        ),
        forget_seen).

forget_seen :-
    retractall(seen(_, _, _)),
    retractall(node_of(_, _)).

layers(Layer, Depth, Problem, Tracer, Expanded0, Meeting, Expanded) :-
    (   Layer == []
    ->  Meeting = none, Expanded = Expanded0
    ;   closest_meeting(Layer, Problem, Found)
    ->  Meeting = Found, Expanded = Expanded0
    ;   Depth1 is Depth + 1,
        grow(Layer, Problem, Tracer, Depth1, Next, [], Expanded0, Expanded1),
        layers(Next, Depth1, Problem, Tracer, Expanded1, Meeting, Expanded)
    ).

%   closest_meeting(+Layer, +Problem, -State) is semidet: the first state of
%   Layer whose mirror image was seen nearest the start.

closest_meeting(Layer, Problem, State) :-
    findall(Depth-Candidate,
            ( member(Candidate, Layer),
              Problem:mirror(Candidate, Mirrored),
              seen(Mirrored, Depth, _)
            ),
            Met),
    keysort(Met, [_-State|_]).

%   grow(+Layer, +Problem, +Tracer, +Depth, -Next, ?Tail, +E0, -E): expand
%   Layer; Next-Tail holds the states seen for the first time, at Depth.

grow([], _, _, _, Tail, Tail, Expanded, Expanded).
grow([State|Layer], Problem, Tracer, Depth, Next, Tail, Expanded0, Expanded) :-
    Expanded1 is Expanded0 + 1,
    expanded(Tracer, Problem, State, Node),
    findall(Child, Problem:successor(State, Child), Children),
    new_children(Children, State, Depth, Next, Next1),
    (   Tracer == untraced
    ->  true
    ;   Next == Next1                        % nothing new below State
    ->  trace_fail(Node)
    ;   true
    ),
    grow(Layer, Problem, Tracer, Depth, Next1, Tail, Expanded1, Expanded).

%   expanded(+Tracer, +Problem, +State, -Node): State, taken from its layer,
%   recorded below the node of the state that first reached it.

expanded(untraced, _, _, none).
expanded(traced(Scored), Problem, State, Node) :-
    layer_node(traced(Scored), Problem, State, Node),
    assertz(node_of(State, Node)).

layer_node(Tracer, Problem, State, Node) :-
    seen(State, _, Parent),
    parent_node(Parent, ParentNode),
    visit(Tracer, Problem, State, ParentNode, Node).

parent_node(none, Root) :-
    trace_root(Root).
parent_node(State, Node) :-
    State \== none,
    node_of(State, Node).

new_children([], _, _, Tail, Tail).
new_children([Child|Children], Parent, Depth, Next, Tail) :-
    (   seen(Child, _, _)
    ->  Next = Next1
    ;   assertz(seen(Child, Depth, Parent)),
        Next = [Child|Next1]
    ),
    new_children(Children, Parent, Depth, Next1, Tail).

meeting_path(none, _, _, []).
meeting_path(State, Problem, Tracer, Path) :-
    State \== none,
    trace_back(State, ToStart),
    reverse(ToStart, FromStart),
    Problem:mirror(State, Mirrored),
    trace_back(Mirrored, MirroredToStart),
    maplist(Problem:mirror, MirroredToStart, [_|ToGoal]),
    met(Tracer, Problem, State, ToGoal),
    append(FromStart, ToGoal, Path).

%   met(+Tracer, +Problem, +Meeting, +ToGoal): the meeting state recorded
%   as taken, then the states ToGoal (the mirrored half of the path) one
%   below the other, the last the solution.

met(untraced, _, _, _).
met(traced(Scored), Problem, State, ToGoal) :-
    layer_node(traced(Scored), Problem, State, Node),
    foldl(visit(traced(Scored), Problem), ToGoal, Node, Last),
    trace_solution(Last).

trace_back(State, [State|Rest]) :-
    seen(State, _, Parent),
    (   Parent == none
    ->  Rest = []
    ;   trace_back(Parent, Rest)
    ).

%   must_be_one_of(+Domain, +Values, +Value): Value is an atom among
%   Values; a type error when it is no atom, a domain error (naming
%   Domain) when it is another atom.

must_be_one_of(Domain, Values, Value) :-
    must_be(atom, Value),
    (   memberchk(Value, Values)
    ->  true
    ;   domain_error(Domain, Value)
    ).

%   problem_module(+Qualified, -Module): the module of a problem given as
%   Context:Name (the meta-argument) or Context:Module:Name.

problem_module(Qualified, Module) :-
    strip_module(Qualified, Context, Name),
    (   atom(Name), current_module(Name)
    ->  Module = Name
    ;   Module = Context
    ).
