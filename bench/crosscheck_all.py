"""Cross-check every shipped instance (data/**) and the README's examples as `pysolve crosscheck` does (each
back end at most crosscheck.SECONDS, side by side) and print the worst total seconds per puzzle.

A cross-check of any of them should end within 10 s in all: the slowest back end passes its time limit and
answers unknown rather than hold the others up. Run: .venv/bin/python bench/crosscheck_all.py [PUZZLE ...]
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pysolve import puzzles
from pysolve.agreement import SECONDS, crosscheck
from pysolve.errors import InputError
from pysolve.puzzle import Puzzle
from pysolve.report import render_table

TOTAL = 10.0  # the longest a cross-check of a shipped or README instance may take, in seconds

Case = tuple[str, Puzzle, Any]  # (what, puzzle, question)


def shipped_cases(puzzle: Puzzle) -> Iterator[Case]:
    """The default question on every shipped instance of `puzzle` (every puzzle of a file of many)."""
    if not any(option.reads_file for option in puzzle.question_options()):
        return
    for entry in puzzle.catalogue().entries:
        name = entry.name
        try:
            questions = puzzle.questions(file=str(entry.path))
        except InputError as error:  # a file that is no instance (hidato's shapes, a JSON copy)
            print(f"not an instance: {error}", file=sys.stderr)
            continue
        for index, question in enumerate(questions, start=1):
            yield (name if len(questions) == 1 else f"{name}:{index}"), puzzle, question


def generated(puzzle: Puzzle, folder: Path, **options: Any) -> str:
    """The path of an instance `pysolve generate PUZZLE` makes with these options."""
    _, text = puzzle.generated(**options)
    path = folder / f"{puzzle.name}-{'-'.join(f'{key}{value}' for key, value in options.items())}.txt"
    path.write_text(text + "\n")
    return str(path)


def readme_cases(folder: Path) -> Iterator[Case]:
    """The README's examples (its `solve` and `generate` lines, cross-checked), generated instances included."""
    fichas, tangram, squares, hidato = (puzzles.get(name) for name in ("fichas", "tangram", "squares", "hidato"))
    board = generated(hidato, folder, rows=8, cols=8, seed=7)
    yield "README: fichas --m 3 --n 3 --strategy shortest", fichas, fichas.question(m=3, n=3, strategy="shortest")
    yield "README: tangram --all", tangram, tangram.question(all=True)
    for seed in (1, 2, 3):
        tiles = generated(tangram, folder, seed=seed)
        yield f"README: tangram (generated, seed {seed}) --count", tangram, tangram.question(file=tiles, count=True)
    yield "README: squares --up-to-rotation", squares, squares.question(up_to_rotation=True)
    yield "README: squares eternity-6x6 --count", squares, squares.question(file="eternity-6x6", count=True)
    yield "README: hidato sample.txt --count 2", hidato, hidato.question(file="data/hidato/sample.txt", count=2)
    yield "README: hidato (generated 8x8, seed 7)", hidato, hidato.question(file=board)
    yield "README: hidato (generated 8x8, seed 7) --count 2", hidato, hidato.question(file=board, count=2)


def main(chosen: list[str]) -> int:
    worst: dict[str, tuple[float, str]] = {}
    verdicts: dict[str, Counter[str]] = {}
    over: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        cases = [case for name in puzzles.names() for case in shipped_cases(puzzles.get(name))]
        cases += list(readme_cases(Path(folder)))
        for what, puzzle, question in cases:
            if chosen and puzzle.name not in chosen:
                continue
            started = time.perf_counter()
            report = crosscheck(puzzle, question, seconds=SECONDS)
            took = time.perf_counter() - started
            print(f"{took:7.2f} s  {puzzle.name:<8} {what}: {report.summary()[:110]}", flush=True)
            verdicts.setdefault(puzzle.name, Counter())[report.verdict] += 1
            if took > worst.get(puzzle.name, (-1.0, ""))[0]:
                worst[puzzle.name] = (took, what)
            if took > TOTAL:
                over.append(f"{puzzle.name} {what}: {took:.1f} s")
    rows = [[name, f"{took:.2f}", what, ", ".join(f"{count} {verdict}" for verdict, count in verdicts[name].items())]
            for name, (took, what) in worst.items()]
    table = render_table(["puzzle", "worst s", "instance", "verdicts"], rows)
    print(f"\neach back end at most {SECONDS:g} s\n" + table)
    print(f"over {TOTAL:g} s: {'; '.join(over) if over else 'none'}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
