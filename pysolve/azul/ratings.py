"""Elo ratings from games between pairs of players: the Bradley-Terry model's fit, with 95 % intervals.

Each game gives its two players one point between them: 1 to the winner, 1/2 each when they share the
win. In the model, player a scores against b with the chance 1 / (1 + 10 ** ((R_b - R_a) / 400)), R the
ratings on the Elo scale (400 points between two players: the stronger scores 10 to 1). The ratings are
fitted by maximum likelihood (Zermelo's iteration, which never moves away from the fit), as if every
pair that met had also shared PRIOR_DRAWS games: a player that won every game then stands ahead by an
amount that grows with the games it won, instead of infinitely far. Only differences are measured;
the ratings average ELO_MEAN.

The interval of a rating is the rating +- 1.96 standard errors, from the Fisher information of the fit
(the curvature of its log-likelihood; its pseudo-inverse, since moving every rating alike changes
nothing): a normal approximation, tight when the players met often.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

ELO_SCALE = 400 / math.log(10)  # rating points per unit of the model's natural log-strength
ELO_MEAN = 1500.0  # the ratings' average
PRIOR_DRAWS = 1.0  # shared games added to every pair that met
Z95 = 1.959964  # the normal quantile of a two-sided 95 % interval
ITERATIONS = 10_000  # at most, of the fit (a few hundred reach its tolerance in a tournament of a few players)
TOLERANCE = 1e-12  # the largest relative change of a strength at which the fit stops


@dataclass(frozen=True)
class Rating:
    """One player's Elo rating and its 95 % interval."""

    player: str
    elo: float
    low: float
    high: float


def ratings(players: Sequence[str], games: Sequence[tuple[str, str, float]]) -> list[Rating]:
    """The Elo rating of each of `players` (in their order) from `games`, each (a, b, a's points: 1, 1/2 or 0).

    ValueError when a player met nobody, or the players fall apart into groups that never met one another
    (their ratings could not be compared).
    """
    index = {player: number for number, player in enumerate(players)}
    size = len(players)
    met = [[0.0] * size for _ in players]  # games between i and j, the shared prior ones included
    points = [0.0] * size
    for first, second, scored in games:
        i, j = index[first], index[second]
        met[i][j] += 1
        met[j][i] += 1
        points[i] += scored
        points[j] += 1 - scored
    for i in range(size):
        for j in range(size):
            if i != j and met[i][j]:
                met[i][j] += PRIOR_DRAWS
                points[i] += PRIOR_DRAWS / 2
    if any(not any(row) for row in met):
        raise ValueError("every player must have played a game to be rated")
    strengths = _fit(met, points)
    logs = [math.log(strength) for strength in strengths]
    mean = sum(logs) / size
    spread = _covariance(met, strengths)
    rated = []
    for i, player in enumerate(players):
        elo = ELO_MEAN + ELO_SCALE * (logs[i] - mean)
        half = Z95 * ELO_SCALE * math.sqrt(max(spread[i][i], 0.0))
        rated.append(Rating(player, elo, elo - half, elo + half))
    return rated


def _fit(met: list[list[float]], points: list[float]) -> list[float]:
    """The strengths (10 ** (R / 400), up to a common factor) that make the results most likely.

    Zermelo's (Hunter's minorise-maximise) iteration: strength_i = points_i / sum_j met_ij / (strength_i +
    strength_j), rescaled to a geometric mean of 1, until no strength changes by TOLERANCE of itself.
    """
    size = len(points)
    strengths = [1.0] * size
    for _ in range(ITERATIONS):
        updated = [points[i] / sum(met[i][j] / (strengths[i] + strengths[j]) for j in range(size) if met[i][j])
                   for i in range(size)]
        scale = math.exp(-sum(math.log(strength) for strength in updated) / size)
        updated = [strength * scale for strength in updated]
        change = max(abs(new - old) / old for new, old in zip(updated, strengths))
        strengths = updated
        if change < TOLERANCE:
            break
    return strengths


def _covariance(met: list[list[float]], strengths: list[float]) -> list[list[float]]:
    """The covariance of the fitted log-strengths: the pseudo-inverse of the Fisher information.

    The information is a weighted graph Laplacian L (L_ij = -met_ij p_ij p_ji, each row summing to 0), whose
    pseudo-inverse is (L + J/n)^-1 - J/n, J the matrix of ones: it measures the ratings about their mean.
    """
    size = len(strengths)
    information = [[0.0] * size for _ in strengths]
    for i in range(size):
        for j in range(size):
            if i != j and met[i][j]:
                chance = strengths[i] / (strengths[i] + strengths[j])
                information[i][j] = -met[i][j] * chance * (1 - chance)
        information[i][i] = -sum(information[i])
    shifted = [[value + 1 / size for value in row] for row in information]
    return [[value - 1 / size for value in row] for row in _inverse(shifted)]


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    """The inverse of a square matrix (Gauss-Jordan elimination, largest pivot first).

    ValueError when it is singular: the players fall apart into groups that never met.
    """
    size = len(matrix)
    rows = [row[:] + [float(i == j) for j in range(size)] for i, row in enumerate(matrix)]
    for column in range(size):
        pivot = max(range(column, size), key=lambda row: abs(rows[row][column]))
        if abs(rows[pivot][column]) < 1e-12:
            raise ValueError("the players fall apart into groups that never met: their ratings cannot be compared")
        rows[column], rows[pivot] = rows[pivot], rows[column]
        lead = rows[column][column]
        rows[column] = [value / lead for value in rows[column]]
        for row in range(size):
            if row != column and rows[row][column]:
                factor = rows[row][column]
                rows[row] = [value - factor * pivot_value for value, pivot_value in zip(rows[row], rows[column])]
    return [row[size:] for row in rows]
