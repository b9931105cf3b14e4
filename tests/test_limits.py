"""Limits that are limits: time limits and search parameters refused when they are none (nan, inf, absurd
sizes), searches that end near their time limit and under the memory bound, big counts that keep their
type, and cross-checks where nothing could be compared.

The timed cases run `pysolve` in a child process and measure its CPU time (its own and its workers':
the clock limits count on, so a busy machine does not fail them) and its peak memory (the largest
resident set of the process; each worker has the same bound); their limits are small so that each
takes a few seconds.
"""

from __future__ import annotations

import json
import math
import os
import pickle
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from pysolve import backends, bridge, cli, memory, puzzles
from pysolve.answers import SOLVED, UNKNOWN
from pysolve.azul.strategies import strategy
from pysolve.budget import MAX_SECONDS, Budget, most_work
from pysolve.errors import InputError, SearchLimitExceeded
from pysolve.pytest_plugin import assert_backends_agree, needs_prolog
from pysolve.squares import model as squares_model
from pysolve.tangram import python as tangram_python


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of one `pysolve` command run in this process."""
    code = cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line(code: int, err: str, *words: str) -> None:
    """Exit 2 and one line on stderr holding every one of `words`."""
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    for word in words:
        assert word in lines[0], err


# ------------------------------------------------------------------ time limits that are no limits

SECONDS_COMMANDS = {  # every command with a --seconds option, asked a quick question
    "solve sudoku": ["solve", "sudoku", "data/sudoku/wikipedia.txt", "--backend", "python"],
    "solve hidato": ["solve", "hidato", "data/hidato/sample.txt", "--backend", "python"],
    "solve tangram": ["solve", "tangram", "--backend", "python"],
    "solve squares": ["solve", "squares", "--backend", "python"],
    "solve fichas": ["solve", "fichas", "--m", "1", "--n", "1", "--backend", "python"],
    "crosscheck sudoku": ["crosscheck", "sudoku", "data/sudoku/wikipedia.txt", "--backends", "kanren,python"],
    "generate hidato": ["generate", "hidato", "--rows", "4", "--cols", "4", "--seed", "1"],
    "query": ["query", "pysolve_bridge", "true"],
}


@pytest.mark.parametrize("value", ["inf", "nan", "-inf", "1e309", "1e9", "0"])
@pytest.mark.parametrize("command", SECONDS_COMMANDS)
def test_a_time_limit_that_is_no_limit_is_one_line_and_exit_2(command: str, value: str,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run([*SECONDS_COMMANDS[command], "--seconds", value], capsys)
    assert_one_line(code, err, "--seconds")


@pytest.mark.subprocess
@pytest.mark.parametrize("command", [pytest.param(name, marks=needs_prolog) if name == "query" else name
                                     for name in SECONDS_COMMANDS])
def test_the_longest_time_limit_is_taken(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run([*SECONDS_COMMANDS[command], "--seconds", f"{MAX_SECONDS:g}"], capsys)
    assert code == 0, err


@pytest.mark.parametrize("seconds", [math.inf, math.nan, -1.0, MAX_SECONDS * 2])
def test_the_api_refuses_the_same_time_limits_with_a_typed_error(seconds: float) -> None:
    with pytest.raises(InputError, match="--seconds"):
        puzzles.get("sudoku").question(file="data/sudoku/wikipedia.txt", seconds=seconds)
    with pytest.raises(InputError, match="--seconds"):
        squares_model.Question(squares_model.load(), seconds=seconds)
    with pytest.raises(InputError, match="not a time limit"):
        Budget(seconds=seconds)


@pytest.mark.parametrize("seconds", [math.inf, math.nan, 0.0])
def test_a_raw_prolog_query_refuses_a_time_limit_that_is_none_before_asking_prolog(seconds: float) -> None:
    with pytest.raises(InputError, match="seconds: .* is not a time limit"):
        bridge.solutions("pysolve_bridge", "true", seconds=seconds)


@pytest.mark.parametrize("delay", ["inf", "nan", "61", "-1"])
def test_azul_play_refuses_a_delay_that_never_ends(delay: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["azul", "play", "--delay", delay], capsys)
    assert_one_line(code, err, "--delay")


# ------------------------------------------------------------------ search players' parameters

ABSURD_STRATEGIES = {  # name -> the words of the refusal
    "mcts:nans": "seconds per move",
    "mcts:infs": "seconds per move",
    "mcts:1e400s": "seconds per move",
    "mcts:-1s": "seconds per move",
    "mcts:99999999999999999999": "too large",
    "mcts:1000001": "iterations",
    "mcts:r101": "round end",
    "mcts:" + "9" * 5000: "too large",
    "minimax:21": "depth",
    "minimax:99999999999999999999": "too large",
    "mcts:²": "is not ITERATIONS",
}


@pytest.mark.parametrize("name", ABSURD_STRATEGIES)
def test_a_search_player_with_absurd_parameters_is_refused(name: str) -> None:
    with pytest.raises(InputError, match=ABSURD_STRATEGIES[name]):
        strategy(name)


@pytest.mark.parametrize("name", ["mcts:nans", "mcts:infs", "mcts:99999999999999999999"])
def test_azul_simulate_refuses_them_in_one_short_line(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["azul", "simulate", "--strategy", name], capsys)
    assert_one_line(code, err, "strategy", ABSURD_STRATEGIES[name])
    assert len(err) < 200


def test_a_search_player_with_the_shortest_time_still_moves(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["azul", "simulate", "--strategy", "mcts:1e-300s,random"], capsys)
    assert code == 0 and "mcts:1e-300s" in out, err


# ------------------------------------------------------------------ counts past 64 bits keep their type

PAST_64_BITS = {  # a tangram board whose count needs more than 63 bits (and more than 64), and that count
    "past 2**63": ("board 5 5\npiece Z bar #223344 5 1\n" + "".join(
        f"piece {key} u{number} #223344 1 1\n" for number, key in enumerate("ABCDEFGHIJKLMNOPQRST")),
        5 * math.factorial(20)),
    "past 2**64": ("board 3 7\n" + "".join(
        f"piece {key} u{number} #223344 1 1\n" for number, key in enumerate("ABCDEFGHIJKLMNOPQRSTU")),
        math.factorial(21)),
}


@pytest.fixture(params=list(PAST_64_BITS))
def wide_count(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str, int]:
    """(a tangram file, its count) of one of PAST_64_BITS."""
    text, count = PAST_64_BITS[request.param]
    assert count >= 2**63 and (request.param == "past 2**63") == (count < 2**64)
    path = tmp_path / "wide.txt"
    path.write_text(text)
    return str(path), count


def solve_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """The JSON a `pysolve ... --json` command printed (it must exit 0)."""
    code, out, err = run([*argv, "--json"], capsys)
    assert code == 0, err
    return json.loads(out)


@pytest.mark.subprocess
@pytest.mark.pysolve_backends("prolog", "python")
@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_count_past_64_bits_is_an_int_on_each_back_end(wide_count: tuple[str, int], pysolve_backend: str,
                                                         workers: str, capsys: pytest.CaptureFixture[str]) -> None:
    path, count = wide_count
    answer = solve_json(["solve", "tangram", path, "--count", "--backend", pysolve_backend, "--workers", workers],
                        capsys)
    assert answer["status"] == SOLVED and type(answer["count"]) is int and answer["count"] == count


@needs_prolog
def test_prolog_and_python_agree_on_a_count_past_64_bits(wide_count: tuple[str, int],
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    path, count = wide_count
    argv = ["crosscheck", "tangram", path, "--count", "--backends", "prolog,python"]
    code, out, err = run(argv, capsys)
    assert code == 0 and "all back ends agree" in out, out + err
    report = solve_json(argv, capsys)
    assert report["agree"] and {name: result["count"] for name, result in report["results"].items()} == \
        {"prolog": count, "python": count}


@needs_prolog
def test_integers_past_64_bits_cross_the_bridge_as_ints_wherever_they_are() -> None:
    result = bridge.solutions("pysolve_bridge", 'X is 2**64, Y is -(2**70), Z = [1, s, "t", [Y]], W is 2**63 - 1')
    (row,) = result.rows
    assert row == {"X": 2**64, "Y": -(2**70), "Z": [1, "s", "t", [-(2**70)]], "W": 2**63 - 1}
    assert type(row["X"]) is int and type(row["Z"][2]) is str


# ------------------------------------------------------------------ what a split count ships to its workers

def big_tangram(tmp_path: Path) -> Path:
    """A 64x64 board of 64 8x8 pieces (64! tilings): a table of every placement is 208,000 slots."""
    keys = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-"
    path = tmp_path / "big.txt"
    path.write_text("board 64 64\n" + "".join(f"piece {key} p{number} #334455 8 8\n"
                                              for number, key in enumerate(keys)))
    return path


@pytest.mark.slow
def test_a_split_count_ships_small_parts_whatever_its_instance_has_built(tmp_path: Path) -> None:
    puzzle = puzzles.get("tangram")
    question = puzzle.question(file=str(big_tangram(tmp_path)), count=True)
    question.instance.slots_within(None)  # the table a search of this process built: not for the workers
    parts = puzzle.split(question)
    assert len(parts) == 64 and max(len(pickle.dumps(part)) for part in parts) < 16_000
    shipped = pickle.loads(pickle.dumps(parts[0]))
    assert shipped == parts[0] and shipped.instance.by_name == question.instance.by_name


# ------------------------------------------------------------------ cross-checks where nothing was compared

EMPTY_SUDOKU = "." * 81  # 6.67e21 grids: no back end counts them within a fraction of a second


@pytest.fixture()
def empty_sudoku(tmp_path: Path) -> str:
    """A file holding the empty 9x9 grid."""
    path = tmp_path / "empty.txt"
    path.write_text(EMPTY_SUDOKU + "\n")
    return str(path)


@pytest.mark.slow
def test_a_crosscheck_where_no_back_end_answers_compares_nothing(empty_sudoku: str,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["crosscheck", "sudoku", empty_sudoku, "--count", "1000000000", "--seconds", "0.3"]
    code, out, err = run(argv, capsys)
    assert code == cli.NOT_COMPARED == 3, out + err
    verdict = out.strip().splitlines()[-1]
    assert verdict.startswith("NOT COMPARED: no back end answered") and "DISAGREEMENT" not in out
    for name in [name for name in backends.NAMES if backends.available(name)]:  # sudoku has all three
        assert f"{name}: unknown: " in verdict and "time limit of 0.3 s" in verdict
    code, out, _ = run([*argv, "--json"], capsys)
    report = json.loads(out)
    assert code == 3 and report["compared"] is False and report["agree"] is False and not report["results"]


def test_a_crosscheck_that_compared_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["crosscheck", "sudoku", "data/sudoku/wikipedia.txt", "--count", "2", "--json"], capsys)
    assert code == 0 and json.loads(out)["compared"] is True


def test_the_plugin_says_nothing_was_compared(empty_sudoku: str) -> None:
    with pytest.raises(AssertionError, match="pysolve back ends were not compared") as failure:
        assert_backends_agree("sudoku", empty_sudoku, count=10**9, seconds=0.3, backends=["python"])
    assert "NOT COMPARED: no back end answered (python: unknown: " in str(failure.value)
    assert "do not agree" not in str(failure.value)


# ------------------------------------------------------------------ measured runs: wall time and peak memory

@dataclass
class Measured:
    """One `pysolve` run in a child process: exit code, output, CPU seconds (its own and its workers') and
    peak memory in bytes."""

    code: int
    out: str
    err: str
    cpu: float
    peak: int


# Runs `pysolve ARGV...` as `python -m pysolve.cli` would, then writes the process's peak resident set (VmHWM) and
# its CPU seconds, its workers' included, to
# the file named first: the kernel's own figure for a child (ru_maxrss) starts from its parent's size at the fork.
PEAK_REPORTING_CLI = """
import resource, sys
from pysolve.cli import main
code = main(sys.argv[2:])
used = [resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
with open("/proc/self/status") as status, open(sys.argv[1], "w") as peak:
    peak.write(next(line for line in status if line.startswith("VmHWM:")).split()[1])
    peak.write(" %f" % sum(usage.ru_utime + usage.ru_stime for usage in used))
sys.exit(code)
"""


HANG_GUARD = 540.0  # wall seconds, a hang guard only (under pytest-timeout's 600): at load 20 on two cores a child
                   # gets a tenth of a core, so a search of a few CPU seconds may take minutes of the wall clock


def measured(argv: list[str], tmp_path: Path, timeout: float = HANG_GUARD) -> Measured:
    """Run `pysolve ARGV` in a child process (killed after `timeout` wall seconds, a hang guard) and measure it."""
    out_path, err_path, peak_path = tmp_path / "stdout", tmp_path / "stderr", tmp_path / "peak"
    with out_path.open("w") as out, err_path.open("w") as err:
        done = subprocess.run([sys.executable, "-c", PEAK_REPORTING_CLI, str(peak_path), *argv], stdout=out,
                              stderr=err, stdin=subprocess.DEVNULL, timeout=timeout)
    peak, cpu = peak_path.read_text().split()
    return Measured(done.returncode, out_path.read_text(), err_path.read_text(), float(cpu), int(peak) * 1024)


@pytest.mark.slow
def test_azul_simulate_has_a_memory_bound_and_names_it(tmp_path: Path) -> None:
    """A search tree that outgrows the bound (a million iterations, every move kept) stops with one line.

    Games are added up as they are played, so it is a player's search that grows, not the tournament."""
    bound = 128 * 2**20
    simulated = measured(["azul", "simulate", "--strategy", "mcts:1000000:w0", "--memory", "128M"], tmp_path)
    assert simulated.code == 2
    assert simulated.err.strip() == "pysolve: error: out of memory; the run passed its --memory bound"
    assert simulated.peak <= bound and simulated.cpu < 60


@pytest.mark.parametrize("command", [["azul", "simulate"], ["azul", "crosscheck"], ["azul", "replay"], ["query"],
                                     ["solve", "sudoku"], ["crosscheck", "tangram"], ["generate", "hidato"]])
def test_every_command_that_can_grow_takes_the_memory_option(command: list[str],
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run([*command, "--help"], capsys)
    assert code == 0 and "--memory SIZE" in out


def test_the_message_of_a_command_without_a_memory_bound_names_no_flag(monkeypatch: pytest.MonkeyPatch,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    def exhausted(args: object) -> int:
        raise MemoryError

    monkeypatch.setattr(cli, "run_backends", exhausted)
    code, _, err = run(["backends"], capsys)
    assert code == 2 and err.strip() == "pysolve: error: out of memory; the run passed the memory this machine has"


# ------------------------------------------------------------------ Python searches end near their time limit


LIMIT = 3.0  # seconds: the time limit of the timed runs below
OVERRUN = 1.5  # CPU seconds a whole run may take past its limit (beyond the start-up of a trivial run)
WORKERS = 2  # the processes of the counts split into parts below, each with the limit of its own
BOUND = "1G"  # the memory bound of the timed runs
BOUND_BYTES = 2**30


@pytest.fixture(scope="module")
def start_up(tmp_path_factory: pytest.TempPathFactory) -> float:
    """CPU seconds of a trivial `pysolve solve` run: the interpreter and the imports, not a search."""
    trivial = measured(["solve", "sudoku", "data/sudoku/wikipedia.txt", "--count", "2", "--backend", "python"],
                       tmp_path_factory.mktemp("start_up"))
    assert trivial.code == 0, trivial.err
    return trivial.cpu


def open_board(tmp_path: Path, side: int) -> str:
    """A side x side Hidato board with only 1 (top left) and side**2 (bottom right) given."""
    rows = [["__"] * side for _ in range(side)]
    rows[0][0], rows[-1][-1] = "1", str(side * side)
    path = tmp_path / f"open{side}.txt"
    path.write_text("\n".join(" ".join(row) for row in rows) + "\n")
    return str(path)


def few_colours_eternity(tmp_path: Path) -> str:
    """A generated 8x8 eternity-rule squares instance with 3 colours: rows of many candidates."""
    _, text = puzzles.get("squares").generated(rows=8, cols=8, colours=3, rule="eternity", seed=1)
    path = tmp_path / "eternity8.txt"
    path.write_text(text + "\n")
    return str(path)


TIMED = {  # case -> the arguments after `pysolve`, given tmp_path
    "hidato 64x64, 1 and 4096 given": lambda tmp: ["solve", "hidato", open_board(tmp, 64), "--count", "1000000000"],
    "hidato 32x32, 1 and 1024 given": lambda tmp: ["solve", "hidato", open_board(tmp, 32), "--count", "1000000000"],
    "sudoku, the empty grid": lambda tmp: ["solve", "sudoku", str(tmp / "empty.txt"), "--count", "1000000000"],
    "squares 8x8 eternity, 3 colours": lambda tmp: ["solve", "squares", few_colours_eternity(tmp), "--count"],
    "tangram 64x64 of 64 8x8 pieces, 2 workers": lambda tmp: ["solve", "tangram", str(big_tangram(tmp)), "--count",
                                                              "--workers", "2"],
}


@pytest.mark.slow
@pytest.mark.parametrize("case", TIMED)
def test_a_python_search_ends_near_its_time_limit_and_under_its_memory_bound(case: str, start_up: float,
                                                                              tmp_path: Path) -> None:
    (tmp_path / "empty.txt").write_text(EMPTY_SUDOKU + "\n")
    argv = [*TIMED[case](tmp_path), "--backend", "python", "--seconds", f"{LIMIT:g}", "--memory", BOUND, "--json"]
    done = measured(argv, tmp_path)
    assert done.code == 0, done.err
    answer = json.loads(done.out)
    if answer["status"] != SOLVED or "tangram" not in case:  # two idle cores count the tangram board in time
        assert answer["status"] == UNKNOWN and "time limit of 3 s" in answer["stats"]["reason"]
    processes = WORKERS + 1 if "workers" in case else 1  # each worker has the limit; the parent splits
    assert answer["stats"]["cpu_seconds"] <= processes * most_work(LIMIT)
    assert done.cpu - start_up <= processes * (most_work(LIMIT) + OVERRUN), f"{done.cpu:.2f} s, start-up {start_up:.2f}"
    assert done.peak <= BOUND_BYTES


@pytest.mark.slow
def test_a_python_search_past_its_memory_bound_answers_unknown_at_the_bound(tmp_path: Path) -> None:
    argv = ["solve", "squares", few_colours_eternity(tmp_path), "--count", "--backend", "python", "--seconds", "60",
            "--memory", "256M", "--json"]
    done = measured(argv, tmp_path)
    answer = json.loads(done.out)
    assert done.code == 0 and answer["status"] == UNKNOWN and "memory bound of 256 MB" in answer["stats"]["reason"]
    assert done.peak <= 256 * 2**20 and done.cpu < 30


@pytest.mark.slow
def test_a_full_tangram_memo_looks_at_the_clock_while_it_forgets() -> None:
    puzzle = puzzles.get("tangram")
    question = puzzle.question(count=True)
    kinds = tangram_python.Kinds(question.instance, question.order)
    scan = tangram_python.Scan(kinds, question.free, 10, 10, False, 10)
    scan.known = {(free << kinds.bits) | 1: 1 for free in range(1, 2_000_001)}  # two million states
    budget = Budget(seconds=0.01)
    time.sleep(0.02)
    started = time.process_time()
    with pytest.raises(SearchLimitExceeded):
        scan.forget(budget)
    assert time.process_time() - started < 0.1 and len(scan.known) == 2_000_000



def test_looks_at_the_clock_before_the_search_do_not_stretch_its_stride() -> None:
    """Building tables looks at the clock often and counts no node: the stride of nodes between looks grows only
    on nodes counted, so a search whose nodes cost a millisecond each still stops near its limit."""
    limit = 0.2
    spent = Budget(seconds=limit)
    for _ in range(50):  # quick looks, no node counted
        spent.check()
    with pytest.raises(SearchLimitExceeded, match="time limit of 0.2 s"):
        while True:
            started = time.thread_time()
            while time.thread_time() - started < 0.001:  # a node that costs a millisecond of CPU
                pass
            spent.spend()
    assert spent.cpu_seconds() <= limit + 0.05 and spent.spent < 300


def test_the_memory_watch_raises_within_its_headroom_of_the_bound_and_not_before() -> None:
    with open("/proc/self/statm", "rb") as statm:
        size = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    with memory.bounded(int(size / (1 - memory.HEADROOM / 2))), pytest.raises(MemoryError):  # less headroom left
        memory.watch()
    with memory.bounded(size * 2):
        memory.watch()
    memory.watch()  # no bound in force: nothing to look at
