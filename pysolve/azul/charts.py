"""Tournament charts as hand-written SVG (no plotting library).

Each strategy's win rate with its 95 % Wilson interval, and its score distribution (a box of the middle
half, the median, whiskers to the extremes, every game a dot, the mean with its 95 % bootstrap interval,
which stays within the range).

`chart(results)` draws both panels from `simulate`'s results; the numbers are `tournament.summarise`'s.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from pysolve.azul.tournament import summarise

FONT = 'font-family="DejaVu Sans, Verdana, sans-serif"'
PALETTE = ("#2f6fbd", "#d64537", "#2a9d55", "#e8a10c", "#7b4fb5", "#555555")
LABEL_W, PLOT_W, ROW_H = 190, 460, 34


def _text(x: float, y: float, words: str, size: int = 12, anchor: str = "start", colour: str = "#222",
          weight: str = "normal") -> str:
    return (f'<text x="{x:g}" y="{y:g}" font-size="{size}" text-anchor="{anchor}" fill="{colour}" '
            f'font-weight="{weight}" {FONT}>{html.escape(words)}</text>')


def quartiles(values: Sequence[float]) -> tuple[float, float, float]:
    """(first quartile, median, third quartile), linear interpolation between order statistics."""
    ordered = sorted(values)

    def at(fraction: float) -> float:
        position = fraction * (len(ordered) - 1)
        low = int(position)
        high = min(low + 1, len(ordered) - 1)
        return ordered[low] + (ordered[high] - ordered[low]) * (position - low)

    return at(0.25), at(0.5), at(0.75)


def _axis(left: float, top: float, bottom: float, low: float, high: float, ticks: Sequence[float],
          label: str) -> list[str]:
    """Vertical grid lines with their values under the plot, and the axis' name."""
    out = []
    for tick in ticks:
        x = left + (tick - low) / (high - low) * PLOT_W
        out.append(f'<line x1="{x:g}" y1="{top:g}" x2="{x:g}" y2="{bottom:g}" stroke="#ddd"/>')
        out.append(_text(x, bottom + 15, f"{tick:g}", 11, "middle", "#555"))
    out.append(_text(left + PLOT_W / 2, bottom + 32, label, 12, "middle", "#333"))
    return out


def win_rates(standings: Sequence[dict[str, Any]], top: float) -> tuple[list[str], float]:
    """The win-rate panel (bars, 95 % interval whiskers, numbers); its elements and bottom edge."""
    left = LABEL_W
    out = [_text(10, top + 16, "Win rate with its 95 % interval (Wilson)", 14, weight="bold")]
    first = top + 30
    bottom = first + len(standings) * ROW_H
    out += _axis(left, first, bottom, 0, 1, [0, 0.25, 0.5, 0.75, 1], "share of the seats played that won")
    for index, standing in enumerate(standings):
        y = first + index * ROW_H
        colour = PALETTE[index % len(PALETTE)]
        low, high = standing["win_ci95"]
        out.append(_text(left - 8, y + ROW_H / 2 + 4, standing["strategy"], 12, "end"))
        out.append(f'<rect x="{left}" y="{y + 8:g}" width="{standing["win_rate"] * PLOT_W:g}" height="{ROW_H - 16}" '
                   f'fill="{colour}" fill-opacity="0.75"/>')
        middle = y + ROW_H / 2
        x_low, x_high = left + low * PLOT_W, left + high * PLOT_W
        out.append(f'<path d="M{x_low:g} {middle:g}H{x_high:g}M{x_low:g} {middle - 7:g}V{middle + 7:g}'
                   f'M{x_high:g} {middle - 7:g}V{middle + 7:g}" stroke="#000" stroke-width="1.6" fill="none"/>')
        out.append(_text(left + PLOT_W + 8, middle + 4,
                         f"{standing['win_rate']:.2f} ({low:.2f}-{high:.2f}), {standing['wins']}/{standing['seats']}",
                         11))
    return out, bottom + 40


def score_spread(standings: Sequence[dict[str, Any]], scores: dict[str, list[int]],
                 top: float) -> tuple[list[str], float]:
    """The score panel: per strategy a box (quartiles), the median, whiskers, every game a dot, the mean's interval."""
    left = LABEL_W
    out = [_text(10, top + 16, "Scores: quartiles, median, range, every game, mean with its 95 % interval (bootstrap)",
                 14, weight="bold")]
    first = top + 30
    bottom = first + len(standings) * ROW_H * 1.4
    everything = [score for values in scores.values() for score in values]
    high = max(10, (max(everything) // 10 + 1) * 10)
    step = 10 if high <= 60 else 20 if high <= 140 else 50
    out += _axis(left, first, bottom, 0, high, range(0, high + 1, step), "final score")

    def x_of(value: float) -> float:
        return left + value / high * PLOT_W

    for index, standing in enumerate(standings):
        values = scores[standing["strategy"]]
        y = first + index * ROW_H * 1.4
        middle = y + ROW_H * 0.7
        colour = PALETTE[index % len(PALETTE)]
        first_q, median, third_q = quartiles(values)
        out.append(_text(left - 8, middle + 4, standing["strategy"], 12, "end"))
        out.append(f'<path d="M{x_of(min(values)):g} {middle:g}H{x_of(first_q):g}M{x_of(third_q):g} {middle:g}'
                   f'H{x_of(max(values)):g}" stroke="#444" fill="none"/>')
        out.append(f'<rect x="{x_of(first_q):g}" y="{middle - 9:g}" width="{max(x_of(third_q) - x_of(first_q), 1):g}" '
                   f'height="18" fill="{colour}" fill-opacity="0.25" stroke="{colour}"/>')
        out.append(f'<line x1="{x_of(median):g}" y1="{middle - 9:g}" x2="{x_of(median):g}" y2="{middle + 9:g}" '
                   f'stroke="{colour}" stroke-width="3"/>')
        for game, value in enumerate(values):
            jitter = ((game * 7919) % 13 - 6) * 1.3  # a fixed spread, so that equal scores stay visible
            out.append(f'<circle cx="{x_of(value):g}" cy="{middle + jitter:g}" r="1.8" fill="{colour}" '
                       f'fill-opacity="0.6"/>')
        low, high_mean = standing["ci95"]
        out.append(f'<path d="M{x_of(low):g} {middle + 15:g}H{x_of(high_mean):g}" stroke="#000" stroke-width="2"/>')
        out.append(f'<circle cx="{x_of(standing["mean_score"]):g}" cy="{middle + 15:g}" r="3.5" fill="#000"/>')
        out.append(_text(left + PLOT_W + 8, middle + 4,
                         f"median {median:g}, mean {standing['mean_score']:.1f} ({low:.1f}-{high_mean:.1f})", 11))
    return out, bottom + 40


def chart(results: Sequence[Any], title: str = "") -> str:
    """Both panels for a tournament's results (`MatchResult`s), as one SVG document."""
    summary = summarise(results)
    standings = summary["strategies"]
    scores: dict[str, list[int]] = {standing["strategy"]: [] for standing in standings}
    for result in results:
        for seat, name in enumerate(result.strategies):
            scores[name].append(result.scores[seat])
    heading = title or (f"{summary['games']} games of {results[0].players} players, seats rotated "
                        f"(seeds {results[0].seed}..{results[-1].seed})")
    parts = [_text(10, 22, heading, 15, weight="bold")]
    panel, bottom = win_rates(standings, 36)
    parts += panel
    panel, bottom = score_spread(standings, scores, bottom)
    parts += panel
    width = LABEL_W + PLOT_W + 250
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {bottom:g}" width="{width}" '
            f'height="{bottom:g}"><title>{html.escape(heading)}</title><rect width="100%" height="100%" fill="#fff"/>'
            f'{"".join(parts)}</svg>\n')
