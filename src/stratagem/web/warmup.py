"""Compile every game's kernels at server start, in the background, never in a request.

numba compiles a kernel on its first call (its on-disk cache makes later starts fast);
on a fresh install the first Scrabble AI move spent about 100 s compiling while the
player waited. ``create_app(warm_kernels=True)`` (what ``stratagem serve`` does) starts
one background thread that plays a tiny piece of each game with the engines the web page
uses, cheapest game first. Until a game's engines are ready, heavy requests of that game
(the ones that run kernels) answer 503 with ``Retry-After`` and a message saying what is
being prepared; reads, and the games already warm, are served as usual. A warm-up that
fails only logs its error: the game then compiles on first use, as without warm-up.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from stratagem.web.common import WarmingUp

RETRY_SECONDS = 10


def _scorefour() -> None:
    from stratagem.core.session import HUMAN, Session
    from stratagem.games.scorefour.coach import ScoreFourCoaching

    for spec in ("minimax:depth=2,seconds=0.5", "mcts:sims=200", "decision-analysis:depth=1"):
        session = Session.new("scorefour", seats=[spec, HUMAN], seed=0)
        session.ai_move()  # the AI moves first: one search of each kind
        ScoreFourCoaching().rows(session.state)  # and the coach's search


def _pig() -> None:
    from stratagem.games.pig.rules import preset
    from stratagem.games.pig.solver import solve

    solve(preset("piglet").with_options(goal=5), use_cache=False).policy(True)


def _yahtzee() -> None:
    from stratagem.algorithms.mcts import MCTS
    from stratagem.games.yahtzee.assistant import advisor, situation_state
    from stratagem.games.yahtzee.rollout import rollout
    from stratagem.games.yahtzee.rules import preset
    from stratagem.games.yahtzee.state import Situation

    advisor("yahtzee")  # solved or loaded: the page's first request then only looks up
    sit = Situation(preset("yahtzee"), (1, 2, 3, 4, 6), 2, frozenset(), 0, None, 0)
    for kind in ("greedy", "random"):
        MCTS(0.71, 20, kind, 1, rollout_fn=rollout).advise(situation_state(sit))


def _scrabble() -> None:
    from stratagem.core.registry import load_game
    from stratagem.core.session import Session
    from stratagem.web.scrabble import lexicon_entry

    lexicon_entry("english", "builtin", None)
    # each opponent the page offers (the registry's agents) moves first once: move
    # generation, equity, search
    for name in load_game("scrabble").agents:
        Session.new("scrabble", "english", [name, "human"], seed=0).ai_move()


WARMERS: dict[str, Callable[[], None]] = {
    "scorefour": _scorefour,
    "pig": _pig,
    "yahtzee": _yahtzee,
    "scrabble": _scrabble,
}
"""Each game's warm-up, cheapest first (the order they run in)."""


@dataclass
class GameWarmup:
    state: str = "waiting"  # waiting, warming, ready, failed
    started: float | None = None
    seconds: float | None = None
    error: str = ""


@dataclass
class Warmup:
    """Warm-up state per game; ``check(game)`` raises :class:`WarmingUp` until it is done."""

    games: dict[str, GameWarmup] = field(default_factory=dict)
    enabled: bool = False
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def start(self, warmers: dict[str, Callable[[], None]], games: Iterable[str]) -> None:
        order = [g for g in warmers if g in set(games)]
        self.games = {g: GameWarmup() for g in order}
        self.enabled = True

        def run() -> None:
            for game in order:
                status = self.games[game]
                with self._lock:
                    status.state, status.started = "warming", time.monotonic()
                try:
                    warmers[game]()
                except Exception as exc:
                    with self._lock:
                        status.state, status.error = "failed", f"{type(exc).__name__}: {exc}"
                else:
                    with self._lock:
                        status.state = "ready"
                status.seconds = time.monotonic() - (status.started or time.monotonic())

        threading.Thread(target=run, name="stratagem-warmup", daemon=True).start()

    def states(self) -> dict[str, str]:
        with self._lock:
            return {g: s.state for g, s in self.games.items()}

    def check(self, game: str | None) -> None:
        """Refuse (503, retry later) heavy work of ``game`` while its engines compile."""
        if not self.enabled or game is None:
            return
        with self._lock:
            status = self.games.get(game)
            if status is None or status.state in ("ready", "failed"):
                return
            if status.state == "warming" and status.started is not None:
                doing = f"being compiled ({time.monotonic() - status.started:.0f} s so far)"
            else:
                ahead = [g for g, s in self.games.items() if s.state in ("waiting", "warming")
                         and g != game]  # fmt: skip
                doing = "waiting to be compiled" + (f" after {', '.join(ahead)}" if ahead else "")
        raise WarmingUp(
            f"the server is still preparing the {game} engine: it is {doing}, once after "
            f"start-up; try again in {RETRY_SECONDS} s (other games and reads work now)",
            RETRY_SECONDS,
        )
