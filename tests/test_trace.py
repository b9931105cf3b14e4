"""The trace format (pysolve.trace): written from Python and from Prolog into one file, read back checked."""

from __future__ import annotations

import io
import json
import os
import re
from pathlib import Path

import pytest

from pysolve import bridge, files
from pysolve.budget import Budget
from pysolve.errors import InputError
from pysolve.paths import rule_base_dir
from pysolve.trace import MAX_TRACE_BYTES, NOT_RECORDED, Trace, failing, pushed, read_trace, recorder


def queens(n: int, trace: Trace) -> int:
    """Count the placements of n queens, recording the depth-first search."""
    count = 0

    def place(row: int, columns: list[int]) -> None:
        nonlocal count
        if row == n:
            count += 1
            trace.solution()
            return
        for column in range(n):
            trace.push(f"r{row + 1}=c{column + 1}")
            if any(c == column or abs(c - column) == row - r for r, c in enumerate(columns)):
                trace.fail()
            else:
                place(row + 1, [*columns, column])
            trace.pop()

    place(0, [])
    return count


def recorded(tmp_path: Path, limit: int = 1000) -> tuple[Path, int]:
    path = tmp_path / "queens.jsonl"
    with files.writing(path, "--trace") as out:
        trace = Trace(out, "queens", "python", {"n": 5}, limit=limit)
        count = queens(5, trace)
        trace.end("solved")
    return path, count


def test_a_depth_first_search_reads_back_as_a_tree(tmp_path: Path) -> None:
    path, count = recorded(tmp_path)
    trace = read_trace(path)
    assert trace.header["puzzle"] == "queens" and trace.header["question"] == {"n": 5}
    enters = [event for event in trace.events if event["e"] == "enter"]
    depth = {0: 0}
    for event in enters:
        assert event["depth"] == depth[event["parent"]] + 1
        depth[event["id"]] = event["depth"]
    assert [event["id"] for event in enters] == list(range(1, len(enters) + 1))
    solutions = [event for event in trace.events if event["e"] == "solution"]
    assert count == 10 and len(solutions) == 10 and trace.end["solutions"] == 10
    assert all(depth[event["id"]] == 5 for event in solutions)
    backtracks = sum(event["e"] == "backtrack" for event in trace.events)
    assert backtracks == len(enters) == trace.end["nodes"] == trace.end["backtracks"]
    assert trace.end["events"] == len(trace.events) and not trace.end["truncated"]


def test_past_the_limit_events_are_counted_not_written(tmp_path: Path) -> None:
    path, _ = recorded(tmp_path, limit=50)
    trace = read_trace(path)
    assert len(trace.events) == 50
    assert trace.end["truncated"] and trace.end["events"] > 50
    whole = read_trace(recorded(tmp_path, limit=10**6)[0])
    assert trace.end["events"] == whole.end["events"] and trace.end["nodes"] == whole.end["nodes"]


def stepped_queens(n: int, trace: Trace) -> tuple[int, object, object]:
    """`queens` with its steps chosen once through `Trace.wrap` (`pushed`, `failing`), as the solvers' hot loops
    are; the count and the step and check it chose."""
    count = 0

    def safe(row: int, columns: list[int], column: int) -> bool:
        return not any(c == column or abs(c - column) == row - r for r, c in enumerate(columns))

    def place(row: int, columns: list[int], column: int) -> bool:
        nonlocal count
        if check(row, columns, column):
            if row + 1 == n:
                count += 1
                trace.solution()
            for next_column in range(n if row + 1 < n else 0):
                step(row + 1, [*columns, column], next_column)
        return False

    step = trace.wrap(pushed, place, lambda row, columns, column: (f"r{row + 1}=c{column + 1}", None))
    check = trace.wrap(failing, safe)
    for column in range(n):
        step(0, [], column)
    return count, step, check


def test_a_step_chosen_once_records_what_push_fail_and_pop_record() -> None:
    by_calls, by_steps = io.StringIO(), io.StringIO()
    assert queens(5, Trace(by_calls, "queens", "python", {})) == 10
    count, step, check = stepped_queens(5, Trace(by_steps, "queens", "python", {}))
    assert count == 10 and by_steps.getvalue() == by_calls.getvalue()
    assert step.__name__ == check.__name__ == "recorded"


def test_an_unrecorded_search_reports_to_a_recorder_that_keeps_nothing() -> None:
    assert recorder(None) is NOT_RECORDED
    trace = Trace(io.StringIO(), "queens", "python", {})
    assert recorder(trace) is trace
    assert queens(5, NOT_RECORDED) == 10
    count, step, check = stepped_queens(5, NOT_RECORDED)
    assert count == 10 and step.__name__ == "place" and check.__name__ == "safe"  # the plain steps themselves

    def never(*args: object) -> tuple[str, dict[str, object]]:
        raise AssertionError(f"a label made for a search not recorded: {args}")

    assert NOT_RECORDED.push_as(never, 1, 2) == 0 and NOT_RECORDED.enter_as(0, never, "state") == 0
    NOT_RECORDED.end("solved")
    kept = (NOT_RECORDED.nodes, NOT_RECORDED.fails, NOT_RECORDED.backtracks, NOT_RECORDED.solutions,
            NOT_RECORDED.events, NOT_RECORDED.stack, NOT_RECORDED.depths, NOT_RECORDED.out, NOT_RECORDED.full)
    assert kept == (0, 0, 0, 0, 0, [0], {0: 0}, None, False)


def test_an_unknown_status_is_refused() -> None:
    trace = Trace(io.StringIO(), "queens", "python", {})
    with pytest.raises(ValueError, match="not one of"):
        trace.end("maybe")


PROLOG_SEARCH = """
:- use_module({library}).
pick(X) :- trace_root(Root), member(X, [1, 2, 3]), trace_enter(x=X, Root, Node),
    (X =:= 2 -> trace_solution(Node) ; trace_fail(Node), fail).
"""


def test_prolog_events_join_the_trace_after_pythons(tmp_path: Path) -> None:
    rules = tmp_path / "pick.pl"
    library = bridge.quote_atom(str(rule_base_dir() / "pysolve_trace"))
    rules.write_text(PROLOG_SEARCH.format(library=library))
    path = tmp_path / "pick.jsonl"
    with files.writing(path, "--trace") as out:
        trace = Trace(out, "pick", "prolog", {})
        trace.push("before Prolog")
        budget = Budget(seconds=10)
        budget.trace = trace
        assert bridge.solutions(rules, "pick(X)", budget=budget).rows == [{"X": 2}]
        trace.end("solved")
    read = read_trace(path)
    assert [(event["e"], event["id"]) for event in read.events] == [
        ("enter", 1), ("enter", 2), ("fail", 2), ("backtrack", 2), ("enter", 3), ("solution", 3),
        ("backtrack", 3), ("enter", 4), ("fail", 4), ("backtrack", 4)]
    assert [event.get("label") for event in read.events if event["e"] == "enter"] == [
        "before Prolog", "x=1", "x=2", "x=3"]
    assert read.end["nodes"] == 4 and read.end["fails"] == 2 and read.end["solutions"] == 1


HEADER = '{"trace": "pysolve", "version": 1}\n'


@pytest.mark.parametrize(("text", "message"), [
    ("", "the file is empty"),
    ("[1, 2]\n", ":1: not a JSON object"),
    ('{"trace": "pysolve", "version": 9}\n', "version 1"),
    (HEADER + '{"e": "jump", "id": 1, "depth": 1}\n', ":2: unknown event 'jump'"),
    (HEADER + '{"e": "' + "j" * 5_000 + '"}\n', ":2: unknown event 'jjj"),
    (HEADER + '{"e": "enter", "id": "x", "depth": 1}\n', ":2: an event's 'id' is a whole number >= 0"),
    (HEADER + '{"e": "fail", "id": 1, "depth": true}\n', ":2: an event's 'depth' is a whole number >= 0"),
    (HEADER + '{"e": "enter", "id": 1, "parent": -1, "depth": 1}\n', ":2: an event's 'parent' is a whole number"),
    (HEADER + '{"e": "enter", "id": ' + "1" * 4_000 + ', "depth": 1}\n', "of at most 18 digits, not 1111"),
    (HEADER + '{"e": "enter", "id": ' + "1" * 5_000 + ', "depth": 1}\n', ":2: the JSON holds an integer too long"),
    (HEADER + '{"e": "enter", "id": 1, "depth": 1}\n', "no 'end' line"),
    (HEADER + '{"e": "end"}\n{"e": "end"}\n', ":2: 'end' before the last"),
    ("[" * 100_000 + "\n", ":1: the JSON nests too deeply to read"),
    (HEADER + '{"e": "end"}\r{"e": "end"}\n', "line 2 holds '\\r' (U+000D"),
])
def test_a_file_that_is_no_trace_gets_one_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(text)
    with pytest.raises(InputError, match=re.escape(message)) as error:
        read_trace(path)
    assert "\n" not in str(error.value) and len(str(error.value)) < 300


@pytest.mark.timeout(60)
@pytest.mark.parametrize("given", ["fifo", "/dev/zero", "directory", "huge"])
def test_a_trace_is_read_with_the_input_files_guards(tmp_path: Path, given: str) -> None:
    path = tmp_path / "trace.jsonl"
    if given == "fifo":
        os.mkfifo(path)  # opened without blocking, and refused before a byte is read
    elif given == "directory":
        path.mkdir()
    elif given == "huge":
        with path.open("wb") as out:
            out.truncate(MAX_TRACE_BYTES + 1)  # sparse: no disk spent
    else:
        path = Path(given)
    words = {"fifo": "is a FIFO (named pipe), not a regular file", "/dev/zero": "is a character device",
             "directory": "is a directory", "huge": f"input files are limited to {MAX_TRACE_BYTES:,} bytes"}[given]
    with pytest.raises(InputError, match=re.escape(words)) as error:
        read_trace(path)
    assert str(error.value).startswith(f"trace file {str(path)!r}: ")


def many_events(path: Path, pairs: int) -> Path:
    """A trace of `pairs` nodes entered and left below the root: 2 x `pairs` events of short lines."""
    with path.open("w") as out:
        out.write(HEADER)
        for node in range(1, pairs + 1):
            out.write(f'{{"e": "enter", "id": {node}, "parent": 0, "depth": 1}}\n'
                      f'{{"e": "backtrack", "id": {node}, "depth": 1}}\n')
        out.write('{"e": "end", "status": "solved"}\n')
    return path


def test_events_past_those_kept_are_checked_and_counted(tmp_path: Path) -> None:
    path = many_events(tmp_path / "many.jsonl", 500)
    read = read_trace(path, max_events=10)
    assert len(read.events) == 10 and read.written == 1_000 and read.end["status"] == "solved"
    path.write_text(path.read_text().replace('"id": 499, "depth"', '"id": -4, "depth"'))
    with pytest.raises(InputError, match=r"many.jsonl:999: an event's 'id' is a whole number >= 0"):
        read_trace(path, max_events=10)


def test_the_header_is_one_json_object_a_line(tmp_path: Path) -> None:
    path, _ = recorded(tmp_path)
    lines = path.read_text().splitlines()
    assert all(isinstance(json.loads(line), dict) for line in lines)
