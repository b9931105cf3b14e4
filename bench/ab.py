"""The table every A/B bench prints: each question's best time on checkout A and on B, their ratio, a note.

Used by bench/prolog_ab.py and bench/trace_overhead.py (run as scripts, so this folder is on sys.path).
"""

from __future__ import annotations

from collections.abc import Sequence

Row = tuple[str, float, float, str]  # question, best seconds on A, best seconds on B, a note


def print_table(rows: Sequence[Row], note: str) -> None:
    """The rows in milliseconds with B/A, the `note` column headed as given, and the totals last."""
    print(f"{'question':34} {'A ms':>9} {'B ms':>9} {'B/A':>6}  {note}")
    for label, a, b, said in rows:
        print(f"{label:34} {a * 1000:9.3f} {b * 1000:9.3f} {b / a:6.3f}  {said}")
    total_a, total_b = sum(row[1] for row in rows), sum(row[2] for row in rows)
    print(f"{'total':34} {total_a * 1000:9.3f} {total_b * 1000:9.3f} {total_b / total_a:6.3f}")
