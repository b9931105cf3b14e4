:- module(search,
          [ tree_search/6,             % +Problem, +Strategy, +Flavour, +Start, -Path, -Expanded
            shortest_path/5            % +Problem, +Start, +Goal, -Path, -Expanded
          ]).

/** <module> Generic state-space search

The search strategies of the course libraries, written once and
parametrised by a problem: Problem is the name of a module that defines

  - successor(+State, -Next): the next states, on backtracking, in order;
  - goal(+State): State is a goal;
  - heuristic(+State, -H): an integer estimate, lower is closer.

Tree search works on simple paths (a state's successors leave out states
already on its path); the goal test happens when a state is taken from the
frontier, never when it is generated, and a goal state is not expanded.
The flavour fixes the order children enter the frontier: `hs` (the Haskell
library) or `py` (the Python library).
*/

:- use_module(library(lists)).
:- use_module(library(apply)).
:- use_module(library(heaps)).

%!  tree_search(+Problem, +Strategy, +Flavour, +Start, -Path, -Expanded) is det.
%
%   Search from Start with Strategy (`dfs`, `bfs`, `'best-first'` or
%   `'hill-climbing'`) in Flavour (`hs` or `py`). Path is the list of
%   states from Start to the goal found, or [] when the strategy fails;
%   Expanded is the number of states expanded.

tree_search(Problem, Strategy, Flavour, Start, Path, Expanded) :-
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

add_children(stack(Stack), hs, _, _, Children, stack(Stack1)) :-   % s1 explored first
    append(Children, Stack, Stack1).
add_children(stack(Stack), py, _, _, Children, stack(Stack1)) :-   % sk explored first
    reverse(Children, Pushed),
    append(Pushed, Stack, Stack1).
add_children(queue(Front, Back), hs, _, _, Children, queue(Front, Back1)) :-  % enqueued sk..s1
    append(Children, Back, Back1).
add_children(queue(Front, Back), py, _, _, Children, queue(Front, Back1)) :-  % enqueued s1..sk
    reverse(Children, Reversed),
    append(Reversed, Back, Back1).
add_children(heap(Heap0), Flavour, Problem, Expansion, Children, heap(Heap)) :-
    expansion_order(Flavour, Expansion, Order),
    foldl(push_child(Problem, Order), Children, Heap0-0, Heap-_).

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

children(Problem, Path, Children) :-
    Path = [State|_],
    findall([Next|Path],
            ( Problem:successor(State, Next),
              \+ memberchk(Next, Path)
            ),
            Children).

%!  shortest_path(+Problem, +Start, +Goal, -Path, -Expanded) is det.
%
%   Path is a shortest path from Start to Goal (states, Start first), or []
%   when there is none; Expanded counts the states expanded. Graph search
%   with a visited set, breadth-first from both ends at once (the smaller
%   layer grows first), so Problem's moves must be reversible. States must
%   be atomic (atoms or integers): the visited sets are indexed clauses.

:- thread_local parent/3.                % Side, State, Parent

shortest_path(Problem, Start, Goal, Path, Expanded) :-
    setup_call_cleanup(
        retractall(parent(_, _, _)),
        shortest_between(Problem, Start, Goal, Path, Expanded),
        retractall(parent(_, _, _))).

shortest_between(Problem, Start, Goal, Path, Expanded) :-
    (   Start == Goal
    ->  Path = [Start], Expanded = 0
    ;   assertz(parent(forward, Start, none)),
        assertz(parent(backward, Goal, none)),
        meet([Start], [Goal], Problem, 0, Meeting, Expanded),
        meeting_path(Meeting, Path)
    ).

meet(Forward, Backward, Problem, Expanded0, Meeting, Expanded) :-
    (   ( Forward == [] ; Backward == [] )
    ->  Meeting = none, Expanded = Expanded0
    ;   length(Forward, Size),
        length(Backward, OtherSize),
        (   Size =< OtherSize
        ->  grow(Forward, forward, backward, Problem, Expanded0, Expanded1, Next, Found),
            continue(Found, Next, Backward, Problem, Expanded1, Meeting, Expanded)
        ;   grow(Backward, backward, forward, Problem, Expanded0, Expanded1, Next, Found),
            continue(Found, Forward, Next, Problem, Expanded1, Meeting, Expanded)
        )
    ).

continue(none, Forward, Backward, Problem, Expanded0, Meeting, Expanded) :-
    meet(Forward, Backward, Problem, Expanded0, Meeting, Expanded).
continue(found(State), _, _, _, Expanded, State, Expanded).

%   grow(+Layer, +Side, +OtherSide, +Problem, +E0, -E, -Next, -Found):
%   expand one layer of Side; stop at the first state OtherSide has seen.

grow([], _, _, _, Expanded, Expanded, [], none).
grow([State|Layer], Side, Other, Problem, Expanded0, Expanded, Next, Found) :-
    Expanded1 is Expanded0 + 1,
    findall(Neighbour, Problem:successor(State, Neighbour), Neighbours),
    visit(Neighbours, State, Side, Other, Next, Next1, Found1),
    (   Found1 = found(_)
    ->  Found = Found1, Expanded = Expanded1, Next1 = []
    ;   grow(Layer, Side, Other, Problem, Expanded1, Expanded, Next1, Found)
    ).

%   visit(+Neighbours, +Parent, +Side, +Other, -Next, ?Tail, -Found):
%   Next-Tail is the difference list of neighbours Side sees for the first time.

visit([], _, _, _, Tail, Tail, none).
visit([State|States], Parent, Side, Other, Next, Tail, Found) :-
    (   parent(Side, State, _)
    ->  visit(States, Parent, Side, Other, Next, Tail, Found)
    ;   assertz(parent(Side, State, Parent)),
        (   parent(Other, State, _)
        ->  Found = found(State), Next = Tail
        ;   Next = [State|Next1],
            visit(States, Parent, Side, Other, Next1, Tail, Found)
        )
    ).

meeting_path(none, []).
meeting_path(State, Path) :-
    State \== none,
    trace_back(forward, State, ToStart),
    reverse(ToStart, FromStart),
    trace_back(backward, State, [_|ToGoal]),
    append(FromStart, ToGoal, Path).

trace_back(Side, State, [State|Rest]) :-
    parent(Side, State, Parent),
    (   Parent == none
    ->  Rest = []
    ;   trace_back(Side, Parent, Rest)
    ).
