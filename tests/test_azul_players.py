"""Azul search players (MCTS, minimax) on the Game/State interface, their names, and tournament intervals."""

from __future__ import annotations

import io
import math
import random
import re
import statistics
import sys
import time

import pytest

from pysolve.azul import tournament as tour
from pysolve.azul.heuristics import utilities, values
from pysolve.azul.match import MatchResult, play_match
from pysolve.azul.model import RandomStream
from pysolve.azul.search_players import Mcts, Minimax
from pysolve.azul.strategies import strategy, strategy_name
from pysolve.azul.tree import Game, State
from pysolve.budget import most_work
from pysolve.cli import main
from pysolve.errors import InputError, UnknownName


def dealt(seed: int, players: int = 2) -> State:
    """The first position of a seeded game where a seat is to move (chance resolved by the stream)."""
    stream, state = RandomStream(seed), Game(players).new_initial_state()
    while state.is_chance_node:
        state.apply(state.sample_chance(stream))
    return state


def wins_of(name: str, results: list[MatchResult]) -> int:
    """Games `name` won (alone or shared) in a tournament."""
    return sum(1 for result in results for seat in result.winners if result.strategies[seat] == name)


@pytest.mark.slow
def test_mcts_100_beats_random_in_at_least_8_of_10_seeded_games():
    results = tour.run(tour.tasks(2, 10, 500, "python", ["mcts:100", "random"]))
    assert [result.strategies[0] for result in results[:2]] == ["mcts:100", "random"]  # seats rotate
    assert wins_of("mcts:100", results) >= 8


@pytest.mark.slow
def test_minimax_2_beats_random_in_every_one_of_6_games():
    results = tour.run(tour.tasks(2, 6, 600, "python", ["minimax:2", "random"]))
    assert wins_of("minimax:2", results) == 6


def test_same_seed_same_moves_and_another_seed_other_moves():
    def moves(seed: int) -> list[list[int]]:
        log = play_match(2, seed, "python", ["mcts:25", "minimax:1"], log=True).log
        return [record["move"] for record in log if record["type"] == "move"]

    first = moves(3)
    assert moves(3) == first
    assert moves(4) != first


@pytest.mark.pysolve_backends("prolog", "python")
def test_mcts_plays_the_same_game_whichever_back_end_holds_the_rules(pysolve_backend):
    reference = play_match(2, 8, "python", ["mcts:15", "greedy"])
    played = play_match(2, 8, pysolve_backend, ["mcts:15", "greedy"])
    assert (played.scores, played.moves, played.state) == (reference.scores, reference.moves, reference.state)


def test_iteration_budget_is_exact_and_the_root_is_left_alone():
    root = dealt(5)
    before = root.to_json()
    move, done = Mcts(iterations=37).search(root, random.Random(1))
    assert done == 37 and move in root.legal_moves()
    assert root.to_json() == before


def test_time_budget_is_honoured():
    root = dealt(6)
    start = time.thread_time()
    move, done = Mcts(seconds=0.1).search(root, random.Random(2))
    spent = time.thread_time() - start  # the clock the player counts on: a loaded machine slows, not cuts, it
    assert done >= 5 and move in root.legal_moves()
    assert 0.1 <= spent <= most_work(0.1)  # one iteration (well under a millisecond) past the limit at most


def test_playouts_past_the_round_draw_deals_from_the_bag():
    state = dealt(9)
    player = Mcts(iterations=20, rounds=3, playout="greedy")
    after = player._play_out(state, random.Random(3))
    assert after.to_json()["round"] >= 3 or after.is_terminal
    assert after.is_chance_node or after.is_terminal  # it stopped at a round end (or the game's end)


def test_minimax_at_depth_1_picks_the_move_of_best_projected_worth():
    state = dealt(11)
    seat = state.current_player
    move = Minimax(1)(state.to_json(), state.legal_moves(), RandomStream(0))
    worth = {other: values(state.child(other).to_json())[seat] for other in state.legal_moves()}
    assert worth[move] == max(worth.values()) > min(worth.values())  # the opponent's worth does not move


def test_values_of_a_finished_game_are_its_scores_and_utilities_are_leads():
    result = play_match(2, 12, "python", ["greedy", "random"])
    assert values(result.state) == [float(score) for score in result.scores]
    rewards = utilities([30.0, 22.0])
    assert rewards[0] > 0.5 > rewards[1] and rewards[0] + rewards[1] == pytest.approx(1.0)
    assert utilities([10.0, 10.0, 4.0])[:2] == [0.5, 0.5]


@pytest.mark.parametrize("name, expected", [
    ("mcts", Mcts()),
    ("mcts:500", Mcts(iterations=500)),
    ("mcts:0.25s:greedy", Mcts(seconds=0.25, playout="greedy")),
    ("mcts:300:r2", Mcts(iterations=300, rounds=2)),
    ("minimax", Minimax()),
    ("minimax:3", Minimax(3)),
])
def test_strategy_names_with_parameters(name, expected):
    assert strategy(name) == expected
    assert strategy_name(name) == name


@pytest.mark.parametrize("name, error, words", [
    ("mcts:lots", InputError, "'lots' is not ITERATIONS"),
    ("mcts:0", InputError, "iterations must be at least 1"),
    ("mcts:0s", InputError, "above 0"),
    ("mcts:r0", InputError, "at least 1 round"),
    ("minimax:2:3", InputError, "one depth"),
    ("minimax:0", InputError, "depth must be at least 1"),
    ("montecarlo", UnknownName, "unknown strategy"),
])
def test_bad_strategy_names_are_refused(name, error, words):
    with pytest.raises(error, match=words):
        strategy(name)


def test_cli_refuses_a_bad_search_player_in_one_line(capsys):
    assert main(["azul", "simulate", "--strategy", "mcts:lots"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "mcts:lots" in err


def test_tournament_win_rates_carry_wilson_intervals():
    assert tour.wilson(8, 10) == pytest.approx((0.4902, 0.9433), abs=1e-4)
    assert tour.wilson(0, 4) == pytest.approx((0.0, 0.4899), abs=1e-4)
    low, high = tour.wilson(10, 10)
    assert high == 1.0 and low == pytest.approx(0.7225, abs=1e-4)
    summary = tour.summarise(tour.run(tour.tasks(2, 4, 1, "python", ["random", "greedy"])))
    greedy = next(row for row in summary["strategies"] if row["strategy"] == "greedy")
    assert greedy["wins"] == 4 and greedy["win_ci95"] == [0.5101, 1.0]


def test_the_mean_score_interval_stays_within_the_scores_where_the_normal_one_goes_negative():
    scores = [0, 0, 0, 0, 60]
    mean, spread = statistics.mean(scores), statistics.stdev(scores)
    assert mean - 1.96 * spread / math.sqrt(len(scores)) < 0  # mean +- 1.96 s/sqrt(n) says a score may be negative
    low, high = tour.mean_interval(scores)
    assert 0 <= low < mean < high <= 60 and (low, high) == tour.mean_interval(scores)  # seeded: the same each time
    assert tour.mean_interval([7]) == (7, 7) and tour.mean_interval([7, 17]) == (7, 17)
    many = [0] * 2999 + [600]  # past BOOTSTRAP_UP_TO: the normal interval (here -0.19 .. 0.59), kept in the range
    assert len(many) > tour.BOOTSTRAP_UP_TO and tour.mean_interval(many) == (0, pytest.approx(0.592, abs=1e-3))


def test_the_summary_gives_each_strategy_its_score_range_and_a_mean_interval_inside_it():
    scores = [(0, 30), (0, 31), (0, 29), (60, 30), (0, 33)]
    results = [MatchResult(seed, 2, "python", ["random", "greedy"], list(pair), [1], 5, 50)
               for seed, pair in enumerate(scores)]
    standings = {row["strategy"]: row for row in tour.summarise(results)["strategies"]}
    assert standings["random"]["score_range"] == [0, 60] and standings["random"]["ci95"][0] >= 0
    assert standings["greedy"]["score_range"] == [29, 33] and 29 <= standings["greedy"]["ci95"][0] <= 30.6


class Terminal(io.StringIO):
    """A stream that says it is a terminal: where a progress line shows."""

    def isatty(self) -> bool:
        return True


@pytest.mark.slow
@pytest.mark.parametrize("argv, line", [
    (["simulate", "--games", "3", "--strategy", "lookahead"], r"\razul simulate: [0-3] of 3 games played, \d+ s"),
    (["crosscheck", "--games", "2", "--backends", "python,kanren"],
     r"\razul crosscheck: 2 games on 2 back ends, \d+ s"),
])
def test_a_long_run_shows_its_progress_on_a_terminal_and_nothing_in_its_output(monkeypatch, capsys, argv, line):
    from pysolve.azul import cli as azul_cli

    monkeypatch.setattr(azul_cli, "TICK", 0.01)
    assert main(["azul", *argv, "--json"]) == 0  # stderr no terminal: no progress line
    quiet = capsys.readouterr()
    assert quiet.err == ""
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(["azul", *argv, "--json"]) == 0
    out = capsys.readouterr().out
    assert out == quiet.out  # the JSON alone, as without a terminal
    assert re.search(line, terminal.getvalue()) and terminal.getvalue().endswith("\r")  # cleared at the end
