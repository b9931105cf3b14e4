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
  - heuristic(+State, -H): an integer estimate, lower is closer.

Tree search works on simple paths (a state's successors leave out states
already on its path); the goal test happens when a state is taken from the
frontier, never when it is generated, and a goal state is not expanded.
The flavour fixes the order children enter the frontier: `hs` (the Haskell
library) or `py` (the Python library).
*/

:- use_module(library(lists), [append/3, member/2, reverse/2]).
:- use_module(library(apply), [foldl/4, maplist/3]).
:- use_module(library(heaps), [add_to_heap/4, get_from_heap/4, singleton_heap/3]).
:- use_module(library(error), [domain_error/2, must_be/2]).

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

tree_search(Qualified, Strategy, Flavour, Start, Path, Expanded) :-
    problem_module(Qualified, Problem),
    must_be_one_of(strategy, [dfs, bfs, 'best-first', 'hill-climbing'], Strategy),
    must_be_one_of(flavour, [hs, py], Flavour),
    strategy_search(Strategy, Flavour, Problem, Start, Reversed, Expanded),
    reverse(Reversed, Path).

strategy_search('hill-climbing', _Flavour, Problem, Start, Reversed, Expanded) :-
    hill_climbing([Start], Problem, 0, Reversed, Expanded).
strategy_search(Strategy, Flavour, Problem, Start, Reversed, Expanded) :-
    initial_frontier(Strategy, Problem, [Start], Frontier),
    frontier_search(Frontier, Flavour, Problem, 0, Reversed, Expanded).

%   A frontier holds paths, most recent state first: stack(Paths) for
%   depth-first, queue(Front, ReversedBack) for breadth-first and
%   heap(Heap) keyed by key(H, Order, Index) for best-first.

initial_frontier(dfs, _, Path, stack([Path])).
initial_frontier(bfs, _, Path, queue([Path], [])).
initial_frontier('best-first', Problem, Path, heap(Heap)) :-
    Path = [Start],
    Problem:heuristic(Start, H),
    singleton_heap(Heap, key(H, 0, 0), Path).

frontier_search(Frontier0, Flavour, Problem, Expanded0, Reversed, Expanded) :-
    (   take(Frontier0, Path, Frontier1)
    ->  Path = [State|_],
        (   Problem:goal(State)
        ->  Reversed = Path, Expanded = Expanded0
        ;   Expanded1 is Expanded0 + 1,
            children(Problem, Path, Children),
            add_children(Frontier1, Flavour, Problem, Expanded1, Children, Frontier2),
            frontier_search(Frontier2, Flavour, Problem, Expanded1, Reversed, Expanded)
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

push_child(Problem, Order, Path, Heap0-Index, Heap-Index1) :-
    Path = [State|_],
    Problem:heuristic(State, H),
    add_to_heap(Heap0, key(H, Order, Index), Path, Heap),
    Index1 is Index + 1.

hill_climbing(Path, Problem, Expanded0, Reversed, Expanded) :-
    Path = [State|_],
    (   Problem:goal(State)
    ->  Reversed = Path, Expanded = Expanded0
    ;   Expanded1 is Expanded0 + 1,
        children(Problem, Path, Children),
        (   Children = [First|Rest]
        ->  foldl(lower_heuristic(Problem), Rest, First, Best),
            hill_climbing(Best, Problem, Expanded1, Reversed, Expanded)
        ;   Reversed = [], Expanded = Expanded1
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

:- thread_local seen/3.                  % State, Depth, Parent

mirrored_shortest_path(Qualified, Start, Path, Expanded) :-
    problem_module(Qualified, Problem),
    must_be(atomic, Start),
    setup_call_cleanup(
        retractall(seen(_, _, _)),
        (   assertz(seen(Start, 0, none)),
            layers([Start], 0, Problem, 0, Meeting, Expanded),
            meeting_path(Meeting, Problem, Path)
        ),
        retractall(seen(_, _, _))).

layers(Layer, Depth, Problem, Expanded0, Meeting, Expanded) :-
    (   Layer == []
    ->  Meeting = none, Expanded = Expanded0
    ;   closest_meeting(Layer, Problem, Found)
    ->  Meeting = Found, Expanded = Expanded0
    ;   Depth1 is Depth + 1,
        grow(Layer, Problem, Depth1, Next, [], Expanded0, Expanded1),
        layers(Next, Depth1, Problem, Expanded1, Meeting, Expanded)
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

%   grow(+Layer, +Problem, +Depth, -Next, ?Tail, +E0, -E): expand Layer;
%   Next-Tail holds the states seen for the first time, at Depth.

grow([], _, _, Tail, Tail, Expanded, Expanded).
grow([State|Layer], Problem, Depth, Next, Tail, Expanded0, Expanded) :-
    Expanded1 is Expanded0 + 1,
    findall(Child, Problem:successor(State, Child), Children),
    new_children(Children, State, Depth, Next, Next1),
    grow(Layer, Problem, Depth, Next1, Tail, Expanded1, Expanded).

new_children([], _, _, Tail, Tail).
new_children([Child|Children], Parent, Depth, Next, Tail) :-
    (   seen(Child, _, _)
    ->  Next = Next1
    ;   assertz(seen(Child, Depth, Parent)),
        Next = [Child|Next1]
    ),
    new_children(Children, Parent, Depth, Next1, Tail).

meeting_path(none, _, []).
meeting_path(State, Problem, Path) :-
    State \== none,
    trace_back(State, ToStart),
    reverse(ToStart, FromStart),
    Problem:mirror(State, Mirrored),
    trace_back(Mirrored, MirroredToStart),
    maplist(Problem:mirror, MirroredToStart, [_|ToGoal]),
    append(FromStart, ToGoal, Path).

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
