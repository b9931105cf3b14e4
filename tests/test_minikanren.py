"""The shared miniKanren toolkit: the import guard, depth-first goals, budgets."""

from __future__ import annotations

import importlib.metadata

import pytest

from pysolve import minikanren as mk
from pysolve.budget import Budget
from pysolve.errors import SearchLimitExceeded


def test_the_guard_refuses_the_unrelated_kanren_package(monkeypatch: pytest.MonkeyPatch) -> None:
    real_version = importlib.metadata.version

    def with_pypi_kanren(name: str) -> str:
        return "0.3.0" if name == "kanren" else real_version(name)

    monkeypatch.setattr(importlib.metadata, "version", with_pypi_kanren)
    version, problem = mk._guarded_import()
    assert version == mk.VERSION
    assert "unrelated PyPI package kanren 0.3.0" in problem


def test_the_real_install_is_minikanren() -> None:
    assert mk.PROBLEM == "" and mk.VERSION >= "1.0.5"
    mk.require()


def test_depth_first_goals_keep_their_order() -> None:
    x, y = mk.var(), mk.var()
    pairs = mk.conj(mk.disj_over([1, 2, 3], lambda v: mk.eq(x, v)),
                    mk.disj(mk.eq(y, "a"), mk.eq(y, "b")),
                    mk.where(lambda a: a != 2, x))
    assert mk.run(pairs, (x, y)) == [(1, "a"), (1, "b"), (3, "a"), (3, "b")]
    assert mk.run(pairs, (x, y), limit=3) == [(1, "a"), (1, "b"), (3, "a")]
    doubled = mk.conj(mk.eq(x, 21), mk.project(lambda v: 2 * v, y, x))
    assert mk.run(doubled, y) == [42]
    assert mk.run(mk.conj(mk.eq(x, 5), mk.given(lambda v: mk.eq(y, v + 1), x)), y) == [6]
    assert mk.run(mk.fail, x) == []


def test_a_recursive_relation_built_lazily_terminates_and_a_budget_stops_it() -> None:
    def counto(n, out):
        return mk.disj(mk.eq(out, n), mk.lazy(counto, n + 1, out))

    out = mk.var()
    assert mk.run(counto(0, out), out, limit=5) == [0, 1, 2, 3, 4]
    budget = Budget(nodes=100, label="test search")

    def ticking(n, out):
        return mk.conj(budget.tick(), mk.disj(mk.eq(out, -1), mk.lazy(ticking, n + 1, out)))

    with pytest.raises(SearchLimitExceeded, match="test search passed its budget of 100 nodes"):
        mk.run(mk.conj(ticking(0, out), mk.where(lambda v: v >= 0, out)), out)


def test_a_bounded_run_keeps_the_answers_found_before_the_budget_ran_out() -> None:
    budget = Budget(nodes=10, label="test search")

    def naturalo(n, out):
        return mk.conj(budget.tick(), mk.disj(mk.eq(out, n), mk.lazy(naturalo, n + 1, out)))

    out = mk.var()
    answers, reason = mk.run_bounded(naturalo(0, out), out)
    assert answers == list(range(10)) and reason == "test search passed its budget of 10 nodes"
    assert mk.run_bounded(mk.eq(out, 7), out) == ([7], "")


def test_lists_and_terms_that_know_they_are_ground_reify_to_themselves() -> None:
    """A search reifies its frontier at every step: a ground Cons list or Struct term costs nothing."""
    x = mk.var()
    path, tree = mk.Cons(("B", "H"), ()), mk.Struct(("tree", ("B",), 0, (), ()))
    assert path.ground and tree.ground and not mk.Cons(x, path).ground and not mk.Struct((x,)).ground
    [(cell, same_tree)] = mk.run(mk.eq(x, 1), (mk.Cons(x, path), tree))
    assert list(cell) == [1, ("B", "H")] and cell.ground and cell.tail is path and same_tree is tree
    tail = mk.var()
    assert mk.run(mk.eq(mk.Cons(x, tail), mk.Cons(7, path)), (x, tail)) == [(7, path)]
    assert mk.run(mk.eq(mk.Struct(("node", x)), mk.Struct(("node", 5))), x) == [5]
    items = mk.var()
    assert list(mk.run(mk.collect(x, mk.disj_over([3, 1, 2], lambda v: mk.eq(x, v)), items), items)[0]) == [3, 1, 2]


@pytest.mark.slow
def test_iterate_follows_a_step_relation_in_constant_stack() -> None:
    """Counting down a hundred thousand steps would nest as many generators as a recursive relation."""
    end = mk.var()

    def downo(term: object, following: object) -> mk.Goal:
        return mk.conj(mk.where(lambda n: n > 0, term), mk.project(lambda n: n - 1, following, term))

    assert mk.run(mk.iterate(downo, 100_000, end), end) == [0]
