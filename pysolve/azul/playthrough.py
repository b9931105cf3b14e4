"""Playthroughs: recorded games that every engine must replay exactly, as OpenSpiel keeps one for each game.

A playthrough is one seeded game written as JSON lines (gzipped): a header
(players, variant, seed, how the moves were chosen, the command that records
it again), then for every move the state before it, the legal moves there
and the move played, after each round's wall tiling the scores, and at the
end the final state and the winners. `replay(records, backend)` plays the
recorded moves on a back end's engine from the same seed and compares every
state and every legal-move list with the recording; it names the first
step where they differ.

The moves are chosen from a stream of their own, never the game's, so the
game's stream deals the same tiles whichever engine replays the moves: a
replay needs only the seed and the moves. The chooser plays a floor move
seven times in ten (when one is legal) and otherwise any legal move, both
uniformly (a grey wall's column choice: any of its columns; column 0 is no
floor): the games run to a few hundred moves and through what short
games rarely reach (many rounds, the bag refilled from the lid, full floors
sending tiles to the lid, scores held at 0).
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from pysolve import files
from pysolve.agreement import first_difference
from pysolve.azul.match import Match
from pysolve.azul.model import FLOOR, STANDARD, RandomStream, is_tiling
from pysolve.errors import InputError
from pysolve.files import excerpt

FORMAT = 1                    # the version of the file layout below
CHOOSER_SEED = 1_000_000_007  # the chooser's stream is seeded with the game's seed plus this
FLOOR_SHARE = 0.7             # how often the chooser plays the floor when it may
SUFFIX = ".jsonl.gz"


def choose(moves: Sequence[Any], stream: RandomStream) -> Any:
    """The chooser: a floor move FLOOR_SHARE of the time when one is legal, else any legal move (uniformly)."""
    floor = [move for move in moves if len(move) == 3 and move[2] == FLOOR and not is_tiling(move)]
    if floor and stream.random() < FLOOR_SHARE:
        return stream.choice(floor)
    return stream.choice(list(moves))


def command(players: int, variant: str, seed: int, out: str | Path) -> str:
    """The command line that records this playthrough (kept in its header)."""
    return f"pysolve azul record --players {players} --variant {variant} --seed {seed} --out {out}"


def file_name(players: int, variant: str, seed: int) -> str:
    """The file name a playthrough is kept under: `3p-grey-seed5.jsonl.gz`."""
    return f"{players}p-{variant}-seed{seed}{SUFFIX}"


def record(players: int = 2, seed: int = 1, variant: str = STANDARD, backend: str = "python") -> list[dict[str, Any]]:
    """The records of a new playthrough: the seeded game on `backend`'s engine, the chooser's moves."""
    chooser = RandomStream(seed + CHOOSER_SEED)
    match = Match(players, seed, backend, variant=variant)
    records: list[dict[str, Any]] = [{
        "type": "start", "format": FORMAT, "players": players, "variant": variant, "seed": seed,
        "chooser": f"floor {FLOOR_SHARE:.0%} of the time when legal, else any move; "
                   f"stream seeded with seed + {CHOOSER_SEED}",
        "command": command(players, variant, seed, file_name(players, variant, seed))}]
    try:
        while legal := match.legal_moves():
            state = match.state
            move = choose(legal, chooser)
            records.append({"type": "step", "step": match.moves_played, "seat": match.turn,
                            "state": state, "legal": [list(item) for item in legal], "move": list(move)})
            match.play(move)
            after = match.state
            if after["round"] != state["round"] or after["over"]:
                records.append({"type": "round", "round": state["round"], "scores": _scores(after)})
        final = match.state
        records.append({"type": "end", "state": final, "scores": _scores(final), "winners": match.winners})
    finally:
        match.close()
    return records


def _scores(state: dict[str, Any]) -> list[int]:
    """Every seat's score in a canonical state."""
    return [board["score"] for board in state["boards"]]


def write(path: str | Path, records: Iterable[dict[str, Any]], what: str = "--out") -> Path:
    """Write a playthrough as gzipped JSON lines, whole or not at all; the same records give the same bytes."""
    text = "".join(json.dumps(item, separators=(",", ":")) + "\n" for item in records)
    data = gzip.compress(text.encode(), mtime=0)
    with files.writing(path, what) as out:
        out.flush()
        out.buffer.write(data)
    return Path(path)


def read(path: str | Path) -> list[dict[str, Any]]:
    """The records of a playthrough file; InputError naming the file and line when it is not one.

    Read with the guards of every input file (files.read_gzip_text: a regular file, of limited size
    packed and unpacked), its JSON with files.parse_json's (nesting, integers too long to read).
    """
    text = files.read_gzip_text(path, "playthrough")
    records = []
    for number, line in enumerate(text.splitlines(), 1):
        item = files.parse_json(line, f"{path}:{number}")
        if not (isinstance(item, dict) and item.get("type") in ("start", "step", "round", "end")):
            raise InputError(f"{path}:{number}: expected a start, step, round or end record")
        records.append(item)
    header = records[0] if records else {}
    if header.get("type") != "start" or header.get("format") != FORMAT or records[-1]["type"] != "end":
        raise InputError(f"{path}: a playthrough of format {FORMAT} starts with its header and ends with the end")
    for key, kind in (("players", int), ("variant", str), ("seed", int)):
        if not isinstance(header.get(key), kind):
            raise InputError(f"{path}:1: the header's {key} should be {'a string' if kind is str else 'an integer'}")
    return records


def replay(records: list[dict[str, Any]], backend: str) -> str | None:
    """Play a playthrough's moves on `backend`'s engine.

    The first step where it differs from the recording (state, legal moves, scores after a round, final
    state, winners), in words, the recorded value first, or None when it agrees.
    """
    header = records[0]
    match = Match(header["players"], header["seed"], backend, variant=header["variant"])
    where = "the start"
    try:
        for item in records[1:]:
            if item["type"] == "step":
                state = match.state
                where = (f"step {item['step']} (round {state['round']}, move {state['moves']}, "
                         f"seat {state['turn']} to move)")
                legal = [list(move) for move in match.legal_moves()]
                difference = (first_difference(item["state"], state, "state")
                              or first_difference(item["legal"], legal, "legal moves"))
                if difference is None and item["move"] not in legal:
                    difference = f"the recorded move {excerpt(item['move'])} is not one of the legal moves"
                if difference is None:
                    match.play(tuple(item["move"]))
            elif item["type"] == "round":
                where = f"the scores after round {item['round']}"
                difference = first_difference(item["scores"], _scores(match.state), "scores")
            else:
                where = "the end"
                difference = (first_difference(item["state"], match.state, "state")
                              or first_difference(item["winners"], match.winners, "winners"))
            if difference:
                return f"{backend} differs at {where}: {difference}"
    finally:
        match.close()
    return None
