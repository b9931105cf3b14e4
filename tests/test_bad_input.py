"""Bad input, per format and per flag: each is one line on stderr naming what and where, exit 2, quickly,
and nothing left on disk that was not asked for.

Every command that reads a file is asked the same table of broken files
(empty, binary, not UTF-8, a directory, missing, huge, a device, a FIFO);
CRLF line ends and a byte-order mark are read as the plain file is. Every
output flag is given names that cannot be written, devices and FIFOs, and
must leave the device a device. Outputs are whole or absent after a full
disk or Ctrl-C. A hypothesis fuzz of each file format (random structure,
nesting, unicode, sizes) ends in exit 0 or 2 with at most one line on stderr.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import gzip
import io
import json
import os
import re
import resource
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pysolve import budget, cli, executors, files, puzzles
from pysolve.azul.match import play_match
from pysolve.errors import InputError
from pysolve.paths import data_dir

SAMPLES = {  # puzzle -> a valid file of its format, and the arguments of a quick question about it
    "hidato": (data_dir() / "hidato" / "sample.txt", ["--count", "2", "--backend", "python"]),
    "squares": (data_dir() / "squares" / "insects.txt", ["--all", "--backend", "python"]),
    "tangram": (data_dir() / "tangram" / "classic.txt", ["--count", "--strategy", "cell", "--backend", "python"]),
    "sudoku": (data_dir() / "sudoku" / "wikipedia.txt", ["--count", "2", "--backend", "python"]),
}
FILE, OUT, LOG = "{FILE}", "{OUT}", "{LOG}"  # stand for the file read, the file written, a valid Azul log
READERS = {  # every command that reads an input file
    "hidato": ["solve", "hidato", FILE, "--backend", "python"],
    "squares": ["solve", "squares", FILE, "--backend", "python"],
    "tangram": ["solve", "tangram", FILE, "--backend", "python"],
    "sudoku": ["solve", "sudoku", FILE, "--backend", "python"],
    "hidato --shape": ["generate", "hidato", "--shape", FILE],
    "play tangram": ["play", "tangram", FILE],
    "azul replay": ["azul", "replay", FILE],
}
WRITERS = {  # every output flag, on a quick command that writes it
    "tangram --svg": ["solve", "tangram", "--backend", "python", "--svg", OUT],
    "hidato --svg": ["solve", "hidato", str(SAMPLES["hidato"][0]), "--backend", "python", "--svg", OUT],
    "sudoku --svg": ["solve", "sudoku", str(SAMPLES["sudoku"][0]), "--backend", "python", "--svg", OUT],
    "squares --svg": ["solve", "squares", "--backend", "python", "--svg", OUT],
    "squares --trace-html": ["solve", "squares", "--backend", "python", "--trace-html", OUT],
    "sudoku --trace": ["solve", "sudoku", str(SAMPLES["sudoku"][0]), "--backend", "python", "--trace", OUT],
    "hidato --trace": ["solve", "hidato", str(SAMPLES["hidato"][0]), "--backend", "python", "--trace", OUT],
    "squares --trace": ["solve", "squares", "--backend", "python", "--trace", OUT],
    "fichas --trace": ["solve", "fichas", "--m", "1", "--n", "1", "--backend", "python", "--trace", OUT],
    "tangram --trace": ["solve", "tangram", "--backend", "python", "--trace", OUT],
    "azul simulate --log": ["azul", "simulate", "--log", OUT],
    "azul simulate --chart": ["azul", "simulate", "--chart", OUT],
    "azul replay --html": ["azul", "replay", LOG, "--html", OUT],
    "azul replay --svg": ["azul", "replay", LOG, "--svg", OUT],
}
REFUSED_BEFORE_PLAY = {"azul play --log": ["azul", "play", "--log", OUT]}  # a good name would start the game

BROKEN = {  # name -> (file contents or a maker, the words the message must hold)
    "empty": (b"", "empty"),
    "binary": (b"\x00\x01\x02 not text\n", "binary file"),
    "not UTF-8": (b"\xff\xfe 1 2 3\n", "not UTF-8"),
    "huge": (None, "input files are limited"),
    "directory": ("directory", "is a directory"),
    "missing": ("missing", "no such file"),
    "FIFO": ("fifo", "is a FIFO (named pipe), not a regular file"),
    "character device": ("/dev/zero", "is a character device, not a regular file"),
}


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str, float]:
    """Exit code, stdout, stderr and CPU seconds of one `pysolve` command run in this thread (the clock of the
    work, which a busy machine does not stretch; a read that waits for ever would hang the test instead)."""
    started = time.thread_time()
    code = cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err, time.thread_time() - started


def one_line(err: str) -> bool:
    """True when stderr is exactly one `pysolve: error:` line, no traceback."""
    return err.count("\n") == 1 and err.startswith("pysolve: error: ") and "Traceback" not in err


def filled(argv: list[str], **paths: Path | str) -> list[str]:
    """`argv` with FILE, OUT and LOG replaced by the paths given for them."""
    marks = {FILE: paths.get("file"), OUT: paths.get("out"), LOG: paths.get("log")}
    return [str(marks[word]) if word in marks else word for word in argv]


@pytest.fixture(scope="module")
def azul_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A valid Azul log: one short game, as `simulate --log` writes it."""
    path = tmp_path_factory.mktemp("azul") / "game.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in play_match(seed=1, log=True).log))
    return path


def broken_file(tmp_path: Path, case: str) -> Path:
    """A file (or a directory, a FIFO, a device, or no file) broken the way `case` says."""
    contents, _ = BROKEN[case]
    path = tmp_path / "puzzle.txt"
    if contents == "directory":
        path.mkdir()
    elif contents == "fifo":
        os.mkfifo(path)
    elif isinstance(contents, str) and contents.startswith("/dev/"):
        return Path(contents)
    elif contents is None:
        path.write_bytes(b"# padding\n" * (files.MAX_INPUT_BYTES // 10 + 1))
    elif contents != "missing":
        path.write_bytes(contents)
    return path


# ---------------------------------------------------------------- input files

@pytest.mark.parametrize("case", BROKEN)
@pytest.mark.parametrize("reader", READERS)
def test_a_broken_file_is_one_line_and_exit_2(reader: str, case: str, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    path = broken_file(tmp_path, case)
    code, out, err, seconds = run(filled(READERS[reader], file=path), capsys)
    assert code == 2 and out == ""
    assert one_line(err), err
    assert str(path) in err and BROKEN[case][1] in err, err
    assert seconds < 5  # /dev/zero and a FIFO are refused before a byte is read: nothing to wait for


def test_a_rule_base_that_is_no_regular_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "rules.pl"
    os.mkfifo(fifo)
    for rule_base in ("/dev/zero", str(fifo), str(tmp_path / ("r" * 300 + ".pl"))):
        code, out, err, seconds = run(["query", rule_base, "true"], capsys)
        assert code == 2 and out == "" and one_line(err), err
        assert "does not exist or is not a regular file" in err and seconds < 5


@pytest.mark.parametrize("puzzle", SAMPLES)
def test_crlf_and_a_byte_order_mark_read_as_the_plain_file(puzzle: str, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    sample, question = SAMPLES[puzzle]
    plain = sample.read_bytes()
    windows = tmp_path / sample.name  # the same name: some formats take the instance's name from it
    windows.write_bytes(b"\xef\xbb\xbf" + plain.replace(b"\n", b"\r\n"))
    answers = []
    for path in (sample, windows):
        code, out, err, _ = run(["solve", puzzle, str(path), *question, "--json"], capsys)
        assert code == 0, err
        answers.append(out.split('"stats"')[0].replace(str(path), "FILE"))
    assert answers[0] == answers[1]


def test_a_file_that_grows_past_the_limit_while_read_is_cut_at_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "small.txt"
    path.write_text("board 1 1\n")
    with pytest.raises(InputError, match=r"^tangram file '.*small.txt': is 10 bytes; input files are limited to "
                                         r"4 bytes$"):
        files.read_text(path, "tangram file", max_bytes=4)


def test_a_board_past_the_size_limit_is_refused_as_it_is_read(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "huge.txt"
    path.write_text("\n".join([" ".join(["0"] * 1000)] * 8000))  # 16 MB: 8 million empty cells
    code, _, err, seconds = run(["solve", "hidato", str(path)], capsys)
    assert code == 2 and one_line(err) and "the board has 5000 or more open cells" in err, err
    assert seconds < 3  # read to its fifth line, not made into a board of 8 million cells (5.5 s, 950 MB)


MAXIMAL_NESTING = {  # reader -> a file of JSON nested past what Python's recursion allows
    "hidato JSON": (["solve", "hidato", FILE], "[" * 100_000),
    "azul replay": (["azul", "replay", FILE], "[" * 200_000),
    "azul replay, nested in a record": (["azul", "replay", FILE],
                                        '{"type": "start", "seed": ' + "[" * 5_000 + "]" * 5_000 + "}"),
}
JSON_TRAPS = {  # what no JSON reader may trip on -> the file and the words of its one line
    "a lone surrogate": ('[[1, "\\ud800"]]\n', "a lone surrogate"),
    "an integer of 5,000 digits": ("[[1, " + "9" * 5_000 + "]]\n", "an integer too long to read"),
    "a number past 64 bits": ("[[1, " + "9" * 40 + "]]\n", "out of range 1..2"),
    "broken JSON": ('[[1, 0], [0, 4]\n', "not JSON (a ',' is missing at line 2, column 1)"),
}


@pytest.mark.parametrize("case", MAXIMAL_NESTING)
def test_json_nested_too_deeply_is_one_line(case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv, text = MAXIMAL_NESTING[case]
    path = tmp_path / "deep.json"
    path.write_text(text)
    code, _, err, seconds = run(filled(argv, file=path), capsys)
    assert code == 2 and one_line(err) and "the JSON nests too deeply to read" in err, err
    assert err.startswith(f"pysolve: error: {path}:"), err  # the file, and for a log its line
    assert seconds < 5


@pytest.mark.parametrize("case", JSON_TRAPS)
def test_json_traps_are_one_line(case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text, words = JSON_TRAPS[case]
    for argv, line in ((["solve", "hidato", FILE], text), (["azul", "replay", FILE], text.replace("\n", ""))):
        path = tmp_path / "trap.json"
        path.write_text(line)
        code, _, err, _ = run(filled(argv, file=path), capsys)
        assert code == 2 and one_line(err), err
        if argv[0] == "solve" or case in ("a lone surrogate", "an integer of 5,000 digits"):
            assert words in err, err


LONG_LINES = {  # reader -> a file whose offending word is 5 MB long
    "squares keywords": (["solve", "squares", FILE], "grid 2 2\n" + "x" * 5_000_000 + " 1\n"),
    "squares Owen": (["solve", "squares", FILE], "1 1\n0 0 " + "y" * 5_000_000 + " 0\n"),
    "squares labels": (["solve", "squares", FILE], "grid 1 1\npair a b\npiece 1 a b " + "z" * 5_000_000 + " a\n"),
    "tangram": (["solve", "tangram", FILE], "q" * 5_000_000 + "\n"),
    "tangram numbers": (["solve", "tangram", FILE], "board 2 " + "7" * 5_000_000 + "\n"),
    "hidato text": (["solve", "hidato", FILE], "1 " + "w" * 5_000_000 + "\n"),
    "hidato numbers": (["solve", "hidato", FILE], "1 " + "8" * 5_000_000 + "\n"),
    "sudoku": (["solve", "sudoku", FILE], "5 3 " + "v" * 5_000_000 + "\n"),
    "azul replay": (["azul", "replay", FILE], '{"type": "start", "engine": "' + "u" * 5_000_000 + '"}\n'),
}


@pytest.mark.parametrize("case", LONG_LINES)
def test_an_error_quotes_a_short_excerpt_of_a_long_line(case: str, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    argv, text = LONG_LINES[case]
    path = tmp_path / "long.txt"
    path.write_text(text)
    code, _, err, _ = run(filled(argv, file=path), capsys)
    assert code == 2 and one_line(err), err[:500]
    assert len(err) < 400, err


def test_an_excerpt_is_short_and_one_line() -> None:
    assert files.excerpt("short") == "'short'"
    assert files.excerpt("a\nb" * 1_000_000) == repr(("a\nb" * 20)[:60]) + "... (3,000,000 characters)"
    assert len(files.excerpt([list(range(10_000))] * 100)) == 63
    assert files.excerpt(10 ** 4000).count("...") == 1 and len(files.excerpt(10 ** 4000)) < 60


# ---------------------------------------------------------------- output files

def bad_names(tmp_path: Path) -> dict[str, tuple[str, str]]:
    """Output names that cannot be written -> the words of the one line that refuses each."""
    (tmp_path / "a directory").mkdir()
    return {
        "empty": ("", "the file name is empty"),
        "300 characters": (str(tmp_path / ("n" * 300 + ".svg")), "cannot write: File name too long"),
        "a directory": (str(tmp_path / "a directory"), "is a directory"),
        "a missing directory": (str(tmp_path / "no" / "such" / "out.svg"), "does not exist"),
    }


@pytest.mark.parametrize("name", ["empty", "300 characters", "a directory", "a missing directory"])
@pytest.mark.parametrize("writer", {**WRITERS, **REFUSED_BEFORE_PLAY})
def test_an_output_that_cannot_be_written_is_refused_before_any_work(writer: str, name: str, tmp_path: Path,
                                                                     azul_log: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    path, words = bad_names(tmp_path)[name]
    before = sorted(tmp_path.rglob("*"))
    code, out, err, seconds = run(filled({**WRITERS, **REFUSED_BEFORE_PLAY}[writer], out=path, log=azul_log), capsys)
    assert code == 2 and out == "" and one_line(err), err  # out == "": refused before anything was solved
    assert writer.split()[-1] in err and words in err, err
    assert sorted(tmp_path.rglob("*")) == before
    assert seconds < 5


def private_device(tmp_path: Path, name: str) -> Path:
    """/dev/null or /dev/full: as root a fresh node of the same device (so that a bug replacing it harms
    nothing of the system's), else the system's own (which no other user can replace)."""
    system = Path("/dev") / name
    if os.geteuid() != 0:
        return system
    node = tmp_path / name
    os.mknod(node, stat.S_IFCHR | 0o666, os.stat(system).st_rdev)
    return node


@pytest.mark.parametrize("writer", WRITERS)
def test_a_character_device_is_written_in_place_and_stays_a_device(writer: str, tmp_path: Path, azul_log: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("null", "full"):
        device = private_device(tmp_path, name)
        kind = os.stat(device).st_rdev
        code, _, err, _ = run(filled(WRITERS[writer], out=device, log=azul_log), capsys)
        if name == "null":
            assert code == 0 and err.endswith(f"wrote {device}\n"), err
        else:
            assert code == 2 and one_line(err) and "cannot write: No space left on device" in err, err
        assert stat.S_ISCHR(os.stat(device).st_mode) and os.stat(device).st_rdev == kind
    assert [path.name for path in tmp_path.iterdir() if path.name.endswith(".part")] == []


@pytest.mark.parametrize("writer", WRITERS)
def test_a_fifo_is_written_when_read_and_refused_at_once_when_not(writer: str, tmp_path: Path, azul_log: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    code, _, err, seconds = run(filled(WRITERS[writer], out=fifo, log=azul_log), capsys)
    assert code == 2 and one_line(err) and "cannot write: nothing reads this FIFO" in err, err
    assert seconds < 5
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    try:
        for _ in range(500):  # until the reader has the FIFO open
            code, _, err, _ = run(filled(WRITERS[writer], out=fifo, log=azul_log), capsys)
            if code == 0:
                break
            time.sleep(0.01)
    finally:
        if not received and code != 0:
            with open(fifo, "wb"):  # let the reader go
                pass
        reader.join(timeout=30)
    assert code == 0 and received and received[0], err
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]


def test_a_symbolic_link_is_followed_and_kept(tmp_path: Path) -> None:
    target = tmp_path / "real.svg"
    target.write_text("old")
    link = tmp_path / "link.svg"
    link.symlink_to(target)
    files.write_text(link, "<svg/>", "--svg")
    assert link.is_symlink() and target.read_text() == "<svg/>"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.svg", "real.svg"]


def test_a_socket_is_refused(tmp_path: Path) -> None:
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(tmp_path / "socket"))
        with pytest.raises(InputError, match="is a socket; write to a regular file, a character device or a FIFO"):
            files.check_output(tmp_path / "socket", "--svg")


def test_an_interrupted_write_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "game.log"
    target.write_text("the old log\n")
    with pytest.raises(KeyboardInterrupt), files.writing(target, "--log") as out:
        out.write("half a new log")
        raise KeyboardInterrupt
    assert target.read_text() == "the old log\n" and [p.name for p in tmp_path.iterdir()] == ["game.log"]


def test_ctrl_c_as_the_temporary_is_made_leaves_no_part(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C just after the temporary file exists, before its name is known (the race behind a `.part` left
    by the Ctrl-C test below now and then): held until the name is known, then the temporary is removed."""
    made = tempfile.mkstemp

    def interrupted(*args: Any, **kwargs: Any) -> tuple[int, str]:
        handle, name = made(*args, **kwargs)
        signal.raise_signal(signal.SIGINT)
        return handle, name

    monkeypatch.setattr(tempfile, "mkstemp", interrupted)
    with pytest.raises(KeyboardInterrupt), files.writing(tmp_path / "game.log", "--log") as out:
        out.write("never written")
    assert list(tmp_path.iterdir()) == []


def simulate(tmp_path: Path, games: int, **limits: Any) -> subprocess.Popen[str]:
    """`pysolve azul simulate --games GAMES --log game.log` started in `tmp_path`, on the python back end (what
    is tested is the files, not a back end: with Prolog hidden the default is miniKanren, 15 times slower, and
    300 logged games then outlast the wait for the log on a loaded machine); `file_size` limits the bytes it
    may write to a file (a full disk, as the process sees it)."""
    def limited() -> None:
        if "file_size" in limits:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG instead
            resource.setrlimit(resource.RLIMIT_FSIZE, (limits["file_size"], limits["file_size"]))

    return subprocess.Popen([sys.executable, "-m", "pysolve", "azul", "simulate", "--games", str(games),
                             "--log", "game.log", "--backend", "python"], cwd=tmp_path, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True, preexec_fn=limited)


@pytest.mark.subprocess
def test_a_full_disk_leaves_the_old_log_and_no_part(tmp_path: Path) -> None:
    (tmp_path / "game.log").write_text("the old log\n")
    run_ = simulate(tmp_path, 10, file_size=64 * 1024)
    _, err = run_.communicate(timeout=120)
    assert run_.returncode == 2 and one_line(err) and "--log 'game.log': cannot write: File too large" in err, err
    assert (tmp_path / "game.log").read_text() == "the old log\n"
    assert [p.name for p in tmp_path.iterdir()] == ["game.log"]


@pytest.mark.slow
@pytest.mark.parametrize("moment, games", [("while the games are played", 3000),  # about 15 s of games
                                           ("while the log is written", 300)])  # 11 MB of log
def test_ctrl_c_leaves_no_log_and_no_part(moment: str, games: int, tmp_path: Path) -> None:
    run_ = simulate(tmp_path, games)
    if moment == "while the games are played":
        time.sleep(1.5)
    else:
        while not [p for p in tmp_path.iterdir() if p.name.endswith(".part")] and run_.poll() is None:
            time.sleep(0.002)
    run_.send_signal(signal.SIGINT)
    _, err = run_.communicate(timeout=60)
    assert run_.returncode == 130 and err == "pysolve: interrupted\n", err
    assert list(tmp_path.iterdir()) == []


EXIT_AFTER_CTRL_C = """
import signal, sys
from pysolve import budget
signal.signal(signal.SIGINT, budget.on_interrupt)
sys.unraisablehook = budget.unraisable  # as the CLI's main installs them

class Closing:
    def __del__(self):  # a search's stream closed as Python exits, looking at its budget once more
        budget.Budget().check()

at_exit = Closing()
try:
    signal.raise_signal(signal.SIGINT)
except KeyboardInterrupt:  # as the CLI's main ends a run on Ctrl-C
    budget.interrupt_handled()
    print("pysolve: interrupted", file=sys.stderr)
sys.exit(130)
"""


@pytest.mark.subprocess
def test_an_interrupt_once_handled_raises_nothing_while_python_exits() -> None:
    """The race behind a Ctrl-C that hung `azul simulate` now and then: the interrupt, handled, was still
    remembered, so a budget looked at in a finaliser as Python exited raised it again, and redelivering it
    started a thread that never runs once Python is exiting: the process waited for ever."""
    run_ = subprocess.run([sys.executable, "-c", EXIT_AFTER_CTRL_C], capture_output=True, text=True, timeout=30)
    assert (run_.returncode, run_.stderr) == (130, "pysolve: interrupted\n")


def test_a_redelivery_arriving_after_the_interrupt_was_handled_is_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    """A swallowed interrupt is redelivered unless the run handled it first; one already on its way when the
    run handled it is dropped on arrival instead of breaking the run's exit. (The arrival is the handler
    called here, as Python calls it in the main thread.)"""
    sent: list[bool] = []
    monkeypatch.setattr(budget._thread, "interrupt_main", lambda: sent.append(True))
    monkeypatch.setattr(budget, "_interrupted", True)
    monkeypatch.setattr(budget, "_echoes", 0)
    budget._redeliver()  # before the run handled the interrupt: raised on arrival
    with pytest.raises(KeyboardInterrupt):
        budget.on_interrupt(signal.SIGINT, None)
    budget._redeliver()  # one more on its way ...
    budget.interrupt_handled()  # ... when the run handles the interrupt
    assert budget.on_interrupt(signal.SIGINT, None) is None  # it arrives: dropped
    budget._redeliver()  # once handled, nothing more is sent
    assert (sent, budget._interrupted, budget._echoes) == ([True, True], False, 0)
    budget.Budget().check()  # and budgets work again in this process
    with pytest.raises(KeyboardInterrupt):  # a new Ctrl-C is one
        budget.on_interrupt(signal.SIGINT, None)


CTRL_C_WHILE_LOADING = """
import builtins, signal, sys
load = builtins.__import__

def loading(name, *args, **kwargs):  # Ctrl-C as the command starts loading the CLI
    if name == "pysolve.cli":
        signal.raise_signal(signal.SIGINT)
    return load(name, *args, **kwargs)

builtins.__import__ = loading
sys.argv = ["pysolve", "azul", "simulate", "--games", "3000"]
from pysolve.__main__ import main  # what the `pysolve` command and `python -m pysolve` run
sys.exit(main())
"""


@pytest.mark.subprocess
def test_ctrl_c_while_the_command_loads_is_one_line() -> None:
    run_ = subprocess.run([sys.executable, "-c", CTRL_C_WHILE_LOADING], capture_output=True, text=True, timeout=60)
    assert (run_.returncode, run_.stdout, run_.stderr) == (130, "", "pysolve: interrupted\n")


# ---------------------------------------------------------------- clusters and workers

ADDRESSES = ["bogus", "tcp://", "tcp://host:notaport", "inproc://x", "tls://127.0.0.1:1", "tcp://host:0",
             "tcp://host:99999", "tcp://[::1", ""]
CLUSTER_USERS = {
    "solve --count": ["solve", "sudoku", str(data_dir() / "sudoku" / "easy.txt"), "--index", "1", "--count", "2",
                      "--cluster"],
    "azul simulate": ["azul", "simulate", "--cluster"],
}


@pytest.mark.parametrize("address", ADDRESSES)
@pytest.mark.parametrize("command", CLUSTER_USERS)
def test_a_malformed_cluster_address_is_one_line_before_any_work(command: str, address: str,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err, seconds = run([*CLUSTER_USERS[command], address], capsys)
    assert code == 2 and out == "" and one_line(err), err
    assert err.startswith(f"pysolve: error: --cluster {address!r}: ") and "tcp://HOST:PORT" in err
    assert seconds < 2  # nothing was split, started or connected to


@pytest.mark.subprocess
def test_more_workers_than_help_start_no_more_processes_than_cores(capsys: pytest.CaptureFixture[str]) -> None:
    cores = len(os.sched_getaffinity(0))
    code, out, err, seconds = run(["solve", "sudoku", str(data_dir() / "sudoku" / "easy.txt"), "--index", "1",
                                   "--count", "2", "--backend", "python", "--workers", "1000", "--json"], capsys)
    assert code == 0, err
    stats = json.loads(out)["stats"]  # answered by the one search tried while the pool started, or in parts
    ran = re.search(r"(\d+) process(es)? \(of 1000 asked: at most one per core and per task\)",
                    stats.get("serially", stats["ran_on"]))
    assert ran is not None and 1 <= int(ran[1]) <= cores, stats
    assert seconds < 15
    code, _, err, seconds = run(["azul", "simulate", "--games", "3", "--workers", "1000"], capsys)
    assert code == 0 and seconds < 15, err
    assert executors.useful_workers(1000, 3) == min(3, cores) and executors.useful_workers(2, 1) == 1


# ---------------------------------------------------------------- fuzz

ODD_WORDS = ["9" * 5_000, "-" + "9" * 30, "²", "١٢", "1_000", "0x1f", "1e9", "nan", "-inf", "\u2028", "\x85", "\x1c",
             "\ufeff", "\u202e", "🧩", "a" * 20_000, "\t", "#", "-1", "0", "{", "[", "\"", "\\"]
TEXT = st.text(st.characters(codec="utf-8"), max_size=10)  # what a UTF-8 file can hold (no lone surrogates)
FORMAT_WORDS = {
    "hidato": ["__", "_", "0", ".", "XX", "X", "-1", "1", "2", "4", "9", "12", "40", "4096", "4097"],
    "sudoku": [".", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "G", "|", "------+-------+------", "10",
               "16", "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"],
    "tangram": ["board", "piece", "rotations", "place", "yes", "no", "a", "b", "c", "k", "#112233", "#fff", "1", "2",
                "3", "4", "-1", "10", "64", "65"],
    "squares": ["grid", "rule", "insect", "eternity", "pair", "piece", "R", "r", "M", "m", "0", "1", "2", "3", "4",
                "-2"],
}


def text_of(words: list[str]) -> st.SearchStrategy[str]:
    """Lines of the format's words mixed with odd ones and any text, some of them repeated many times."""
    word = st.one_of(st.sampled_from(words), st.sampled_from(ODD_WORDS), TEXT)
    lines = st.lists(st.lists(word, max_size=8).map(" ".join), max_size=12).map("\n".join)
    return st.one_of(lines, st.builds(lambda text, times: "\n".join([text] * times), lines, st.integers(2, 2_000)))


@st.composite
def mutated(draw: st.DrawFn, sample: str, words: list[str]) -> str:
    """The sample file with a few lines deleted, repeated, or with a word replaced by another."""
    lines = sample.splitlines()
    for _ in range(draw(st.integers(1, 4))):
        if not lines:
            break
        at = draw(st.integers(0, len(lines) - 1))
        change = draw(st.sampled_from(["delete", "repeat", "word", "cut"]))
        if change == "delete":
            del lines[at]
        elif change == "repeat":
            lines.insert(at, lines[at])
        elif change == "cut":
            lines[at] = lines[at][:draw(st.integers(0, len(lines[at])))]
        else:
            split = lines[at].split() or [""]
            split[draw(st.integers(0, len(split) - 1))] = draw(st.one_of(st.sampled_from(words + ODD_WORDS), TEXT))
            lines[at] = " ".join(split)
    return "\n".join(lines) + draw(st.sampled_from(["", "\n", "\r\n", "\n\n# end"]))


def json_containers(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Lists and objects of `inner` values."""
    return st.lists(inner, max_size=5) | st.dictionaries(TEXT, inner, max_size=5)


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | TEXT, json_containers,
                           max_leaves=20)
NESTED = st.builds(lambda depth, closed: "[" * depth + "]" * (depth if closed else 0),
                   st.integers(1, 20_000), st.booleans())
JSON_TEXT = st.one_of(JSON_VALUES.map(json.dumps), NESTED, st.just('"\\ud800"'), st.just("[" + "7" * 5000 + "]"),
                      JSON_VALUES.map(lambda value: json.dumps(value)[:-1]))
HIDATO_ROWS = st.lists(st.lists(st.integers(-2, 20) | st.sampled_from([10 ** 30, 4097, True, 1.5]), max_size=6),
                       max_size=6)
HIDATO_SAMPLE = json.loads((data_dir() / "hidato" / "sample.json").read_text())


@st.composite
def hidato_sample_changed(draw: st.DrawFn) -> str:
    """The sample board as JSON with a few cells, or whole rows, replaced."""
    rows = copy.deepcopy(HIDATO_SAMPLE)
    for _ in range(draw(st.integers(1, 3))):
        r = draw(st.integers(0, len(rows) - 1))
        if draw(st.booleans()) and rows[r]:
            rows[r][draw(st.integers(0, len(rows[r]) - 1))] = draw(st.integers(-3, 45) | JSON_VALUES)
        else:
            rows[r] = draw(HIDATO_ROWS | JSON_VALUES)
    return json.dumps(draw(st.sampled_from([rows, {"puzzle": rows}])))


HIDATO_JSON = st.one_of(JSON_TEXT, HIDATO_ROWS.map(json.dumps),
                        HIDATO_ROWS.map(lambda rows: json.dumps({"puzzle": rows})), hidato_sample_changed())


def azul_records() -> list[dict[str, Any]]:
    """A real game's log records (one 2-player game)."""
    return play_match(seed=3, log=True).log


@st.composite
def azul_log_text(draw: st.DrawFn) -> str:
    """A real log, cut short, with values somewhere in its records replaced, removed or retyped, lines
    swapped, and odd lines added."""
    records = copy.deepcopy(GAME[:draw(st.integers(1, len(GAME)))])
    for _ in range(draw(st.integers(0, 3))):
        value: Any = draw(st.sampled_from(records))
        while isinstance(value, (dict, list)) and value and draw(st.booleans()):
            holder = value
            key = draw(st.sampled_from(sorted(holder) if isinstance(holder, dict) else range(len(holder))))
            value = holder[key]
        if isinstance(value, (dict, list)) and value:
            key = draw(st.sampled_from(sorted(value) if isinstance(value, dict) else range(len(value))))
            if draw(st.booleans()):
                value[key] = draw(JSON_VALUES | st.integers(-3, 30))
            else:
                del value[key]
    lines = [json.dumps(record) for record in records]
    if draw(st.booleans()):
        lines.insert(draw(st.integers(0, len(lines))), draw(JSON_TEXT | TEXT))
    if draw(st.booleans()) and len(lines) > 1:
        first, second = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
        lines[first], lines[second] = lines[second], lines[first]
    return "\n".join(lines)


TRACE_SAMPLE = "\n".join([  # a search of two nodes, as `solve --trace` writes one
    '{"trace": "pysolve", "version": 1, "puzzle": "hidato", "backend": "python", "question": {"file": "a.txt"}}',
    '{"e": "enter", "id": 1, "parent": 0, "depth": 1, "label": "2 at r1c2", "move": {"number": 2, "row": 1}}',
    '{"e": "fail", "id": 1, "depth": 1}', '{"e": "backtrack", "id": 1, "depth": 1}',
    '{"e": "enter", "id": 2, "parent": 0, "depth": 1, "label": "2 at r2c1"}',
    '{"e": "solution", "id": 2, "depth": 1, "count": 1}',
    '{"e": "end", "status": "solved", "nodes": 2, "fails": 1, "backtracks": 1, "solutions": 1, "events": 5}'])
TRACE_WORDS = ['{"e": "enter",', '"id":', '"parent":', '"depth":', '"label":', '"e": "end"', "-1", "0", "2", "true",
               "null", "[0]", "1" * 19, "1" * 5_000, '"\\ud800"', "[" * 3_000, "}", "{"]


def trace_text() -> st.SearchStrategy[str]:
    """The sample trace with lines deleted, repeated, cut or with a word replaced; or lines of any JSON."""
    return st.one_of(mutated(TRACE_SAMPLE, TRACE_WORDS),
                     st.lists(JSON_TEXT | TEXT, max_size=4).map(lambda lines: "\n".join([TRACE_SAMPLE.split(
                         "\n")[0], *lines])))


GAME = azul_records()
FUZZED = {  # format -> (the text strategy, the command reading it: a quick question, short time limits)
    "hidato text": (st.one_of(text_of(FORMAT_WORDS["hidato"]),
                              mutated(SAMPLES["hidato"][0].read_text(), FORMAT_WORDS["hidato"])),
                    ["solve", "hidato", FILE, "--count", "2", "--backend", "python", "--seconds", "2"]),
    "hidato JSON": (HIDATO_JSON, ["solve", "hidato", FILE, "--backend", "python", "--seconds", "2"]),
    "sudoku": (st.one_of(text_of(FORMAT_WORDS["sudoku"]),
                         mutated(SAMPLES["sudoku"][0].read_text(), FORMAT_WORDS["sudoku"])),
               ["solve", "sudoku", FILE, "--count", "2", "--backend", "python", "--seconds", "2"]),
    "tangram": (st.one_of(text_of(FORMAT_WORDS["tangram"]),
                          mutated(SAMPLES["tangram"][0].read_text(), FORMAT_WORDS["tangram"])),
                ["solve", "tangram", FILE, "--backend", "python", "--seconds", "2"]),
    "squares": (st.one_of(text_of(FORMAT_WORDS["squares"]),
                          mutated(SAMPLES["squares"][0].read_text(), FORMAT_WORDS["squares"]),
                          mutated((data_dir() / "squares" / "eternity" / "pieces_03x03.txt").read_text(),
                                  FORMAT_WORDS["squares"])),
                ["solve", "squares", FILE, "--backend", "python", "--seconds", "2"]),
    "azul replay": (azul_log_text(), ["azul", "replay", FILE]),
    "trace": (trace_text(), ["trace", FILE, FILE]),
}
FUZZ_EXAMPLES = 60  # per format, in each run of the suite


def fuzzed_run(argv: list[str], text: str) -> tuple[int, str]:
    """Exit code and stderr of `argv` run in this process on a file holding `text` (stdout dropped). An
    exception escaping `cli.main` fails the test, as the traceback it would print would."""
    with tempfile.TemporaryDirectory() as directory:  # hypothesis examples cannot share pytest's tmp_path
        path = Path(directory) / "fuzzed.txt"
        path.write_text(text, encoding="utf-8")
        err = io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            code = cli.main(filled(argv, file=path))
    return code, err.getvalue()


def behaves(code: int, err: str) -> bool:
    """Exit 0 or 2 with at most one short line on stderr, never a traceback."""
    return code in (0, 2) and err.count("\n") <= 1 and "Traceback" not in err and len(err) < 1_000 \
        and (code == 0 or err.startswith("pysolve: error: "))


@pytest.mark.slow
@pytest.mark.parametrize("fmt", FUZZED)
def test_fuzzed_files_end_in_exit_0_or_2_with_one_line(fmt: str) -> None:
    strategy, argv = FUZZED[fmt]

    @settings(max_examples=FUZZ_EXAMPLES, deadline=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(strategy)
    def check(text: str) -> None:
        code, err = fuzzed_run(argv, text)
        assert behaves(code, err), (code, err[:2000])

    check()


# ---------------------------------------------------------------- round three (issue 41)

@settings(max_examples=40, deadline=None)
@given(mode=st.integers(0, 0o777), through_a_link=st.booleans())
def test_an_output_written_over_keeps_its_mode_and_a_read_only_one_is_refused(mode: int,
                                                                              through_a_link: bool) -> None:
    with tempfile.TemporaryDirectory() as directory:  # hypothesis examples cannot share pytest's tmp_path
        target = Path(directory) / "out.svg"
        target.write_text("old")
        os.chmod(target, mode)
        named = target
        if through_a_link:
            named = Path(directory) / "link.svg"
            named.symlink_to(target)
        writable = bool(mode & stat.S_IWUSR)  # the owner may write it (this process owns it)
        if writable:
            files.write_text(named, "<svg/>", "--svg")
        else:
            with pytest.raises(InputError, match=r"--svg '.*': cannot write: the file is read-only \(mode 0"):
                files.write_text(named, "<svg/>", "--svg")
        assert stat.S_IMODE(os.stat(target).st_mode) == mode and named.is_symlink() == through_a_link
        os.chmod(target, 0o600)  # to read it, whatever its mode
        assert target.read_text() == ("<svg/>" if writable else "old")
        assert sorted(path.name for path in Path(directory).iterdir()) == sorted({"out.svg", named.name})


@pytest.mark.parametrize("writer", WRITERS)
def test_a_read_only_output_is_refused_in_one_line_before_any_work(writer: str, tmp_path: Path, azul_log: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "kept.out"
    target.write_text("the user's")
    target.chmod(0o444)
    code, out, err, _ = run(filled(WRITERS[writer], out=target, log=azul_log), capsys)
    assert code == 2 and out == "" and one_line(err), err
    assert "cannot write: the file is read-only (mode 0444)" in err, err
    assert target.read_text() == "the user's" and stat.S_IMODE(target.stat().st_mode) == 0o444
    assert sorted(path.name for path in tmp_path.iterdir()) == ["kept.out"]


@pytest.fixture(scope="module")
def two_traces(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """Two trace files of one quick search each, as `solve --trace` writes them."""
    folder = tmp_path_factory.mktemp("traces")
    for name in ("a", "b"):
        assert cli.main(["solve", "hidato", str(SAMPLES["hidato"][0]), "--backend", "python", "--trace",
                         str(folder / f"{name}.jsonl")]) == 0
    return [str(folder / "a.jsonl"), str(folder / "b.jsonl")]


def test_an_empty_output_name_is_one_line_for_check_and_trace(two_traces: list[str], tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    rules = Path(__file__).parent / "data" / "rules" / "hidato_relations.py"
    for argv in (["check", "hidato", str(rules), "--out", ""], ["trace", *two_traces, "--html", ""]):
        code, _, err, _ = run(argv, capsys)
        assert code == 2 and one_line(err) and f"{argv[-2]}: the file name is empty" in err, err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.subprocess
def test_a_check_leaves_nothing_in_the_current_folder_but_its_output(tmp_path: Path) -> None:
    here, cache = tmp_path / "here", tmp_path / "cache"
    here.mkdir()
    rules = Path(__file__).parent / "data" / "rules" / "hidato_relations_ignore_clues.py"
    environment = {key: value for key, value in os.environ.items() if key != "HYPOTHESIS_STORAGE_DIRECTORY"}
    done = subprocess.run([sys.executable, "-m", "pysolve.cli", "check", "hidato", str(rules), "--examples", "5",
                           "--seed", "3", "--out", "found.txt"], cwd=here, capture_output=True, text=True,
                          env={**environment, "XDG_CACHE_HOME": str(cache), "PYSOLVE_NO_PROLOG": "1"}, timeout=300)
    assert done.returncode == 1, done.stderr  # the rule base ignores the clues: a disagreement, written
    assert sorted(path.name for path in here.iterdir()) == ["found.txt"]
    assert (cache / "pysolve" / "hypothesis").is_dir()  # what hypothesis keeps went to pysolve's cache


def test_counts_past_their_documented_bound_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    rules = str(Path(__file__).parent / "data" / "rules" / "hidato_relations.py")
    for argv, bound in ((["azul", "simulate", "--games", "2147483648"], "1,000,000,000"),
                        (["check", "hidato", rules, "--examples", "99999999999999999999"], "100,000")):
        code, _, err, _ = run(argv, capsys)
        assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
        assert f"is more than {bound}, the most it takes" in err, err
        code, out, _, _ = run([*argv[:-2], "--help"], capsys)
        assert code == 0 and f"at most {bound}" in " ".join(out.split())


def gzip_bomb(path: Path, unpacked: int) -> Path:
    """A gzip file of `unpacked` bytes of '[' unpacked, about a thousandth of that packed: one member of 16 MB
    repeated (gzip reads concatenated members as one stream)."""
    member = gzip.compress(b"[" * 2**24, compresslevel=9)
    with path.open("wb") as out:
        for _ in range(unpacked // 2**24):
            out.write(member)
    return path


AGAIN = {  # what `azul record --again` is given -> the words of its one line
    "a gzip bomb (2 GB unpacked)": ("bomb", "unpacks to more than 16,777,216 bytes"),
    "a FIFO": ("fifo", "is a FIFO (named pipe), not a regular file"),
    "/dev/zero": ("/dev/zero", "is a character device, not a regular file"),
    "100,000 [": ("[" * 100_000, "the JSON nests too deeply to read"),
    "an integer of 5,001 digits": ("9" * 5_001, "the JSON holds an integer too long to read"),
    "not gzip": (None, "is not a gzipped playthrough"),
    "a lone CR": ('{"type": "start"}\r{"type": "end"}\n', "line 1 holds '\\r' (U+000D)"),
}


@pytest.mark.parametrize("case", AGAIN)
def test_recording_again_reads_with_the_input_files_guards(case: str, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    given, words = AGAIN[case]
    path = tmp_path / "old.jsonl.gz"
    if given == "bomb":
        gzip_bomb(path, 2**31)
        assert path.stat().st_size < 3 * 2**20
    elif given == "fifo":
        os.mkfifo(path)
    elif given == "/dev/zero":
        path = Path(given)
    elif given is None:
        path.write_text('{"type": "start"}\n')
    else:
        path.write_bytes(gzip.compress(given.encode()))
    tracemalloc.start()
    try:
        code, _, err, seconds = run(["azul", "record", "--again", str(path)], capsys)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert code == 2 and one_line(err) and words in err, err
    assert peak < 64 * 2**20 and seconds < 10  # unpacked to the limit at most, never to the bomb's 2 GB


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=st.lists(JSON_TEXT | TEXT, max_size=4), header=st.booleans())
def test_a_fuzzed_playthrough_is_read_or_refused_by_an_input_error(lines: list[str], header: bool) -> None:
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "fuzzed.jsonl.gz"
        start = ['{"type": "start", "format": 1, "players": 2, "variant": "standard", "seed": 1}'] if header else []
        path.write_bytes(gzip.compress("\n".join(start + lines).encode("utf-8")))
        try:
            from pysolve.azul import playthrough

            records = playthrough.read(path)
        except InputError as error:
            assert "\n" not in str(error) and len(str(error)) < 400
        else:
            assert records[0]["type"] == "start" and records[-1]["type"] == "end"


TRACEBACKS = {  # a CLI value that once escaped as a traceback -> the words of its one line now
    "--place of 5,000 digits": (["solve", "tangram", "--validate", "--place", "green:0," + "9" * 5_000],
                                "is not an integer of at most 18 digits"),
    "--place in full-width digits": (["solve", "tangram", "--validate", "--place", "green:\uff10,1"], "'\uff10'"),
    "--place in Arabic-Indic digits": (["solve", "tangram", "--validate", "--place", "green:0,\u0663"], "'\u0663'"),
    "--memory of 400 nines": (["solve", "tangram", "--count", "--memory", "9" * 400], "give a size such as 512M"),
    "--memory past setrlimit": (["solve", "tangram", "--count", "--memory", "99999999999999999999999T"],
                                "give a size such as 512M"),
    "--memory past any machine": (["solve", "tangram", "--count", "--memory", "99999T"], "give at most 1024T"),
    "--examples of 5,000 digits": (["check", "hidato", "x.pl", "--examples", "9" * 5_000], "is more than 100,000"),
    "--max-size of 5,000 digits": (["check", "hidato", "x.pl", "--max-size", "9" * 5_000], "at most 18 digits"),
}


@pytest.mark.parametrize("case", TRACEBACKS)
def test_a_value_that_once_escaped_as_a_traceback_is_one_short_line(case: str,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    argv, words = TRACEBACKS[case]
    code, _, err, _ = run(argv, capsys)
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err and words in err, err
    assert len(err) < 300, err  # an excerpt of the value, never all of it


@functools.cache
def classic() -> Any:
    """The default tangram instance, read once for the examples of a test."""
    from pysolve.tangram.reader import load_instance

    return load_instance(None)


NOT_ASCII_DIGITS = st.characters(categories=["Nd"]).filter(lambda character: not character.isascii())


@settings(max_examples=80, deadline=None)
@given(word=st.text(min_size=1, max_size=30) | st.text("0123456789", min_size=1, max_size=40).map(
    lambda digits: "-" + digits), place=st.sampled_from(["{}:0,0", "green:{},0", "green:0,{}", "red:0,0:{}x2"]))
def test_any_place_value_is_a_placement_or_one_short_input_error(word: str, place: str) -> None:
    from pysolve.tangram.reader import parse_place

    text = place.format(word)
    try:
        parse_place(classic(), text)
    except InputError as error:  # two excerpts at most, each of 60 characters escaped (up to 10 characters each)
        assert "\n" not in str(error) and len(str(error)) < 1_500 and str(error).startswith("--place ")
    else:
        assert all(character.isascii() for character in text.partition(":")[2])


@settings(max_examples=60, deadline=None)
@given(digit=NOT_ASCII_DIGITS, where=st.sampled_from(["{}", "1{}", "{}2"]))
def test_a_digit_that_is_not_ascii_is_refused_naming_what_was_read(digit: str, where: str) -> None:
    from pysolve.hidato.model import parse
    from pysolve.tangram.reader import parse_place

    word = where.format(digit)
    with pytest.raises(InputError, match=re.escape(files.excerpt(word))):
        parse(f"1 __ __\n__ {word} __\n__ __ 9\n")
    with pytest.raises(InputError, match=re.escape(files.excerpt(word))):
        parse_place(classic(), f"green:{word},0")


@settings(max_examples=60, deadline=None)
@given(text=st.text(max_size=30))
def test_any_memory_size_is_a_bound_or_one_short_input_error(text: str) -> None:
    from pysolve import memory

    try:
        size = memory.parse_size(text)
    except InputError as error:
        assert "\n" not in str(error) and len(str(error)) < 300
    else:
        assert size == 0 or 64 * 2**20 <= size <= memory.MAX_SIZE
        assert text.isascii()


LINE_ENDS = ["\u2028", "\u2029", "\x85", "\r", "\x0b", "\x0c", "\x1c"]  # Python splits lines at each, files may not


@pytest.mark.parametrize("puzzle", SAMPLES)
@pytest.mark.parametrize("end", LINE_ENDS)
def test_a_line_end_other_than_lf_or_crlf_is_refused_naming_the_line(puzzle: str, end: str, tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    sample, question = SAMPLES[puzzle]
    lines = sample.read_text().split("\n")
    lines[1] = lines[1].replace(" ", end, 1) if " " in lines[1] else lines[1] + end
    path = tmp_path / sample.name
    path.write_text("\n".join(lines), encoding="utf-8", newline="")
    code, _, err, _ = run(["solve", puzzle, str(path), *question], capsys)
    assert code == 2 and one_line(err), err
    assert f"line 2 holds {end!r} (U+{ord(end):04X}" in err and "lines end with \\n or \\r\\n only" in err, err


@pytest.mark.parametrize("reader", READERS)
def test_a_file_name_holding_a_newline_gives_one_line(reader: str, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "two\nlines.txt"
    path.write_text("no such format\n")
    code, _, err, _ = run(filled(READERS[reader], file=path), capsys)
    assert code == 2 and one_line(err), err
    assert "two\\nlines.txt" in err, err


# ---------------------------------------------------------------- every reader, found where it is declared (issue 41)

def readers_found() -> dict[str, list[str]]:
    """Every command that reads a file, found where it is declared rather than listed here: each option of each
    puzzle of the registry (pysolve.puzzles) that reads a file, and `pysolve trace`, so a reader added later is
    asked everything below without a line of this file changing."""
    found = {}
    for name in puzzles.names():
        for option in puzzles.get(name).question_options():
            if option.reads_file:
                found[f"{name} {option.flag}"] = ["solve", name, *(() if option.positional else (option.flag,)), FILE]
    return {**found, "trace": ["trace", FILE, FILE]}


READERS_FOUND = readers_found()


def test_every_reader_found_is_fuzzed_and_asked_the_broken_files() -> None:
    fuzzed = {tuple(argv[:2]) for _, argv in FUZZED.values()}
    for reader, argv in READERS_FOUND.items():
        assert tuple(argv[:2]) in fuzzed, f"{reader}: no hypothesis fuzz of its format in FUZZED"
    assert len(READERS_FOUND) > len(SAMPLES)  # the registry's puzzles and the trace reader were found


@pytest.mark.timeout(120)
@pytest.mark.parametrize("case", BROKEN)
@pytest.mark.parametrize("reader", READERS_FOUND)
def test_every_reader_found_refuses_a_broken_file_in_one_line(reader: str, case: str, tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    path = broken_file(tmp_path, case) if case != "huge" else tmp_path / "huge.txt"
    if case == "huge":  # sparse, past every reader's limit (a trace's is larger than a puzzle's): no disk spent
        with path.open("wb") as out:
            out.truncate(2**30)
    code, out, err, _ = run(filled(READERS_FOUND[reader], file=path), capsys)
    assert code == 2 and out == "" and one_line(err), err
    assert str(path) in err and BROKEN[case][1] in err, err


def a_million_events(path: Path) -> Path:
    """A trace of a million events (500,000 nodes entered and left), its lines as short as the format allows."""
    with path.open("w") as out:
        out.write(TRACE_SAMPLE.split("\n")[0] + "\n")
        for node in range(1, 500_001):
            out.write(f'{{"e":"enter","id":{node},"parent":0,"depth":1}}\n{{"e":"backtrack","id":{node},"depth":1}}\n')
        out.write('{"e": "end", "status": "solved"}\n')
    return path


TRACE_TRAPS = {  # what `pysolve trace A B` once hung on, read for ever or answered with a traceback -> its line
    "two FIFOs": ("fifo", "is a FIFO (named pipe), not a regular file"),
    "/dev/zero twice": ("/dev/zero", "is a character device, not a regular file"),
    "an event id of 5,000 digits": ('{"e": "enter", "id": ' + "7" * 5_000 + ', "parent": 0, "depth": 1}',
                                    ":2: the JSON holds an integer too long to read"),
    "an event id of 40 digits": ('{"e": "enter", "id": ' + "7" * 40 + ', "parent": 0, "depth": 1}',
                                 ":2: an event's 'id' is a whole number >= 0 of at most 18 digits"),
    "an event of 5,000 characters": ('{"e": "' + "x" * 5_000 + '"}', ":2: unknown event 'xxx"),
    "JSON nested 100,000 deep": ("[" * 100_000, ":2: the JSON nests too deeply to read"),
}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("case", TRACE_TRAPS)
def test_a_trace_trap_is_one_short_line(case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    given, words = TRACE_TRAPS[case]
    path = tmp_path / "a.jsonl"
    if given == "fifo":
        os.mkfifo(path)  # nobody writes it: opened without blocking, refused before a byte is read
    elif given.startswith("/dev/"):
        path = Path(given)
    else:
        path.write_text("\n".join([TRACE_SAMPLE.split("\n")[0], given, TRACE_SAMPLE.split("\n")[-1]]))
    code, out, err, _ = run(["trace", str(path), str(path)], capsys)
    assert code == 2 and out == "" and one_line(err) and words in err, err
    assert len(err) < 300, err


@pytest.mark.slow
@pytest.mark.subprocess
def test_a_trace_of_a_million_events_replays_within_256_mb(tmp_path: Path) -> None:
    path = a_million_events(tmp_path / "million.jsonl")
    done = subprocess.run([sys.executable, "-m", "pysolve", "trace", str(path), str(path), "--memory", "256M"],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=600)
    assert done.returncode == 0, done.stderr  # every event as a dict took 770 MB; the kept ones fit
    assert "million.jsonl: replays its first 100,000 of the 1,000,000 events in the file" in done.stdout


@functools.cache
def json_samples() -> dict[str, str]:
    """The puzzles that read JSON as well, each as `generate --json` writes an instance."""
    from pysolve.squares import model as squares
    from pysolve.tangram.reader import load_instance

    return {"squares": json.dumps(squares.load().to_json()), "tangram": json.dumps(load_instance(None).to_json())}


ODD_CHARACTERS = st.characters(categories=["Cc", "Cf", "Co", "Zs"], exclude_characters=" \n\r\x0b\x0c\x1c\x1d\x1e\x85")


@st.composite
def a_name_made_odd(draw: st.DrawFn) -> tuple[str, str, str]:
    """(puzzle, file text, the character): a word of a sample file, or a string of a JSON one, holding a NUL,
    a control character, a format character (a bidi override), a private-use one or an odd space."""
    odd = draw(ODD_CHARACTERS)
    puzzle = draw(st.sampled_from(sorted(SAMPLES) + [f"{name} JSON" for name in json_samples()]))
    if puzzle.endswith(" JSON"):
        text = json_samples()[puzzle.split()[0]]
        strings = [match.span(1) for match in re.finditer(r'"([^"]+)"', text)]
        start, end = draw(st.sampled_from(strings))
        at = draw(st.integers(start, end))
        return puzzle.split()[0], text[:at] + json.dumps(odd)[1:-1] + text[at:], odd
    lines = SAMPLES[puzzle][0].read_text().split("\n")
    number = draw(st.sampled_from([n for n, line in enumerate(lines) if line.strip() and line[0] != "#"]))
    at = draw(st.integers(0, len(lines[number].rstrip())))
    lines[number] = lines[number][:at] + odd + lines[number][at:]
    return puzzle, "\n".join(lines), odd


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=a_name_made_odd())
def test_a_control_character_in_any_name_is_refused_or_never_printed(case: tuple[str, str, str]) -> None:
    puzzle, text, odd = case
    with tempfile.TemporaryDirectory() as directory:  # hypothesis examples cannot share pytest's tmp_path
        path = Path(directory) / "odd.txt"
        path.write_text(text, encoding="utf-8")
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli.main(["solve", puzzle, str(path), *SAMPLES[puzzle][1][:-2], "--backend", "python",
                             "--seconds", "5"])
    assert behaves(code, err.getvalue()), (code, err.getvalue())
    if code == 2:
        said = err.getvalue()
        assert said.startswith("pysolve: error: ") and str(path) in said and odd not in said, said
    else:  # read as the blank it is (a space, a tab between words), never echoed as a raw control character
        assert odd.isspace() or odd not in out.getvalue(), out.getvalue()[:500]


NAMES_REFUSED = {  # a name in a puzzle's JSON -> (the change, the words of its one line)
    "squares: a NUL in a label": ("squares", lambda data: data["pairs"][0].__setitem__(0, "R\0"),
                                  "pairs[0]: the label 'R\\x00' holds '\\x00' (U+0000)"),
    "tangram: a name that is null": ("tangram", lambda data: data["pieces"][0].__setitem__("name", None),
                                     "pieces[0]: 'name' is text or a whole number, not null"),
    "tangram: a NUL key": ("tangram", lambda data: data["pieces"][0].__setitem__("key", "\0"),
                           "pieces[0]: the key '\\x00' holds '\\x00' (U+0000)"),
}


@pytest.mark.parametrize("case", NAMES_REFUSED)
def test_a_name_refused_is_one_line_naming_the_file_and_field_from_the_cli_and_the_api(
        case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from pysolve import api

    puzzle, change, words = NAMES_REFUSED[case]
    data = json.loads(json_samples()[puzzle])
    change(data)
    path = tmp_path / f"{puzzle}.json"
    path.write_text(json.dumps(data))
    code, out, err, _ = run(["solve", puzzle, str(path), "--backend", "python"], capsys)
    assert code == 2 and out == "" and one_line(err) and f"{path}:{words}" in err, err
    with pytest.raises(InputError, match=re.escape(f"{path}:{words}")):
        api.solve(puzzle, file=str(path), backend="python")


def test_a_file_of_more_sudoku_puzzles_than_the_documented_bound_is_one_line(tmp_path: Path,
                                                                           capsys: pytest.CaptureFixture[str]) -> None:
    from pysolve.sudoku.model import MAX_PUZZLES

    line = (data_dir() / "sudoku" / "easy.txt").read_text().split()[0]
    path = tmp_path / "many.txt"
    path.write_text(f"{line}\n" * (MAX_PUZZLES + 1))
    code, out, err, seconds = run(["solve", "sudoku", str(path), "--backend", "python"], capsys)
    assert code == 2 and out == "" and one_line(err), err
    assert f"{MAX_PUZZLES + 1:,} puzzle lines; a file holds at most {MAX_PUZZLES:,}" in err and seconds < 10
    assert f"up to {MAX_PUZZLES:,}" in (Path(__file__).parents[1] / "docs" / "sudoku.md").read_text()


@settings(max_examples=40, deadline=None)
@given(words=st.lists(st.text(min_size=1, max_size=12), min_size=200, max_size=1_000),
       joined=st.sampled_from([",", ":", " ", "+"]))
def test_a_long_strategy_is_quoted_as_an_excerpt(words: list[str], joined: str) -> None:
    from pysolve.azul.strategies import strategy

    name = joined.join(words)
    for asked in (name, f"mcts:{name}", f"minimax:{name}"):
        try:
            strategy(asked)
        except InputError as error:  # the known names, two excerpts at most (60 characters escaped: up to 10 each)
            assert "\n" not in str(error) and len(str(error)) < 1_600 and name not in str(error), str(error)[:2000]


@pytest.mark.parametrize("case", [case for case in TRACE_TRAPS if not TRACE_TRAPS[case][0].startswith(("fifo", "/"))])
def test_an_uploaded_trace_trap_is_a_one_line_400(case: str) -> None:
    from starlette.testclient import TestClient

    from pysolve import bridge
    from pysolve.web.app import create_app

    lines = TRACE_SAMPLE.split("\n")
    text = "\n".join([lines[0], TRACE_TRAPS[case][0], lines[-1]])
    app = create_app("python")
    with TestClient(app) as web:
        response = web.post("/api/traces/read", json={"traces": [{"name": "a.jsonl", "text": text},
                                                                 {"name": "b.jsonl", "text": TRACE_SAMPLE}]})
    app.state.workers.close(bridge.release_thread, 10)  # no worker thread outlives the test
    error = response.json()["error"]
    assert response.status_code == 400 and "\n" not in error and len(error) < 300, error
    assert f"a.jsonl{TRACE_TRAPS[case][1]}" in error, error
