"""Readable text for cross-check reports, the demo table, and progress on stderr."""

from __future__ import annotations

import sys
import threading
import time
from typing import Any, TextIO

from pysolve import backends, puzzles
from pysolve.crosscheck import CrossCheck, crosscheck
from pysolve.puzzle import Puzzle


def render_table(header: list[str], rows: list[list[Any]]) -> str:
    """A plain text table with columns padded to their widest cell."""
    cells = [header] + [[str(cell) for cell in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in cells]
    lines.insert(1, "  ".join("-" * width for width in widths))
    return "\n".join(lines)


def short(value: Any, width: int = 48) -> str:
    """`value` as text, cut to `width` characters."""
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


def crosscheck_rows(puzzle: Puzzle, report: CrossCheck) -> list[list[Any]]:
    """One row per back end: name, status, answer in brief, states, seconds."""
    rows = []
    for name, answer in report.results.items():
        rows.append([name, answer.status, short(puzzle.summarise(answer)),
                     answer.stats.get("states", "-"), f"{answer.stats['seconds']:.4f}"])
    for name, reason in report.skipped.items():
        rows.append([name, "skipped", short(reason), "-", "-"])
    return rows


def render_crosscheck(puzzle: Puzzle, report: CrossCheck) -> str:
    """A cross-check as a table plus a verdict line: they agree, they disagree (where), or nothing was compared
    (no back end answered; each one's reason)."""
    table = render_table(["backend", "status", "answer", "states", "seconds"],
                         crosscheck_rows(puzzle, report))
    return f"{puzzle.name} ({report.label})\n{table}\n{verdict(report)}"


def verdict(report: CrossCheck) -> str:
    """The verdict line of a cross-check."""
    if not report.compared:
        reasons = "; ".join(f"{name}: {reason}" for name, reason in report.skipped.items()) or "none was asked"
        return f"NOT COMPARED: no back end answered ({reasons})"
    return "all back ends agree" if report.agree else f"DISAGREEMENT: {report.difference}"


class Progress:
    """A one-line progress counter on stderr, shown only when stderr is a terminal."""

    def __init__(self, total: int, label: str, stream: TextIO = sys.stderr) -> None:
        self.total, self.label, self.stream, self.done = total, label, stream, 0
        self.visible = stream.isatty()

    def step(self, note: str = "") -> None:
        """Count one unit of work done."""
        self.done += 1
        if self.visible:
            self.stream.write(f"\r{self.label} {self.done}/{self.total} {short(note, 40):<40}")
            self.stream.flush()

    def close(self) -> None:
        """Clear the progress line."""
        if self.visible:
            self.stream.write("\r" + " " * (len(self.label) + 60) + "\r")
            self.stream.flush()


def demo_report(out: TextIO) -> int:
    """Every puzzle's demo questions on every available back end, cross-checked, as one table."""
    out.write("back ends: " + ", ".join(
        f"{info.name} ({info.version if info.available else 'unavailable: ' + info.reason})"
        for info in backends.all_info()) + "\n\n")
    work = [(puzzles.get(name), question) for name in puzzles.names()
            for question in puzzles.get(name).demo_questions()]
    progress = Progress(len(work), "demo")
    rows, disagreements = [], 0
    for puzzle, question in work:
        report = crosscheck(puzzle, question)
        progress.step(puzzle.name)
        disagreements += not report.agree
        for row in crosscheck_rows(puzzle, report):
            rows.append([puzzle.name, puzzle.label(question, changed_only=True)] + row + ["yes" if report.agree else "NO"])
    progress.close()
    out.write(render_table(["puzzle", "question", "backend", "status", "answer",
                            "states", "seconds", "agree"], rows) + "\n")
    out.write(f"\n{len(work)} questions, {len(work) - disagreements} agreed across back ends\n")
    return 0 if disagreements == 0 else 1


class Ticker:
    """While a block runs, the seconds it has taken on one line of stderr, once a second, only when stderr
    is a terminal: a single long search shows that it is alive and how far it is from its --seconds."""

    def __init__(self, label: str, stream: TextIO = sys.stderr, every: float = 1.0) -> None:
        self.label, self.stream, self.every = label, stream, every
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._tick, daemon=True)

    def __enter__(self) -> Ticker:
        if self.stream.isatty():
            self.thread.start()
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.done.set()
        if self.thread.is_alive():
            self.thread.join()
            self.stream.write("\r" + " " * (len(self.label) + 20) + "\r")
            self.stream.flush()

    def _tick(self) -> None:
        started = time.monotonic()
        while not self.done.wait(self.every):
            self.stream.write(f"\r{self.label} {time.monotonic() - started:.0f} s")
            self.stream.flush()
