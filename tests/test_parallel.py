"""Counts split into parts (Puzzle.split) and summed: in this process, on a process pool, on a Dask cluster.

The parts partition the solutions, so the summed count must equal the serial
count on every back end, whatever runs the parts.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import os
import random
import subprocess
import sys
import time

import distributed
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pysolve import executors, parallel
from pysolve.azul import names
from pysolve.azul import tournament as tour
from pysolve.azul.match import MatchResult
from pysolve.cli import main
from pysolve.errors import InputError
from pysolve.parallel import count_in_parts
from pysolve.paths import data_dir
from pysolve.puzzle import SOLVED, UNKNOWN
from pysolve.squares import model as squares
from pysolve.squares import python as squares_python
from pysolve.squares.generate import generate as generate_squares
from pysolve.squares.puzzle import PUZZLE as SQUARES
from pysolve.sudoku import generate as sudoku_generate
from pysolve.sudoku import model as sudoku
from pysolve.sudoku.puzzle import PUZZLE as SUDOKU
from pysolve.tangram.generate import generate
from pysolve.tangram.model import Question
from pysolve.tangram.puzzle import PUZZLE

SUDOKU_HARDEST = data_dir() / "sudoku" / "hardest.txt"  # eleven puzzles, one a line


@pytest.mark.slow
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), side=st.integers(4, 7), pieces=st.integers(3, 6))
def test_the_parts_add_up_to_the_serial_count_on_every_back_end(pysolve_backends, seed, side, pieces):
    question = Question(generate(side, side + 1, pieces, seed), "count", seconds=30)
    assert len(PUZZLE.split(question)) > 1
    for backend in pysolve_backends:
        serial = PUZZLE.solve(question, backend)
        parted = count_in_parts(PUZZLE, question, backend)  # the parts one after another, in this process
        assert serial.status == parted.status == SOLVED, backend
        assert parted.count == serial.count, backend


@pytest.mark.subprocess
@pytest.mark.pysolve_backends("prolog", "python", "kanren")
def test_a_memo_count_runs_as_one_search_whatever_the_workers(pysolve_backend):
    question = Question(generate(10, 10, 9, 11, min_side=2), "count", seconds=60)
    serial = PUZZLE.solve(question, pysolve_backend)
    asked = count_in_parts(PUZZLE, question, pysolve_backend, workers=2, probe=0)
    assert asked.status == SOLVED and asked.count == serial.count > 0
    assert asked.stats["ran_on"] == "this process" and "parts would each do again" in asked.stats["serially"]
    assert "parts" not in asked.stats


@pytest.mark.pysolve_backends("prolog", "python")
def test_a_memo_count_asked_of_a_cluster_runs_here_without_connecting(pysolve_backend):
    question = Question(generate(10, 10, 9, 11, min_side=2), "count", seconds=60)
    asked = count_in_parts(PUZZLE, question, pysolve_backend, cluster="tcp://127.0.0.1:1")  # no scheduler there
    assert asked.status == SOLVED and asked.count == PUZZLE.solve(question, pysolve_backend).count > 0
    assert asked.stats["ran_on"] == "this process" and "parts would each do again" in asked.stats["serially"]


@pytest.mark.subprocess
def test_a_count_that_one_search_answers_at_once_is_not_split():
    question = squares.Question(generate_squares(4, 5, 6, 2), squares.COUNT)
    answer = count_in_parts(SQUARES, question, "python", workers=2)
    assert answer.status == SOLVED and answer.count == 8
    assert answer.stats["ran_on"] == parallel.TRIED_ON  # a worker's search: this process starts no engine
    assert "ran as one search: it took" in answer.stats["serially"]
    assert "less than starting 2 processes costs" in answer.stats["serially"]


@pytest.mark.slow
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), rows=st.integers(1, 3), cols=st.integers(2, 3), colours=st.integers(2, 5),
       rule=st.sampled_from(squares.RULES), up_to_rotation=st.booleans())
def test_a_squares_count_in_parts_is_the_serial_count_on_every_back_end(pysolve_backends, seed, rows, cols, colours,
                                                                       rule, up_to_rotation):
    question = squares.Question(generate_squares(rows, cols, colours, seed, rule), squares.COUNT, up_to_rotation)
    parts = SQUARES.split(question)
    assert len(parts) > 1 and all(len(part.prefix) in (1, 2) for part in parts)
    many = SQUARES.solve(question, "python").count > 200  # a 3x3 of 2 letters can have 11,024 solutions
    for backend in pysolve_backends:
        if backend == "kanren" and many:
            continue  # miniKanren counts about 40 solutions a second here: past 200 the minute may run out
        serial = SQUARES.solve(question, backend)
        parted = count_in_parts(SQUARES, question, backend)
        assert serial.status == SOLVED and parted.status == SOLVED, backend
        assert parted.count == serial.count >= 1, backend


@pytest.mark.slow
@pytest.mark.pysolve_backends("prolog", "python")  # most constrained cell first: insect rule, above 16 cells
def test_a_squares_count_on_a_pool(pysolve_backend):
    question = squares.Question(generate_squares(4, 5, 6, 2), squares.COUNT)
    assert squares.most_constrained_first(question)
    serial = SQUARES.solve(question, pysolve_backend)
    pooled = count_in_parts(SQUARES, question, pysolve_backend, workers=2, probe=0)
    assert pooled.status == SOLVED and pooled.count == serial.count == 8
    assert pooled.stats["parts"] >= 16


@pytest.mark.slow
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])  # Prolog: ~40 ms a part
@given(seed=st.integers(0, 10_000), rows=st.just(4), cols=st.integers(5, 6), colours=st.integers(7, 12),
       up_to_rotation=st.booleans())
def test_a_most_constrained_first_count_splits_where_its_first_piece_lies(pysolve_backends, seed, rows, cols,
                                                                          colours, up_to_rotation):
    question = squares.Question(generate_squares(rows, cols, colours, seed), squares.COUNT, up_to_rotation,
                                seconds=60)
    assert squares.most_constrained_first(question)
    parts = SQUARES.split(question)
    # each part: free cells, then one place of the root piece (the same piece in every part)
    assert len(parts) > 1 and all(part.prefix[-1] is not None and set(part.prefix[:-1]) <= {None}
                                  for part in parts)
    assert len({part.prefix[-1][0] for part in parts}) == 1
    for backend in pysolve_backends:
        if backend == "kanren":
            continue  # miniKanren passes a minute on some (7 letters): one instance in the test below
        serial = SQUARES.solve(question, backend)
        parted = count_in_parts(SQUARES, question, backend)
        assert serial.status == SOLVED and parted.status == SOLVED, backend
        assert parted.count == serial.count >= 1, backend


@pytest.mark.slow
def test_minikanren_counts_the_root_parts_filling_around_the_fixed_piece():
    question = squares.Question(generate_squares(4, 5, 12, 1), squares.COUNT, seconds=60)
    assert squares.most_constrained_first(question)
    parted = count_in_parts(SQUARES, question, "kanren")  # about 2 s; row by row from the corner: past a minute
    assert parted.status == SOLVED and parted.count == SQUARES.solve(question, "python").count == 2


def test_only_a_most_constrained_first_count_takes_free_cells_in_its_prefix():
    insects = squares.load("insects")  # 3x3: row by row
    with pytest.raises(InputError, match="free cells"):
        squares.Question(insects, squares.COUNT, prefix=(None, (1, 0)))


def test_only_counts_of_the_fast_strategy_take_a_prefix():
    insects = squares.load("insects")
    with pytest.raises(InputError, match="takes a prefix"):
        squares.Question(insects, squares.FIRST, prefix=((1, 0),))
    assert SQUARES.split(squares.Question(insects, squares.COUNT, strategy="original")) is None


def open_board(size: int, seed: int, keep: int) -> sudoku.Board:
    """A random full grid of side `size` with only `keep` of its cells left: a board of many solutions."""
    rng = random.Random(seed)
    cells = [value for row in sudoku_generate.generate(size, seed)["solution"] for value in row]
    for cell in rng.sample(range(len(cells)), len(cells) - keep):
        cells[cell] = 0
    return sudoku.Board(tuple(cells))


@pytest.mark.slow
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), size=st.sampled_from([4, 6]), keep=st.integers(3, 9),
       limit=st.sampled_from([3, 40, 500]))
def test_a_sudoku_count_in_parts_is_the_serial_count_on_every_back_end(pysolve_backends, seed, size, keep, limit):
    question = sudoku.Question(open_board(size, seed, keep), "board", count=limit, seconds=60)
    parts = SUDOKU.split(question)
    assert parts == [question] or all(part.board.givens > question.board.givens for part in parts)
    for backend in pysolve_backends:
        asked = question
        if backend == "kanren" and size == 6:  # its walk takes ~5 s to count a 6x6 to 500: 16 parts pass the minute
            asked = dataclasses.replace(question, count=min(limit, 40))
        serial = SUDOKU.solve(asked, backend)
        parted = count_in_parts(SUDOKU, asked, backend)
        assert serial.status == parted.status == SOLVED, backend
        assert parted.count == serial.count <= asked.count, backend  # each part stops at K, and so does their sum


@pytest.mark.slow
@pytest.mark.subprocess
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), keep=st.integers(20, 24), probe=st.sampled_from([0.0, 0.001, 0.3]))
def test_a_count_on_a_pool_is_the_serial_count_whether_the_search_tried_alone_or_the_parts_answer(seed, keep,
                                                                                                  probe):
    question = sudoku.Question(open_board(9, seed, keep), "open", count=500, seconds=60)
    serial = SUDOKU.solve(question, "python")
    pooled = count_in_parts(SUDOKU, question, "python", workers=2, probe=probe)
    assert pooled.status == serial.status and pooled.count == serial.count
    tried_alone = pooled.stats["ran_on"] == parallel.TRIED_ON
    assert tried_alone or pooled.stats["parts"] >= 2 * parallel.PARTS_PER_WORKER or pooled.count == 0
    assert not (tried_alone and probe == 0)


@pytest.mark.slow
def test_the_cli_counts_on_a_pool_and_on_a_dask_cluster(tmp_path, capsys):
    path = tmp_path / "open.txt"
    board = open_board(9, 7, 23)  # 12,331 solutions: about 0.9 s of CPU, three times what one search may try
    path.write_text(sudoku.to_line([list(board.cells[r * 9:(r + 1) * 9]) for r in range(9)]) + "\n", encoding="utf-8")
    argv = ["solve", "sudoku", str(path), "--count", "100000", "--backend", "python", "--json"]
    assert main(argv) == 0
    alone = json.loads(capsys.readouterr().out)
    assert main([*argv, "--workers", "2"]) == 0
    pooled = json.loads(capsys.readouterr().out)
    with distributed.LocalCluster(host="127.0.0.1", protocol="tcp", n_workers=1, threads_per_worker=2,
                                  processes=False, dashboard_address="127.0.0.1:0") as cluster:
        assert main([*argv, "--cluster", cluster.scheduler_address]) == 0
    clustered = json.loads(capsys.readouterr().out)
    assert pooled["count"] == clustered["count"] == alone["count"] == len(alone["solutions"]) > 1
    assert pooled["stats"]["ran_on"] == "2 processes" and pooled["stats"]["parts"] >= 16
    assert clustered["stats"]["ran_on"] == cluster.scheduler_address
    assert 0 < pooled["stats"]["parent_cpu_seconds"] < pooled["stats"]["cpu_seconds"]


@pytest.mark.subprocess
def test_the_cli_says_in_one_line_why_a_count_ran_as_one_search(tmp_path, capsys):
    path = tmp_path / "board.txt"
    assert main(["generate", "tangram", "--width", "9", "--height", "9", "--pieces", "8", "--seed", "4"]) == 0
    path.write_text(capsys.readouterr().out, encoding="utf-8")
    argv = ["solve", "tangram", str(path), "--count", "--backend", "python", "--json"]
    assert main(argv) == 0
    alone = json.loads(capsys.readouterr().out)
    assert main([*argv, "--workers", "auto"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["count"] == alone["count"] > 0
    assert err.splitlines() == ["pysolve: ran as one search: the python count shares work between its branches, "
                                "which parts would each do again"]


@pytest.mark.parametrize("extra, message", [
    (["--workers", "0"], "give a whole number of at least 1, or auto; not '0'"),
    (["--workers", "-2"], "give a whole number of at least 1, or auto; not '-2'"),
    (["--workers", "all"], "give a whole number of at least 1, or auto; not 'all'"),
])
def test_bad_parallel_flags_are_one_line_and_exit_2(capsys, extra, message):
    assert main(["solve", "tangram", "--count", "--backend", "python", *extra]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_only_counts_are_split(capsys):
    with pytest.raises(InputError, match="cannot be split into parts"):
        count_in_parts(PUZZLE, Question(generate(6, 6, 4, 1), "first"), "python", workers=2)
    assert main(["solve", "tangram", "--all", "--backend", "python", "--workers", "2"]) == 2
    assert "cannot be split into parts (only counts can)" in capsys.readouterr().err
    assert main(["solve", "squares", "insects", "--count", "--strategy", "original", "--workers", "2"]) == 2
    assert "(only counts of the fast strategy on two cells or more can)" in capsys.readouterr().err


def test_a_part_out_of_time_makes_the_count_unknown():
    question = Question(generate(16, 16, 12, 5), "count", strategy="dfs", seconds=0.05)
    answer = count_in_parts(PUZZLE, question, "python")
    assert answer.status == UNKNOWN
    assert "parts unknown" in answer.stats["reason"] and "time limit" in answer.stats["reason"]


@pytest.mark.subprocess
def test_a_file_of_many_puzzles_is_answered_on_a_pool_in_order(capsys):
    argv = ["solve", "sudoku", str(SUDOKU_HARDEST), "--count", "2", "--backend", "python", "--json"]
    assert main(argv) == 0
    alone = json.loads(capsys.readouterr().out)["answers"]
    assert main([*argv, "--workers", "2"]) == 0
    out, err = capsys.readouterr()
    pooled = json.loads(out)["answers"]
    assert len(pooled) == len(alone) == 11
    assert [(answer["question"], answer["count"], answer["solutions"]) for answer in pooled] == \
        [(answer["question"], answer["count"], answer["solutions"]) for answer in alone]
    assert "11 sudoku questions: 11 solved" in err


def spin(seconds: float) -> float:
    """A task that takes `seconds` of this process's CPU, and gives them back."""
    until = time.process_time() + seconds
    while time.process_time() < until:
        pass
    return seconds


def test_a_trial_runs_a_small_batch_here_to_its_end_and_says_why():
    trial = executors.Trial([0.002] * 40, processes=2)
    assert list(trial.run(spin)) == [0.002] * 40
    assert (trial.done, list(trial.left), trial.pays()) == (40, [], False)
    assert trial.why_here("task").startswith("ran serially (--workers auto): the 40 tasks took ")
    assert trial.why_here("task").endswith(" of CPU, less than starting workers costs")


def test_a_trial_stops_after_a_workers_start_in_cpu_and_sends_a_long_rest_to_the_workers():
    trial = executors.Trial([0.05] * 100, processes=2)
    done = list(trial.run(spin))
    # the first task, then those after it until they have taken START_SECONDS (6 of 0.05 s, or one more)
    assert 1 + executors.START_SECONDS / 0.05 <= len(done) == trial.done <= 2 + executors.START_SECONDS / 0.05
    assert len(trial.left) == 100 - trial.done and trial.rest_seconds() >= 0.05 * len(trial.left)
    assert trial.pays()


def test_a_trial_keeps_a_rest_too_short_to_save_a_workers_start_here():
    trial = executors.Trial([0.3] + [0.01] * 60, processes=2)  # the first task starts a back end: left out
    list(trial.run(spin))
    assert trial.left and trial.rest_seconds() < 2 * executors.START_SECONDS and not trial.pays()
    assert f"the first {trial.done} tasks took" in trial.why_here("task")
    assert f"the other {len(trial.left)} would take about" in trial.why_here("task")


FRESH = """
from pysolve import agreement, backends, executors, puzzles
executors.os.sched_getaffinity = lambda pid: {0, 1}  # two cores, as on CI's machine
print([backends.started(name) for name in backends.NAMES])
sudoku = puzzles.get("sudoku")
checks = agreement.crosscheck_many(sudoku, sudoku.questions(file="small"), ["python", "kanren"], workers="auto")
print(checks.ran_on, repr(checks.serially), checks.verdict)
"""


@pytest.mark.subprocess
def test_auto_sends_a_file_whose_back_ends_are_still_to_start_to_the_workers_at_once():
    ran = subprocess.run([sys.executable, "-c", FRESH], capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.splitlines() == ["[False, False, True]", "2 processes (auto: one per core) '' agree"]


@pytest.mark.usefixtures("two_cores")
def test_auto_answers_a_small_file_here_and_says_why_in_one_line(capsys):
    argv = ["solve", "sudoku", "small", "--backend", "python", "--json"]
    assert main(argv) == 0
    alone = json.loads(capsys.readouterr().out)["answers"]
    assert main([*argv, "--workers", "auto"]) == 0
    out, err = capsys.readouterr()
    assert [answer["solutions"] for answer in json.loads(out)["answers"]] == [answer["solutions"] for answer in alone]
    said = [line for line in err.splitlines() if line.startswith("pysolve: ")]
    assert len(said) == 1 and said[0].startswith("pysolve: ran serially (--workers auto): the 10 sudoku questions "
                                                 "took ")


@pytest.mark.subprocess
@pytest.mark.usefixtures("two_cores")
def test_auto_sends_the_rest_of_a_file_that_pays_to_the_workers_in_order(monkeypatch, capsys):
    for start in ("START_SECONDS", "FORKED_START_SECONDS"):  # any rest pays: the trial ends after two questions
        monkeypatch.setattr(executors, start, 0.0)
    argv = ["solve", "sudoku", str(SUDOKU_HARDEST), "--count", "2", "--backend", "python", "--json"]
    assert main(argv) == 0
    alone = json.loads(capsys.readouterr().out)["answers"]
    assert main([*argv, "--workers", "auto"]) == 0
    out, err = capsys.readouterr()
    assert [(answer["question"], answer["count"]) for answer in json.loads(out)["answers"]] == \
        [(answer["question"], answer["count"]) for answer in alone]
    assert "ran serially" not in err and "11 sudoku questions: 11 solved" in err


@given(games=st.integers(1, 300), workers=st.integers(1, 16),
       strategies=st.sampled_from([["random"], ["greedy+policy", "lookahead"], ["mcts:1s", "greedy"], ["minimax:2"]]))
def test_work_is_cut_into_chunks_of_near_equal_size_in_order(games, workers, strategies):
    work = tour.tasks(2, games, 1, "python", strategies)
    pieces = tour.cut(work, workers)
    assert [task for piece in pieces for task in piece] == list(work)
    quick = all(name.split("+")[0] in names.PLAYERS for name in strategies)
    assert len(pieces) == (min(games, workers * tour.CHUNKS_PER_WORKER) if quick else games)  # a search's game alone
    assert max(map(len, pieces)) - min(map(len, pieces)) <= 1


@pytest.mark.subprocess
def test_a_tournament_on_a_pool_plays_in_chunks_the_games_played_here():
    work = tour.tasks(2, 40, 7, "python", ["random", "greedy"])
    here = tour.run(work)
    seen: list = []
    with executors.executor(2) as pool:
        pooled = tour.run(work, pool, seen.append)
    assert [result.to_json() for result in pooled] == [result.to_json() for result in here]
    assert sorted(result.seed for result in seen) == [task.seed for task in work]  # progress once per game
    assert here[0].state and not any(result.state for result in pooled)  # final states stay in the workers


@pytest.mark.subprocess
def test_a_tournament_on_a_pool_is_added_up_in_its_workers_as_its_games_are_here():
    work = tour.tasks(2, 60, 7, "python", ["random", "greedy"])
    here = tour.run(work)
    seen: list = []
    with executors.executor(2) as pool:
        tally = tour.tallied(work, pool, seen.append)
    assert tally.summary() == tour.summarise(here)
    assert [result.to_json() for result in tally.head] == [result.to_json() for result in here[:tour.HEAD]]
    assert seen == sorted(seen) and seen[-1] == 60 and len(seen) == 2 * tour.CHUNKS_PER_WORKER  # once a chunk


def synthetic_games(count: int, seed: int) -> list:
    """`count` made-up two-player results of three strategies (no game played): scores 0-120, some forfeits."""
    draw = random.Random(seed)
    names = ["random", "greedy", "mcts:50"]
    return [MatchResult(number, 2, "python", draw.sample(names, 2), [draw.randint(0, 120) for _ in range(2)],
                             draw.sample([[0], [1], [0, 1]], 1)[0], draw.randint(5, 7), draw.randint(40, 70),
                             forfeit={"seat": 1, "reason": "timed out"} if draw.random() < 0.01 else None)
            for number in range(count)]


@given(count=st.integers(1, 2 * tour.BOOTSTRAP_UP_TO + 50), seed=st.integers(0, 99),
       cuts=st.lists(st.floats(0, 1), max_size=6))
@settings(max_examples=30, deadline=None)
def test_tallies_of_consecutive_chunks_merged_are_the_tally_of_all(count, seed, cuts):
    games = synthetic_games(count, seed)
    bounds = [0, *sorted(round(cut * count) for cut in cuts), count]
    whole = tour.Tally()
    for start, end in itertools.pairwise(bounds):
        whole.merge(tour.tally_of(games[start:end]))
    assert whole.summary() == tour.summarise(games)  # the bootstrap's scores in game order, the sums past them
    assert whole.head == tour.tally_of(games).head and len(whole.forfeited) == sum(1 for g in games if g.forfeit)


@given(games=st.integers(1, 500), start=st.integers(-600, 600), stop=st.integers(-600, 600),
       strategies=st.lists(st.sampled_from(["random", "greedy", "first"]), max_size=4))
def test_a_slice_of_a_tournaments_games_is_its_games_made_one_by_one(games, start, stop, strategies):
    work = tour.tasks(3, games, 11, "python", strategies)
    made = [work[number] for number in range(len(work))]
    assert list(work[start:stop]) == made[start:stop] and len(work[start:stop]) == len(made[start:stop])
    assert made[0].strategies == tuple(((strategies or ["random"]) * 3)[:3])


@pytest.mark.slow
def test_parts_that_run_long_are_split_again_and_the_count_stays_the_serial_count(monkeypatch):
    question = sudoku.Question(open_board(9, 7, 23), "open", count=100_000, seconds=120)
    serial = SUDOKU.solve(question, "python")
    monkeypatch.setattr(parallel, "_slice", lambda counted, left, width: 0.02)  # every part: 0.02 s of CPU at most
    pooled = count_in_parts(SUDOKU, question, "python", workers=2, probe=0)
    assert pooled.status == SOLVED and pooled.count == serial.count > 10_000  # the board follows the generator
    assert pooled.stats["split_again"] > 0 and pooled.stats["parts"] > 16


def test_a_part_gets_half_a_workers_share_of_the_estimated_work_as_its_slice():
    counted = [parallel.PartCount(SOLVED, 1, "", 0.1, 0.4), parallel.PartCount(SOLVED, 1, "", 0.1, 0.2)]
    assert parallel._slice([], 10, 2) is None  # nothing counted yet: the first parts run to their end
    assert parallel._slice(counted, 4, 2) == pytest.approx((0.6 + 0.3 * 4) / 2 / 2)
    assert parallel._slice(counted, 0, 16) == parallel.MIN_SLICE
    given_back = parallel.PartCount(UNKNOWN, 0, "", 0.1, 0.5, sliced=True)  # its CPU counts, not its mean
    assert parallel._slice([*counted, given_back], 4, 2) == pytest.approx((1.1 + 0.3 * 4) / 2 / 2)


@pytest.mark.subprocess
def test_a_halves_count_runs_as_one_search_and_its_parts_add_up_all_the_same():
    question = squares.Question(squares.load("eternity-4x4"), squares.COUNT)
    assert squares_python.search(question) == "halves"
    asked = count_in_parts(SQUARES, question, "python", workers=2, probe=0)
    assert asked.stats["ran_on"] == "this process" and "parts would each do again" in asked.stats["serially"]
    assert count_in_parts(SQUARES, question, "python").count == asked.count > 0  # in turn here, row by row


@pytest.mark.subprocess
def test_a_back_end_that_cannot_start_in_the_workers_is_one_line_and_exit_2():
    done = subprocess.run([sys.executable, "-m", "pysolve.cli", "solve", "squares", "eternity-6x6", "--count",
                           "--backend", "prolog", "--workers", "2"], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYSOLVE_NO_PROLOG": "1"})
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("pysolve: error: back end 'prolog' is unavailable: SWI-Prolog is hidden by "
                           "PYSOLVE_NO_PROLOG=1\n")  # the workers, which cannot start it either, print nothing
