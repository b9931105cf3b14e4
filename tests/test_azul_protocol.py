"""Azul for agents outside pysolve: position strings, move codes, the line protocol, forfeits, `pysolve azul agent`."""

from __future__ import annotations

import io
import json
import os
import random
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from pysolve.azul import position, protocol
from pysolve.azul import tournament as tour
from pysolve.azul.heuristics import move_gain
from pysolve.azul.match import Match, engine, play_match
from pysolve.azul.model import VARIANTS, RandomStream
from pysolve.azul.protocol import STARTUP_SECONDS, Agent, AgentFault, serve
from pysolve.azul.search_players import MAX_DEPTH, Mcts, Minimax, Node, pruned
from pysolve.azul.strategies import strategy
from pysolve.azul.tree import Game, State
from pysolve.budget import most_work
from pysolve.cli import main
from pysolve.errors import InputError

ROOT = Path(__file__).resolve().parent.parent
PYSOLVE = shlex.quote(str(Path(sys.executable).parent / "pysolve"))  # the command of this environment
EXAMPLE = f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(ROOT / 'examples' / 'azul_agent.py'))}"


def reached(players: int, variant: str, seed: int, steps: int) -> State:
    """The State after `steps` random actions (chance outcomes and moves) of a game from its very start."""
    state, stream = Game(players, variant=variant).new_initial_state(), RandomStream(seed)
    for _ in range(steps):
        if state.is_terminal:
            break
        state.apply(state.sample_chance(stream) if state.is_chance_node else stream.choice(state.legal_moves()))
    return state


def deciding(players: int, variant: str, seed: int, steps: int) -> State:
    """A State where a seat is to move: `reached`'s, dealt on when it stops at a chance node."""
    state, stream = reached(players, variant, seed, steps), RandomStream(seed)
    while state.is_chance_node:
        state.apply_chance(state.sample_chance(stream))
    return state


def tiling(players: int, seed: int, steps: int) -> State | None:
    """The first State of a grey game, from `reached`'s on, where a seat chooses a column (None: the game ended)."""
    state, stream = reached(players, "grey", seed, steps), RandomStream(seed)
    while not (state.is_terminal or state.is_tiling):
        state.apply(state.sample_chance(stream) if state.is_chance_node else stream.choice(state.legal_moves()))
    return None if state.is_terminal else state


FIRST = ("2s p1 1 0 1 c BRRW/BYYR/KKKK/BBRW/BBYR - 14,17,15,16,18 0,0,0,0,0 "  # the first position of seed 1
         "0:5/5/5/5/5:-/-/-/-/-:- 0:5/5/5/5/5:-/-/-/-/-:-")
PROTOCOL_PAGE = ROOT / "docs" / "azul-protocol.md"


# -- position strings ----------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.sampled_from(VARIANTS), st.integers(0, 10 ** 6), st.integers(0, 600))
def test_a_position_string_round_trips_every_reachable_state(players, variant, seed, steps):
    state = reached(players, variant, seed, steps)
    text = position.of_state(state)
    again = position.to_state(text)
    assert position.of_state(again) == text
    assert again.to_json() == state.to_json()
    assert (again.phase, again.current_player, again.is_terminal) == (state.phase, state.current_player,
                                                                      state.is_terminal)
    assert again.chance_outcomes() == state.chance_outcomes()
    assert "\n" not in text and "  " not in text


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.integers(0, 10 ** 6), st.integers(0, 600))
def test_a_grey_walls_pending_column_choice_round_trips_as_its_phase(players, seed, steps):
    state = tiling(players, seed, steps)
    assume(state is not None)
    text = position.of_state(state)
    assert text.split(" ")[1] == f"t{state.current_player}"
    again = position.to_state(text)
    assert again.is_tiling and again.to_json() == state.to_json() and position.of_state(again) == text
    assert again.legal_moves() == state.legal_moves()
    snapshot, phase = position.read(text)
    assert phase == position.phase_of(snapshot) == "t"
    codes = [position.move_code(move, phase) for move in state.legal_moves()]
    assert [position.parse_move(code, phase) for code in codes] == state.legal_moves()
    assert all(code[0] == "w" for code in codes)


@pytest.mark.parametrize("backend", ["python", "kanren", "prolog"])
def test_every_engine_finds_the_same_legal_moves_in_a_parsed_position(backend):
    rules = engine(backend)  # with Prolog hidden, its case is skipped here

    @settings(max_examples=8, deadline=None)
    @given(st.sampled_from([2, 3, 4]), st.sampled_from(VARIANTS), st.integers(0, 10 ** 6), st.integers(0, 400))
    def agree(players, variant, seed, steps):
        state = deciding(players, variant, seed, steps)
        if variant == "grey" and seed % 2:  # half the grey cases: a pending column choice
            state = tiling(players, seed, steps) or state
        if state.is_terminal:
            return
        read, _ = position.read(position.of_state(state))
        handle = rules.load(read)
        try:
            assert rules.legal_moves(handle) == state.legal_moves()
        finally:
            rules.close(handle)

    agree()


def test_the_first_position_of_a_game_reads_as_documented():
    text = FIRST
    state, phase = position.read(text)
    assert phase == "p" and state["turn"] == 1 and state["factories"][0] == [1, 0, 2, 0, 1]
    assert position.write(state) == text == position.write(Match(2, 1, "python").state)  # seed 1's, as the page says
    assert len(position.to_state(text).legal_moves()) == 13 * 6  # 13 (factory, colour) pairs, 5 lines and the floor


def test_every_position_on_the_protocol_page_is_a_real_games_and_its_moves_are_in_pysolves_order():
    page = PROTOCOL_PAGE.read_text()
    first, played = re.findall(r"^ {4}(?:> position )?([234][sg] [a-z]\d? .*)$", page, flags=re.MULTILINE)
    assert first == FIRST == position.write(Match(2, 1, "python").state)  # seed 1's first position
    assert played == position.write(Match(2, 6, "python").state)  # seed 6's, in the game in full
    listed = re.search(r"^ {4}> moves (.*) \.\.\.$", page, flags=re.MULTILINE).group(1).split()
    codes = [position.move_code(move) for move in Match(2, 6, "python").legal_moves()]
    assert codes[:len(listed)] == listed and (len(codes), codes[-1]) == (108, "5w5")
    codes = [position.move_code(move) for move in Match(2, 1, "python").legal_moves()]
    head, tail, count = re.search(r"first\s+position above: `(.*) \.\.\. (\w+)`, (\d+) moves", page).groups()
    assert codes[:len(head.split())] == head.split() and (codes[-1], len(codes)) == (tail, int(count))


def test_a_position_with_other_than_20_tiles_of_a_colour_is_refused_though_it_holds_100():
    wrong = FIRST.replace("14,17,15,16,18", "13,17,15,16,19")  # one blue tile painted white: still 100 tiles
    with pytest.raises(InputError, match=r"^position: the tiles are 19 blue, 20 yellow, 20 red, 20 black, 21 white; "
                                         r"a game holds 20 of each colour$"):
        position.read(wrong)
    old_example = ("2s p1 1 0 1 c BBYR/KKWW/BYRK/YYYW/RRKW - 16,15,15,16,18 0,0,0,0,0 "  # the page's example once
                   "0:5/5/5/5/5:-/-/-/-/-:- 0:5/5/5/5/5:-/-/-/-/-:-")
    with pytest.raises(InputError, match="19 blue, 20 yellow, 19 red, 20 black, 22 white"):
        position.read(old_example)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.sampled_from(VARIANTS), st.integers(0, 10 ** 6), st.integers(0, 400))
def test_legal_moves_come_in_pysolves_order_and_never_onto_a_full_line(players, variant, seed, steps):
    state = deciding(players, variant, seed, steps)
    assume(not state.is_terminal and not state.is_tiling)
    moves, snapshot = state.legal_moves(), state.to_json()
    assert moves == sorted(moves)  # centre (-1) first, then factories; colours; the floor (0) before lines 1..5
    lines = snapshot["boards"][snapshot["turn"]]["lines"]
    assert all(lines[line - 1][1] < line for _, _, line in moves if line)  # a full line is never a destination
    offered = {(source, colour) for source, colour, _ in moves}
    assert {(source, colour, 0) for source, colour in offered} <= set(moves)  # the floor always is


def test_the_holder_of_the_marker_may_show_no_m_when_it_took_the_marker_onto_a_full_floor():
    state = Match(2, 1, "python").state  # seat 1 to move, the centre empty, the marker in it
    state["bag"][0] -= 2
    state["centre"][0] += 2
    state["bag"][1] -= 7
    state["boards"][1]["floor"] = [1] * 7  # seat 1's floor full of yellow
    rules = engine("python")
    handle = rules.load(state)
    try:
        rules.play(handle, (-1, 0, 1), RandomStream(1))  # the centre's blue to line 1, the marker with them
        after = rules.export(handle)
    finally:
        rules.close(handle)
    text = position.write(after)
    board = text.split(" ")[11]
    assert after["marker"] == 1 and text.split(" ")[5] == "1" and board.endswith(":YYYYYYY") and "M" not in board
    assert position.read(text)[0] == after


@pytest.mark.parametrize(("change", "field"), [
    (lambda f: f[:5], "expected 12 fields"),
    (lambda f: ["5s", *f[1:]], "field 1 (players and wall)"),
    (lambda f: [f[0], "p7", *f[2:]], "field 2 (phase)"),
    (lambda f: [f[0], "t1", *f[2:]], "field 2 (phase) 't1': t (a column to choose) is a phase of the grey wall"),
    (lambda f: ["2g", "t1", *f[2:]], "the walls are tiled only once the factories and the centre are empty"),
    (lambda f: [*f[:2], "x1", *f[3:]], "field 3 (round)"),
    (lambda f: [*f[:6], "BBYR/KKWW", *f[7:]], "field 7 (factories) 'BBYR/KKWW': expected 5 factories"),
    (lambda f: [*f[:7], "BQ", *f[8:]], "field 8 (centre)"),
    (lambda f: [*f[:8], "16,15,15", *f[9:]], "field 9 (bag)"),
    (lambda f: [*f[:10], "0:Y4/5/5/5/5:-/-/-/-/-:-", f[11]], "field 11 (board 0)"),
    (lambda f: [*f[:10], "0:5/5/5/5/5:-/YYY/-/-/-:-", f[11]], "pattern line 2"),
    (lambda f: [*f[:8], "17,15,15,16,18", *f[9:]], "101 tiles"),
])
def test_a_bad_position_string_is_one_line_naming_its_field(change, field):
    fields = FIRST.split(" ")
    with pytest.raises(InputError) as caught:
        position.read(" ".join(change(fields)))
    assert field in str(caught.value) and "\n" not in str(caught.value)


def test_move_codes_are_the_terminal_table_s_and_read_back():
    state = deciding(3, "standard", 4, 40)
    for move in state.legal_moves():
        assert position.parse_move(position.move_code(move)) == move
    assert position.move_code((-1, 1, 0)) == "cyf" and position.parse_move("1B4") == (0, 0, 4)
    for bad in ("", "1b6", "0b1", "1x1", "1b44", None):
        with pytest.raises(InputError, match="expected SOURCE COLOUR DESTINATION"):
            position.parse_move(bad)
    assert position.move_code((-2, 1, 3), "t") == "w24" and position.parse_move("W24", "t") == (-2, 1, 3)
    for bad in ("1b4", "w2", "w06", "w16", "w244"):
        with pytest.raises(InputError, match="expected w LINE COLUMN"):
            position.parse_move(bad, "t")


# -- outside agents in games ---------------------------------------------------------------------
AGENTS = {  # small agents that go wrong in one way each, after a correct handshake unless said otherwise
    "late": "import time\n{handshake}\nfor line in sys.stdin:\n    if line.startswith('go'): time.sleep(30)\n",
    "illegal": "{handshake}\nfor line in sys.stdin:\n    if line.startswith('go'): print('move 9w5', flush=True)\n",
    "garbage": "{handshake}\nfor line in sys.stdin:\n    if line.startswith('go'): print('I think 1b4', flush=True)\n",
    "crashing": "{handshake}\nfor line in sys.stdin:\n    if line.startswith('go'): sys.exit('out of ideas')\n",
    "silent": "import time\ntime.sleep(60)\n",
    "not UTF-8": "{handshake}\nfor line in sys.stdin:\n    if line.startswith('go'):\n"
                 "        sys.stdout.buffer.write(b'move \\xff\\xfe1b4\\n'); sys.stdout.flush()\n",
}
HANDSHAKE = "import sys\nsys.stdin.readline()\nprint('name bad\\nready', flush=True)"
REASONS = {"late": "late: no move within 1 s", "illegal": "illegal move 9w5 (not one of the",
           "garbage": "garbage instead of move: 'I think 1b4'", "crashing": "crashed (exit code 1): 'out of ideas'",
           "silent": f"silent: no ready within {STARTUP_SECONDS:g} s",
           "not UTF-8": "garbage, not UTF-8: b'move \\xff\\xfe1b4'"}


def agent_command(tmp_path: Path, kind: str) -> str:
    script = tmp_path / f"{kind} agent.py"  # a space in the path: the command is split, never given to a shell
    script.write_text(AGENTS[kind].format(handshake=HANDSHAKE))
    return f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(script))}"


@pytest.mark.subprocess
def test_a_tournament_against_the_example_agent_plays_every_game_to_its_end():
    results = tour.run(tour.tasks(2, 4, 30, "python", [EXAMPLE, "random"], move_seconds=5))
    assert [result.forfeit for result in results] == [None] * 4
    assert all(result.rounds >= 5 and max(result.scores) > 0 for result in results)
    standings = {s["strategy"]: s for s in tour.summarise(results)["strategies"]}
    assert standings[EXAMPLE]["seats"] == 4 and standings[EXAMPLE]["wins"] >= 3  # greedy beats random
    assert "forfeits" not in tour.summarise(results)


@pytest.mark.subprocess
def test_the_example_agent_chooses_its_grey_walls_columns_among_the_moves_it_is_sent():
    results = tour.run(tour.tasks(2, 2, 30, "python", [EXAMPLE, "greedy+policy"], log=True, variant="grey",
                                  move_seconds=5))
    assert [result.forfeit for result in results] == [None] * 2 and all(result.state["over"] for result in results)
    agent = Agent(EXAMPLE.removeprefix("cmd:"), 5)
    state = tiling(3, 8, 200)
    assert state is not None
    snapshot = state.to_json()
    try:
        chosen = agent(snapshot, state.legal_moves(), RandomStream(1))
    finally:
        agent.close()
    gains = {move: move_gain(snapshot, move) for move in state.legal_moves()}  # a column's gain: the tile's points
    assert len(gains) > 1 and chosen in gains and gains[chosen] == max(gains.values())


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(AGENTS))
@pytest.mark.timeout(60)  # a hang guard only: the forfeit's reason says which limit ended the agent
def test_an_agent_that_fails_loses_the_game_by_name_and_reason(tmp_path, kind):
    command = agent_command(tmp_path, kind)
    result = play_match(2, 3, "python", ["greedy", command], move_seconds=1)
    assert result.forfeit is not None and result.forfeit["reason"].startswith(REASONS[kind])
    assert (result.forfeit["seat"], result.forfeit["name"]) == (1, command)
    assert result.scores[1] == 0 and result.winners == [0]
    summary = tour.summarise([result])
    assert summary["forfeits"] == [{"seed": 3, **result.forfeit}]


@pytest.mark.slow
def test_a_failing_agent_s_process_is_killed_and_reaped(tmp_path):
    agent = Agent(agent_command(tmp_path, "late").removeprefix("cmd:"), seconds=0.5)
    state = deciding(2, "standard", 1, 30)
    with pytest.raises(AgentFault, match="late"):
        agent(state.to_json(), state.legal_moves(), RandomStream(1))
    process = agent._process
    assert process is not None and process.poll() is None  # still sleeping in its `go`
    agent.close()
    assert process.returncode is not None  # reaped


@pytest.mark.slow
def test_forfeits_are_reported_by_the_simulate_command(tmp_path, capsys):
    command = agent_command(tmp_path, "illegal")
    assert main(["azul", "simulate", "--games", "2", "--strategy", f"{command},greedy", "--move-seconds", "2"]) == 0
    out = capsys.readouterr().out
    assert out.count("forfeit: seed") == 2 and "illegal move 9w5" in out
    assert main(["azul", "simulate", "--games", "1", "--strategy", f"{command},greedy", "--json"]) == 0
    told = json.loads(capsys.readouterr().out)
    assert told["games"][0]["forfeit"]["name"] == command and told["games"][0]["scores"][0] == 0
    assert told["summary"]["forfeits"][0]["reason"].startswith("illegal move 9w5")


@pytest.mark.parametrize(("strategy_list", "message"), [
    ("cmd:", "give the agent's command"),
    ("cmd:no-such-program-here --x", "no program 'no-such-program-here'"),
    ("cmd:python 'unclosed", "No closing quotation"),
    (f"cmd:{shlex.quote(sys.executable)};set depth", "after ; give set NAME=VALUE (an option for the agent), not "
                                                     "'set depth'"),
    (f"cmd:{shlex.quote(sys.executable)};depth=3", "after ; give set NAME=VALUE"),
])
def test_a_bad_agent_command_is_one_line_and_exit_2(capsys, strategy_list, message):
    assert main(["azul", "simulate", "--strategy", strategy_list]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("seconds", ["0", "-1", "nan", "inf"])
def test_a_bad_move_time_is_refused(capsys, seconds):
    assert main(["azul", "simulate", "--strategy", "greedy", "--move-seconds", seconds]) == 2
    assert "--move-seconds" in capsys.readouterr().err


# -- pysolve's strategies as agents --------------------------------------------------------------
def test_a_pysolve_strategy_served_answers_the_protocol():
    state = deciding(2, "grey", 9, 50)
    moves = state.legal_moves()
    requests = io.StringIO(f"azul 1\nset strategy lookahead\ngame seat {state.current_player} players 2 wall grey "
                           f"seconds 1\nposition {position.of_state(state)}\n"
                           f"moves {' '.join(map(position.move_code, moves))}\ngo\nend scores 1,2 winners 1\nquit\n")
    answers = io.StringIO()
    assert serve(strategy("greedy"), "greedy", requests, answers, resolve=strategy) == 0
    lines = answers.getvalue().splitlines()
    assert lines[:3] == ["name greedy", "option strategy greedy", "ready"]
    expected = strategy("lookahead")(state.to_json(), moves, RandomStream(1))
    assert lines[3] == f"move {position.move_code(expected)}"


def test_serve_refuses_an_unknown_request_in_one_line():
    with pytest.raises(InputError, match="unknown request 'hello there'"):
        serve(strategy("greedy"), "greedy", io.StringIO("azul 1\nhello there\n"), io.StringIO())


@pytest.mark.slow
def test_pysolve_agents_play_each_other_as_processes():
    agent = f"cmd:{PYSOLVE} azul agent --strategy"
    result = play_match(2, 12, "python", [f"{agent} minimax:2", f"{agent} minimax:1"], move_seconds=30)
    assert result.forfeit is None and result.rounds >= 5
    by_hand = play_match(2, 12, "python", ["minimax:2", "minimax:1"])
    assert result.state == by_hand.state  # minimax reads no random number: the same game in or out of process


@pytest.mark.subprocess
def test_the_agent_command_serves_until_quit():
    run = subprocess.run([*shlex.split(PYSOLVE), "azul", "agent", "--strategy", "mcts:50"],
                         input="azul 1\nquit\n", capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and run.stdout.splitlines()[-1] == "ready"


# -- search players at a time per move ----------------------------------------------------------
@pytest.mark.parametrize(("name", "expected"), [
    ("minimax:0.5s", Minimax(depth=MAX_DEPTH, seconds=0.5)),
    ("minimax:4:0.2s", Minimax(depth=4, seconds=0.2)),
    ("minimax:0.2s:4", Minimax(depth=4, seconds=0.2)),
    ("mcts:1s:w4", Mcts(seconds=1.0, width=4)),
    ("mcts:w0:greedy", Mcts(width=0, playout="greedy")),
])
def test_search_players_take_a_time_per_move_by_name(name, expected):
    assert strategy(name) == expected


@pytest.mark.parametrize(("name", "message"), [
    ("minimax:0s", "above 0"),
    ("minimax:1s:2s", "one depth in plies and a time per move"),
    ("minimax:2:3", "one depth in plies and a time per move"),
    ("mcts:w999", "a node keeps 1 to 200 moves"),
    ("minimax:nans", "above 0 and at most 3600, not nan"),
])
def test_a_bad_time_or_width_is_one_line_naming_the_strategy(name, message):
    with pytest.raises(InputError, match=message) as caught:
        strategy(name)
    assert name in str(caught.value)


def test_minimax_by_the_clock_plays_the_deepest_search_it_finished():
    state = deciding(2, "standard", 21, 10)
    snapshot, moves = state.to_json(), state.legal_moves()
    no_time = Minimax(depth=MAX_DEPTH, seconds=1e-9)(snapshot, moves, RandomStream(1))
    assert no_time == Minimax(1)(snapshot, moves, RandomStream(1))  # one ply always finishes, nothing deeper did
    started = time.thread_time()  # the clock the player counts on
    timed = Minimax(depth=MAX_DEPTH, seconds=0.3)(snapshot, moves, RandomStream(1))
    assert time.thread_time() - started <= most_work(0.3) and timed in moves


def test_mcts_by_the_clock_stops_near_its_time():
    state = deciding(3, "grey", 5, 20)
    started = time.thread_time()  # the clock the player counts on
    move, iterations = Mcts(seconds=0.3).search(state, random.Random(1))
    assert time.thread_time() - started <= most_work(0.3) and move in state.legal_moves() and iterations >= 1


def test_a_narrow_tree_keeps_the_best_line_moves_and_the_floor_only_when_nothing_else_is_left():
    state = deciding(2, "standard", 8, 0)
    snapshot = state.to_json()
    ordered = sorted(state.legal_moves(), key=lambda move: move_gain(snapshot, move))
    kept = pruned(ordered, 4)
    assert len(kept) == 4 and all(move[2] for move in kept)
    assert kept == [move for move in ordered if move[2]][-4:]
    floor_only = [move for move in ordered if not move[2]]
    assert pruned(floor_only, 4) == floor_only[-4:]
    root = Node(state, 2, width=4)
    assert sorted(root.untried) == sorted(kept)


def test_a_narrow_tree_keeps_every_column_of_a_grey_walls_choice_the_first_included():
    states = (tiling(2, seed, 30 * seed) for seed in range(60))
    state = next(state for state in states if state is not None and len(state.legal_moves()) > 1
                 and any(move[2] == 0 for move in state.legal_moves()))  # column 0 is no floor move
    for width in (1, 4):
        assert sorted(Node(state, 2, width=width).untried) == sorted(state.legal_moves())
    assert Mcts(iterations=30, width=1).search(state, random.Random(0))[0] in state.legal_moves()


@pytest.mark.slow
@pytest.mark.timeout(60)  # a hang guard only: "late" is the verdict of the 0.5 s limit
def test_an_agent_that_stops_reading_its_input_is_late_not_a_hang(tmp_path):
    script = tmp_path / "deaf.py"
    script.write_text(f"{HANDSHAKE}\nimport time\ntime.sleep(60)\n")
    agent = Agent(f"{shlex.quote(sys.executable)} {shlex.quote(str(script))}", seconds=0.5)
    state = deciding(2, "standard", 1, 0)
    agent._start(state.to_json())
    try:
        with pytest.raises(AgentFault, match="late: it does not read its input within 0.5 s"):
            agent._send("info " + "x" * 1_000_000)  # far more than a pipe holds
    finally:
        agent.close()


@pytest.mark.subprocess
def test_options_given_to_an_agent_are_set_after_its_handshake():
    agent = Agent(f"{PYSOLVE} azul agent --strategy greedy", seconds=20, options={"strategy": "minimax:1"})
    state = deciding(3, "grey", 14, 30)
    try:
        move = agent(state.to_json(), state.legal_moves(), RandomStream(1))
    finally:
        agent.close()
    assert agent.agent_name == "greedy"
    assert move == Minimax(1)(state.to_json(), state.legal_moves(), RandomStream(1))


DAEMONISING = """import os, sys, time
sys.stdin.readline()
if os.fork() == 0:  # a daemon: a child that leaves the session, whose own child keeps the agent's stdout
    os.setsid()
    if os.fork() == 0:
        with open(sys.argv[1], "w") as told:
            told.write(str(os.getpid()))
        time.sleep(120)
    os._exit(0)
print("name daemonising\\nready", flush=True)
for line in sys.stdin:
    if line.startswith("go"):
        print("move 9w5", flush=True)
"""


def alive(pid: int) -> bool:
    """True while the process `pid` runs (a zombie, dead and not yet reaped, does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.subprocess
@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="reads /proc to find what the agent left")
@pytest.mark.timeout(60)  # a hang guard only: the daemon would hold the pipes for 120 s
def test_an_agent_s_daemon_is_stopped_with_it_and_its_pipes_hold_nothing_up(tmp_path):
    script, told = tmp_path / "daemonising.py", tmp_path / "daemon.pid"
    script.write_text(DAEMONISING)
    agent = Agent(f"{shlex.quote(sys.executable)} {shlex.quote(str(script))} {shlex.quote(str(told))}", seconds=2)
    state = deciding(2, "standard", 1, 0)
    with pytest.raises(AgentFault, match="illegal move 9w5"):
        agent(state.to_json(), state.legal_moves(), RandomStream(1))
    for _ in range(500):  # until the daemon has said who it is
        if told.exists() and told.read_text():
            break
        time.sleep(0.01)
    daemon = int(told.read_text())
    assert alive(daemon) and os.getsid(daemon) != agent._process.pid  # out of the agent's group and session
    pumps = list(agent._pumps)
    agent.close()  # before, it waited here on the pipes the daemon held, until the daemon ended
    for _ in range(500):  # SIGKILL is sent; the kernel ends the process in its own time
        if not alive(daemon):
            break
        time.sleep(0.01)
    assert not alive(daemon)
    assert not any(pump.is_alive() for pump in pumps)  # each reader saw its pipe end, and closed it


RECORDER = """import sys
told = open(sys.argv[1], "a")
for line in sys.stdin:
    told.write(line)
    told.flush()
    if line.startswith("azul"):
        print("name recorder\\noption depth 1\\nready", flush=True)
    elif line.startswith("moves"):
        first = line.split()[1]
    elif line.startswith("go"):
        print("move " + first, flush=True)
    elif line.startswith("quit"):
        break
"""


def recorder(tmp_path: Path, options: str = "") -> tuple[str, Path]:
    """The strategy of an agent that writes every line it is sent to a file and plays the first move listed."""
    script, told = tmp_path / "recorder.py", tmp_path / "told.txt"
    script.write_text(RECORDER)
    return f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(script))} {shlex.quote(str(told))}{options}", told


def test_an_agent_command_splits_at_an_unquoted_semicolon_into_the_command_and_its_options():
    command = f"{shlex.quote(sys.executable)} 'a;b.py' -x ;set depth=3;set style calm ; set a=b=c"
    words, options = protocol.agent_command(command)
    assert words == [sys.executable, "a;b.py", "-x"]
    assert options == {"depth": "3", "style": "calm", "a": "b=c"}


@pytest.mark.subprocess
def test_options_after_the_command_are_sent_after_the_handshake_and_before_the_game(tmp_path):
    command, told = recorder(tmp_path, ";set depth=3;set style calm")
    result = play_match(2, 3, "python", ["greedy", command], move_seconds=5)
    assert result.forfeit is None and result.strategies[1] == command and result.names == ["greedy", "recorder"]
    lines = told.read_text().splitlines()
    assert lines[:4] == ["azul 1", "set depth 3", "set style calm", "game seat 1 players 2 wall standard seconds 5"]
    assert [line.split()[0] for line in lines[4:7]] == ["position", "moves", "go"]  # the first turn follows at once
    assert lines[-2].startswith("end scores") and lines[-1] == "quit"


@pytest.mark.subprocess
def test_simulate_shows_who_sat_where_and_an_agent_by_the_name_it_announced(tmp_path, capsys):
    command, _ = recorder(tmp_path)
    assert main(["azul", "simulate", "--games", "2", "--seed", "3", "--backend", "python", "--strategy",
                 f"greedy,{command}", "--move-seconds", "5"]) == 0
    out = capsys.readouterr().out
    rows = out.split("\n\n")[0].splitlines()
    assert rows[0].split() == ["seed", "seat", "0", "seat", "1", "winners", "rounds", "moves"]
    assert re.match(r"3 +greedy \d+ +recorder \d+ ", rows[2]) and re.match(r"4 +recorder \d+ +greedy \d+ ", rows[3])
    assert "recorder.py" not in out and re.search(r"^recorder +2 ", out, flags=re.MULTILINE)


@pytest.mark.slow
@pytest.mark.timeout(60)  # a hang guard only
def test_the_start_up_time_is_counted_in_total_not_per_line(tmp_path, monkeypatch):
    monkeypatch.setattr(protocol, "STARTUP_SECONDS", 1.5)
    script = tmp_path / "dawdling.py"  # every line of its handshake within the limit, the whole far past it
    script.write_text("import sys, time\nsys.stdin.readline()\n"
                      "for line in ('name dawdler', 'option a 1', 'option b 2', 'ready'):\n"
                      "    time.sleep(1.0)\n    print(line, flush=True)\n")
    result = play_match(2, 3, "python", ["greedy", f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(script))}"])
    assert result.forfeit is not None and result.forfeit["reason"] == "silent: no ready within 1.5 s"
