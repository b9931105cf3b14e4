"""Azul round robins (`pysolve azul tournament`): every pair with seats swapped, the win matrix, Elo ratings
with their intervals, results by seat, a log that a second run resumes from, and its progress line."""

from __future__ import annotations

import json
from collections import Counter
from typing import ClassVar

import pytest

from pysolve.azul import cli as azul_cli
from pysolve.azul import tournament as tour
from pysolve.azul.match import MatchResult
from pysolve.azul.ratings import ELO_MEAN, ratings
from pysolve.cli import main
from pysolve.errors import InputError

CHEAP = ["random", "greedy", "lookahead"]  # strategies that play a game in milliseconds


def tournament(capsys, *argv: str) -> tuple[dict, str]:
    """Run `azul tournament ARGV --json` on the Python rules: its JSON and what it wrote to stderr."""
    assert main(["azul", "tournament", *argv, "--backend", "python", "--json"]) == 0
    told = capsys.readouterr()
    return json.loads(told.out), told.err


# -- the games ------------------------------------------------------------------------------------
def test_every_pair_meets_with_its_seats_swapped_on_each_deal():
    work = tour.round_robin(CHEAP, 4, 7, "python")
    assert len(work) == 3 * 4 and {task.players for task in work} == {2}
    pairs = Counter(frozenset(task.strategies) for task in work)
    assert pairs == {frozenset(pair): 4 for pair in [("random", "greedy"), ("random", "lookahead"),
                                                       ("greedy", "lookahead")]}
    seats = Counter((task.strategies, task.seed) for task in work)
    assert all(seats[(second, first), seed] == 1 for (first, second), seed in seats)  # each deal from both seats
    assert {task.seed for task in work} == {7, 8}
    assert Counter(task.strategies[0] for task in work) == Counter(task.strategies[1] for task in work)


@pytest.mark.parametrize(("names", "games", "message"), [
    (["greedy"], 2, "name at least two strategies"),
    (["greedy", "random", "greedy"], 2, "'greedy' named twice"),
    (["greedy", "random"], 0, "--games must be at least 1"),
])
def test_a_round_robin_that_cannot_be_played_is_refused(names, games, message):
    with pytest.raises(InputError, match=message):
        tour.round_robin(names, games, 1, "python")


@pytest.mark.parametrize(("argv", "message"), [
    (["greedy"], "name at least two strategies"),
    (["greedy", "clever"], "unknown strategy 'clever'"),
    (["greedy", "random", "--games", "0"], "--games must be at least 1"),
    (["greedy", "random", "--variant", "blue"], "--variant: unknown variant 'blue'"),
    (["greedy", "random", "--log", "/nonexistent/dir/t.jsonl"], "does not exist"),
])
def test_the_tournament_command_refuses_bad_input_in_one_line(capsys, argv, message):
    assert main(["azul", "tournament", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


# -- Elo ------------------------------------------------------------------------------------------
def by_player(rated):
    return {rating.player: rating for rating in rated}


def test_a_player_that_always_wins_rates_higher_and_more_wins_rate_higher_still():
    few = by_player(ratings(["a", "b"], [("a", "b", 1.0)] * 4))
    many = by_player(ratings(["a", "b"], [("a", "b", 1.0)] * 40))
    assert few["a"].elo > ELO_MEAN > few["b"].elo and few["a"].low > few["b"].elo
    assert many["a"].elo > few["a"].elo  # the shared prior games keep the rating finite, the wins move it on
    some = by_player(ratings(["a", "b"], [("a", "b", 1.0)] * 7 + [("a", "b", 0.0)] * 3))
    assert few["a"].elo > some["a"].elo > ELO_MEAN


def test_symmetric_results_give_equal_ratings():
    even = by_player(ratings(["a", "b"], [("a", "b", 1.0), ("b", "a", 1.0)] * 5))
    assert even["a"].elo == pytest.approx(even["b"].elo) == pytest.approx(ELO_MEAN)
    shared = by_player(ratings(["a", "b"], [("a", "b", 0.5)] * 6))
    assert shared["a"].elo == pytest.approx(shared["b"].elo)
    cycle = ratings(["a", "b", "c"], [("a", "b", 1.0), ("b", "c", 1.0), ("c", "a", 1.0)] * 3)  # rock, paper, scissors
    assert [rating.elo for rating in cycle] == pytest.approx([ELO_MEAN] * 3)
    assert len({round(rating.high - rating.low, 6) for rating in cycle}) == 1


def test_ratings_follow_the_results_and_their_intervals_narrow_with_more_games():
    games = [("a", "b", 1.0)] * 7 + [("b", "a", 1.0)] * 3 + [("b", "c", 1.0)] * 7 + [("c", "b", 1.0)] * 3 \
        + [("a", "c", 1.0)] * 8 + [("c", "a", 1.0)] * 2
    rated = ratings(["a", "b", "c"], games)
    assert [rating.player for rating in sorted(rated, key=lambda r: -r.elo)] == ["a", "b", "c"]
    assert sum(rating.elo for rating in rated) / 3 == pytest.approx(ELO_MEAN)
    assert all(rating.low < rating.elo < rating.high for rating in rated)
    more = ratings(["a", "b", "c"], games * 10)
    assert all(wide.high - wide.low > 2 * (narrow.high - narrow.low) for wide, narrow in zip(rated, more))


def test_players_that_never_met_cannot_be_rated_together():
    with pytest.raises(ValueError, match="never met"):
        ratings(["a", "b", "c", "d"], [("a", "b", 1.0), ("c", "d", 1.0)])
    with pytest.raises(ValueError, match="every player must have played"):
        ratings(["a", "b", "c"], [("a", "b", 1.0)])


# -- the summary ----------------------------------------------------------------------------------
def game(first: str, second: str, scores: list[int], winners: list[int], seed: int = 1) -> MatchResult:
    return MatchResult(seed, 2, "python", [first, second], scores, winners, 5, 50)


def test_the_summary_counts_wins_losses_and_shared_wins_by_pair_and_by_seat():
    results = [game("a", "b", [30, 20], [0]), game("b", "a", [25, 22], [0]), game("a", "b", [20, 20], [0, 1]),
               game("b", "a", [10, 40], [1])]
    summary = tour.round_robin_summary(["a", "b"], results)
    assert summary["matrix"][0][1] == {"wins": 2, "losses": 1, "draws": 1, "points": 2.5}
    assert summary["matrix"][1][0] == {"wins": 1, "losses": 2, "draws": 1, "points": 1.5}
    assert summary["matrix"][0][0] is None and summary["games"] == 4
    seats = {(row["strategy"], row["seat"]): row for row in summary["seats"]}
    assert seats["a", 0] == {"strategy": "a", "seat": 0, "games": 2, "wins": 1, "draws": 1, "points": 1.5,
                             "mean_score": 25.0}
    assert seats["a", 1]["wins"] == 1 and seats["b", 0]["mean_score"] == 17.5
    assert [rating["strategy"] for rating in summary["ratings"]] == ["a", "b"]


# -- the command ----------------------------------------------------------------------------------
def test_a_tournament_of_cheap_strategies_is_the_same_every_time_and_rates_greedy_above_random(capsys):
    first, _ = tournament(capsys, "random", "greedy", "--games", "4", "--seed", "3")
    again, _ = tournament(capsys, "random", "greedy", "--games", "4", "--seed", "3")
    assert first == again and first["summary"]["games"] == 4
    assert [(game["seed"], game["strategies"]) for game in first["games"]] == [
        (3, ["random", "greedy"]), (3, ["greedy", "random"]), (4, ["random", "greedy"]), (4, ["greedy", "random"])]
    top, bottom = first["summary"]["ratings"]
    assert top["strategy"] == "greedy" and top["elo"] > bottom["elo"] and top["ci95"][0] < top["elo"] < top["ci95"][1]


def test_the_tournament_text_has_ratings_a_win_matrix_and_results_by_seat(capsys):
    assert main(["azul", "tournament", *CHEAP, "--games", "2", "--backend", "python"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("3 strategies, 2 games a pair (1 deal, seed 1, played from both seats): 6 games")
    for heading in ("ratings (Elo, averaging 1500", "wins, row against column", "by seat"):
        assert heading in out
    matrix = out.split("wins, row against column\n")[1].split("\n\n")[0].splitlines()
    assert matrix[0].split() == ["wins-losses-shared", *CHEAP, "points"]
    assert matrix[2].split()[:2] == ["random", "-"] and matrix[2].split()[-2:] == ["of", "4"]  # 2 games, 2 pairs


def test_a_second_run_with_the_same_log_plays_only_the_games_the_log_lacks(capsys, tmp_path):
    log = tmp_path / "robin.jsonl"
    whole, err = tournament(capsys, "random", "greedy", "--games", "4", "--log", str(log))
    assert f"{log}: 0 games read, 4 played" in err and len(log.read_text().splitlines()) == 4
    records = [json.loads(line) for line in log.read_text().splitlines()]
    records[0]["scores"] = [99, 0]  # a game the next run must read, not play again
    records[0]["winners"] = [0]
    log.write_text("".join(json.dumps(record) + "\n" for record in records))
    again, err = tournament(capsys, "random", "greedy", "--games", "4", "--log", str(log))
    assert f"{log}: 4 games read, 0 played" in err
    assert again["games"][0]["scores"] == [99, 0] and again["games"][1:] == whole["games"][1:]
    wider, err = tournament(capsys, "greedy", "random", "lookahead", "--games", "4", "--log", str(log))
    assert f"{log}: 4 games read, 8 played" in err and len(log.read_text().splitlines()) == 12
    assert wider["summary"]["games"] == 12


def test_a_log_cut_short_in_a_line_loses_that_game_only(capsys, tmp_path):
    log = tmp_path / "robin.jsonl"
    whole, _ = tournament(capsys, "random", "greedy", "--games", "4", "--log", str(log))
    text = log.read_text()
    log.write_text(text[:-40])  # the run stopped while writing its last game
    again, err = tournament(capsys, "random", "greedy", "--games", "4", "--log", str(log))
    assert f"{log}: 3 games read, 1 played" in err and again == whole and log.read_text() == text


def test_a_log_that_is_not_a_tournaments_is_refused_in_one_line(capsys, tmp_path):
    log = tmp_path / "game.jsonl"
    assert main(["azul", "simulate", "--games", "1", "--backend", "python", "--log", str(log)]) == 0
    capsys.readouterr()
    assert main(["azul", "tournament", "random", "greedy", "--log", str(log)]) == 2
    err = capsys.readouterr().err
    assert f"{log}:1: not a game of a tournament log" in err and err.count("\n") == 1


class Labels:
    """A stand-in for the progress line (`report.Ticker`): keeps every label it is given, draws nothing."""

    seen: ClassVar[list[str]] = []

    def __init__(self, label: str, *_: object) -> None:
        self._label = label
        Labels.seen.append(label)

    def __enter__(self) -> Labels:
        return self

    def __exit__(self, *_: object) -> None:
        return None

    @property
    def label(self) -> str:
        return self._label

    @label.setter
    def label(self, text: str) -> None:
        self._label = text
        Labels.seen.append(text)


def test_the_progress_line_counts_the_games_as_they_end_and_those_read_from_the_log(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(azul_cli, "Ticker", Labels)
    monkeypatch.setattr(Labels, "seen", [])
    log = tmp_path / "robin.jsonl"
    tournament(capsys, "random", "greedy", "--games", "2", "--log", str(log))
    assert Labels.seen == ["azul tournament: 0 of 2 games,", "azul tournament: 1 of 2 games,",
                           "azul tournament: 2 of 2 games,"]
    monkeypatch.setattr(Labels, "seen", [])
    tournament(capsys, "random", "greedy", "lookahead", "--games", "2", "--log", str(log))
    assert Labels.seen[0] == "azul tournament: 2 of 6 games (2 from the log),"
    assert Labels.seen[-1] == "azul tournament: 6 of 6 games (2 from the log)," and len(Labels.seen) == 5
