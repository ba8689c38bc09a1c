"""Worker processes that play a simulation's deals, so one simulation uses several cores.

A :class:`~.sim.SimAgent` with ``workers > 1`` hands each deal (every candidate still in
the running, played in one world of the unseen tiles) to a pool of ``workers`` processes
and takes the outcomes back **in the deals' order**: the figures, the early drops and the
ranking are then exactly the ones one process gets from the same deals (a test checks it),
and only the wall clock differs. A deal is the unit of work because every candidate must
meet the same deals (common random numbers).

The processes are forked from a process with a single thread (a terminal command, a
script: they start at once and share the loaded word list) and started with ``spawn``
otherwise (a server's threads make ``fork`` unsafe: a spawned worker receives the word list
and the static player when it starts, about 2-4 s with ENABLE, and the main module must be
importable without side effects, as ``multiprocessing`` asks). After that a worker gets
only positions, moves and deals. A pool is kept per word list and
static player and reused by later moves and analyses; at most :data:`MAX_POOLS` are kept,
the oldest closed first. A worker ignores Ctrl-C (the parent decides when to stop). A pool
whose worker died is dropped and the deals it had not returned are played in this
process, so the result is the same.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import signal
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from concurrent.futures import Future
    from concurrent.futures.process import BrokenProcessPool

    from stratagem.games.scrabble.heuristic import EquityAgent
    from stratagem.games.scrabble.lexicon import Lexicon
    from stratagem.games.scrabble.sim import SimAgent
    from stratagem.games.scrabble.state import ScrabbleState

MAX_POOLS = 2
"""Pools kept at once (each holds ``workers`` processes with a word list: about 0.3 GB
each with ENABLE)."""
PARENT_CHECK = 1.0
"""Seconds between a worker's checks that its parent is alive."""
AHEAD = 2
"""Deals handed out per worker before the first comes back: enough to keep every worker
busy, few enough that a cancel or the time budget stops the simulation within a deal or
two."""


def cores() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


def start_method() -> str:
    """``fork`` from a process with one thread (the workers start at once, sharing the
    loaded word list's pages), ``spawn`` otherwise: forking a process whose other threads
    may hold locks (a server) can leave a worker stuck."""
    if hasattr(os, "fork") and threading.active_count() == 1:
        return "fork"
    return "spawn"


def portable(state: ScrabbleState, lexicon: Lexicon | None = None) -> ScrabbleState:
    """``state`` (and the position a challenge may take it back to) with ``lexicon`` as its
    word list: None to send it to a worker, which puts its own copy back."""
    window = state.window
    if window is not None:
        window = (portable(window[0], lexicon), window[1])
    return replace(state, lexicon=lexicon, window=window)  # type: ignore[arg-type]


# --- the worker side --------------------------------------------------------------------------

_WORKER: dict[str, Any] = {}


def _start(lexicon: Lexicon, static: bytes, parent: int) -> None:
    """A worker's set-up: the word list and a simulating player around the static one;
    Ctrl-C ignored, and a watch that ends the worker when its parent is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_orphaned, args=(parent,), daemon=True).start()
    from stratagem.games.scrabble.sim import SimAgent

    _WORKER["lexicon"] = lexicon
    _WORKER["agent"] = SimAgent(pickle.loads(static), candidates=1)


def _orphaned(parent: int) -> None:
    """End this worker once its parent has died (a killed parent's forked workers would
    otherwise wait on the task queue for ever: they hold its other end themselves)."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK)
    os._exit(0)


def _play(state: ScrabbleState, actions: Sequence[Any], deal: Any, me: int, kind: str,
          arg: int) -> list[tuple[float, ...]]:  # fmt: skip
    """One deal's outcomes for ``actions`` (:meth:`SimAgent.outcome`), in a worker."""
    agent: SimAgent = _WORKER["agent"]
    found = agent.outcome(portable(state, _WORKER["lexicon"]), actions, deal, me, kind, arg)
    assert found is not None  # nothing to stop it half-way here
    return found


# --- the parent side --------------------------------------------------------------------------


class DealPool:
    """``workers`` processes holding one word list and one static player."""

    def __init__(self, lexicon: Lexicon, static: bytes, workers: int) -> None:
        import multiprocessing  # here, not at import: a command that never simulates
        from concurrent.futures import ProcessPoolExecutor  # in parallel does not load them

        self.lexicon = lexicon
        self.workers = workers
        self.broken = False
        self.executor = ProcessPoolExecutor(
            workers, mp_context=multiprocessing.get_context(start_method()),
            initializer=_start, initargs=(lexicon, static, os.getpid()),
        )  # fmt: skip

    def run(
        self, state: ScrabbleState, actions: Sequence[Any], deals: Iterable[Any], me: int,
        kind: str, arg: int, stop: Callable[[], bool],
    ) -> Iterator[list[tuple[float, ...]]]:  # fmt: skip
        """Each deal's outcomes, in the deals' order. ``stop`` is asked before each outcome
        is handed back; when it says yes, the deals still out are cancelled (a worker
        finishes the one it is playing) and nothing more comes. A dead worker raises
        :class:`concurrent.futures.process.BrokenProcessPool`; the deals not yet handed
        back are in the exception's ``pending`` (a list)."""
        from concurrent.futures.process import BrokenProcessPool

        sent = portable(state)
        out: deque[tuple[Any, Future[list[tuple[float, ...]]] | None]] = deque()
        source = iter(deals)
        try:
            while True:
                while len(out) < AHEAD * self.workers:
                    deal = next(source, None)
                    if deal is None:
                        break
                    try:
                        sent_off = self.executor.submit(_play, sent, actions, deal, me, kind,
                                                        arg)  # fmt: skip
                    except BrokenProcessPool as error:
                        out.append((deal, None))
                        raise self._broken(error, out, source) from None
                    out.append((deal, sent_off))
                if not out:
                    return
                if stop():
                    return
                first = out[0][1]
                assert first is not None
                try:
                    result = first.result()
                except BrokenProcessPool as error:
                    raise self._broken(error, out, source) from None
                out.popleft()
                yield result
        finally:
            for _, waiting in out:
                if waiting is not None:
                    waiting.cancel()

    def _broken(self, error: BrokenProcessPool, out: deque[tuple[Any, Any]],
                source: Iterator[Any]) -> BrokenProcessPool:  # fmt: skip
        """``error`` with the deals not handed back in ``pending``; the pool marked broken."""
        self.broken = True
        error.pending = [d for d, _ in out] + list(source)  # type: ignore[attr-defined]
        out.clear()
        return error

    def close(self, wait: bool = False) -> None:
        self.executor.shutdown(wait=wait, cancel_futures=True)


_POOLS: OrderedDict[tuple[int, str, int], DealPool] = OrderedDict()
_LOCK = threading.Lock()
_FINALIZER: list[Any] = []


def static_key(static: EquityAgent) -> str:
    """A digest of what the static player plays by (its kind, tile set and leave values),
    so players built alike share a pool. Only the arrays count: a used player's tables
    carry cached attributes that would make a pickle of them differ."""
    evaluator = static.evaluator
    digest = hashlib.sha256(f"{type(static).__name__}/{evaluator.tiles.name}".encode())
    leaves = evaluator.leaves
    for array in (leaves.per_letter, leaves.balance, leaves.pairs):
        digest.update(np.ascontiguousarray(array, dtype=np.float64).tobytes())
    table = getattr(evaluator, "superleaves", None)
    if table is not None:
        for part in (table.ranks, table.values, table.complete):
            digest.update(b"-" if part is None else np.ascontiguousarray(part).tobytes())
        for array in (table.fallback.per_letter, table.fallback.balance, table.fallback.pairs):
            digest.update(np.ascontiguousarray(array, dtype=np.float64).tobytes())
    return digest.hexdigest()


def deal_pool(lexicon: Lexicon, static: EquityAgent, key: str, workers: int) -> DealPool:
    """The pool for this word list, static player (named by :func:`static_key`) and number
    of workers, started the first time it is asked for."""
    full = (id(lexicon), key, workers)
    with _LOCK:
        if not _POOLS and not _FINALIZER:
            import multiprocessing.util

            # a process of another pool (an arena's worker) ends with os._exit after
            # joining its children: without this its idle workers would be waited for ever.
            # Before the task queues' own finalizers (priority 10) stop their feeder threads,
            # or the workers' stop signals would never be sent
            _FINALIZER.append(multiprocessing.util.Finalize(None, close_all, args=(True,),
                                                            exitpriority=100))  # fmt: skip
        pool = _POOLS.get(full)
        if pool is not None and pool.lexicon is lexicon and not pool.broken:
            _POOLS.move_to_end(full)
            return pool
        if pool is not None:
            pool.close()
        data = pickle.dumps(static, protocol=pickle.HIGHEST_PROTOCOL)
        pool = _POOLS[full] = DealPool(lexicon, data, workers)
        while len(_POOLS) > MAX_POOLS:
            _, old = _POOLS.popitem(last=False)
            old.close()
        return pool


def drop(pool: DealPool) -> None:
    """Forget a broken pool (its live workers are shut down)."""
    with _LOCK:
        for key, p in list(_POOLS.items()):
            if p is pool:
                del _POOLS[key]
    pool.close()


def close_all(wait: bool = False) -> None:
    """Shut every pool down (tests; a process ending: then ``wait`` for the workers)."""
    with _LOCK:
        pools = list(_POOLS.values())
        _POOLS.clear()
    for pool in pools:
        pool.close(wait)
