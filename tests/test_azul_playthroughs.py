"""Recorded Azul games (tests/data/azul_playthroughs) replayed on every engine, state by state and move list by
move list; recording them again; the first difference named."""

from __future__ import annotations

import copy
import gzip
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pysolve.azul import playthrough
from pysolve.cli import main
from pysolve.errors import InputError

PLAYTHROUGHS = sorted((Path(__file__).parent / "data" / "azul_playthroughs").glob(f"*{playthrough.SUFFIX}"))
RECORDED = {path.name: playthrough.read(path) for path in PLAYTHROUGHS}


def test_the_set_covers_every_player_count_and_both_walls_with_long_games() -> None:
    kinds = {(records[0]["players"], records[0]["variant"]) for records in RECORDED.values()}
    assert kinds == {(players, variant) for players in (2, 3, 4) for variant in ("standard", "grey")}
    for name, records in RECORDED.items():
        steps = [item for item in records if item["type"] == "step"]
        columns = [item for item in steps if item["move"][0] == -2]  # a grey wall's column choices
        grey = records[0]["variant"] == "grey"
        assert bool(columns) == grey and all(len(item["legal"]) >= 1 for item in columns), name
        # a grey game ends sooner: random columns soon leave no row that can be completed
        assert len(steps) >= (130 if grey else 150) and records[-1]["state"]["round"] >= 10, name
        assert records[-1]["state"]["over"] and len(steps) - len(columns) == records[-1]["state"]["moves"]
        rounds = [item["round"] for item in records if item["type"] == "round"]
        assert rounds == list(range(1, records[-1]["state"]["round"] + 1))
        assert name == playthrough.file_name(records[0]["players"], records[0]["variant"], records[0]["seed"])


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(RECORDED))
def test_every_engine_replays_every_playthrough_exactly(pysolve_backend: str, name: str) -> None:
    assert playthrough.replay(RECORDED[name], pysolve_backend) is None


@pytest.mark.slow
@settings(max_examples=2, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # pysolve_backend is a plain name
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**40), variant=st.sampled_from(["standard", "grey"]))
def test_a_new_playthrough_of_any_seed_replays_on_every_engine(pysolve_backend: str, players: int, seed: int,
                                                               variant: str) -> None:
    records = playthrough.record(players, seed, variant)
    assert records[-1]["state"]["over"] and records[0]["command"].endswith(playthrough.file_name(players, variant,
                                                                                                 seed))
    assert playthrough.replay(records, pysolve_backend) is None


def test_recording_again_gives_the_same_records() -> None:
    name = min(RECORDED, key=lambda key: len(RECORDED[key]))
    header = RECORDED[name][0]
    assert playthrough.record(header["players"], header["seed"], header["variant"]) == RECORDED[name]


def test_a_replay_names_the_first_step_that_differs() -> None:
    records = copy.deepcopy(RECORDED[min(RECORDED)])
    steps = [item for item in records if item["type"] == "step"]
    steps[40]["state"]["boards"][1]["floor"].append(0)
    steps[90]["legal"].pop()
    found = playthrough.replay(records, "python")
    assert found is not None and found.startswith("python differs at step 40 (")
    assert "state['boards'][1]['floor']" in found
    steps[40]["state"]["boards"][1]["floor"].pop()
    found = playthrough.replay(records, "python")
    assert found is not None and "step 90 (" in found and "legal moves" in found
    steps[90]["legal"] = [[-1, 0, 0]]
    found = playthrough.replay(records, "python")
    assert found is not None and "legal moves" in found


def test_a_round_scored_otherwise_and_another_move_are_named() -> None:
    records = copy.deepcopy(RECORDED[min(RECORDED)])
    scored = next(item for item in records if item["type"] == "round" and item["round"] == 3)
    scored["scores"][0] += 1
    assert playthrough.replay(records, "python") == (
        "python differs at the scores after round 3: scores[0]: "
        f"{scored['scores'][0]} against {scored['scores'][0] - 1}")
    scored["scores"][0] -= 1
    step = next(item for item in records if item["type"] == "step" and item["step"] == 7)
    step["move"] = [9, 9, 9]
    found = playthrough.replay(records, "python")
    assert found is not None and found.startswith("python differs at step 7 (")
    assert found.endswith("the recorded move [9, 9, 9] is not one of the legal moves")


def test_bad_files_are_input_errors(tmp_path: Path) -> None:
    plain = tmp_path / "plain.jsonl.gz"
    plain.write_text("{}\n")
    with pytest.raises(InputError, match="not a gzipped playthrough"):
        playthrough.read(plain)
    with pytest.raises(InputError, match="no such file"):
        playthrough.read(tmp_path / "missing.jsonl.gz")
    broken = tmp_path / "broken.jsonl.gz"
    broken.write_bytes(gzip.compress(b'{"type": "start", "format": 1}\n{not json\n'))
    with pytest.raises(InputError, match=r"broken.jsonl.gz:2: not JSON"):
        playthrough.read(broken)
    headless = tmp_path / "headless.jsonl.gz"
    headless.write_bytes(gzip.compress(b'{"type": "end"}\n'))
    with pytest.raises(InputError, match="starts with its header"):
        playthrough.read(headless)
    nameless = tmp_path / "nameless.jsonl.gz"
    nameless.write_bytes(gzip.compress(b'{"type": "start", "format": 1, "players": 2, "variant": "grey"}\n'
                                       b'{"type": "end"}\n'))
    with pytest.raises(InputError, match="nameless.jsonl.gz:1: the header's seed should be an integer"):
        playthrough.read(nameless)


def test_the_record_command_writes_the_kept_playthrough_and_records_old_ones_again(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "game.jsonl.gz"
    assert main(["azul", "record", "--players", "3", "--variant", "grey", "--seed", "5", "--out", str(out)]) == 0
    kept = next(path for path in PLAYTHROUGHS if path.name == "3p-grey-seed5.jsonl.gz")
    assert out.read_bytes() == kept.read_bytes()
    assert "177 moves of a 3-player grey game, seed 5" in capsys.readouterr().err
    out.write_bytes(gzip.compress(b"".join(line + b"\n" for line in gzip.decompress(kept.read_bytes()).split(b"\n")
                                           if line and b'"type":"round"' not in line)))
    assert main(["azul", "record", "--again", str(out)]) == 0
    assert out.read_bytes() == kept.read_bytes()


@pytest.mark.parametrize(("argv", "message"), [
    (["--players", "5", "--out", "x.jsonl.gz"], "--players: Azul is for 2 to 4 players"),
    (["--variant", "blue", "--out", "x.jsonl.gz"], "--variant: unknown variant"),
    ([], "give --out FILE"),
    (["--out", "x", "--again", "y"], "give --out FILE"),
    (["--again", "/nonexistent/y.jsonl.gz"], "no such file"),
    (["--again", str(Path(__file__).parent / "data" / "rules")], "is a directory, not a regular file"),
    (["--out", "/nonexistent/dir/x.jsonl.gz"], "--out"),
])
def test_bad_record_commands_are_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str],
                                                      message: str) -> None:
    assert main(["azul", "record", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_recording_again_from_a_header_that_cannot_be_names_the_file(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    odd = tmp_path / "odd.jsonl.gz"
    odd.write_bytes(gzip.compress(b'{"type": "start", "format": 1, "players": 9, "variant": "grey", "seed": 1}\n'
                                  b'{"type": "end"}\n'))
    assert main(["azul", "record", "--again", str(odd)]) == 2
    assert f"{odd}: Azul is for 2 to 4 players, not 9" in capsys.readouterr().err
