"""Bad input files, per format: each is one line on stderr naming the file and the problem, exit 2, quickly.

Every command that reads a file is asked the same table of broken files
(empty, binary, not UTF-8, a directory, missing, huge, a device, a FIFO);
CRLF line ends and a byte-order mark are read as the plain file is. JSON
nested past Python's recursion, integers past its digits and lone
surrogates are one line too, and a message quotes a 5 MB line by a short
excerpt. Output into a missing directory fails the same way and leaves
nothing behind.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from pysolve import cli, files
from pysolve.errors import InputError
from pysolve.paths import data_dir

SAMPLES = {  # puzzle -> a valid file of its format, and the arguments of a quick question about it
    "hidato": (data_dir() / "hidato" / "sample.txt", ["--count", "2", "--backend", "python"]),
    "squares": (data_dir() / "squares" / "insects.txt", ["--all", "--backend", "python"]),
    "tangram": (data_dir() / "tangram" / "classic.txt", ["--count", "--strategy", "cell", "--backend", "python"]),
    "sudoku": (data_dir() / "sudoku" / "wikipedia.txt", ["--count", "2", "--backend", "python"]),
}
FILE = "{FILE}"  # stands for the file read
READERS = {  # every command that reads an input file
    "hidato": ["solve", "hidato", FILE, "--backend", "python"],
    "squares": ["solve", "squares", FILE, "--backend", "python"],
    "tangram": ["solve", "tangram", FILE, "--backend", "python"],
    "sudoku": ["solve", "sudoku", FILE, "--backend", "python"],
    "hidato --shape": ["generate", "hidato", "--shape", FILE],
    "play tangram": ["play", "tangram", FILE],
    "azul replay": ["azul", "replay", FILE],
}
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
    """Exit code, stdout, stderr and seconds of one `pysolve` command run in this process."""
    started = time.perf_counter()
    code = cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err, time.perf_counter() - started


def one_line(err: str) -> bool:
    """True when stderr is exactly one `pysolve: error:` line, no traceback."""
    return err.count("\n") == 1 and err.startswith("pysolve: error: ") and "Traceback" not in err


def filled(argv: list[str], file: Path) -> list[str]:
    """`argv` with FILE replaced by the path of `file`."""
    return [str(file) if word == FILE else word for word in argv]


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
    "broken JSON": ('[[1, 0], [0, 4]\n', "not JSON (Expecting ',' delimiter at line 2, column 1)"),
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


@pytest.mark.parametrize("puzzle", SAMPLES)
def test_output_into_a_missing_directory_fails_and_leaves_nothing(puzzle: str, tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    sample, question = SAMPLES[puzzle]
    target = tmp_path / "no" / "such" / "dir" / "out.svg"
    code, out, err, _ = run(["solve", puzzle, str(sample), *question, "--svg", str(target)], capsys)
    assert code == 2 and err.count("\n") == 1 and "does not exist" in err, err
    assert list(tmp_path.iterdir()) == []
