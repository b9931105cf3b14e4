"""Numbers said as a person says them: `1 game`, `36 tilings`, `0.021 s`, `11.8 GB`.

One place for the plural and the rounding of what the default output prints, so that every command
says "1 game" and "2 games" alike; `--json` keeps the exact values.
"""

from __future__ import annotations

IRREGULAR = {"strategy": "strategies", "process": "processes", "class": "classes"}


def plural(count: int, word: str, words: str | None = None) -> str:
    """A count and the noun agreeing with it.

    `count` and the noun agreeing with it: `1 game`, `2 games`, `0 games` (`words` for an irregular plural;
    a few common ones are known: strategy, process, class)."""
    return f"{count} {word if count == 1 else words or IRREGULAR.get(word, word + 's')}"


def seconds(value: float) -> str:
    """A duration to the precision a person reads.

    A duration to the precision a person reads: `0.72 ms`, `0.021 s`, `1.4 s`, `38 s` (two significant
    digits below 10 s, whole seconds above; never an exponent)."""
    if value >= 10:
        return f"{value:.0f} s"
    if value >= 0.01:
        return f"{value:.2g} s"
    if value >= 0.00001:
        return f"{value * 1000:.2g} ms"
    return "under 0.01 ms"


def ratio(value: float) -> str:
    """How many times another figure a figure is, as a person reads it: `0.52x`, `3.1x`, `120x`.

    Two significant digits below 10, whole numbers above; never an exponent.
    """
    if value >= 10:
        return f"{value:,.0f}x"
    if value >= 0.01:
        return f"{value:.2g}x"
    return "under 0.01x"
