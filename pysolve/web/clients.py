"""Slow clients timed out.

A connection sends each request's head within HEAD_SECONDS, its body within BODY_SECONDS, or it is
closed.

uvicorn times out only a connection idle between two requests; one that
opens and then sends its head a byte at a time (or never) stays open for
good, and enough of them hold every connection the server has. `config`
is the uvicorn configuration of the server, with `TimedHeads` as its HTTP
protocol; `pysolve.web.guard.bounded_body` reads a body within BODY_SECONDS.
"""

from __future__ import annotations

import asyncio
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

HEAD_SECONDS = 10.0  # from a connection's opening, or its last answer, to the end of the next request's head
BODY_SECONDS = 10.0  # from a request's head to the end of its body


class TimedHeads(H11Protocol):
    """uvicorn's h11 protocol, closing a connection whose next request's head has not come in HEAD_SECONDS."""

    _late: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._wait_for_head()

    def handle_events(self) -> None:
        before = self.cycle
        super().handle_events()
        if self.cycle is not before:  # a request's head came: its answer is the server's to give
            self._cancel()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._wait_for_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel()
        super().connection_lost(exc)

    def _wait_for_head(self) -> None:
        self._cancel()
        self._late = self.loop.call_later(HEAD_SECONDS, self._head_late)

    def _cancel(self) -> None:
        if self._late is not None:
            self._late.cancel()
            self._late = None

    def _head_late(self) -> None:
        """Close the connection unless a request is being answered (its head came meanwhile)."""
        if self.cycle is None or self.cycle.response_complete:
            self.timeout_keep_alive_handler()


def config(app: Any, **options: Any) -> uvicorn.Config:
    """The uvicorn configuration of a pysolve server of `app`.

    `options` as uvicorn takes them, slow clients timed out (TimedHeads).
    """
    return uvicorn.Config(app, http=TimedHeads, **options)
