"""Edge-matching squares: files, rules, known counts, the three back ends cross-checked, pictures, CLI."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ElementTree
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pysolve import backends, bridge
from pysolve import cli as cli_module
from pysolve.agreement import crosscheck
from pysolve.answers import Found
from pysolve.bridge import Var
from pysolve.budget import Budget, most_work
from pysolve.errors import InputError, PrologError, SearchLimitExceeded, UnknownName
from pysolve.puzzle import SOLVED, UNKNOWN
from pysolve.pytest_plugin import assert_backends_agree, needs_prolog
from pysolve.squares import (
    draw,
    halves,
    kanren,
    model,
    mrv,
    prolog,
    python,
    reference,
    visitors,
)
from pysolve.squares.generate import generate
from pysolve.squares.instances import instances
from pysolve.squares.model import ALL, COUNT, ETERNITY, FIRST, Question
from pysolve.squares.puzzle import PUZZLE, search_trace
from pysolve.squares.rows import row_order
from pysolve.trace import read_trace

# Known answers: the spec (insects: 4 solutions, 1 up to rotation), Owen's README (3x3: 16).
# The larger Owen counts are the ones every back end that finishes agrees on (bench/squares.py).
KNOWN = {"insects": (4, 1), "eternity-3x3": (16, 4), "eternity-4x4": (36, 9), "eternity-5x5": (16, 4)}
INSECT_FIRST = ((5, 0), (2, 1), (9, 1)), ((4, 3), (3, 1), (8, 3)), ((7, 1), (1, 1), (6, 2))


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch):
    """`pysolve.cli.main` with only squares in its parser, so other puzzles cannot interfere."""
    monkeypatch.setattr(cli_module, "all_puzzles", lambda: [PUZZLE])
    return cli_module.main


def write(tmp_path: Path, text: str, name: str = "squares.txt") -> str:
    """A file with `text` in tmp_path; its path."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def grids(answer) -> list[model.Grid]:
    """An answer's solutions as sorted grids."""
    return sorted(model.grid_from_json(solution) for solution in answer.solutions)


# --- files and the rules ----------------------------------------------------------------------

def test_the_insect_pieces_load_as_the_spec_lists_them():
    insects = model.load()
    assert (insects.rows, insects.cols, insects.rule) == (3, 3, model.INSECT)
    assert insects.piece(1).edges == ("r", "v", "A", "M")
    assert insects.piece(9).edges == ("v", "m", "A", "M")
    assert insects.complement() == {"R": "r", "r": "R", "M": "m", "m": "M", "A": "a", "a": "A", "V": "v", "v": "V"}


@pytest.mark.parametrize("size", [3, 4, 5, 6])
def test_owen_files_load_directly_as_the_eternity_rule(size):
    instance = model.load(str(model.shipped_dir() / f"eternity/pieces_{size:02d}x{size:02d}.txt"))
    assert (instance.rows, instance.cols, instance.rule) == (size, size, model.ETERNITY)
    assert len(instance.pieces) == size * size
    corners = [p for p in instance.pieces if list(p.edges).count(model.FRAME) == 2]
    assert len(corners) == 4


def test_one_quarter_turn_moves_west_to_north():
    assert model.rotate(("n", "e", "s", "w"), 1) == ("w", "n", "e", "s")
    assert model.rotate(("n", "e", "s", "w"), 2) == ("s", "w", "n", "e")
    assert model.rotate(("n", "e", "s", "w"), 4) == ("n", "e", "s", "w")


def test_the_keyword_format_round_trips():
    instance = generate(3, 4, 3, seed=5)
    assert model.parse(model.dump(instance), instance.name) == instance
    assert model.instance_from_json(instance.to_json()) == instance


def test_turning_the_whole_grid_four_times_is_the_identity_and_two_turns_keep_a_non_square_shape():
    grid = ((( 1, 0), (2, 1), (3, 2)), ((4, 3), (5, 0), (6, 1)))
    once = model.rotate_grid(grid)
    assert once == (((4, 0), (1, 1)), ((5, 1), (2, 2)), ((6, 2), (3, 3)))
    assert model.rotate_grid(model.rotate_grid(once)) != grid
    assert len(model.grid_rotations(grid)) == 2
    turned = grid
    for _ in range(4):
        turned = model.rotate_grid(turned)
    assert turned == grid


@needs_prolog
def test_prolog_turns_grids_and_rotates_pieces_like_python():
    grid = [[[1, 0], [2, 1], [3, 2]], [[4, 3], [5, 0], [6, 1]]]
    row = bridge.first(prolog.RULE_BASE, bridge.goal("rotate_grid", grid, Var("G")))
    assert model.as_grid(row["G"]) == (((4, 0), (1, 1)), ((5, 1), (2, 2)), ((6, 2), (3, 3)))
    row = bridge.first(prolog.RULE_BASE, bridge.goal("rotated", 3, ["n", "e", "s", "w"], Var("R")))
    assert tuple(row["R"]) == model.rotate(("n", "e", "s", "w"), 3)


@needs_prolog
def test_the_rule_base_loads_cleanly():
    assert bridge.load(prolog.RULE_BASE) == "squares"


def test_the_eternity_rule_wants_the_frame_exactly_on_the_border():
    instance = model.load("eternity-3x3")
    solution = model.grid_from_json(PUZZLE.solve(Question(instance), "python").solutions[0])
    assert model.placement_problems(instance, solution) == []
    turned_corner = ((solution[0][0][0], (solution[0][0][1] + 1) % 4),) + solution[0][1:]
    problems = model.placement_problems(instance, (turned_corner,) + solution[1:])
    assert any("border" in problem for problem in problems)


def test_the_canonical_grid_is_exactly_one_per_rotation_class():
    grid = INSECT_FIRST
    classes = model.grid_rotations(grid)
    assert sum(model.is_canonical(member) for member in classes) == 1


# --- known answers and the cross-check --------------------------------------------------------

@pytest.mark.parametrize("name", ["insects", "eternity-3x3"])
@pytest.mark.parametrize("mode", [ALL, COUNT])
@pytest.mark.parametrize("up_to_rotation", [False, True])
def test_every_back_end_gives_the_known_count(pysolve_backends, name, mode, up_to_rotation):
    report = assert_backends_agree(PUZZLE, question=Question(model.load(name), mode, up_to_rotation))
    assert sorted(report.results) == sorted(pysolve_backends)
    expected = KNOWN[name][1 if up_to_rotation else 0]
    assert {answer.count for answer in report.results.values()} == {expected}
    assert {len(answer.solutions) for answer in report.results.values()} == {0 if mode == COUNT else expected}


def test_the_insect_solutions_are_one_arrangement_turned_four_ways():
    answer = PUZZLE.solve(Question(model.load(), ALL), "python")
    found = grids(answer)
    assert found == sorted(model.grid_rotations(found[0]))
    assert all(model.placement_problems(model.load(), grid) == [] for grid in found)


@pytest.mark.parametrize("strategy", model.STRATEGIES)
def test_every_back_end_finds_the_same_first_solution(pysolve_backend, strategy):
    answer = PUZZLE.solve(Question(model.load(), FIRST, strategy=strategy), pysolve_backend)
    assert (answer.status, answer.count) == ("solved", 1)
    assert grids(answer) == [INSECT_FIRST]


def test_owen_4x4_counts_agree_on_every_back_end(pysolve_backends):
    report = assert_backends_agree(PUZZLE, question=Question(model.load("eternity-4x4"), ALL))
    assert sorted(report.results) == sorted(pysolve_backends)
    assert {answer.count for answer in report.results.values()} == {KNOWN["eternity-4x4"][0]}


@pytest.mark.pysolve_backends("prolog", "python")  # miniKanren takes half a minute on 5x5 (bench/squares.py)
def test_owen_5x5_count_on_the_back_ends_that_finish_quickly(pysolve_backend):
    answer = PUZZLE.solve(Question(model.load("eternity-5x5"), ALL), pysolve_backend)
    assert answer.count == KNOWN["eternity-5x5"][0] == len(set(grids(answer))) == len(answer.solutions)
    assert all(model.placement_problems(model.load("eternity-5x5"), grid) == [] for grid in grids(answer))


@pytest.mark.slow
@needs_prolog
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), rows=st.integers(4, 6), colours=st.integers(4, 12))
def test_prolog_and_python_start_the_most_constrained_first_search_with_the_same_root_piece(seed, rows, colours):
    instance = generate(rows, 5, colours, seed)
    question = Question(instance, COUNT)
    assert model.most_constrained_first(question)
    roots = {cell[0] for entries in mrv.root_placements(question) for _, _, cell, _ in entries}
    root = bridge.goal(",", bridge.goal("mrv_index"), bridge.goal("mrv_root", Var("Root")))
    chosen = bridge.goal(":", "squares_mrv", root)  # the search's own table, inside its module
    assert roots == {bridge.first(prolog.RULE_BASE, prolog.with_puzzle(instance, chosen))["Root"]}


@pytest.mark.slow
@pytest.mark.pysolve_backends("prolog", "python")
@pytest.mark.parametrize("rows, cols, colours, seed", [(4, 5, 8, 3), (5, 4, 8, 2)])
def test_the_insect_counts_past_sixteen_cells_fill_the_most_constrained_cell_first(pysolve_backend, rows, cols,
                                                                                  colours, seed):
    instance = generate(rows, cols, colours, seed)
    question = Question(instance, ALL)
    assert model.most_constrained_first(question) and not model.most_constrained_first(replace(question, mode=FIRST))
    full = python.Collector(question)
    row_order(instance, full, Budget(), periods=instance.periods())  # row by row, no symmetry broken
    answer = PUZZLE.solve(question, pysolve_backend)
    assert grids(answer) == sorted(full.grids) and answer.count == full.count >= 1
    counted = PUZZLE.solve(replace(question, mode=COUNT), pysolve_backend)
    classes = PUZZLE.solve(replace(question, up_to_rotation=True), pysolve_backend)
    assert counted.count == full.count == 2 * classes.count  # a non-square grid turns onto itself in 2 ways


@pytest.mark.parametrize("name", ["insects", "eternity-3x3", "eternity-4x4"])
def test_the_original_strategies_agree_with_the_fast_ones(pysolve_backends, name):
    question = Question(model.load(name), ALL)
    report = assert_backends_agree(PUZZLE, question=question, reference=python_reference)
    original = crosscheck(PUZZLE, replace(question, strategy="original"), ["prolog", "python"])
    assert sorted(original.results) == sorted({"prolog", "python"} & set(pysolve_backends)), original.skipped
    for answer in original.results.values():
        assert grids(answer) == grids(report.results["python"])


def python_reference(question: Question) -> Found:
    """The Python reference search (the original's, literally) as a cross-check solver of one's own."""
    return python.solve(replace(question, strategy="original"), PUZZLE.budget(question))


@settings(max_examples=10, deadline=None)
@given(instance=instances(max_side=3, min_colours=3),  # 2 colours: too many solutions for kanren
       up_to_rotation=st.booleans())
def test_generated_puzzles_get_one_answer_from_every_back_end(pysolve_backends, instance, up_to_rotation):
    question = Question(instance, ALL, up_to_rotation, seconds=20)
    report = assert_backends_agree(PUZZLE, question=question, reference=python_reference)
    assert sorted(report.results) == sorted(["python_reference", *pysolve_backends])
    answer = report.results["python"]
    assert answer.count >= 1  # the generated grid itself is a solution
    assert all(model.placement_problems(instance, grid) == [] for grid in grids(answer))


# --- the counting convention: distinct boards -------------------------------------------------

def test_a_piece_lies_in_as_many_ways_as_it_looks_different():
    assert model.Piece(1, ("R", "R", "R", "R")).period == 1
    assert model.Piece(1, ("R", "a", "R", "a")).period == 2
    assert model.Piece(1, ("R", "R", "a", "a")).period == 4
    assert model.Piece(1, ("R", "a", "R", "A")).period == 4


@pytest.mark.parametrize("name", [model.DEFAULT, *model.ALIASES])
def test_the_shipped_sets_have_no_symmetric_piece_so_their_counts_are_unchanged(name):
    assert {piece.period for piece in model.load(name).pieces} == {4}


def brute_force(question: Question) -> Found:
    """Every board by trying every permutation in every turn: an enumerator of its own for small grids.

    A board is what one sees: each cell's piece and the edges it shows, so two
    turns of a symmetric piece that show the same edges are one board (unless
    the question counts orientations). Grids come back with the least turn
    that shows the board, as the back ends give them.
    """
    from itertools import permutations, product
    instance = question.instance
    rows, cols = instance.rows, instance.cols
    complement = instance.complement()

    def touch(a: model.Label, b: model.Label) -> bool:
        return a == b != 0 if instance.rule == model.ETERNITY else complement.get(a) == b

    def on_border(label: model.Label) -> bool:
        return instance.rule != model.ETERNITY or label == 0

    boards: dict[tuple, model.Grid] = {}
    for order in permutations(instance.pieces):
        for turns in product(range(4), repeat=len(order)):
            edges = [piece.turned(turn) for piece, turn in zip(order, turns)]
            at = lambda r, c, edges=edges: edges[r * cols + c]  # noqa: E731
            good = all(
                (touch(at(r, c)[1], at(r, c + 1)[3]) if c + 1 < cols else on_border(at(r, c)[1]))
                and (touch(at(r, c)[2], at(r + 1, c)[0]) if r + 1 < rows else on_border(at(r, c)[2]))
                and (r or on_border(at(r, c)[0])) and (c or on_border(at(r, c)[3]))
                and (instance.rule != model.ETERNITY or all(label != 0 for label, border in zip(
                    at(r, c), (r == 0, c == cols - 1, r == rows - 1, c == 0)) if not border))
                for r in range(rows) for c in range(cols))
            if not good:
                continue
            seen = tuple((piece.id, turn if question.count_orientations else piece.turned(turn))
                         for piece, turn in zip(order, turns))
            least = [min(t for t in range(4) if piece.turned(t) == piece.turned(turn))
                     if not question.count_orientations else turn for piece, turn in zip(order, turns)]
            cells = [(piece.id, turn) for piece, turn in zip(order, least)]
            boards.setdefault(seen, tuple(tuple(cells[r * cols:(r + 1) * cols]) for r in range(rows)))
    grids = list(boards.values())
    if question.up_to_rotation:
        grids = [grid for grid in grids if model.is_canonical(grid, question.periods)]
    return model.found(question, grids, len(grids), {})


def symmetric_pieces(rule: str) -> st.SearchStrategy:
    """Pieces drawn so that many repeat under a half or a quarter turn."""
    label = st.sampled_from([1, 2] if rule == model.ETERNITY else ["A", "a", "B"])
    return st.one_of(st.tuples(label, label, label, label),
                     label.flatmap(lambda x: label.map(lambda y: (x, y, x, y))),
                     label.flatmap(lambda x: st.just((x, x, x, x))))


@pytest.mark.slow
@settings(max_examples=15, deadline=None)
@given(data=st.data(), shape=st.sampled_from([(1, 1), (1, 2), (2, 1), (1, 3), (2, 2)]),
       rule=st.sampled_from([model.INSECT, model.ETERNITY]), up_to_rotation=st.booleans(),
       count_orientations=st.booleans())
def test_every_back_end_counts_distinct_boards_as_a_brute_force_does(pysolve_backends, data, shape, rule,
                                                                     up_to_rotation, count_orientations):
    rows, cols = shape
    edges = data.draw(st.lists(symmetric_pieces(rule), min_size=rows * cols, max_size=rows * cols))
    if rule == model.ETERNITY:  # a frame colour on some edges, so that border cells can fit
        edges = [tuple(0 if data.draw(st.booleans()) else label for label in piece) for piece in edges]
    pieces = tuple(model.Piece(number, piece) for number, piece in enumerate(edges, start=1))
    pairs = (("A", "a"), ("B", "b")) if rule == model.INSECT else ()
    instance = model.validated(model.Instance("symmetric", rows, cols, rule, pieces, pairs))
    for mode in (COUNT, ALL):
        question = Question(instance, mode, up_to_rotation, seconds=20, count_orientations=count_orientations)
        report = assert_backends_agree(PUZZLE, question=question, reference=[brute_force, python_reference])
        assert sorted(report.results) == sorted(["brute_force", "python_reference", *pysolve_backends])


def test_two_symmetric_pieces_make_two_boards_or_thirty_two_placements(pysolve_backend):
    instance = model.parse("grid 1 2\npair R r\npiece 1 R R R R\npiece 2 r r r r\n", "two")
    assert PUZZLE.solve(Question(instance, COUNT), pysolve_backend).count == 2
    assert PUZZLE.solve(Question(instance, COUNT, count_orientations=True), pysolve_backend).count == 32
    assert PUZZLE.solve(Question(instance, COUNT, up_to_rotation=True), pysolve_backend).count == 1
    assert PUZZLE.question(file=None, count=True, count_orientations=True).count_orientations


def test_the_count_orientations_flag_is_described_only_when_given(cli, capsys):
    assert "count_orientations" not in PUZZLE.describe(PUZZLE.question())
    assert PUZZLE.describe(PUZZLE.question(all=True, count_orientations=True))["count_orientations"] is True
    assert cli(["solve", "squares", "--count", "--count-orientations", "--backend", "python"]) == 0
    assert "4 solutions" in capsys.readouterr().out


@needs_prolog
def test_with_puzzle_raises_on_an_unknown_option():
    goal = bridge.goal("with_puzzle", "insect", 1, 1, [[1, ["R", "r", "R", "r"]]], [["R", "r"]],
                       [bridge.goal("turns", "some")], bridge.goal("true"))
    with pytest.raises(PrologError, match="[Dd]omain error.*turns"):
        bridge.solutions(prolog.RULE_BASE, goal)
    assert no_puzzle_is_chosen()


# --- the most-constrained-cell-first search and its symmetry breaking --------------------------

@settings(max_examples=25, deadline=None)
@given(rows=st.integers(1, 3), cols=st.integers(1, 3), colours=st.integers(2, 3), seed=st.integers(0, 10**6),
       rule=st.sampled_from(model.RULES), up_to_rotation=st.booleans())
def test_mrv_counting_a_quarter_and_multiplying_agrees_with_the_full_enumeration(rows, cols, colours, seed, rule,
                                                                               up_to_rotation):
    instance = generate(rows, cols, colours, seed, rule)
    full = python.Collector(Question(instance, ALL))
    visit = visitors.only_canonical(full, instance.periods()) if up_to_rotation else full
    reference.reference(instance, visit, Budget(), periods=instance.periods())
    question = Question(instance, COUNT, up_to_rotation)
    assert mrv.mrv(question, None, Budget()) == full.count >= 1  # the generated grid is a solution
    listed = python.Collector(Question(instance, ALL, up_to_rotation))
    assert mrv.mrv(replace(question, mode=ALL), listed, Budget()) == full.count
    assert sorted(listed.grids) == sorted(full.grids)


@pytest.mark.slow
@needs_prolog
@settings(max_examples=12, deadline=None)
@given(rows=st.integers(1, 3), cols=st.integers(1, 3), colours=st.integers(2, 3), seed=st.integers(0, 10**6),
       rule=st.sampled_from(model.RULES))
def test_every_prolog_search_finds_the_same_grids_as_the_full_enumeration(rows, cols, colours, seed, rule):
    instance = generate(rows, cols, colours, seed, rule)
    full = python.Collector(Question(instance, ALL))
    reference.reference(instance, full, Budget(), periods=instance.periods())

    def grids(strategy: str, rotation: str) -> list[model.Grid]:
        goal = prolog.with_puzzle(instance, bridge.goal("solve", strategy, rotation, Var("Grid")))
        return sorted(model.as_grid(row["Grid"]) for row in bridge.solutions(prolog.RULE_BASE, goal).rows)

    assert grids("original", "all") == grids("rows", "all") == sorted(full.grids)
    for strategy in ("rows", "mrv"):  # a quarter searched, each canonical grid turned
        assert grids(strategy, "by_class") == grids(strategy, "all") == sorted(full.grids)
        canonical = [grid for grid in full.grids if model.is_canonical(grid, instance.periods())]
        assert grids(strategy, "up_to_rotation") == sorted(canonical)


def test_mrv_places_fewer_pieces_than_the_row_order_on_a_generated_insect_puzzle():
    instance = generate(4, 4, 4, 1)
    rows_budget, mrv_budget = Budget(), Budget()
    by_rows = python.Collector(Question(instance, COUNT))
    row_order(instance, visitors.with_turns(by_rows, instance.periods()), rows_budget, classes=True,
                     periods=instance.periods())
    assert mrv.mrv(Question(instance, COUNT), None, mrv_budget) == by_rows.count == 48
    assert mrv_budget.spent * 1.5 < rows_budget.spent


# --- eternity counts: top halves joined to bottom halves --------------------------------------

@settings(max_examples=25, deadline=None)
@given(rows=st.integers(2, 4), cols=st.integers(1, 3), colours=st.integers(2, 3), seed=st.integers(0, 10**6),
       up_to_rotation=st.booleans(), count_orientations=st.booleans())
def test_joining_halves_counts_what_the_reference_search_counts(pysolve_backends, rows, cols, colours, seed,
                                                                up_to_rotation, count_orientations):
    instance = generate(rows, cols, colours, seed, model.ETERNITY)
    question = Question(instance, COUNT, up_to_rotation, count_orientations=count_orientations)
    assert model.joins_halves(question)
    every = python.Collector(Question(instance, ALL))
    visit = visitors.only_canonical(every, question.periods) if up_to_rotation else every
    reference.reference(instance, visit, Budget(), periods=question.periods)
    for backend in pysolve_backends:
        answer = PUZZLE.solve(question, backend)
        assert answer.count == every.count >= 1, backend  # the generated grid is a solution


@pytest.mark.slow
def test_owen_6x6_joins_halves_in_fewer_placements_than_the_row_order():
    answer = PUZZLE.solve(Question(model.load("eternity-6x6"), COUNT), "python")
    assert (answer.count, answer.stats["states"]) == (260, 2_957_474 + 7_740_690)  # row order: 14,518,615


def test_only_eternity_counts_on_two_rows_or_more_join_halves():
    owen = model.load("eternity-4x4")
    assert model.joins_halves(Question(owen, COUNT, up_to_rotation=True))
    assert not model.joins_halves(Question(owen, ALL))
    assert not model.joins_halves(Question(owen, COUNT, strategy="original"))
    assert not model.joins_halves(Question(owen, COUNT, prefix=((1, 0),)))
    assert not model.joins_halves(Question(generate(1, 4, 3, 1, model.ETERNITY), COUNT))
    assert not model.joins_halves(Question(generate(3, 3, 3, 1), COUNT))


def test_a_table_of_halves_past_the_memory_bound_answers_unknown(monkeypatch):
    monkeypatch.setattr(halves, "HALF_BYTES", 2**60)  # no room for a single half
    answer = PUZZLE.solve(Question(model.load("eternity-5x5"), COUNT), "python")
    assert answer.status == UNKNOWN and "ran out of memory" in answer.stats["reason"]


@needs_prolog
def test_a_trie_of_halves_past_the_table_space_answers_unknown():
    owen = model.load("eternity-5x5")
    small = bridge.goal("setup_call_cleanup", bridge.goal("set_prolog_flag", "table_space", 100_000),
                        bridge.goal("halves_count", Var("Count")),
                        bridge.goal("set_prolog_flag", "table_space", 2**30))
    result = bridge.solutions(prolog.RULE_BASE, prolog.with_puzzle(owen, small))
    assert result.status == "resource_limit" and "table space" in result.limit
    assert no_puzzle_is_chosen()
    assert PUZZLE.solve(Question(owen, COUNT), "prolog").count == KNOWN["eternity-5x5"][0]


@needs_prolog
def test_halves_count_raises_on_the_insect_rule():
    with pytest.raises(PrologError, match="[Dd]omain error.*eternity_rule_on_two_rows"):
        bridge.solutions(prolog.RULE_BASE, on_insects(bridge.goal("halves_count", Var("Count"))))


# --- bounded searches -------------------------------------------------------------------------

def test_the_python_searches_stop_at_their_node_budget():
    with pytest.raises(SearchLimitExceeded):
        reference.reference(model.load(), lambda grid: False, Budget(nodes=500))
    with pytest.raises(SearchLimitExceeded):
        row_order(model.load("eternity-5x5"), lambda grid: False, Budget(nodes=5000))
    with pytest.raises(SearchLimitExceeded):
        halves.halves(Question(model.load("eternity-5x5"), COUNT), Budget(nodes=5000))


@pytest.mark.parametrize("block_rows", [kanren.BLOCK_ROWS, 0])
def test_kanren_counts_with_and_without_its_block_tables(monkeypatch, block_rows):
    """The 2 x 2 block tables only repeat the pairs and the all-different: a board whose blocks pass
    BLOCK_ROWS (here all of them, at 0) falls back on the pairs and gets the same solutions."""
    monkeypatch.setattr(kanren, "BLOCK_ROWS", block_rows)
    for name, classes in (("eternity-4x4", 9), ("eternity-5x5", 4)):
        grids = kanren.solutions(model.load(name), True, 0, Budget(nodes=100_000))
        assert len(grids) == classes
        assert all(model.placement_problems(model.load(name), grid) == [] for grid in grids)
    insects = model.load("insects")
    assert len(kanren.solutions(insects, False, 0, Budget(nodes=100_000))) == 4


@pytest.mark.slow
@pytest.mark.parametrize("prefix", [((1, 3), (5, 0), (17, 0), (13, 0), (15, 0)),
                                    ((1, 3), (7, 0), (17, 0), (9, 0), (10, 0))])
def test_kanren_counts_a_part_of_owens_6x6_as_python_does(prefix):
    """A part of Owen's 6x6 count (the canonical grids that begin with `prefix`), which the relation answers in
    about a second where the whole count takes it 44 s (a bench: bench/fd_squares.py)."""
    question = Question(model.load("eternity-6x6"), COUNT, prefix=prefix)
    mine = kanren.solve(question, Budget(nodes=100_000))
    assert mine.count == PUZZLE.solve(question, "python").count > 0


def frame_of_its_own(instance: model.Instance) -> model.Instance:
    """The eternity puzzle with the colours along its frame (between two frame cells) renamed apart from those
    inside, as in Owen's sets: the same solutions, since a frame piece only ever lies on the frame."""
    def renamed(piece: model.Piece) -> model.Piece:
        return replace(piece, edges=tuple(f"f{edge}" if is_along else edge
                                          for edge, is_along in zip(piece.edges, piece.along_frame)))
    return replace(instance, pieces=tuple(renamed(piece) for piece in instance.pieces))


def test_kanren_labels_by_share_where_the_frame_has_colours_of_its_own():
    """First-fail would fill such a frame first, with its many fillings (docs/squares.md, "miniKanren: Owen's
    6x6 count"); where the frame shares the inside's colours it is the better order."""
    assert all(kanren.frame_apart(model.load(f"eternity-{n}x{n}")) for n in (3, 4, 5, 6))
    assert not any(kanren.frame_apart(generate(6, 6, 6, seed, ETERNITY)) for seed in (1, 2, 3))
    assert not kanren.frame_apart(model.load("insects"))
    assert kanren.frame_apart(frame_of_its_own(generate(6, 6, 6, 1, ETERNITY)))


@pytest.mark.slow
@settings(max_examples=20, deadline=None)
@given(rows=st.integers(3, 4), cols=st.integers(3, 4), colours=st.integers(2, 4), seed=st.integers(0, 10**6),
       up_to_rotation=st.booleans())
def test_every_back_end_counts_puzzles_whose_frame_has_colours_of_its_own(pysolve_backends, rows, cols, colours,
                                                                          seed, up_to_rotation):
    instance = frame_of_its_own(generate(rows, cols, colours, seed, ETERNITY))
    assert kanren.frame_apart(instance)
    question = Question(instance, COUNT, up_to_rotation)
    counts = {backend: PUZZLE.solve(question, backend).count for backend in pysolve_backends}
    assert len(set(counts.values())) == 1 and counts["python"] >= 1, counts  # the generated grid is a solution


def test_kanren_stops_at_its_budget():
    with pytest.raises(SearchLimitExceeded):
        kanren.solutions(model.load("eternity-6x6"), False, 0, Budget(nodes=200))


@pytest.mark.slow
@pytest.mark.parametrize("size, colours, seed", [(6, 6, 1), (6, 6, 2), (7, 7, 3)])
def test_kanren_counts_generated_boards_past_5x5_as_python_does(tmp_path, size, colours, seed):
    """Counts on boards past 5x5 are answered when the relation is asked by name (a generated 7x7 in about
    4 s), though Python answers them by default without SWI-Prolog (next test)."""
    path = tmp_path / "board.txt"
    path.write_text(model.dump(generate(size, size, colours, seed, ETERNITY)))
    question = PUZZLE.question(file=str(path), count=True, seconds=120)
    assert "kanren" in PUZZLE.backends_for(question)
    assert PUZZLE.solve(question, "kanren").count == PUZZLE.solve(question, "python").count > 0


@pytest.mark.slow
def test_kanren_answers_a_first_solution_past_8x8(tmp_path):
    path = tmp_path / "nine.txt"
    path.write_text(model.dump(generate(9, 9, 12, 3, ETERNITY)))
    question = PUZZLE.question(file=str(path), seconds=120)
    answer = PUZZLE.solve(question, "kanren")
    assert answer.status == SOLVED and answer.solutions == PUZZLE.solve(question, "python").solutions


@pytest.mark.slow
def test_kanren_building_its_tables_keeps_the_time_limit(tmp_path, monkeypatch):
    """A 30x30 file of two colours: 3,600 placements, whose pair tables alone took 18 s before the budget looked
    at its clock while building them."""
    from pysolve.squares import generate as generate_module
    monkeypatch.setattr(generate_module, "MAX_SIDE", 30)
    path = tmp_path / "thirty.txt"
    path.write_text(model.dump(generate(30, 30, 2, 1)))
    answer = PUZZLE.solve(PUZZLE.question(file=str(path), seconds=1), "kanren")
    assert answer.status == UNKNOWN and "time limit of 1 s" in answer.stats["reason"]
    assert answer.stats["cpu_seconds"] <= most_work(1)


def test_past_its_default_sizes_the_relation_answers_only_when_asked_by_name(monkeypatch):
    """Owen's 6x6 count takes the relation about four minutes (docs/squares.md, Left open): without SWI-Prolog
    the count goes to Python by default rather than waiting for a time limit, and kanren stays in the list of
    back ends that answer (asked by name, or in a cross-check)."""
    monkeypatch.setattr(backends, "default", lambda: "kanren")
    count = PUZZLE.question(file="eternity-6x6", count=True)
    assert PUZZLE.backends_for(count) == ["prolog", "kanren", "python"]
    assert PUZZLE.default_backend(count) in ("prolog", "python")
    assert PUZZLE.default_backend(PUZZLE.question(file="eternity-5x5", count=True)) == "kanren"
    assert PUZZLE.default_backend(PUZZLE.question(file="eternity-6x6")) == "kanren"


@pytest.mark.parametrize("mode, strategy", [(ALL, "original"), (COUNT, "original"), (COUNT, "fast")])
def test_every_back_end_answers_unknown_when_its_time_runs_out(pysolve_backend, mode, strategy):
    answer = PUZZLE.solve(Question(model.load("eternity-6x6"), mode, strategy=strategy, seconds=0.3),
                          pysolve_backend)
    assert (answer.status, answer.solutions) == (UNKNOWN, [])
    assert answer.stats["reason"] == "squares search passed its time limit of 0.3 s"
    assert answer.stats["cpu_seconds"] <= most_work(0.3)


def test_minikanren_answers_unknown_when_its_time_runs_out():
    answer = PUZZLE.solve(Question(model.load("eternity-6x6"), FIRST, seconds=0.3), "kanren")  # about 8 s
    assert (answer.status, answer.solutions) == (UNKNOWN, [])
    assert answer.stats["reason"] == "squares search passed its time limit of 0.3 s"
    assert answer.stats["cpu_seconds"] <= most_work(0.3)


def test_a_count_out_of_time_is_drawn_as_no_answer_with_its_reason():
    answer = PUZZLE.solve(Question(model.load("eternity-6x6"), COUNT, strategy="original", seconds=0.2), "python")
    assert PUZZLE.render(answer) == "no answer: squares search passed its time limit of 0.2 s"


# --- the rule base's entry points -----------------------------------------------------------------

def on_insects(inner: bridge.Goal) -> bridge.Goal:
    """`inner` run inside with_puzzle/6 on the insect puzzle."""
    return prolog.with_puzzle(model.load(), inner)


def no_puzzle_is_chosen() -> bool:
    """Whether the rule base is outside every with_puzzle/6: nothing running, and a puzzle predicate raises."""
    running = bridge.first(prolog.RULE_BASE, bridge.goal("aggregate_all", "count",
                                                         bridge.goal(":", "squares_puzzle", "running"), Var("N")))
    try:
        bridge.solutions(prolog.RULE_BASE, bridge.goal("piece", Var("Id"), Var("Edges")))
    except PrologError as error:
        return running["N"] == 0 and "no squares puzzle is chosen" in str(error)
    return False


def loaded_puzzles() -> int:
    """How many puzzles' facts the rule base keeps loaded between queries (at most one)."""
    loaded = bridge.goal(":", "squares_puzzle", bridge.goal("loaded", Var("_")))
    return bridge.first(prolog.RULE_BASE, bridge.goal("aggregate_all", "count", loaded, Var("N")))["N"]


@needs_prolog
@pytest.mark.parametrize("goal, wrong", [
    (bridge.goal("solve", "greedy", "all", Var("Grid")), "greedy"),
    (bridge.goal("solve", "rows", "sideways", Var("Grid")), "sideways"),
])
def test_solve_raises_on_a_bad_strategy_or_rotation(goal, wrong):
    with pytest.raises(PrologError, match=f"[Dd]omain error.*{wrong}"):
        bridge.solutions(prolog.RULE_BASE, on_insects(goal))
    assert no_puzzle_is_chosen()


@needs_prolog
def test_with_puzzle_raises_on_a_bad_rule_or_size():
    with pytest.raises(PrologError, match="[Dd]omain error.*chess"):
        bridge.solutions(prolog.RULE_BASE, bridge.goal("with_puzzle", "chess", 1, 1, [], [], bridge.goal("true")))
    with pytest.raises(PrologError, match="[Tt]ype error"):
        bridge.solutions(prolog.RULE_BASE, bridge.goal("with_puzzle", "insect", 0, 1, [], [], bridge.goal("true")))


@needs_prolog
def test_piece_and_matches_answer_inside_with_puzzle():
    row = bridge.first(prolog.RULE_BASE, on_insects(bridge.goal("piece", 1, Var("Edges"))))
    assert tuple(row["Edges"]) == model.load().piece(1).edges
    result = bridge.solutions(prolog.RULE_BASE, on_insects(bridge.goal("matches", "R", Var("Other"))))
    assert [row["Other"] for row in result.rows] == ["r"]


@needs_prolog
@pytest.mark.parametrize("goal", [
    bridge.goal("piece", Var("Id"), Var("Edges")),
    bridge.goal("matches", "R", Var("Other")),
    bridge.goal("solution", "rows", Var("Grid")),
    bridge.goal("solve", "rows", "up_to_rotation", Var("Grid")),
])
def test_the_puzzle_predicates_raise_outside_with_puzzle(goal):
    with pytest.raises(PrologError, match=r"no squares puzzle is chosen: ask inside with_puzzle\(Rule, Rows"):
        bridge.solutions(prolog.RULE_BASE, goal)


@pytest.mark.subprocess
@needs_prolog
def test_a_query_without_a_puzzle_says_in_one_line_how_to_choose_one(capsys):
    assert cli_module.main(["query", "squares", "piece(1,E)"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no squares puzzle is chosen" in err
    example = err.split("e.g. ", 1)[1].strip()  # the example in the message runs as it stands
    assert cli_module.main(["query", "squares", example]) == 0
    assert capsys.readouterr().out.strip() == "E = [a, b, a, b]."


@needs_prolog
def test_with_puzzle_does_not_nest():
    with pytest.raises(PrologError, match="No permission to nest with_puzzle"):
        bridge.solutions(prolog.RULE_BASE, on_insects(on_insects(bridge.goal("true"))))
    assert no_puzzle_is_chosen()


@needs_prolog
def test_the_tables_of_a_puzzle_are_made_once_and_replaced_by_the_next_puzzle():
    insects = Question(generate(4, 5, 9, 1), COUNT)
    assert model.most_constrained_first(insects)
    first = PUZZLE.solve(insects, "prolog")
    again = PUZZLE.solve(insects, "prolog")
    assert first.count == again.count == PUZZLE.solve(insects, "python").count
    assert loaded_puzzles() == 1 and no_puzzle_is_chosen()
    assert PUZZLE.solve(Question(model.load(), COUNT), "prolog").count == 4  # another puzzle replaces it
    assert PUZZLE.solve(Question(model.load(), COUNT, count_orientations=True), "prolog").count == 4
    assert loaded_puzzles() == 1
    assert PUZZLE.solve(insects, "prolog").count == first.count


@needs_prolog
def test_no_puzzle_is_chosen_after_a_query():
    assert PUZZLE.solve(Question(model.load(), FIRST), "prolog").count == 1  # cut after the first solution
    assert no_puzzle_is_chosen()
    assert PUZZLE.solve(Question(model.load(), COUNT), "prolog").count == 4
    assert no_puzzle_is_chosen()
    stopped = PUZZLE.solve(Question(model.load("eternity-6x6"), COUNT, strategy="original", seconds=0.2), "prolog")
    assert stopped.status == UNKNOWN
    assert no_puzzle_is_chosen()


# --- the generator ----------------------------------------------------------------------------

def test_the_generator_is_deterministic_per_seed_and_solvable():
    first, again, other = generate(4, 5, 3, 11), generate(4, 5, 3, 11), generate(4, 5, 3, 12)
    assert first == again and first != other
    assert len(first.pieces) == 20 and first.pairs == (("A", "a"), ("B", "b"), ("C", "c"))
    eternity = generate(4, 4, 5, 3, model.ETERNITY)
    assert PUZZLE.solve(Question(eternity, FIRST), "python").count == 1


def test_the_generator_refuses_impossible_sizes():
    with pytest.raises(InputError, match="--rows"):
        generate(0, 3, 2, 1)
    with pytest.raises(InputError, match="--colours"):
        generate(3, 3, 0, 1)


def test_generate_prints_a_file_that_solve_reads(cli, capsys, tmp_path):
    assert cli(["generate", "squares", "--rows", "2", "--cols", "3", "--colours", "2", "--seed", "4"]) == 0
    path = write(tmp_path, capsys.readouterr().out)
    assert cli(["solve", "squares", path, "--count", "--backend", "python", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["count"] >= 1
    assert cli(["generate", "squares", "--rows", "2", "--cols", "2", "--colours", "3", "--rule", "eternity",
                "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rule"] == "eternity" and len(data["pieces"]) == 4


# --- pictures ---------------------------------------------------------------------------------

def test_a_solution_as_text_shows_each_piece_with_its_edges():
    text = draw.text_grid(model.load(), INSECT_FIRST)
    lines = text.splitlines()
    assert len(lines) == 13
    assert "M 5/0 r" in lines[2] and "R 2/1 a" in lines[2]


def test_a_solution_as_svg_places_every_piece(tmp_path, cli, capsys):
    out = tmp_path / "solution.svg"
    assert cli(["solve", "squares", "--backend", "python", "--svg", str(out)]) == 0
    root = ElementTree.parse(out).getroot()
    uses = root.findall(".//{http://www.w3.org/2000/svg}use")
    assert [use.get("href") for use in uses] == [href for row in INSECT_FIRST for p, t in row
                                                 for href in (f"#p{p}", f"#n{p}-{t}")]  # shapes, then words
    assert "rotate(90 50 50)" in uses[2].get("transform") and "rotate" not in uses[3].get("transform")


def test_the_trace_replays_every_placement_and_backtrack(tmp_path, cli, capsys):
    recorded = search_trace(model.load(), False, Budget())
    kinds = [event["e"] for event in recorded.events]
    assert kinds.count("solution") == recorded.end["solutions"] == 4
    assert kinds.count("enter") == kinds.count("backtrack") == recorded.end["nodes"]
    out = tmp_path / "replay.html"
    assert cli(["solve", "squares", "--all", "--backend", "python", "--trace-html", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    data = json.loads(page.split("const DATA = ", 1)[1].split(";", 1)[0])
    assert data["events"] == recorded.events
    for control in ('id="play"', 'id="pause"', 'id="step"', 'id="speed"', '<g id="p9">'):
        assert control in page


def test_the_replay_and_trace_record_one_search(tmp_path):
    """--trace-html replays the events `--trace` writes of the original search (one format, one search)."""
    path = tmp_path / "search.jsonl"
    PUZZLE.solve(Question(model.load(), ALL, strategy="original"), "python", path)
    assert read_trace(path).events == search_trace(model.load(), False, Budget()).events


def test_a_full_trace_stops_the_search_and_says_so():
    recorded = search_trace(model.load("eternity-6x6"), False, Budget(seconds=5), limit=100)
    assert recorded.end["truncated"] and len(recorded.events) == 100
    assert "cut after 100 events" in draw.replay_html(model.load("eternity-6x6"), recorded.events,
                                                      recorded.end["truncated"])


@pytest.mark.parametrize("option", ["--trace-html"])
def test_a_trace_into_a_missing_directory_is_one_line_and_leaves_nothing(tmp_path, cli, capsys, option):
    target = tmp_path / "missing" / "trace.out"
    assert cli(["solve", "squares", "--backend", "python", option, str(target)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{option} " in err and "does not exist" in err
    assert not target.parent.exists() and list(tmp_path.iterdir()) == []


def test_the_replay_pauses_on_each_solution_and_ends_on_the_last_one():
    page = draw.replay_html(model.load(), [{"e": "enter", "id": 1, "parent": 0, "depth": 1, "label": "",
                                            "move": {"row": 1, "col": 1, "piece": 1, "turns": 0}},
                                           {"e": "solution", "id": 1, "depth": 1, "count": 1},
                                           {"e": "backtrack", "id": 1, "depth": 1}], False)
    script = page.split("<script>", 1)[1]
    solution_branch = script.split("} else if (event.e === 'solution') {  // a solution", 1)[1].split("\n  }\n", 1)[0]
    assert "last = cells.map" in solution_branch and "pause();" in solution_branch
    assert "function finish()" in script and "if (next >= events.length) finish();" in script
    assert "pauses on\nevery solution" in page and "ends on the last solution found" in page


# --- the CLI and bad input --------------------------------------------------------------------

def test_json_has_grids_of_piece_and_turns(cli, capsys):
    assert cli(["solve", "squares", "--all", "--up-to-rotation", "--backend", "python", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["count"] == 1 and len(data["solutions"]) == 1
    assert data["solutions"][0][0][0].keys() == {"piece", "turns"}
    assert "seconds" in data["stats"]


def test_crosscheck_from_the_cli_agrees(cli, capsys):
    assert cli(["crosscheck", "squares", "eternity-3x3", "--count"]) == 0
    verdict = capsys.readouterr().out.splitlines()[-1]  # with Prolog hidden: the two others agree, Prolog named
    assert verdict.startswith(("all back ends agree", "the answers of kanren, python agree"))


BAD_FILES = {
    "no complement": ("grid 1 1\npair R r\npiece 1 R r Q R\n", "piece 1 S edge 'Q' has no complementary"),
    "wrong count": ("grid 2 2\npair R r\npiece 1 R r R r\n", "needs 4 pieces, the file has 1"),
    "malformed": ("grid 1 1\npiece 1 R r\n", "squares.txt:2: cannot read 'piece 1 R r'"),
    "two pairs": ("grid 1 1\npair R r\npair r X\npiece 1 R r R r\n", "label 'r' is in two pairs"),
    "unknown rule": ("grid 1 1\nrule chess\npiece 1 R r R r\n", "unknown rule 'chess'"),
    "no grid": ("pair R r\npiece 1 R r R r\n", "no `grid R C` line"),
    "owen colour": ("1 1\n0 0 x 0\n", "squares.txt:2: colour 'x' is not an integer"),
    "owen short line": ("1 1\n0 0 0\n", "squares.txt:2: a piece line needs 4 colours"),
    "twice": ("grid 1 2\npair R r\npiece 1 R r R r\npiece 1 r R r R\n", "piece id 1 is used twice"),
    "empty": ("# nothing\n", "the file is empty"),
    "id zero": ("grid 1 1\npair R r\npiece 0 R r R r\n", "piece id 0 is not a positive integer"),
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_bad_files_get_one_clear_line_and_exit_code_2(cli, capsys, tmp_path, case):
    text, message = BAD_FILES[case]
    assert cli(["solve", "squares", write(tmp_path, text), "--backend", "python"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("pysolve: error: ") and message in err and err.count("\n") == 1


def test_a_missing_file_and_a_bad_flag_exit_with_2(cli, capsys):
    assert cli(["solve", "squares", "no-such-file.txt"]) == 2
    assert "squares file 'no-such-file.txt': no such file" in capsys.readouterr().err
    assert cli(["solve", "squares", "--all", "--count"]) == 2
    assert "not allowed with argument" in capsys.readouterr().err
    assert cli(["solve", "squares", "--seconds", "0"]) == 2
    assert "--seconds: 0.0 is not greater than 0" in capsys.readouterr().err


def test_the_api_refuses_what_the_cli_refuses_in_the_same_words():
    with pytest.raises(InputError, match="--count and --all cannot be used together"):
        PUZZLE.question(all=True, count=True)
    with pytest.raises(InputError, match="--seconds: 0.0 is not greater than 0"):
        PUZZLE.question(seconds=0)
    with pytest.raises(InputError, match="--strategy: 'greedy' is not one of fast, original"):
        PUZZLE.question(strategy="greedy")
    with pytest.raises(InputError, match="--seconds: 0 is not a time limit"):
        Question(model.load(), seconds=0)


def test_the_options_ask_the_question_and_the_help_shows_them(cli, capsys):
    question = PUZZLE.question(file="eternity-3x3", count=True, up_to_rotation=True, strategy="original", seconds=5)
    assert question == Question(model.load("eternity-3x3"), COUNT, True, "original", 5.0)
    assert PUZZLE.question() == Question(model.load("insects"))
    assert cli(["solve", "squares", "--help"]) == 0
    usage = " ".join(capsys.readouterr().out.split())  # as read, whatever the lines' wrapping
    assert "[--all | --count]" in usage and "--trace-html OUT" in usage and "(default 60)" in usage
    assert "--trace FILE" in usage


def test_svg_without_a_solution_to_draw_is_an_input_error(cli, capsys, tmp_path):
    assert cli(["solve", "squares", "--count", "--backend", "python", "--svg", str(tmp_path / "x.svg")]) == 2
    assert "--svg needs a solution" in capsys.readouterr().err


def test_an_unknown_piece_is_named():
    with pytest.raises(UnknownName, match="no piece 42"):
        model.load().piece(42)
