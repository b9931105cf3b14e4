"""The rule-base reference: every exported predicate documented, docs/reference/ current, the extractor right."""

from __future__ import annotations

from pathlib import Path

import pytest

import pysolve
from pysolve import bridge, pldoc
from pysolve.paths import rule_base_dir

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "docs" / "reference"


@pytest.mark.parametrize("name", bridge.rule_bases())
def test_every_exported_predicate_has_a_pldoc_comment(name: str) -> None:
    rule_base = pldoc.read_rule_base(rule_base_dir() / f"{name}.pl")
    assert rule_base.predicates and rule_base.title
    assert rule_base.undocumented == [], f"prolog/{name}.pl: exported without a %! comment"


@pytest.mark.subprocess
@pytest.mark.parametrize("name", bridge.rule_bases())
@pytest.mark.pysolve_backends("prolog")
def test_the_extractor_reads_the_exports_swi_prolog_reports(name: str, pysolve_backend: str) -> None:
    goal = ("module_property(M, exports(Es)), "
            "findall(I, (member(N/A, Es), format(atom(I), '~w/~w', [N, A])), Is)")
    (row,) = pysolve.query(name, f"M = {name}, {goal}").rows
    documented = [p.indicator for p in pldoc.read_rule_base(rule_base_dir() / f"{name}.pl").predicates]
    assert sorted(documented) == sorted(row["Is"])


def test_docs_reference_is_current() -> None:
    expected = pldoc.reference()
    assert sorted(path.name for path in REFERENCE.glob("*.md")) == sorted(expected), \
        "docs/reference/ lists other files: run python -m pysolve.pldoc"
    for name, text in expected.items():
        assert (REFERENCE / name).read_text(encoding="utf-8") == text, \
            f"docs/reference/{name} is stale: run python -m pysolve.pldoc"


def test_the_reference_shows_every_predicate_with_its_comment() -> None:
    page = (REFERENCE / "tangram.md").read_text(encoding="utf-8")
    assert "## count_tilings/4" in page and "count_tilings(+Strategy, +Order, +Placed, -Count) is det." in page
    assert "*(no PlDoc comment)*" not in "".join(pldoc.reference().values())
    assert "[`fichas`](fichas.md)" in (REFERENCE / "index.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("head, indicator", [
    ("tiling(+Strategy, +Order, +Placed, -Tiling) is nondet.", "tiling/4"),
    ("goal(+State) is semidet.", "goal/1"),
    ("f(+Pairs:list(pair(a, b)), -Count)", "f/2"),
    ("marker is det.", "marker/0"),
])
def test_heads_give_their_name_and_arity(head: str, indicator: str) -> None:
    assert pldoc.head_indicator(head) == indicator


def test_undocumented_exports_and_continued_heads_are_found(tmp_path: Path) -> None:
    (tmp_path / "mine.pl").write_text(
        ":- module(mine, [ shown/2,   % +A, -B\n                  hidden/1 ]).\n\n"
        "/** <module> A test module\n\nIt has two predicates.\n*/\n\n"
        "%!  shown(+A,\n%!        -B) is det.\n%\n%   B is A. Nothing more.\n\nshown(A, A).\nhidden(_).\n")
    (rule_base,) = [pldoc.read_rule_base(path) for path in tmp_path.glob("*.pl")]
    assert [p.indicator for p in rule_base.predicates] == ["shown/2", "hidden/1"]
    assert rule_base.undocumented == ["hidden/1"]
    assert rule_base.predicates[0].heads == ["shown(+A, -B) is det."]
    pages = pldoc.reference(tmp_path)
    assert "| [`shown/2`](#shown2) | B is A. |" in pages["mine.md"]
    assert "## hidden/1\n\n*(no PlDoc comment)*" in pages["mine.md"]


def test_writing_the_reference_replaces_stale_pages(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "reference"
    out.mkdir()
    (out / "gone.md").write_text("a rule base that was removed")
    assert pldoc.main([str(out)]) == 0
    assert sorted(path.name for path in out.glob("*.md")) == sorted(pldoc.reference())
    assert str(out / "index.md") in capsys.readouterr().out
