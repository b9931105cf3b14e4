"""Bad input files, per format: each is one line on stderr naming the file and the problem, exit 2, quickly.

Every puzzle that reads a file is asked the same table of broken files
(empty, binary, not UTF-8, a directory, missing, huge); CRLF line ends and
a byte-order mark are read as the plain file is. Output into a missing
directory fails the same way and leaves nothing behind.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from pysolve import cli, files
from pysolve.paths import data_dir

SAMPLES = {  # puzzle -> a valid file of its format, and the arguments of a quick question about it
    "hidato": (data_dir() / "hidato" / "sample.txt", ["--count", "2", "--backend", "python"]),
    "squares": (data_dir() / "squares" / "insects.txt", ["--all", "--backend", "python"]),
    "tangram": (data_dir() / "tangram" / "classic.txt", ["--count", "--strategy", "cell", "--backend", "python"]),
    "sudoku": (data_dir() / "sudoku" / "wikipedia.txt", ["--count", "2", "--backend", "python"]),
}

BROKEN = {  # name -> (file contents or a maker, the words the message must hold)
    "empty": (b"", "empty"),
    "binary": (b"\x00\x01\x02 not text\n", "binary file"),
    "not UTF-8": (b"\xff\xfe 1 2 3\n", "not UTF-8"),
    "huge": (None, "input files are limited"),
    "directory": ("directory", "is a directory"),
    "missing": ("missing", "no such file"),
}


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str, float]:
    """Exit code, stdout, stderr and seconds of one `pysolve` command run in this process."""
    started = time.perf_counter()
    code = cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err, time.perf_counter() - started


def broken_file(tmp_path: Path, case: str) -> Path:
    """A file (or a directory, or no file) broken the way `case` says."""
    contents, _ = BROKEN[case]
    path = tmp_path / "puzzle.txt"
    if contents == "directory":
        path.mkdir()
    elif contents is None:
        path.write_bytes(b"# padding\n" * (files.MAX_INPUT_BYTES // 10 + 1))
    elif contents != "missing":
        path.write_bytes(contents)
    return path


@pytest.mark.parametrize("case", BROKEN)
@pytest.mark.parametrize("puzzle", SAMPLES)
def test_a_broken_file_is_one_line_and_exit_2(puzzle: str, case: str, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    path = broken_file(tmp_path, case)
    code, out, err, seconds = run(["solve", puzzle, str(path)], capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert str(path) in err and BROKEN[case][1] in err, err
    assert seconds < 5


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


@pytest.mark.parametrize("puzzle", SAMPLES)
def test_output_into_a_missing_directory_fails_and_leaves_nothing(puzzle: str, tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    sample, question = SAMPLES[puzzle]
    target = tmp_path / "no" / "such" / "dir" / "out.svg"
    code, out, err, _ = run(["solve", puzzle, str(sample), *question, "--svg", str(target)], capsys)
    assert code == 2 and err.count("\n") == 1 and "does not exist" in err, err
    assert list(tmp_path.iterdir()) == []
