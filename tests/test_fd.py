"""Finite-domain constraints for miniKanren (pysolve.fd): answers equal brute force, goal order does not matter,
the classic puzzles, budgets and interrupts, wrong use."""

from __future__ import annotations

import itertools
import re
import subprocess
import sys
import time
from collections.abc import Callable
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_cli import interrupted

from pysolve import fd
from pysolve import minikanren as mk
from pysolve.budget import Budget
from pysolve.errors import SearchLimitExceeded

VALUES = 5  # random problems draw values from 0..VALUES-1


# ---------------------------------------------------------------------------------------------------------
# Random small problems against brute force

# A constraint as drawn: (name, variable indexes, its data); `holds` says whether values satisfy it, `goal`
# posts it. Together they are the specification the store must meet.
Drawn = tuple[str, tuple[int, ...], tuple]


def holds(constraint: Drawn, values: tuple[int, ...]) -> bool:
    """Whether `values` (one per variable) satisfy a drawn constraint: the brute-force reading."""
    name, at, data = constraint
    args = [values[i] for i in at]
    if name == "neq":
        return args[0] != args[1]
    if name == "lt":
        return args[0] < args[1]
    if name == "le":
        return args[0] <= args[1]
    if name == "plus":
        return args[0] + args[1] == args[2]
    if name == "distinct":
        return len(set(args)) == len(args)
    if name == "distinct_classes":  # a value the mapping leaves out is a class of its own
        classes = [data[0].get(a, ("alone", a)) for a in args]
        return len(set(classes)) == len(classes)
    if name == "table":
        return tuple(args) in data[0]
    if name == "eq":
        return list(args) == list(data[0])
    if name == "path":  # a walk in the graph that never turns straight back
        near = data[0]
        return all(a < len(near) for a in args) and all(b in near[a] for a, b in itertools.pairwise(args)) and \
            all(a != c for a, c in zip(args, args[2:]))
    if name == "linear":
        coeffs, total, relation = data
        value = sum(c * a for c, a in zip(coeffs, args))
        return value == total if relation == "==" else value <= total
    raise AssertionError(name)


def goal(constraint: Drawn, xs: list) -> mk.Goal:
    """The pysolve.fd goal of a drawn constraint over the logic variables xs."""
    name, at, data = constraint
    args = [xs[i] for i in at]
    if name in ("neq", "lt", "le"):
        return {"neq": fd.neqfd, "lt": fd.ltfd, "le": fd.lefd}[name](*args)
    if name == "plus":
        return fd.plusfd(*args)
    if name == "distinct":
        return fd.distinctfd(args)
    if name == "distinct_classes":
        return fd.distinctfd(args, classes=data[0])
    if name == "table":
        return fd.tablefd(args, data[0])
    if name == "eq":
        return fd.eqfd(args, data[0])
    if name == "path":
        return fd.pathfd(args, fd.Graph(data[0]))
    coeffs, total, relation = data
    return fd.linearfd(coeffs, args, total, relation)


@st.composite
def problems(draw: st.DrawFn) -> tuple[list[set[int]], list[Drawn]]:
    """A few variables with small domains and a few constraints of every kind among them."""
    count = draw(st.integers(2, 4))
    domains = [draw(st.sets(st.integers(0, VALUES - 1), min_size=1)) for _ in range(count)]
    some = st.lists(st.integers(0, count - 1), min_size=2, max_size=count, unique=True)
    constraints: list[Drawn] = []
    for _ in range(draw(st.integers(0, 4))):
        name = draw(st.sampled_from(["neq", "lt", "le", "plus", "distinct", "distinct_classes", "table", "linear",
                                     "path", "eq"]))
        if name in ("neq", "lt", "le"):
            at = tuple(draw(st.lists(st.integers(0, count - 1), min_size=2, max_size=2)))
            constraints.append((name, at, ()))
        elif name == "plus":
            constraints.append((name, tuple(draw(st.lists(st.integers(0, count - 1), min_size=3, max_size=3))), ()))
        elif name == "distinct":
            constraints.append((name, tuple(draw(some)), ()))
        elif name == "distinct_classes":
            classes = draw(st.dictionaries(st.integers(0, VALUES - 1), st.sampled_from("abc")))
            constraints.append((name, tuple(draw(some)), (classes,)))
        elif name == "table":
            width = draw(st.integers(0, 5))  # 4 and 5 columns: the compact table
            at = tuple(draw(st.lists(st.integers(0, count - 1), min_size=width, max_size=width)))
            rows = draw(st.sets(st.tuples(*[st.integers(0, VALUES - 1)] * width), max_size=20))
            constraints.append((name, at, (rows,)))
        elif name == "path":  # a variable may come back in the walk
            at = tuple(draw(st.lists(st.integers(0, count - 1), min_size=1, max_size=5)))
            constraints.append((name, at, (draw(graphs()),)))
        elif name == "eq":  # a variable may be named twice, with two values or one
            at = tuple(draw(st.lists(st.integers(0, count - 1), min_size=1, max_size=3)))
            constraints.append((name, at, (tuple(draw(st.integers(0, VALUES)) for _ in at),)))
        else:
            at = tuple(draw(some))
            coeffs = tuple(draw(st.lists(st.integers(-3, 3), min_size=len(at), max_size=len(at))))
            constraints.append((name, at, (coeffs, draw(st.integers(-6, 12)), draw(st.sampled_from(["==", "<="])))))
    return [sorted(domain) for domain in domains], constraints


@st.composite
def graphs(draw: st.DrawFn) -> list[set[int]]:
    """An undirected graph without loops on the vertices 0..n-1 (n up to VALUES), each vertex's neighbours."""
    near: list[set[int]] = [set() for _ in range(draw(st.integers(1, VALUES)))]
    for a, b in draw(st.sets(st.tuples(*[st.integers(0, len(near) - 1)] * 2))):
        if a != b:
            near[a].add(b)
            near[b].add(a)
    return near


def brute_force(domains: list[list[int]], constraints: list[Drawn]) -> set[tuple[int, ...]]:
    """Every assignment of the domains' values that satisfies every constraint."""
    return {values for values in itertools.product(*domains) if all(holds(c, values) for c in constraints)}


def answers(goals: list[mk.Goal], xs: list, strategy: str = "ff") -> list[tuple[int, ...]]:
    """The labelled answers of `goals` (a list of tuples, duplicates kept so that a test sees them)."""
    return [tuple(answer) for answer in mk.run(mk.conj(*goals, fd.labelfd(xs, strategy)), tuple(xs))]


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(problem=problems(), order=st.randoms(use_true_random=False), strategy=st.sampled_from(fd.STRATEGIES))
def test_answers_are_those_of_brute_force_whatever_the_goal_order(problem, order, strategy):
    domains, constraints = problem
    xs = [mk.var() for _ in domains]
    goals = [fd.domfd(x, domain) for x, domain in zip(xs, domains)] + [goal(c, xs) for c in constraints]
    expected = brute_force(domains, constraints)
    found = answers(goals, xs, strategy)
    assert sorted(found) == sorted(expected)  # each answer once, and ground (no variable left)
    order.shuffle(goals)
    assert sorted(answers(goals, xs, strategy)) == sorted(expected)


def test_first_fail_relative_weighs_what_is_left_against_what_there_was():
    """p in {0, 1}, x in 0..2, y in 0..99, y + 95p <= 99: with p = 1, y keeps 5 of its 100 values and x all 3.
    First-fail labels x next (3 < 5), so y varies fastest; "ffr" labels y next (5/100 < 3/3), so x does.
    At the start every share is 1: "ffr" labels the first variable given, where first-fail takes p."""
    p, x, y = mk.var(), mk.var(), mk.var()
    goals = [fd.domfd(p, [0, 1]), fd.domfd(x, range(3)), fd.domfd(y, range(100)),
             fd.linearfd([1, 95], [y, p], 99, "<=")]
    by_ff = [(x_, y_) for p_, x_, y_ in answers(goals, [p, x, y], "ff") if p_ == 1]
    by_ffr = [(x_, y_) for p_, x_, y_ in answers(goals, [p, x, y], "ffr") if p_ == 1]
    assert sorted(by_ff) == sorted(by_ffr) == [(a, b) for a in range(3) for b in range(5)]
    assert by_ff == [(a, b) for a in range(3) for b in range(5)]  # x chosen first: y varies fastest
    assert by_ffr == [(a, b) for b in range(5) for a in range(3)]  # y chosen first: x varies fastest
    in_order = answers(goals, [y, x, p], "ffr")  # every share is 1 at the start: y, the first, goes first
    assert in_order == sorted(in_order) != answers(goals, [y, x, p], "ff")  # first-fail starts with p


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(problem=problems())
def test_constraints_posted_on_bound_values_check_them(problem):
    """Labelling first, then the constraints: each is posted on values and only checks them."""
    domains, constraints = problem
    xs = [mk.var() for _ in domains]
    labelled = mk.conj(*(fd.domfd(x, domain) for x, domain in zip(xs, domains)), fd.labelfd(xs),
                       *(goal(c, xs) for c in constraints))
    assert sorted(tuple(a) for a in mk.run(labelled, tuple(xs))) == sorted(brute_force(domains, constraints))


def test_a_variable_bound_by_propagation_alone_is_ground_in_the_answer():
    x, y, z = mk.var(), mk.var(), mk.var()
    goal_ = mk.conj(fd.infd([x, y, z], range(3)), fd.distinctfd([x, y, z]), fd.ltfd(x, y), fd.ltfd(y, z))
    assert mk.run(goal_, (x, y, z)) == [(0, 1, 2)]  # no labelling: propagation alone decides
    w = mk.var()
    assert mk.run(mk.conj(fd.domfd(x, range(10)), fd.plusfd(x, 3, w), mk.eq(x, 4)), w) == [7]


def test_unification_between_constrained_variables_joins_their_domains():
    x, y = mk.var(), mk.var()
    joined = mk.conj(fd.domfd(x, [1, 2, 3]), fd.domfd(y, [2, 3, 4]), mk.eq(x, y), fd.neqfd(x, 2), fd.labelfd([x]))
    assert mk.run(joined, (x, y)) == [(3, 3)]
    assert mk.run(mk.conj(fd.domfd(x, [1, 2]), fd.domfd(y, [3]), mk.eq(x, y)), x) == []
    assert mk.run(mk.conj(fd.domfd(x, [1, 2]), mk.eq(x, "one")), x) == []  # not an integer: no answer



@settings(max_examples=200, deadline=None)
@given(xs=st.sets(st.integers(0, 9), min_size=1), ys=st.none() | st.sets(st.integers(0, 9), min_size=1),
       k=st.integers(-6, 6), form=st.sampled_from(["plus", "linear"]), domains_first=st.booleans())
def test_an_equation_of_two_variables_keeps_exactly_the_values_brute_force_keeps(xs, ys, k, form, domains_first):
    """y == x + k, as plusfd with the constant (either side) or as linearfd, the constant folded in and the
    equation left an Offset: the domains are each other's shifted (domain consistency) before any labelling,
    a y with no domain of its own included, and labelling x alone grounds y."""
    x, y = mk.var(), mk.var()
    if form == "plus":
        equation = fd.plusfd(x, k, y) if k >= 0 else fd.plusfd(y, -k, x)
    else:
        constant = max(k, 0)  # x + 2 * constant - y == 2 * constant - k: the constant term folds into the total
        equation = fd.linearfd([1, 2, -1], [x, constant, y], 2 * constant - k)
    domains = [fd.domfd(x, xs)] + ([fd.domfd(y, ys)] if ys is not None else [])
    goals = [*domains, equation] if domains_first else [equation, *domains]
    pairs = sorted((a, a + k) for a in xs if a + k >= 0 and (ys is None or a + k in ys))
    assert sorted(tuple(answer) for answer in mk.run(mk.conj(*goals, fd.labelfd([x])), (x, y))) == pairs
    states = list(mk.conj(*goals)({}))
    if not pairs:
        assert states == []
        return
    (state,) = states
    left = {value: set(fd.values_of(domain)) for value, domain in state.constraints[fd.FDStore].domain_map().items()}
    assert left[x] == {a for a, _ in pairs} and left[y] == {b for _, b in pairs}


@settings(max_examples=300, deadline=None)
@given(near=graphs(), domains=st.lists(st.sets(st.integers(0, VALUES - 1), min_size=1), min_size=2, max_size=6),
       domains_first=st.booleans(), removals=st.lists(st.tuples(st.integers(0, 5), st.integers(0, VALUES - 1))),
       again_from=st.sampled_from([0, fd.AGAIN_FROM]))
def test_a_walk_keeps_the_values_of_every_step_that_some_step_takes(near, domains, domains_first, removals,
                                                                     again_from):
    """pathfd before labelling: every value left has, at each step it is in, neighbours either side that
    differ (generalised arc consistency of each step, or of the one pair of two variables), and no value of a
    walk is lost, also after values are taken away one at a time (a step then checks again only what those
    touched, on domains of fd.AGAIN_FROM values or more: 0 here for every size, as often as not). A walk of
    up to three variables is one constraint: exactly the values of its walks stay."""
    with mock.patch.object(fd, "AGAIN_FROM", again_from):
        walk_keeps_what_steps_take(near, domains, domains_first, removals)


def walk_keeps_what_steps_take(near: list[set[int]], domains: list[set[int]], domains_first: bool,
                               removals: list[tuple[int, int]]) -> None:
    """The checks of the test above, for one drawn walk."""
    xs = [mk.var() for _ in domains]
    removals = [(i % len(xs), value) for i, value in removals]
    goals = [fd.domfd(x, domain) for x, domain in zip(xs, domains)]
    goals = [*goals, fd.pathfd(xs, fd.Graph(near))] if domains_first else [fd.pathfd(xs, fd.Graph(near)), *goals]
    goals += [fd.neqfd(xs[i], value) for i, value in removals]
    left = [sorted(d - {value for i, value in removals if i == k}) for k, d in enumerate(domains)]
    walks = brute_force(left, [("path", tuple(range(len(xs))), (near,))])
    states = list(mk.conj(*goals)({}))
    if not states:
        assert not walks or len(xs) > 3  # only a chain of steps may miss that no walk is left
        return
    (state,) = states
    kept = [set(fd.values_of(state.constraints[fd.FDStore].domain_map()[x])) for x in xs]
    assert all(walk[i] in kept[i] for walk in walks for i in range(len(xs)))
    window = min(len(xs), 3)
    for start in range(len(xs) - window + 1):
        local = brute_force([sorted(d) for d in kept[start:start + window]], [("path", tuple(range(window)), (near,))])
        assert [{walk[i] for walk in local} for i in range(window)] == kept[start:start + window]
    if len(xs) <= 3:
        assert [{walk[i] for walk in walks} for i in range(len(xs))] == kept


def test_labelling_beside_another_constraint_store_lets_it_check_each_value():
    """kanren's own disequality store in the state: labelling binds through unification, which asks it."""
    from kanren.constraints import neq

    x, y = mk.var(), mk.var()
    goal_ = mk.conj(fd.infd([x, y], range(3)), neq(x, 1), fd.distinctfd([x, y]), fd.labelfd([x, y]))
    assert mk.run(goal_, (x, y)) == [(0, 1), (0, 2), (2, 0), (2, 1)]
    assert mk.run(mk.conj(neq(x, 1), fd.eqfd([x, y], [2, 1])), (x, y)) == [(2, 1)]  # eqfd unifies: neq is asked
    assert mk.run(mk.conj(neq(x, 1), fd.eqfd([y, x], [2, 1])), (x, y)) == []


def test_answers_read_off_directly_are_those_of_the_reifier():
    """A query of terms with plain values is read off the substitution; one holding a variable or a
    structure goes to the reifier, as before."""
    x, y = mk.var(), mk.var()
    domains = mk.conj(fd.domfd(x, range(3)), fd.plusfd(x, 1, y), fd.labelfd([x]))
    assert mk.run(domains, [x, y]) == [[0, 1], [1, 2], [2, 3]] and mk.run(domains, (y, x, 7, "s")) == [
        (1, 0, 7, "s"), (2, 1, 7, "s"), (3, 2, 7, "s")]
    assert mk.run(domains, [x, (x, y)]) == [[0, (0, 1)], [1, (1, 2)], [2, (2, 3)]]
    (open_,) = mk.run(fd.domfd(x, range(3)), [x, 1])
    assert mk.isvar(open_[0]) and open_[1] == 1


@pytest.mark.parametrize("rows", [[(1, 2), (1, 2, 3, 4)], [(1, 2, True)], [(1, 2, -1)], [(1.0, 2, 3)], [(1, 2, "3")]])
def test_a_table_names_the_first_row_it_cannot_hold(rows):
    with pytest.raises(fd.FDError, match=re.escape(f"a table of 3 columns has the row {rows[0]!r}")):
        fd.Table(rows, 3)


def test_a_wide_table_is_arc_consistent_as_domains_narrow():
    """Four columns (the compact table): after each narrowing every value left lies in a row still possible,
    and one that no longer does is gone, without labelling."""
    w, x, y, z = (mk.var() for _ in range(4))
    rows = [(0, 0, 0, 0), (0, 1, 2, 3), (1, 1, 2, 2), (2, 0, 1, 3)]
    table = fd.tablefd([w, x, y, z], rows)
    assert mk.run(mk.conj(table, mk.eq(y, 1)), (w, x, z)) == [(2, 0, 3)]
    assert mk.run(mk.conj(table, fd.neqfd(w, 0), fd.neqfd(z, 3)), (w, x, y, z)) == [(1, 1, 2, 2)]
    state = next(mk.conj(table, fd.neqfd(x, 0))({}))
    store = state.constraints[fd.FDStore]
    assert {v: list(fd.values_of(d)) for v, d in store.domain_map().items()} == {w: [0, 1], x: [1], y: [2],
                                                                                  z: [2, 3]}
    assert mk.run(fd.tablefd([w, x, y, z], []), w) == []

# ---------------------------------------------------------------------------------------------------------
# The classics (docs/guide.md shows both)

def queens(n: int) -> tuple[mk.Goal, list]:
    """N-queens: a column per row, all different, and so are the numbers of the two diagonals (column + row
    and column - row + n, both non-negative), each tied to its column by an addition."""
    columns = [mk.var() for _ in range(n)]
    rising, falling = [mk.var() for _ in range(n)], [mk.var() for _ in range(n)]
    goals = [fd.infd(columns, range(n)), fd.distinctfd(columns), fd.distinctfd(rising), fd.distinctfd(falling)]
    for row, column in enumerate(columns):
        goals += [fd.plusfd(column, row, rising[row]), fd.plusfd(column, n - row, falling[row])]
    return mk.conj(*goals, fd.labelfd(columns)), columns


def send_more_money() -> tuple[mk.Goal, list]:
    """SEND + MORE = MONEY: different digits, no leading zero, the sum as one linear equation."""
    letters = s, e, n, d, m, o, r, y = [mk.var() for _ in range(8)]
    equation = fd.linearfd([1000, 100, 10, 1, 1000, 100, 10, 1, -10000, -1000, -100, -10, -1],
                           [s, e, n, d, m, o, r, e, m, o, n, e, y], 0)
    return mk.conj(fd.infd(letters, range(10)), fd.distinctfd(letters), fd.neqfd(s, 0), fd.neqfd(m, 0), equation,
                   fd.labelfd(letters)), letters


@pytest.mark.parametrize("n, solutions", [(1, 1), (2, 0), (3, 0), (4, 2), (5, 10), (6, 4), (7, 40), (8, 92)])
def test_n_queens_has_its_known_number_of_solutions(n, solutions):
    goal_, columns = queens(n)
    found = [tuple(answer) for answer in mk.run(goal_, columns)]
    assert len(found) == solutions == len(set(found))
    assert all(len({c + r for r, c in enumerate(cs)}) == n == len({c - r for r, c in enumerate(cs)}) for cs in found)


def test_send_more_money_has_its_one_answer():
    goal_, letters = send_more_money()
    assert mk.run(goal_, letters) == [[9, 5, 6, 7, 1, 0, 8, 2]]


# ---------------------------------------------------------------------------------------------------------
# Budgets and interrupts

def test_labelling_spends_the_node_budget():
    goal_, columns = queens(12)
    with pytest.raises(SearchLimitExceeded, match="budget of 50 nodes"):
        mk.run(mk.conj(fd.within(Budget(nodes=50)), goal_), columns)


def test_propagation_looks_at_the_clock():
    """A chain x0 < x1 < ... < x400 on 0..400 wakes thousands of propagators before any labelling: a budget
    that is already out stops it inside propagation."""
    xs = [mk.var() for _ in range(401)]
    chain = [fd.ltfd(a, b) for a, b in itertools.pairwise(xs)]
    budget = Budget(seconds=1e-9)
    with pytest.raises(SearchLimitExceeded, match="time limit"):
        mk.run(mk.conj(fd.within(budget), *chain, fd.infd(xs, range(401))), xs)
    assert budget.spent == 0  # no node was labelled: the clock was read by propagation
    assert mk.run(mk.conj(*chain, fd.infd(xs, range(401))), xs) == [list(range(401))]


@pytest.mark.slow
def test_ctrl_c_ends_a_finite_domain_search():
    code = ("from pysolve import fd, minikanren as mk\n"
            "from pysolve.budget import Budget\n"
            "xs = [mk.var() for _ in range(14)]\n"
            "print('ready', flush=True)\n"
            "mk.run(mk.conj(fd.within(Budget()), fd.infd(xs, range(14)), fd.distinctfd(xs), fd.labelfd(xs)), xs)\n")
    started = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, stdin=subprocess.DEVNULL)
    assert started.stdout.readline() == "ready\n"
    time.sleep(1.0)
    assert started.poll() is None  # 14! orderings: far from done
    _, err, after_signal = interrupted(started)
    assert after_signal < 2.0 and "KeyboardInterrupt" in err


# ---------------------------------------------------------------------------------------------------------
# Wrong use: a typed error that says what

@pytest.mark.parametrize("build, message", [
    (lambda x: fd.domfd(x, [-1, 2]), "non-negative integers, not -1"),
    (lambda x: fd.tablefd([x, x], [(1, 2, 3)]), "a table of 2 columns has the row (1, 2, 3)"),
    (lambda x: fd.tablefd([x], fd.Table([(1, 2)], 2)), "a table of 2 columns given 1 variables"),
    (lambda x: fd.linearfd([1, 2], [x], 3), "2 coefficients for 1 variables"),
    (lambda x: fd.linearfd([1], [x], 3, "!="), "the relation '==' or '<=', not '!='"),
    (lambda x: fd.labelfd([x], "random"), "strategies are ff, ffr, leftmost, not 'random'"),
    (lambda x: fd.eqfd([x], [1, 2]), "eqfd: 2 values for 1 variables"),
    (lambda x: fd.eqfd([x], ["1"]), "non-negative integers, not '1'"),
    (lambda x: fd.Graph([[1], []]), "a graph of 2 vertices lists vertex 0 with the neighbours .1.: an edge one way"),
    (lambda x: fd.Graph([[0]]), "a graph of 1 vertices lists vertex 0 with the neighbours .0.: an edge one way"),
    (lambda x: fd.Graph([[2]]), "a graph of 1 vertices lists vertex 0 with the neighbours .2.: an edge one way"),
])
def test_wrong_use_is_a_typed_error(build: Callable, message: str):
    with pytest.raises(fd.FDError, match=message.replace("(", r"\(").replace(")", r"\)")):
        build(mk.var())


def test_labelling_a_variable_without_a_domain_says_so():
    x, y = mk.var(), mk.var()
    with pytest.raises(fd.FDError, match="has no finite domain"):
        mk.run(mk.conj(fd.neqfd(x, y), fd.labelfd([x, y])), (x, y))
