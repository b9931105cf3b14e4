"""The Azul pages' endpoints: a person at a table with strategies, replays of logged games, tournaments.

The table is `pysolve.azul.play.Table`, the model the terminal face
(`pysolve azul play`) drives too: one seat is the person's, the others
play strategies (random, greedy, lookahead, mcts..., minimax...) on the
chosen back end's rules. The person's move can be taken back until the
others are let play. Every move, and each round's scoring tile by tile, is
told by `pysolve.azul.replay` (the words of `pysolve azul replay`); a replay
is the story of a logged game, and a tournament is drawn by
`pysolve.azul.charts`. A tournament is answered in JSON lines, one as each
game ends (the page's progress), then its result: the games played within
TOURNAMENT_SECONDS, all of them or those played when it stopped at the limit.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, StreamingResponse
from starlette.routing import Route

from pysolve.azul import charts, tournament
from pysolve.azul.match import MatchResult
from pysolve.azul.model import SEED, STANDARD, VARIANTS, Move, RandomStream, check_move, check_players, check_variant
from pysolve.azul.play import PERSON, Table
from pysolve.azul.replay import Step, read_log, story
from pysolve.azul.search_players import Mcts, Minimax
from pysolve.azul.strategies import AGENT, Strategy, strategy
from pysolve.budget import Budget
from pysolve.errors import InputError, PysolveError, SearchLimitExceeded
from pysolve.web.core import MAX_SECONDS, Choice, Store, Workers
from pysolve.web.guard import Files, body, excerpt, field_of

CHOICES = ("random", "greedy", "lookahead", "mcts:300", "minimax:2")  # offered by the page; any strategy works
MAX_GAMES = 200  # games of one tournament from the page (its form's maximum: the page is told)
TOURNAMENT_SECONDS = MAX_SECONDS  # CPU seconds a tournament plays; the games played by then are its result
MAX_ITERATIONS = 10_000  # mcts iterations a move (about 1.3 s of Python here)
MAX_MOVE_SECONDS = 2.0  # mcts seconds a move
MAX_PLIES = 4  # minimax depth, searched within MAX_MOVE_SECONDS a move (deepening: a wide position stops early)


def affordable(name: str) -> str:
    """`name`, checked to be a strategy whose moves this server can afford.

    Mcts at most MAX_ITERATIONS or MAX_MOVE_SECONDS a move, minimax at most MAX_PLIES deep and
    MAX_MOVE_SECONDS a move, and never an outside agent (`cmd:` would run a program a client names);
    InputError naming the limit otherwise. A minimax by depth alone gets the time limit too (its name says
    so): a depth's cost is no guess, four plies of a wide position take minutes, so the search deepens to the
    depth only while the time lasts.
    """
    if name.startswith(AGENT):
        raise InputError(f"strategy {excerpt(name)}: outside agents play only from the command line")
    chosen = strategy(name)
    if isinstance(chosen, (Mcts, Minimax)) and chosen.seconds is not None \
            and not 0 < chosen.seconds <= MAX_MOVE_SECONDS:
        raise InputError(f"strategy {excerpt(name)}: a search thinks at most {MAX_MOVE_SECONDS:g} s a move here, "
                         f"not {chosen.seconds:g}")
    if isinstance(chosen, Mcts) and chosen.iterations > MAX_ITERATIONS:
        raise InputError(f"strategy {excerpt(name)}: mcts runs at most {MAX_ITERATIONS} iterations a move here")
    if isinstance(chosen, Minimax) and chosen.seconds is None:
        if chosen.depth > MAX_PLIES:
            raise InputError(f"strategy {excerpt(name)}: minimax looks at most {MAX_PLIES} plies ahead here")
        return f"{name}:{MAX_MOVE_SECONDS:g}s"
    return name


@dataclass(frozen=True)
class Clocked:
    """A search strategy that looks at the request's clock before each move.

    A search strategy (mcts, minimax) that looks at the request's clock before each move, so that a tournament
    stops within a move of its time limit, or of its client leaving, instead of at the end of a game.
    """

    name: str
    chosen: Strategy
    clock: Budget

    @property
    def __name__(self) -> str:  # the name games and standings report it under
        return self.name

    def __call__(self, state: Mapping[str, Any], moves: list[Move], rng: RandomStream) -> Move:
        self.clock.check()
        return self.chosen(state, moves, rng)


def clocked(name: str, clock: Budget) -> str | Clocked:
    """The strategy `name` for a tournament.

    A search one clocked (see Clocked), a quick one as it is (a game of the random strategy alone then still
    runs whole inside the back end).
    """
    chosen = strategy(name)
    return Clocked(name, chosen, clock) if isinstance(chosen, (Mcts, Minimax)) else name


def seed_of(data: dict[str, Any]) -> int:
    """The field 'seed' (default SEED): a whole number, 0 or more.

    InputError naming the field for an empty one (the page sends a field left empty as "") or a negative one
    (Python's generator draws the same from -5 as from 5: two names for one deal).
    """
    if data.get("seed") == "":
        raise InputError("the field 'seed' is empty: give a whole number, 0 or more")
    seed = field_of(data, "seed", int, default=SEED)
    if seed < 0:
        raise InputError(f"the field 'seed' must be 0 or more, not {seed}")
    return seed


def names_in(data: dict[str, Any], name: str, default: list[str]) -> list[str]:
    """The names in the field `name`: a list of text (strategies, and `you` among the seats)."""
    names = field_of(data, name, list, default=default)
    if not all(isinstance(item, str) for item in names):
        raise InputError(f"the field {name!r} must be a list of strategy names, not {excerpt(names)}")
    return names


def table_of(data: dict[str, Any], backend: str) -> Table:
    """The table a request asks for: `seats` names `you` once and a strategy for every other seat."""
    players = check_players(field_of(data, "players", int, default=2))
    seats = names_in(data, "seats", [PERSON] + ["greedy"] * (players - 1))
    if len(seats) != players or seats.count(PERSON) != 1:
        raise InputError(f"the field 'seats' must name {players} seats: {PERSON!r} once, a strategy for each "
                         f"other seat; not {excerpt(seats)}")
    seat = seats.index(PERSON)
    others = [affordable(name) for name in seats[:seat] + seats[seat + 1:]]  # in seat order, as the table deals
    return Table(players, seat, others, backend, seed_of(data), None,
                 check_variant(field_of(data, "variant", str, default=STANDARD)))


def let_others_play(table: Table) -> None:
    """The person's move stands.

    The strategies play until the person is to move again or the game ends (within MAX_SECONDS, and
    no further once the request is abandoned).
    """
    table.confirm()
    clock = Budget(seconds=MAX_SECONDS, label="the other seats' moves")
    while table.others_move() is not None:
        clock.check()


def rounds_of(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each finished round's scores, before and after its tiling (the last one with the end's bonuses)."""
    rounds, before = [], [board["score"] for board in records[0]["state"]["boards"]]
    for previous, record in itertools.pairwise(records):
        if record["type"] != "move":
            continue
        state = record["state"]
        if state["round"] != previous["state"]["round"] or state["over"]:
            after = [board["score"] for board in state["boards"]]
            rounds.append({"round": previous["state"]["round"], "before": before, "after": after,
                           "final": state["over"]})
            before = after
    return rounds


def steps_view(steps: list[Step], states: bool = False) -> list[dict[str, Any]]:
    """Steps of a story as the page shows them (with the table at each step, for replays)."""
    return [{"kind": step.kind, "text": step.text,
             **({"state": step.state, "names": list(step.names)} if states else {})}
            for step in steps]


def table_view(key: str, table: Table) -> dict[str, Any]:
    """The table as the page draws it: state, seats, the person's legal moves, scores by round, the story."""
    over = table.over
    return {"id": key, "backend": table.backend, "seats": table.names, "seat": table.seat, "state": table.state,
            "turn": None if over else table.turn, "person_to_move": table.person_to_move, "pending": table.pending,
            "moves": [list(move) for move in table.legal_moves()], "over": over,
            "winners": table.match.winners if over else [], "rounds": rounds_of(table.records),
            "steps": steps_view(table.steps())}


def replay_steps(text: str) -> list[dict[str, Any]]:
    """An uploaded JSON-lines log told step by step (read and checked as `pysolve azul replay` does)."""
    with Files() as files:
        records = read_log(Path(files.upload(text, "the uploaded log")))
    return steps_view(story(records), states=True)


def play_tournament(players: int, games: int, seed: int, backend: str, strategies: list[str],
                    variant: str = STANDARD, report: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Seeded games with the strategies rotated over the seats: the summary and chart of those played.

    They play for TOURNAMENT_SECONDS of CPU at most, and no further once the request is abandoned: `played`
    of `games` were played, and `stopped` says why the others were not (None when all were). `report(played)`
    after each game.
    """
    clock = Budget(seconds=TOURNAMENT_SECONDS, label=f"the tournament of {games} games")
    seats = [clocked(name, clock) for name in strategies]
    # a task's strategies are played as play_match plays them: names, or the strategies themselves (Clocked)
    work = tournament.tasks(players, games, seed, backend, seats, variant=variant)  # type: ignore[arg-type]
    results: list[MatchResult] = []

    def played(result: MatchResult) -> None:
        results.append(result)
        if report:
            report(len(results))
        if len(results) < games:
            clock.check()

    stopped = None
    try:
        tournament.run(work, None, played)
    except SearchLimitExceeded as limit:
        stopped = str(limit)
    return {"games": games, "played": len(results), "stopped": stopped,
            "summary": tournament.summarise(results) if results else None,
            "chart": charts.chart(results) if results else ""}


async def reported(request: Request, workers: Workers, work: Callable[..., dict[str, Any]],
                   *args: Any) -> StreamingResponse:
    """`work(*args, report)` in a worker, answered in JSON lines as it goes, then its result.

    A line `{"played": n}` at each `report(n)`, then the result's. The work is queued before the answer starts,
    so that a full line of searches is still a 503 and a refusal a 4xx; one raised once the answer has started
    (the status sent) is its last line, `{"error": "..."}`.
    """
    loop = asyncio.get_running_loop()
    lines: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()

    def report(played: int) -> None:  # in the worker: the line goes through the event loop, in order
        loop.call_soon_threadsafe(lines.put_nowait, {"played": played})

    def ended(job: asyncio.Future[dict[str, Any]]) -> None:  # the outcome is read by `answer`, or by nobody
        if not job.cancelled():
            job.exception()
        lines.put_nowait(None)

    job = asyncio.ensure_future(workers.run(request, work, *args, report))
    job.add_done_callback(ended)
    await asyncio.sleep(0)  # the job's first step: queued, or refused while the status can still say so
    if job.done():
        job.result()

    async def answer() -> AsyncIterator[str]:
        while (line := await lines.get()) is not None:
            yield json.dumps(line) + "\n"
        try:
            yield json.dumps(job.result()) + "\n"
        except PysolveError as refused:
            yield json.dumps({"error": str(refused)}) + "\n"
        except HTTPException as refused:
            yield json.dumps({"error": refused.detail}) + "\n"

    return StreamingResponse(answer(), media_type="application/x-ndjson")


def routes(workers: Workers, choice: Choice) -> list[Route]:
    """The Azul endpoints.

    Start a table, read it, move, take back, let the others play, its log; replays;
    tournaments.
    """
    tables: Store[Table] = Store("azul", close=Table.close)

    async def start(request: Request) -> JSONResponse:
        data = await body(request)
        backend = choice.pick(data)

        def begin() -> dict[str, Any]:
            table = table_of(data, backend)
            let_others_play(table)
            return table_view(tables.add(table), table)

        return JSONResponse(await workers.run(request, begin), status_code=201)

    def acting(request: Request, act: Any) -> Any:
        """An endpoint that does `act(table)` to the table in the path (in a worker, one request at a time)."""
        key = request.path_params["key"]
        kept = tables.get(key)

        def locked() -> dict[str, Any]:  # the back end is asked (a Prolog query, on Prolog)
            with kept.lock:
                act(kept.game)
                return table_view(key, kept.game)

        return workers.run(request, locked)

    async def show(request: Request) -> JSONResponse:
        return JSONResponse(await acting(request, lambda table: None))

    async def move(request: Request) -> JSONResponse:
        chosen = check_move(field_of(await body(request), "move", list, required=True))
        return JSONResponse(await acting(request, lambda table: table.choose(chosen)))

    async def undo(request: Request) -> JSONResponse:
        await body(request)  # nothing to read, but a malformed body is refused as on every POST
        return JSONResponse(await acting(request, Table.undo))

    async def go_on(request: Request) -> JSONResponse:
        await body(request)
        return JSONResponse(await acting(request, let_others_play))

    async def log(request: Request) -> PlainTextResponse:
        key = request.path_params["key"]
        records = tables.get(key).game.records
        return PlainTextResponse("".join(json.dumps(record) + "\n" for record in records),
                                 headers={"Content-Disposition": f'attachment; filename="azul-{key}.jsonl"'})

    async def replay(request: Request) -> JSONResponse:
        data = await body(request)
        steps = await workers.run(request, replay_steps, field_of(data, "log", str, required=True))
        return JSONResponse({"steps": steps})

    async def tournament_endpoint(request: Request) -> StreamingResponse:
        data = await body(request)
        backend = choice.pick(data)
        players = check_players(field_of(data, "players", int, default=2))
        games = field_of(data, "games", int, default=20)
        if not 1 <= games <= MAX_GAMES:
            raise InputError(f"the field 'games' must be 1 to {MAX_GAMES}, not {games}")
        names = [affordable(name) for name in names_in(data, "strategies", ["random", "greedy"])]
        if not names:
            raise InputError("the field 'strategies' must name at least one strategy")
        seed = seed_of(data)
        variant = check_variant(field_of(data, "variant", str, default=STANDARD))
        return await reported(request, workers, play_tournament, players, games, seed, backend, names, variant)

    async def options(request: Request) -> JSONResponse:
        return JSONResponse({"strategies": list(CHOICES), "person": PERSON, "variants": list(VARIANTS),
                             "max_games": MAX_GAMES, "tournament_seconds": TOURNAMENT_SECONDS})

    return [
        Route("/api/azul/strategies", options, methods=["GET"]),
        Route("/api/azul/games", start, methods=["POST"]),
        Route("/api/azul/games/{key}", show, methods=["GET"]),
        Route("/api/azul/games/{key}/moves", move, methods=["POST"]),
        Route("/api/azul/games/{key}/undo", undo, methods=["POST"]),
        Route("/api/azul/games/{key}/continue", go_on, methods=["POST"]),
        Route("/api/azul/games/{key}/log", log, methods=["GET"]),
        Route("/api/azul/replay", replay, methods=["POST"]),
        Route("/api/azul/tournament", tournament_endpoint, methods=["POST"]),
    ]
