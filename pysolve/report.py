"""Readable text for cross-check reports, the demo table, and progress on stderr."""

from __future__ import annotations

import sys
import threading
import time
from typing import Any, TextIO

from pysolve import backends, puzzles
from pysolve.agreement import AGREE, DISAGREE, NOT_COMPARED, CrossCheck, crosscheck
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


DEMO_VERDICTS = {AGREE: "yes", DISAGREE: "NO", NOT_COMPARED: "-"}  # the demo table's agree column
STATUS_WIDTH = 11  # the longest status a cross-check row shows: "no solution", "unavailable"
REASON_WIDTH = 72  # characters of a reason in a row (the verdict line gives it whole)


def row_cells(puzzle: Puzzle, report: CrossCheck, name: str) -> tuple[str, str, str, str]:
    """One back end's row: status, seconds, states, and the answer in brief.

    A back end that gave no answer has its kind as the status and its reason in place of the answer."""
    if name in report.results:
        answer = report.results[name]
        return (answer.status, f"{answer.stats['seconds']:.4f}", str(answer.stats.get("states", "-")),
                short(puzzle.summarise(answer)))
    why = report.unanswered()[name]
    return why.kind, "-", "-", short(why.reason, REASON_WIDTH)


def crosscheck_rows(puzzle: Puzzle, report: CrossCheck) -> list[list[Any]]:
    """One row per back end asked that has ended: name, status, answer in brief, states, seconds."""
    rows = []
    for name in report.asked:
        if name in report.results or name in report.unanswered():
            status, seconds, states, text = row_cells(puzzle, report, name)
            rows.append([name, status, text, states, seconds])
    return rows


class CrossCheckTable:
    """A cross-check's table with fixed column widths, so that it can be printed a row at a time.

    A row is printed as each back end ends: name, status, seconds, states, then the answer in brief (or the
    reason) last."""

    def __init__(self, report: CrossCheck) -> None:
        self.width = max([len("backend"), *(len(name) for name in report.asked)])

    def line(self, cells: tuple[str, str, str, str, str]) -> str:
        """One line of the table."""
        name, status, seconds, states, text = cells
        return f"{name:<{self.width}}  {status:<{STATUS_WIDTH}}  {seconds:>8}  {states:>9}  {text}".rstrip()

    def head(self, puzzle: Puzzle, report: CrossCheck) -> list[str]:
        """The title (the question, each back end's time limit) and the column headings."""
        limit = f"; each back end at most {report.limit_seconds:g} s" if report.limit_seconds else ""
        return [f"{puzzle.name} ({report.label}){limit}",
                self.line(("backend", "status", "seconds", "states", "answer")),
                self.line(("-" * self.width, "-" * STATUS_WIDTH, "-" * 8, "-" * 9, "-" * 6))]

    def row(self, puzzle: Puzzle, report: CrossCheck, name: str) -> str:
        """The row of back end `name`, which has ended."""
        status, seconds, states, text = row_cells(puzzle, report, name)
        return self.line((name, status, seconds, states, text))


def crosscheck_table(puzzle: Puzzle, report: CrossCheck) -> list[str]:
    """A cross-check's title and table, every back end asked in order, without the verdict line."""
    table = CrossCheckTable(report)
    return [*table.head(puzzle, report), *(table.row(puzzle, report, name) for name in report.asked)]


def render_crosscheck(puzzle: Puzzle, report: CrossCheck) -> str:
    """A cross-check as its table plus the verdict line (CrossCheck.summary)."""
    return "\n".join([*crosscheck_table(puzzle, report), report.summary()])


def crosscheck_line(number: int, report: CrossCheck) -> str:
    """One question of many cross-checked, in one line: its number, the question in a few words, its verdict line."""
    return f"{number}. {report.label}: {report.summary()}"


class CrossCheckPrinter:
    """A cross-check's watcher (see pysolve.agreement.crosscheck) that prints its table; `close` adds the verdict.

    On a terminal the table fills as the back ends end: the heading first, then each back end's row as soon
    as it ends (the fast ones first). Elsewhere (a file, a pipe, the guide's examples) the table comes whole,
    in the order the back ends were asked, so that it reads the same every time. And while the back ends
    run, when `progress` is a terminal, a line there as each one starts and ends. With `out` None (JSON on
    stdout), only those progress lines.
    """

    def __init__(self, puzzle: Puzzle, out: TextIO | None = sys.stdout, progress: TextIO = sys.stderr) -> None:
        self.puzzle, self.out, self.progress = puzzle, out, progress
        self.live = out is not None and out.isatty()
        self.table: CrossCheckTable | None = None

    def __call__(self, event: str, name: str, report: CrossCheck) -> None:
        if event == "begin":
            self.table = CrossCheckTable(report)
            if self.live:
                self.write(self.out, *self.table.head(self.puzzle, report))
        elif event == "started":
            self.note(f"{name} started")
        elif event == "finished" and self.table is not None:
            self.note(f"{name} finished: {row_cells(self.puzzle, report, name)[0]}")
            if self.live:
                self.write(self.out, self.table.row(self.puzzle, report, name))

    def close(self, report: CrossCheck) -> None:
        """Print the verdict line (after the whole table, unless the rows were printed as they came)."""
        self.write(self.out, report.summary() if self.live else render_crosscheck(self.puzzle, report))

    def note(self, text: str) -> None:
        """A progress line on the terminal (nothing when `progress` is no terminal)."""
        if self.progress.isatty():
            self.write(self.progress, f"[crosscheck] {text}")

    @staticmethod
    def write(stream: TextIO | None, *lines: str) -> None:
        if stream is None:
            return
        stream.write("".join(line + "\n" for line in lines))
        stream.flush()


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
    rows, verdicts = [], []
    for puzzle, question in work:
        report = crosscheck(puzzle, question)
        progress.step(puzzle.name)
        verdicts.append(report.verdict)
        label = puzzle.label(question, changed_only=True)
        for row in crosscheck_rows(puzzle, report):
            rows.append([puzzle.name, label] + row + [DEMO_VERDICTS[report.verdict]])
    progress.close()
    out.write(render_table(["puzzle", "question", "backend", "status", "answer",
                            "states", "seconds", "agree"], rows) + "\n")
    out.write(f"\n{len(work)} questions, {verdicts.count(AGREE)} agreed across back ends, "
              f"{verdicts.count(NOT_COMPARED)} not compared (fewer than two answers), "
              f"{verdicts.count(DISAGREE)} disagreed\n")
    return 1 if DISAGREE in verdicts else 0


class Ticker:
    """While a block runs, the seconds it has taken on one line of stderr, once a second.

    Only when stderr is a terminal: a single long search shows that it is alive and how far it is from its
    --seconds."""

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
