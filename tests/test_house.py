"""The house rules, run by `make test` and so by CI (docs/architecture.md, "Layers").

- No module of pysolve imports in a circle, counting the imports inside
  functions as well: a lazy import hides a circle from Python, not from the
  reader.
- Inside a puzzle package dependencies run one way, model -> back ends ->
  puzzle -> faces: nothing a back end imports, directly or not, is the
  puzzle or a face (the API, the CLI, the cross-check, the web).
- Package faces (`__init__.py` below `pysolve/`) import nothing.
- ruff and mypy, clean at the settings in pyproject.toml, are `make lint`'s
  (which `make test` runs first), not this file's.
"""

from __future__ import annotations

import ast
import importlib.metadata
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "pysolve"
BACK_ENDS = ("python", "prolog", "kanren")
FACES = ("pysolve.api", "pysolve.cli", "pysolve.agreement", "pysolve.web", "pysolve.pytest_plugin")


def module_files() -> dict[str, Path]:
    """Every module of pysolve by its dotted name (a package by its own name)."""
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


MODULES = module_files()


def known(name: str) -> str | None:
    """The module of pysolve that `name` (a module, or a name inside one) comes from."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def imported(module: str) -> set[str]:
    """The modules of pysolve that `module` imports anywhere in its text (in functions too)."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {known(alias.name) for alias in node.names if alias.name.startswith("pysolve")}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parents = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parents, base] if base else parents)
            if base.startswith("pysolve"):
                found |= {f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else known(base)
                          for alias in node.names}
    return found - {None, module}


GRAPH = {module: imported(module) for module in MODULES}


def circles() -> Iterator[list[str]]:
    """The groups of modules that import each other in a circle (Tarjan's strongly connected components)."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []

    def visit(module: str) -> Iterator[list[str]]:
        order[module] = low[module] = len(order)
        stack.append(module)
        for other in GRAPH[module]:
            if other not in order:
                yield from visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], order[other])
        if low[module] == order[module]:
            group = stack[stack.index(module):]
            del stack[stack.index(module):]
            if len(group) > 1:
                yield sorted(group)

    for module in sorted(GRAPH):
        if module not in order:
            yield from visit(module)


def reachable(start: str) -> set[str]:
    """Every module that `start` imports, directly or through others."""
    seen, todo = set(), [start]
    while todo:
        for other in GRAPH[todo.pop()] - seen:
            seen.add(other)
            todo.append(other)
    return seen


def is_face(module: str) -> bool:
    return any(module == face or module.startswith(face + ".") for face in FACES)


def test_the_import_graph_is_read() -> None:
    assert "pysolve.bridge" in GRAPH["pysolve.sudoku.prolog"]  # the check sees what it checks


def test_no_module_imports_in_a_circle() -> None:
    found = list(circles())
    assert found == [], "\n".join(
        " <-> ".join(group) + ":\n" + "\n".join(f"  {module} imports {sorted(GRAPH[module] & set(group))}"
                                                 for module in group)
        for group in found)


def puzzle_packages() -> list[str]:
    """The names of pysolve's own puzzle packages, as the registry declares them (pyproject's entry points)."""
    return sorted(point.value.split(".")[1] for point in importlib.metadata.entry_points(group="pysolve.puzzles")
                  if point.value.startswith("pysolve."))


PUZZLE_PACKAGES = puzzle_packages()
SHAPE = ("model", "puzzle", *BACK_ENDS)  # the modules every puzzle package holds
SHAPE_NAMES = {*SHAPE, "draw", "generate", "grading", "instances", "play", "play_app", "replay", "cli",
               "crosscheck", "api", "rules", "__init__"}  # names a puzzle package's module may share with another


def test_every_puzzle_package_has_one_shape() -> None:
    assert len(PUZZLE_PACKAGES) >= 6
    missing = [f"pysolve/{puzzle}/{name}.py" for puzzle in PUZZLE_PACKAGES for name in SHAPE
               if not (PACKAGE / puzzle / f"{name}.py").is_file()]
    assert missing == [], f"puzzle packages lack their shape's modules: {missing}"


def test_no_two_modules_share_a_name_beyond_the_shape() -> None:
    """Two modules of one name outside the shape (three were called search.py) read as one idea to a newcomer."""
    by_name: dict[str, list[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        by_name.setdefault(path.stem, []).append(str(path.relative_to(ROOT)))
    shared = {name: sorted(paths) for name, paths in by_name.items() if len(paths) > 1 and name not in SHAPE_NAMES}
    assert shared == {}, shared


@pytest.mark.parametrize("puzzle", PUZZLE_PACKAGES)
def test_back_ends_import_nothing_above_them(puzzle: str) -> None:
    back_ends = [f"pysolve.{puzzle}.{name}" for name in BACK_ENDS if f"pysolve.{puzzle}.{name}" in MODULES]
    assert back_ends, f"{puzzle} has no back-end modules named {BACK_ENDS}"
    for back_end in back_ends:
        above = sorted(module for module in reachable(back_end)
                       if module == f"pysolve.{puzzle}.puzzle" or is_face(module))
        assert above == [], f"{back_end} imports, directly or not, {above}"


MODELS = sorted(f"pysolve.{path.parent.name}.model" for path in PACKAGE.glob("*/model.py"))


@pytest.mark.subprocess
@pytest.mark.parametrize("model", MODELS)
def test_a_model_imports_alone(model: str) -> None:
    """Reading a puzzle's data types starts no face and no Prolog engine (the package `pysolve` loads its
    public names lazily)."""
    probe = f"import sys, {model}; print(sorted(m for m in sys.modules if m.startswith('pysolve.')))"
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    above = [module for module in ast.literal_eval(loaded) if is_face(module) or module == "pysolve.bridge"]
    assert above == [], f"import {model} loads {above}"


@pytest.mark.parametrize("face", sorted(str(path.relative_to(ROOT)) for path in PACKAGE.glob("*/__init__.py")))
def test_package_faces_import_nothing(face: str) -> None:
    imports = [node for node in ast.parse((ROOT / face).read_text()).body
               if isinstance(node, ast.Import) or (isinstance(node, ast.ImportFrom) and node.module != "__future__")]
    assert imports == [], f"{face} imports at line {imports[0].lineno}" if imports else ""


@pytest.mark.subprocess
@pytest.mark.parametrize("script", sorted(path.name for path in (ROOT / "bench").glob("*.py")))
def test_a_bench_script_still_imports(script: str) -> None:
    """The benchmarks run once, by hand (`make bench`): that their imports still hold is checked here, so a
    renamed module breaks a test, not next month's measurement."""
    probe = ("import importlib.util, sys; sys.path.insert(0, 'bench'); "
             f"spec = importlib.util.spec_from_file_location('bench_script', 'bench/{script}'); "
             "spec.loader.exec_module(importlib.util.module_from_spec(spec))")
    run = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr


WALL_CLOCKS = ("time.monotonic(", "time.perf_counter(", "time.time(", "datetime.now(")


def test_no_test_reads_the_wall_clock() -> None:
    """Tests assert budgets and node counts on the clock of the work, so the suite passes on a busy machine; a
    hang is pytest-timeout's to end (`@pytest.mark.timeout`), not an assert on the seconds that passed."""
    readers = [f"{path.name}:{number}" for path in sorted((ROOT / "tests").rglob("*.py"))
               for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
               if any(clock in line for clock in WALL_CLOCKS) and path.name != "test_house.py"]
    assert readers == []


# A measured figure (a line count, a time, a speed-up) goes stale the day the code changes; docs/bench.md,
# written by bench/, holds them, and every other doc says it in words or points there.
MEASURED = re.compile(
    r"(?<![\w.:-])\d[\d,]*\s+lines\b(?!\s+of\b)|\|\s*lines\s*\|"  # "156 lines", a table's lines column
    r"|(?<![\w.:/-])\d+(?:\.\d+)?\s?(?:ms|µs|us|seconds?|minutes?|hours?)\b"  # "0.4 ms", "20 seconds", "9 us"
    r"|(?<=\d-)\d+(?:\.\d+)?\s?(?:ms|µs|us|s|seconds?|minutes?)\b"  # a range's end: "0.7-1.6 s"
    r"|(?<![\w.:/-])\d+(?:\.\d+)? s\b|(?<![\w.:/-])\d+\.\d+s\b"  # "42 s", "0.5s" (not `2s`, a wall's code)
    r"|(?<![\w.:/])~?\d[\d,]*(?:\.\d+)?\s?[x\u00d7](?!\s?\d)(?!\w)")  # a ratio: "1.8x" (not "6x6", "64 x 64")
# A figure after these words is a rule's limit or a setting, not a measurement.
BOUND = re.compile(r"(?:at\s+most|within|limit of|guard of|budget of|default|allows|plus|each|every|up to|--[\w-]+[ =])"
                   r"\s+~?\d[\d.,]*\s?(?:s|ms|seconds?|x)\b|\d[\d.]*\s?(?:s|seconds?) (?:each|a move)\b")
# Figures that are neither measured nor a bound of the form above, each with why.
NOT_MEASURED = {
    r"5x (?:the|its time) limit": "the wall-clock guard's rule (budget.GuardClock)",
    r"0\.3\s+s\)? of CPU": "PROBE_SECONDS, how long a count is tried alone before it is split",
    r"10 % and 0\.3 s": "how close to its limit a search must stop (tests/test_busy.py)",
    r"(?:fichas|squares): \d+x": "the grader's speed bound for a puzzle (its definition)",
    r"the whole replay in 20 seconds": "what the replay's speed x1 means",
}


def blank(match: re.Match[str]) -> str:
    """What a match is replaced by: its line breaks only, so line numbers hold."""
    return "\n" * match.group().count("\n")


def quoted_figures(name: str, text: str) -> list[str]:
    """The measured figures `text` quotes, as 'name:line: ...'.

    Inline code spans are left out (`mcts:0.5s`, a message quoted), and so are bounds and NOT_MEASURED; a
    fenced block is read as prose without its fences, so a command's options pass and its output's times
    do not."""
    lines = text.splitlines()
    prose = "\n".join("" if line.lstrip().startswith("```") else line for line in lines)
    prose = re.sub(r"`[^`\n]*(?:\n[^`\n]*)?`", blank, prose)
    prose = BOUND.sub(blank, prose)
    for phrase in NOT_MEASURED:
        prose = re.sub(phrase, blank, prose)
    return [f"{name}:{prose.count(chr(10), 0, match.start()) + 1}: {match.group()!r} in "
            f"{lines[prose.count(chr(10), 0, match.start())].strip()[:100]!r}" for match in MEASURED.finditer(prose)]


def documents() -> Iterator[tuple[str, str]]:
    """Every doc a reader sees, outside docs/bench.md: the pages, the README, the modules' docstrings."""
    for path in [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md"]:
        yield str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")
    for path in sorted(PACKAGE.rglob("*.py")):
        yield str(path.relative_to(ROOT)), ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""


def test_the_figure_check_sees_figures() -> None:
    quoted = "boards.py (156 lines); it took 0.27 s of CPU, 12.5 ms a move, 1.8x faster than 2 workers"
    assert len(quoted_figures("x", quoted)) == 4
    assert len(quoted_figures("x", "a lookup costs 0.6 us; the sets took 0.7-1.6 s")) == 2
    assert quoted_figures("x", "a 6x6 board, at most 8 s each; `--seconds 5`; `mcts:0.5s`; 5x the limit") == []


def test_no_doc_quotes_a_measured_figure() -> None:
    """Line counts, timings and speed-ups live in docs/bench.md only, where bench/ writes them."""
    found = [figure for name, text in documents() if name != "docs/bench.md"
             for figure in quoted_figures(name, text)]
    assert found == [], "\n".join(found)


SUMMARISED = ("**/*.py",)  # the modules whose public docstrings open with a summary line: all of pysolve
SUMMARY_LENGTH = 110  # a one-line docstring of a method fits ruff's 120 columns


def has_summary(doc: str) -> bool:
    """True when `doc` opens with a sentence of one short line, then a blank line (or nothing)."""
    lines = doc.splitlines()
    first = lines[0].strip() if lines else ""
    return (0 < len(first) <= SUMMARY_LENGTH and first.endswith((".", "?", "!"))
            and (len(lines) == 1 or not lines[1].strip()))


def public_docstrings(path: Path) -> Iterator[tuple[str, str]]:
    """(name, docstring) of a module, its public functions and classes, and their public methods."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    yield "module", ast.get_docstring(tree) or ""
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and not node.name.startswith("_"):
            yield node.name, ast.get_docstring(node) or ""
            methods = node.body if isinstance(node, ast.ClassDef) else []
            yield from ((f"{node.name}.{method.name}", ast.get_docstring(method) or "") for method in methods
                        if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef))
                        and not method.name.startswith("_"))


def test_the_summary_check_sees_a_dense_docstring() -> None:
    assert has_summary("Count the parts.\n\nThen add them up.") and has_summary("Count the parts.")
    assert not has_summary("Count the parts, which a worker runs,\nthen add them up.")
    assert not has_summary("Count the parts.\nThen add them up.")
    assert not has_summary("x" * SUMMARY_LENGTH + ".")


def test_public_docstrings_open_with_a_summary_line() -> None:
    """A reader (help(), an editor's tooltip, the API docs) sees the first line alone: it says what in one
    sentence, and the paragraphs after it say how and why. A missing docstring is not this test's."""
    paths = {path for pattern in SUMMARISED for path in PACKAGE.glob(pattern)}
    dense = [f"{path.relative_to(ROOT)}: {name}: {doc.splitlines()[0][:80]!r}" for path in sorted(paths)
             for name, doc in public_docstrings(path) if doc and not has_summary(doc)]
    assert len(paths) > 50 and dense == [], "\n".join(dense)
