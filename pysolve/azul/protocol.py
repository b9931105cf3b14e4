"""The Azul agent protocol: a player in another process, spoken to in lines over its stdin and stdout.

docs/azul-protocol.md describes the protocol for agent authors. pysolve
writes requests, one a line; the agent answers only `azul` (its name, its
options, `ready`) and `go` (a `move`), and may write `info ...` lines at
any time, which are ignored:

    azul 1                          ->  name NAME / option NAME VALUE ... / ready
    set NAME VALUE                      (an option the caller gives: cmd:PROG;set NAME=VALUE)
    game seat 0 players 2 wall standard seconds 1
    position POSITION                   (`position.write`: the whole table)
    moves 1b4 1bf cy2 ...               (the legal moves, as codes)
    go                              ->  move 1b4
    end scores 45,38 winners 0 [forfeit SEAT]
    quit

`Agent` is pysolve's side: a strategy (callable like any other) that
starts the command (split with shlex, never through a shell) in its own
process group on its first move, gives it STARTUP_SECONDS in all to
shake hands and take its options and the game, holds it to its time per move, and turns
every way an agent can fail into an `AgentFault` naming it and the reason
(silent, late, crashed, garbage, illegal move), after which the process is
killed and reaped; a game it forfeits is scored by `match.play_match`. When
it leaves, so does everything it started: its process group, every process
of its session, and any process that still holds its output pipes (a child
that called setsid or daemonised), so nothing outlives the game and no pipe
it left open keeps pysolve waiting.
`serve` is the other side: any of pysolve's strategies answering the
protocol on stdin/stdout (`pysolve azul agent`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import queue
import select
import shlex
import shutil
import signal
import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from typing import IO, Any

from pysolve.azul import position
from pysolve.azul.model import SEED, STANDARD, Move, RandomStream
from pysolve.errors import InputError, PysolveError
from pysolve.files import excerpt

VERSION = 1
MOVE_SECONDS = 1.0  # an agent's time per move when none is given (`simulate --move-seconds`)
MAX_MOVE_SECONDS = 3600.0
STARTUP_SECONDS = 10.0  # the time an agent has to start and answer `azul` with `ready` (a Python start is slow)
QUIT_SECONDS = 0.5  # the time an agent has to leave after `quit` before it is killed
MAX_LINE = 65536  # characters of one line an agent writes; a longer one is garbage
SEARCH_SHARE = 0.8  # the share of the time per move a pysolve search uses when it serves as an agent
Strategy = Callable[[Mapping[str, Any], list[Move], RandomStream], Move]


class AgentFault(PysolveError):
    """An outside agent failed (silent, late, crashed, garbage, illegal move): it loses the game."""

    def __init__(self, name: str, seat: int, reason: str) -> None:
        super().__init__(f"agent {name!r} (seat {seat}) {reason}")
        self.name, self.seat, self.reason = name, seat, reason


OPTION_SEPARATOR = ";"  # between an agent's command and each option given to it: cmd:PROG ARGS;set NAME=VALUE


def agent_command(command: str) -> tuple[list[str], dict[str, str]]:
    """The program and arguments of an agent command, and the options given after it.

    `python agent.py --fast;set depth=3;set style calm`: the words split as a POSIX shell splits them
    (shlex: quotes group, `\\` escapes; a quoted `;` stays in its word), then each `;set NAME=VALUE` (or
    `;set NAME VALUE`) an option sent to the agent as `set NAME VALUE` after its handshake. InputError
    when the command is empty, badly quoted, names no program that can be run, or an option is malformed.
    """
    lexer = shlex.shlex(command, posix=True, punctuation_chars=OPTION_SEPARATOR)
    lexer.whitespace_split, lexer.commenters = True, ""
    try:
        tokens = list(lexer)
    except ValueError as error:
        raise InputError(f"cmd:{excerpt(command, 60)}: {error}") from None
    groups: list[list[str]] = [[]]
    for token in tokens:
        if set(token) == {OPTION_SEPARATOR}:
            groups += [[] for _ in token]
        else:
            groups[-1].append(token)
    words, *settings = groups
    if not words:
        raise InputError("cmd: give the agent's command, as in cmd:python my_agent.py")
    if shutil.which(words[0]) is None:
        raise InputError(f"cmd:{excerpt(command, 60)}: no program {excerpt(words[0])} to run")
    return words, dict(_option(setting, command) for setting in settings)


def _option(words: list[str], command: str) -> tuple[str, str]:
    """(name, value) of an option's words after a `;` (`set depth=3` or `set depth 3`); InputError otherwise."""
    name = value = ""
    if len(words) == 2 and words[0] == "set":
        name, _, value = words[1].partition("=")
    elif len(words) > 2 and words[0] == "set":
        name, value = words[1], " ".join(words[2:])
    if not (name and value) or "=" in name or any(character.isspace() for character in name) or "\n" in value:
        raise InputError(f"cmd:{excerpt(command, 60)}: after {OPTION_SEPARATOR} give set NAME=VALUE (an option "
                         f"for the agent), not {excerpt(' '.join(words), 40)}")
    return name, value


def check_seconds(seconds: float, what: str = "--move-seconds") -> float:
    """`seconds` if it is a time per move above 0 and at most MAX_MOVE_SECONDS (nan and inf refused)."""
    if not (isinstance(seconds, (int, float)) and 0 < seconds <= MAX_MOVE_SECONDS):
        raise InputError(f"{what}: a time per move above 0 and at most {MAX_MOVE_SECONDS:g} s, not {excerpt(seconds)}")
    return float(seconds)


class Agent:
    """A strategy played by an outside program over the protocol: `cmd:COMMAND` in a strategy list.

    The process starts at the agent's first move (one process per seat per game) and ends at `close`.
    Standings call it by its `__name__`, `cmd:COMMAND`; the name the agent gives itself is `agent_name`.
    The options given after its command (`;set NAME=VALUE`) and in `options` are sent after its handshake.
    """

    def __init__(self, command: str, seconds: float = MOVE_SECONDS, options: Mapping[str, str] | None = None) -> None:
        self.words, given = agent_command(command)
        self.__name__ = f"cmd:{command}"
        self.seconds = check_seconds(seconds)
        self.options = {**given, **(options or {})}
        self.agent_name = ""
        self.seat = -1
        self._process: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._errors: deque[str] = deque(maxlen=3)  # the last lines it wrote to stderr, for a crash's reason
        self._pumps: list[threading.Thread] = []  # the readers of its stdout and stderr, in that order
        self._pipes: set[int] = set()  # the inodes of its stdout and stderr pipes, to find who holds them

    @property
    def shown_name(self) -> str:
        """The name the agent announced (`name NAME` in its handshake), else its strategy name `cmd:COMMAND`."""
        return self.agent_name or self.__name__

    # -- the strategy --------------------------------------------------------------------------
    def __call__(self, state: Mapping[str, Any], moves: list[Move], rng: RandomStream) -> Move:
        """The agent's move in `state`, within its time; AgentFault when it fails."""
        snapshot = dict(state)
        if self._process is None:
            self._start(snapshot)
        phase = position.phase_of(snapshot)
        self._send(f"position {position.write(snapshot, phase)}")
        self._send("moves " + " ".join(position.move_code(move, phase) for move in moves))
        asked = time.monotonic()  # the clock runs from the moment `go` is written
        self._send("go")
        line = self._answer("move", self.seconds, "late: no move within", asked)
        code = line.partition(" ")[2].strip()
        try:
            move = position.parse_move(code, phase)
        except InputError:
            raise self._fault(f"illegal move {excerpt(code, 40)} (not a move code)") from None
        if move not in moves:
            raise self._fault(f"illegal move {code} (not one of the {len(moves)} legal moves)")
        return move

    def game_over(self, scores: list[int], winners: list[int], forfeit: int | None = None) -> None:
        """Tell a running agent how the game ended (a dead one is not asked)."""
        if self._process is not None and self._process.poll() is None:
            told = f" forfeit {forfeit}" if forfeit is not None else ""
            with contextlib.suppress(AgentFault):
                self._send(f"end scores {','.join(map(str, scores))} winners {','.join(map(str, winners))}{told}")

    def close(self) -> None:
        """Ask the agent to quit, then stop everything it started and reap it, whatever state it is in.

        Killed: its process group, the processes of its session (while its id is still its own, not
        reaped), and whoever still writes to its stdout or stderr pipe, wherever it went (`setsid`, a
        daemon's double fork); the pipes' readers then see their end and close them, and the stdin pipe is
        closed here.
        """
        process, self._process = self._process, None
        if process is None:
            return
        with contextlib.suppress(AgentFault):
            self._send("quit", QUIT_SECONDS, process)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(QUIT_SECONDS)
        session = process.pid if process.returncode is None else None  # once reaped, its id may be another's
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)  # its children too: it leads its own group
        for pid in left_behind(session, self._pipes):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        process.wait()
        with contextlib.suppress(OSError, ValueError):
            process.stdin.close()  # type: ignore[union-attr]
        for pump in self._pumps:
            pump.join(QUIT_SECONDS)  # at the end of its pipe now that nobody writes to it

    # -- the process -------------------------------------------------------------------------------
    def _start(self, state: dict[str, Any]) -> None:
        """Start the program, shake hands, set the options and open the game, all within STARTUP_SECONDS."""
        self.seat = state["turn"]
        started = time.monotonic()  # the start-up's time runs from here to the `game` line, in total
        try:  # bytes that are not UTF-8 kept as surrogates (surrogateescape), to say what the agent wrote
            self._process = subprocess.Popen(self.words, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                             stderr=subprocess.PIPE, encoding="utf-8", errors="surrogateescape",
                                             bufsize=1, start_new_session=True)
        except OSError as error:
            raise AgentFault(self.__name__, self.seat, f"crashed: could not start ({error.strerror})") from None
        outputs = (self._process.stdout, self._process.stderr)
        self._pipes = {os.fstat(stream.fileno()).st_ino for stream in outputs if stream is not None}
        self._pumps = [threading.Thread(target=_pump, args=(stream, keep, stream is self._process.stdout),
                                        daemon=True)
                       for stream, keep in zip(outputs, (self._lines.put, self._errors.append))]
        for pump in self._pumps:
            pump.start()
        self._send(f"azul {VERSION}", STARTUP_SECONDS, since=started)
        while True:
            line = self._answer("", STARTUP_SECONDS, "silent: no ready within", started)
            word, _, rest = line.partition(" ")
            if word == "ready":
                break
            if word == "name":
                self.agent_name = rest.strip()
            elif word != "option":
                raise self._fault(f"garbage in its handshake: {excerpt(line, 60)}")
        for option, value in self.options.items():
            self._send(f"set {option} {value}", STARTUP_SECONDS, since=started)
        wall = state.get("variant", STANDARD)
        self._send(f"game seat {self.seat} players {state['players']} wall {wall} seconds {self.seconds:g}",
                   STARTUP_SECONDS, since=started)

    def _send(self, line: str, seconds: float | None = None, process: subprocess.Popen[str] | None = None,
              since: float | None = None) -> None:
        """Write one line to the agent within `seconds` (default its time per move) from `since` (default now),
        on its pipe made non-blocking: an agent that stops reading its input fills the pipe and is late, it
        never blocks the game. AgentFault when it has gone or is late."""
        process = process or self._process
        assert process is not None and process.stdin is not None
        data = (line + "\n").encode()
        deadline = (since or time.monotonic()) + (seconds or self.seconds)
        try:
            pipe = process.stdin.fileno()
            os.set_blocking(pipe, False)
            while data:
                try:
                    data = data[os.write(pipe, data):]
                    continue
                except BlockingIOError:
                    pass  # the pipe is full: wait until the agent reads, within the time
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([], [pipe], [], left)[1]:
                    raise self._fault(f"late: it does not read its input within {seconds or self.seconds:g} s")
        except (OSError, ValueError):
            raise self._crashed() from None

    def _answer(self, word: str, seconds: float, late: str, since: float | None = None) -> str:
        """The agent's next line that is not `info` (and starts with `word` when one is given), read within
        `seconds` from `since` (default now); AgentFault when it is late, crashes, or writes something else."""
        deadline = (since or time.monotonic()) + seconds
        while True:
            left = deadline - time.monotonic()
            try:
                line = self._lines.get(timeout=max(left, 0.0))
            except queue.Empty:
                raise self._fault(f"{late} {seconds:g} s") from None
            if line is None:
                raise self._crashed()
            if line.startswith("info") and line[4:5] in ("", " "):
                continue
            if not _is_utf8(line):
                raise self._fault(f"garbage, not UTF-8: {excerpt(line.encode('utf-8', 'surrogateescape'), 60)}")
            if word and not (line.startswith(word) and line[len(word):len(word) + 1] in ("", " ")):
                raise self._fault(f"garbage instead of {word}: {excerpt(line, 60)}")
            return line

    def _crashed(self) -> AgentFault:
        """The fault of an agent whose output ended: its exit code and the last thing it wrote to stderr."""
        process = self._process
        code = None
        if process is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                code = process.wait(QUIT_SECONDS)
        if len(self._pumps) == 2:
            self._pumps[1].join(QUIT_SECONDS)  # its last words on stderr, when it wrote any
        said = f": {excerpt(self._errors[-1], 80)}" if self._errors else ""
        exited = f"exit code {code}" if code is not None else "closed its output"
        return self._fault(f"crashed ({exited}){said}")

    def _fault(self, reason: str) -> AgentFault:
        return AgentFault(self.__name__, self.seat, reason)


def _pump(stream: IO[str], keep: Callable[[Any], None], tell_end: bool) -> None:
    """Hand each line of `stream` (cut at MAX_LINE characters, newline stripped) to `keep`, and with
    `tell_end` None at its end, then close it: a thread per stream, so that reading never blocks the game
    and a chatty stderr never fills its pipe. The stream is closed here, not by `Agent.close`, since a
    close waits for a read in progress (on a pipe a daemon of the agent holds, until it is killed)."""
    with contextlib.suppress(OSError, ValueError), stream:
        while True:
            line = stream.readline(MAX_LINE)
            if not line:
                break
            keep(line.rstrip("\n"))
    if tell_end:
        keep(None)


def _is_utf8(line: str) -> bool:
    """False when `line` holds bytes that were not UTF-8 (read as surrogates, by surrogateescape)."""
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def left_behind(session: int | None, pipes: set[int]) -> set[int]:
    """The processes to stop with an agent, read from /proc (none where there is no /proc).

    Those of the session `session` (None: no session asked), and those that hold one of the pipes `pipes`
    (inodes) open for writing: a child that left the agent's session (`setsid`) but kept its output. The
    ends pysolve reads are open for reading, so neither this process nor a worker forked from it is
    among them.
    """
    found: set[int] = set()
    for entry in os.scandir("/proc") if os.path.isdir("/proc") else ():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        with contextlib.suppress(OSError, IndexError):
            if (session is not None and _session_of(entry.path) == session) or _writes_to(entry.path, pipes):
                found.add(int(entry.name))
    return found


def _session_of(process: str) -> int:
    """The session id of the process whose /proc folder is `process` (the field after its group's)."""
    with open(f"{process}/stat", "rb") as stat:
        fields = stat.read().rpartition(b")")[2].split()  # past the command's name, which may hold spaces
    return int(fields[3])


def _writes_to(process: str, pipes: set[int]) -> bool:
    """True when the process whose /proc folder is `process` holds one of the pipes `pipes` open for writing."""
    if not pipes:
        return False
    for descriptor in os.scandir(f"{process}/fd"):
        with contextlib.suppress(OSError):
            link = os.readlink(descriptor.path)
            if link.startswith("pipe:[") and int(link[6:-1]) in pipes:
                with open(f"{process}/fdinfo/{descriptor.name}") as info:
                    flags = next((line for line in info if line.startswith("flags:")), "flags: 0").split()[1]
                if int(flags, 8) & os.O_ACCMODE == os.O_WRONLY:
                    return True
    return False


# -- serving a pysolve strategy as an agent ----------------------------------------------------
def within(chosen: Strategy, seconds: float) -> Strategy:
    """`chosen` held to its share of the time per move.

    `chosen`, a search that thinks by the clock, held to SEARCH_SHARE of `seconds` (the rest is left
    for the pipes and a loaded machine); any other strategy as it is.
    """
    from pysolve.azul.search_players import Mcts, Minimax  # loaded by the name that made `chosen`, if a search

    if isinstance(chosen, (Mcts, Minimax)) and chosen.seconds is not None:
        return dataclasses.replace(chosen, seconds=min(chosen.seconds, SEARCH_SHARE * seconds))
    return chosen


def serve(chosen: Strategy, name: str, requests: IO[str], answers: IO[str], seed: int = SEED,
          resolve: Callable[[str], Strategy] | None = None) -> int:
    """Answer the protocol's requests with `chosen`'s moves until `quit` or the end of the input (then 0).

    InputError for a request it cannot read. `resolve` turns a `set strategy` value into a strategy. Game
    i draws from the stream of `seed + i`.
    """
    strategy_now, seconds, rng = chosen, MOVE_SECONDS, RandomStream(seed)
    state: dict[str, Any] | None = None
    phase = position.OFFER
    moves: list[Move] = []
    games = 0

    def say(line: str) -> None:
        answers.write(line + "\n")
        answers.flush()

    for line in requests:
        word, _, rest = line.strip().partition(" ")
        if word == "azul":
            say(f"name {name}")
            say(f"option strategy {name}")
            say("ready")
        elif word == "set":
            option, _, value = rest.partition(" ")
            if option != "strategy" or resolve is None:
                raise InputError(f"agent: unknown option {excerpt(option, 40)}; known: strategy")
            strategy_now = resolve(value.strip())
        elif word == "game":
            fields = dict(zip(rest.split()[::2], rest.split()[1::2]))
            try:
                given = float(fields.get("seconds", MOVE_SECONDS))
            except ValueError:
                raise InputError(f"agent: game seconds {excerpt(fields['seconds'], 20)} is no number") from None
            seconds = check_seconds(given, "agent: game seconds")
            rng = RandomStream(seed + games)
            games += 1
        elif word == "position":
            state, phase = position.read(rest)
        elif word == "moves":
            moves = [position.parse_move(code, phase) for code in rest.split()]
        elif word == "go":
            if state is None or not moves:
                raise InputError("agent: go before a position and its moves")
            say(f"move {position.move_code(within(strategy_now, seconds)(state, moves, rng), phase)}")
        elif word == "quit":
            break
        elif word not in ("end", ""):
            raise InputError(f"agent: unknown request {excerpt(line.strip(), 60)}")
    return 0
