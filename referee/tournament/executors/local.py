"""``executor: local``: matches on worker threads of this process.

Each match runs in its own worker thread through :func:`referee.match.run_match`;
the work is done by the bot processes, and every match has its own
processes, clocks, transcript and record, written in place under the spec's
logs folder.

Cancelling a match kills its bots at once (SIGKILL to each process group),
so a call blocked waiting for an answer returns, and makes every further
call on its seats raise :class:`Cancelled`: the match ends without a record,
never as a forfeit that the kill caused.
"""

from __future__ import annotations

import concurrent.futures
import os
import queue
import signal
import threading
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from referee.match import MatchSpec, TransportFactory, bot_process, run_match
from referee.seat.botprocess import BotProcess
from referee.seat.faults import SeatFault
from referee.seat.spec import SeatSpec
from referee.seat.transcript import Transcript
from referee.seat.transport import ForwardingTransport
from referee.tournament.executors.base import (CommandCheck, Executor, MatchCancelled, MatchDone, MatchFailed,
                                               Outcome, Say)

__all__ = ["LocalExecutor", "Cancelled"]


class Cancelled(Exception):
    """Raised inside a match whose executor cancelled it: the match is abandoned."""


class _CancelToken:
    """Cancellation of one running match: kill its bots, make its calls raise."""

    def __init__(self) -> None:
        self.cancelled = False
        self.lock = threading.Lock()
        self._transports: list[CancellableTransport] = []

    def register(self, transport: CancellableTransport) -> None:
        with self.lock:
            self._transports.append(transport)
            if self.cancelled:
                transport.kill()

    def cancel(self) -> None:
        with self.lock:
            self.cancelled = True
            for transport in self._transports:
                transport.kill()


class CancellableTransport(ForwardingTransport):
    """A :class:`BotProcess` whose match can be abandoned from another thread.

    After :meth:`_CancelToken.cancel` every call raises :class:`Cancelled`;
    the bot is killed (SIGKILL to its process group) so a call blocked waiting
    for an answer returns at once. A fault raised after the cancellation is
    the kill's doing, never the bot's, so it becomes ``Cancelled`` too.
    """

    inner: BotProcess

    def __init__(self, inner: BotProcess, token: _CancelToken):
        super().__init__(inner)
        self._token = token
        self._closed = False  # guarded by the token's lock: no kill once close() began

    def kill(self) -> None:
        """SIGKILL the bot's process group (called with the token's lock held)."""
        pid = self.inner.pid
        if pid is None or self._closed:
            return
        try:
            # The leader stays unreaped until close(), so its pid, which is the
            # group id, cannot have been recycled yet.
            os.killpg(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def _check(self) -> None:
        if self._token.cancelled:
            raise Cancelled()

    def _forward(self, method: Callable[..., Any], *args: Any) -> Any:
        """``method(*args)``, unless the match was cancelled; a fault raised once it
        was cancelled is the kill's doing and becomes ``Cancelled``."""
        self._check()
        try:
            return method(*args)
        except SeatFault:
            self._check()
            raise

    def start(self) -> None:
        try:
            super().start()
        finally:
            self._token.register(self)
        self._check()

    def close(self, grace_s: float = 1.0, term_s: float = 1.0) -> int | None:
        with self._token.lock:
            self._closed = True
        if self._token.cancelled:
            grace_s, term_s = 0.0, 0.2  # killed already; just reap and release
        return self.inner.close(grace_s, term_s)


def cancellable_factory(spec: MatchSpec, token: _CancelToken) -> TransportFactory:
    """Bot processes as :func:`run_match` would start them, made cancellable."""
    def make(seat: int, seat_spec: SeatSpec, transcript: Transcript) -> CancellableTransport:
        return CancellableTransport(bot_process(spec, seat, seat_spec, transcript), token)
    return make


class LocalExecutor(Executor):
    """``concurrency`` matches at once, each on a thread of its own."""

    name = "local"

    def __init__(self, concurrency: int = 1):
        if isinstance(concurrency, bool) or not isinstance(concurrency, int) or concurrency < 1:
            raise ValueError(f"concurrency must be an integer >= 1, got: {concurrency!r}")
        self._capacity = concurrency
        self._pool: concurrent.futures.ThreadPoolExecutor | None = None
        self._outcomes: queue.Queue[Outcome] = queue.Queue()
        self._tokens: dict[str, _CancelToken] = {}
        self._lock = threading.Lock()

    @classmethod
    def from_settings(cls, options: Mapping[str, Any], *, concurrency: int, bots: Sequence[SeatSpec],
                      check: CommandCheck, say: Say | None, results: Path | None = None) -> LocalExecutor:
        return cls(concurrency)

    @property
    def capacity(self) -> int:
        return self._capacity

    def start(self) -> None:
        if self._pool is None:
            self._pool = concurrent.futures.ThreadPoolExecutor(self._capacity, thread_name_prefix="match-worker")

    def submit(self, spec: MatchSpec) -> None:
        self.start()
        assert self._pool is not None
        token = _CancelToken()
        with self._lock:
            if spec.match_id in self._tokens:
                raise ValueError(f"match {spec.match_id!r} is already running")
            self._tokens[spec.match_id] = token
        self._pool.submit(self._play, spec, token)

    def _play(self, spec: MatchSpec, token: _CancelToken) -> None:
        outcome: Outcome
        try:
            record = run_match(spec, transport_factory=cancellable_factory(spec, token))
            outcome = MatchDone(spec.match_id, record.to_dict())
        except Cancelled:
            outcome = MatchCancelled(spec.match_id)
        except BaseException as exc:  # a referee-side failure: reported, never lost in the thread
            outcome = MatchFailed(spec.match_id, f"{type(exc).__name__}: {exc}")
        finally:
            with self._lock:
                self._tokens.pop(spec.match_id, None)
        self._outcomes.put(outcome)

    def wait(self, timeout_s: float) -> Sequence[Outcome]:
        try:
            out = [self._outcomes.get(timeout=timeout_s)]
        except queue.Empty:
            return []
        while True:
            try:
                out.append(self._outcomes.get_nowait())
            except queue.Empty:
                return out

    def cancel(self) -> None:
        with self._lock:
            tokens = list(self._tokens.values())
        for token in tokens:
            token.cancel()

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            self.cancel()
            pool.shutdown(wait=True, cancel_futures=True)
