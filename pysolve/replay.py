"""Searches side by side: two to four recorded searches (`pysolve.trace`) made ready to replay together.

The web page (`pysolve serve`, Traces) and the self-contained HTML export
(`pysolve trace FILE1 FILE2 --html OUT`) replay the same form, made here:
each trace condensed into columns the browser steps through (`condensed`),
the traces checked to be of one question (`together`), and the export page
with its data, script and style inside (`export_html`).

A replay draws the search tree as it grows. Its nodes are numbered in the
order the search made them (1, 2, ...; the root is 0), whatever ids the
file used, so that the page needs no look-up: an `enter` event carries its
parent's number, every other event the number of its node. A node's depth
is its parent's plus one, as the format says, so the page counts it itself.

Traces are big (a trace file holds up to 200,000 events): a replay keeps at
most `keep` events of each, the page draws at most DRAWN nodes of each tree
and counts the rest, and both say what they left out.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pysolve.errors import InputError
from pysolve.trace import Recorded, read_trace

MAX_TRACES = 4  # traces replayed together: the three back ends, or fichas' four tree strategies
KEPT = 200_000  # events of a trace the web page replays (a trace file holds at most as many by default)
EMBEDDED = 100_000  # events of a trace an exported page embeds
DRAWN = 20_000  # nodes of a tree the page draws; the others are counted, not drawn (traces.js reads it)
LABEL = 40  # characters of a node's label kept
SETTINGS = ("strategy", "flavour", "seconds", "nodes")  # how a question is searched, not what it asks
KINDS = {"enter": "e", "fail": "f", "backtrack": "b", "solution": "s"}
HERE = Path(__file__).resolve().parent
STATIC = HERE / "web" / "static"


def condensed(recorded: Recorded, name: str, keep: int = KEPT) -> dict[str, Any]:
    """One trace as the replay steps through it: its header and end line, and its first `keep` events.

    The events are in columns (`kinds`: one letter each, e f b s; `refs`: the parent's number for an enter, else
    the node's; `labels`: one per node). InputError naming the file and line for an event about a node never
    entered."""
    numbers: dict[int, int] = {0: 0}
    kinds: list[str] = []
    refs: list[int] = []
    labels: list[str] = []
    for line, event in enumerate(recorded.events[:keep], 2):
        kind = event["e"]
        if kind == "enter":
            parent = event.get("parent", 0)  # a whole number: read_trace checked it
            if parent not in numbers or event["id"] in numbers:
                problem = "is entered twice" if event["id"] in numbers else f"names parent {parent!r}, never entered"
                raise InputError(f"{name}:{line}: node {event['id']} {problem}")
            numbers[event["id"]] = len(numbers)
            refs.append(numbers[parent])
            labels.append(str(event.get("label", ""))[:LABEL])
        elif event["id"] in numbers:
            refs.append(numbers[event["id"]])
        else:
            raise InputError(f"{name}:{line}: a {kind} of node {event['id']}, never entered")
        kinds.append(KINDS[kind])
    header, end = recorded.header, recorded.end
    written = recorded.written
    return {"name": name, "puzzle": str(header.get("puzzle", "")), "backend": str(header.get("backend", "")),
            "question": header.get("question") if isinstance(header.get("question"), dict) else {},
            "end": end, "kinds": "".join(kinds), "refs": refs, "labels": labels,
            "kept": len(kinds), "written": written, "searched": searched(end, written)}


def searched(end: dict[str, Any], written: int) -> int:
    """How many events the search made.

    The end line's count (more than the file holds when it was cut), or those written when it does not say."""
    events = end.get("events")
    return events if isinstance(events, int) and not isinstance(events, bool) and events >= written else written


def together(traces: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The condensed traces, checked to be 1 to MAX_TRACES of one question.

    One puzzle, one instance: only the back end and how it searches (SETTINGS) may differ; InputError naming the
    trace that does not fit."""
    how_many(len(traces), fewest=1)
    first = traces[0]
    for other in traces[1:]:
        if other["puzzle"] != first["puzzle"]:
            raise InputError(f"{other['name']}: a trace of {other['puzzle'] or 'no puzzle'}, not of "
                             f"{first['puzzle']} as {first['name']}: side by side, the traces are of one question")
        asked, mine = what(first["question"]), what(other["question"])
        if asked != mine:
            parted = sorted(key for key in set(asked) | set(mine) if asked.get(key) != mine.get(key))
            shown = ", ".join(f"{key}={json.dumps(mine.get(key))[:40]}" for key in parted)
            raise InputError(f"{other['name']}: another question than {first['name']}'s ({shown}): side by side, "
                             f"the traces are of one question (only {', '.join(SETTINGS)} and the back end may differ)")
    return list(traces)


def how_many(count: int, fewest: int = 2) -> None:
    """InputError unless `count` traces can be replayed together: `fewest` to MAX_TRACES (side by side, 2)."""
    if not fewest <= count <= MAX_TRACES:
        together = "a replay side by side" if fewest > 1 else "a replay"
        raise InputError(f"{together} takes {fewest} to {MAX_TRACES} traces, not {count}")


def what(question: dict[str, Any]) -> dict[str, Any]:
    """What a question asks, without how it is searched (SETTINGS)."""
    return {key: value for key, value in question.items() if key not in SETTINGS}


def read(paths: Sequence[str | Path], keep: int = KEPT) -> list[dict[str, Any]]:
    """The trace files at `paths` read (checked line by line), condensed, and checked to be of one question."""
    return together([condensed(read_trace(path, keep), Path(path).name, keep) for path in paths])


def left_out(replayed: dict[str, Any]) -> str:
    """What a replay leaves out of a trace (`condensed`), in words ("" when nothing)."""
    parts = []
    if replayed["kept"] < replayed["written"]:
        parts.append(f"replays its first {replayed['kept']:,} of the {replayed['written']:,} events in the file")
    if replayed["written"] < replayed["searched"]:
        parts.append(f"the search made {replayed['searched']:,} events and the file holds the first "
                     f"{replayed['written']:,}")
    return f"{replayed['name']}: " + "; ".join(parts) if parts else ""


def export_html(traces: Sequence[dict[str, Any]], title: str = "") -> str:
    """A self-contained page replaying `traces`: data, script and style inside, nothing fetched.

    The traces are condensed, at most EMBEDDED events each."""
    notes = [note for note in (left_out(trace) for trace in traces) if note]
    data = {"traces": list(traces), "notes": notes, "drawn": DRAWN}
    script = (STATIC / "traces.js").read_text(encoding="utf-8")
    style = (STATIC / "traces.css").read_text(encoding="utf-8")
    told = f"{len(traces)} searches side by side" if len(traces) > 1 else "a search replayed"
    heading = title or f"{traces[0]['puzzle']}: {told}"
    page = (HERE / "web" / "templates" / "traces_controls.html").read_text(encoding="utf-8")
    embedded = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    head = (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f"<title>{html.escape(heading)}</title>\n<style>\n{style}</style>\n</head>\n")
    written = (f"<p class=\"keys\">Written by <code>pysolve trace</code>: each search's own recorded events, "
               f"replayed side by side (at most {EMBEDDED:,} events of each trace are embedded).</p>\n")
    return (f'{head}<body class="export">\n<h1>{html.escape(heading)}</h1>\n{written}{page}\n'
            f'<script type="application/json" id="replay-data">{embedded}</script>\n'
            f"<script>\n{script}\nstartReplay(JSON.parse(document.getElementById('replay-data').textContent));\n"
            f"</script>\n</body>\n</html>\n")
