"""MCTS simulations per second: ours against OpenSpiel's MCTSBot (C++ and Python), in one run.

On Pig to 100 it times, from a few positions (early, mid and late game, each
a decision with two legal actions: roll or hold), decisions of

* ours, compiled tree: ``MCTS(c, simulations=N, rollout="random",
  fast=fast_game(rules))``, ``agent.search(state, rng)`` (the whole search in
  numba, :mod:`stratagem.algorithms.mcts_compiled`);
* ours, Python tree: ``MCTS(c, simulations=N, rollout="random",
  rollout_fn=pig_rollout)``, ``agent.search(state, rng)`` (tree in Python,
  playouts compiled by numba);
* OpenSpiel's C++ bot: ``pyspiel.MCTSBot(game, RandomRolloutEvaluator(1, seed),
  uct_c, N, ...)``, ``bot.step(state)``;
* OpenSpiel's Python bot: ``open_spiel.python.algorithms.mcts.MCTSBot(game,
  uct_c, N, RandomRolloutEvaluator(1, RandomState(seed)), solve=False)``,
  ``bot.step(state)`` -- slow, so fewer decisions, each of the same N
  simulations;

all with uniformly random single playouts, no solver backup, and the same N,
decisions alternated between the bots so that any change in the machine's
load hits each alike. It reports simulations per second (of the fastest
decision, the headline; the mean; and per process CPU second), the ratios
ours / Python and ours / C++ for each position and their geometric mean over
the positions, for both our trees, against the goals, judged on the compiled
tree: >= 10x the Python bot (geometric mean), >= 0.5x the C++ bot at every
position.

It also measures what one simulation costs in each game (the length of a
uniformly random playout: OpenSpiel's ``pig`` lets a player stop at turn
total 0 and makes a player stop to bank a win, so its playouts are longer),
how the rate moves with the exploration constant c, and, with no peer (the
nearest OpenSpiel game, ``yacht``, has other rules), our simulations per
second on Yahtzee (``yahtzee-no-bonus``) with random and greedy playouts,
growing the tree on the first visit (``expand=1``) or after 200.

It prints one table per measurement and, as its last line, one JSON object
with the headline figures. Missed goals are reported, not raised; a bot that
does not run the simulations asked for, or positions that differ between the
two games, exit with status 1; a missing peer with status 2.

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python benchmarks/mcts.py [--quick] [--sims 2000] [--decisions 5]
        [--python-decisions 2] [--playouts 1000] [--seed 1] [--markdown docs/results/mcts_bench.md]

The library never imports the peer; only this script (and other benchmarks
and tests) do.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import platform
import random
import re
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

DEFAULT_SIMS = 2_000
DEFAULT_DECISIONS = 5  # timed decisions per position, ours and the C++ bot
DEFAULT_PYTHON_DECISIONS = 2  # the same for OpenSpiel's Python bot (~1,000 sims/s)
DEFAULT_PLAYOUTS = 1_000  # random playouts per position to measure their length
QUICK_DECISIONS = 2
QUICK_PYTHON_DECISIONS = 1
QUICK_PLAYOUTS = 200

GOAL_VS_PYTHON = 10.0  # compiled / OpenSpiel's Python MCTSBot, sims/s, geometric mean
GOAL_VS_CPP = 0.5  # compiled / OpenSpiel's C++ MCTSBot ("within 2x"), at every position

# Exploration constants. Ours compares min-max normalised means (a [0, 1]
# scale); OpenSpiel's UCT adds c sqrt(ln N / n) to raw mean returns in
# [-1, 1]. The same number is not the same exploration, but both are the
# usual choice (our docstring's advice for two-action games; OpenSpiel's
# examples), and the rate hardly depends on c: see the c table.
PIG_C = 2.0
PEER_UCT_C = 2.0
C_SENSITIVITY = (0.5, 2.0, 8.0)
YAHTZEE_C = 0.71  # MCTSConfig's default
YAHTZEE_PRESET = "yahtzee-no-bonus"
YAHTZEE_EXPANDS = (1, 200)
YAHTZEE_ROLLOUTS = ("random", "greedy")

GOAL = 100
# OpenSpiel's default horizon draws a game after 1000 decisions. No game is
# cut off here: the script reports the longest random playout (in decisions
# from the start of the game) it saw, far below 1000, so the default would
# give the same rates; we still set it out of reach, as pig_solve.py does.
PEER_HORIZON = 1_000_000
DEFAULT_HORIZON = 1_000
PEER_GAME = {"players": 2, "diceoutcomes": 6, "piglet": False, "winscore": GOAL}
PEER_MAX_MEMORY_MB = 1_000  # the C++ bot prunes its tree beyond this; 2,000 sims use < 1 MiB
BUSY_OTHERS = 0.25  # warn when other processes may have taken our core

# (name, player 0's score, player 1's score, player 0's turn total); player 0 to move.
PIG_POSITIONS = (
    ("early", 0, 0, 4),
    ("mid", 40, 35, 8),
    ("late", 85, 90, 6),
)

# Yahtzee positions: the boxes filled (dice thrown, box), then the dice showing
# on the first throw of the turn (two rerolls left).
_Y_MID = (
    ((1, 1, 1, 4, 6), "ones"),
    ((2, 2, 3, 5, 6), "twos"),
    ((3, 3, 3, 4, 5), "threes"),
    ((2, 3, 4, 5, 6), "large_straight"),
    ((2, 2, 5, 5, 5), "full_house"),
    ((1, 3, 4, 5, 6), "chance"),
)
_Y_LATE = (
    *_Y_MID,
    ((1, 2, 4, 4, 4), "fours"),
    ((5, 5, 5, 6, 6), "fives"),
    ((1, 2, 6, 6, 6), "sixes"),
    ((3, 3, 3, 3, 6), "four_of_a_kind"),
    ((1, 2, 3, 4, 6), "small_straight"),
)
YAHTZEE_POSITIONS = (
    ("early", (), (1, 2, 3, 3, 5)),
    ("mid", _Y_MID, (2, 4, 4, 5, 6)),
    ("late", _Y_LATE, (2, 2, 4, 6, 6)),
)

BOTS = ("compiled", "tree", "cpp", "python")
OURS = ("compiled", "tree")
BOT_LABELS = {
    "compiled": "ours, compiled tree (fast=fast_game)",
    "tree": "ours, Python tree (rollout_fn)",
    "cpp": "OpenSpiel C++ pyspiel.MCTSBot",
    "python": "OpenSpiel Python MCTSBot",
}


# ---------------------------------------------------------------- positions


def faces_summing(total: int) -> list[int]:
    """Faces 2..6 (none busts) that add up to ``total`` (0 or >= 2)."""
    if total == 1 or total < 0:
        raise ValueError(f"no roll of 2..6 sums to {total}")
    faces = []
    if total % 6 == 1:  # 7 = 4 + 3
        faces, total = [4, 3], total - 7
    faces += [6] * (total // 6)
    if total % 6:
        faces.append(total % 6)
    return faces


def pig_turns(a: int, b: int, t: int) -> list[tuple[str, int]]:
    """The moves to reach the position: ("roll", face) and ("hold", 0), in order.

    Player 0 banks ``a``, player 1 banks ``b`` (a turn that banks 0 is a
    bust: a roll of 1), then player 0 rolls to turn total ``t``.
    """
    moves: list[tuple[str, int]] = []
    if (a, b) != (0, 0):
        for score in (a, b):
            if score == 0:
                moves.append(("roll", 1))
            else:
                moves += [("roll", f) for f in faces_summing(score)] + [("hold", 0)]
    moves += [("roll", f) for f in faces_summing(t)]
    return moves


def ours_pig_state(a: int, b: int, t: int) -> Any:
    from stratagem.games.pig.rules import preset
    from stratagem.games.pig.state import PigAction, PigState

    state = PigState.new(preset("pig").with_options(goal=GOAL))
    for move, face in pig_turns(a, b, t):
        state = state.apply(PigAction.HOLD) if move == "hold" else state.apply(PigAction.ROLL)
        if move == "roll":
            state = state.apply(face)
    return state


def peer_pig_state(game: Any, a: int, b: int, t: int) -> tuple[Any, int]:
    """OpenSpiel's state (action 0 = roll, 1 = stop; chance outcome f - 1 = face f)
    and the decisions made to reach it (its horizon counts decisions)."""
    state = game.new_initial_state()
    decisions = 0
    for move, face in pig_turns(a, b, t):
        state.apply_action(1 if move == "hold" else 0)
        decisions += 1
        if move == "roll":
            state.apply_action(face - 1)
    return state, decisions


_PEER_STATE = re.compile(r"Scores: (\d+) (\d+), Turn total: (\d+)\nCurrent player: ([01])\n")


def check_positions(ours: Any, peer: Any) -> str | None:
    """A description of the mismatch, or None when the two states are one position."""
    m = _PEER_STATE.fullmatch(str(peer))
    if m is None:
        return f"cannot read OpenSpiel's state {str(peer)!r}"
    theirs = ((int(m[1]), int(m[2])), int(m[4]), int(m[3]))
    mine = (tuple(ours.scores), ours.current_player, ours.turn_total)
    if mine != theirs or peer.legal_actions() != [0, 1] or len(ours.legal_actions()) != 2:
        return (
            f"ours {mine} ({ours.legal_actions()}) vs OpenSpiel {theirs} ({peer.legal_actions()})"
        )
    return None


def yahtzee_state(filled: Sequence[tuple[tuple[int, ...], str]], dice: tuple[int, ...]) -> Any:
    from stratagem.games.yahtzee.rules import preset
    from stratagem.games.yahtzee.state import Roll, Score, YahtzeeState

    state = YahtzeeState.new(preset(YAHTZEE_PRESET))
    for thrown, box in filled:
        state = state.apply(Roll(thrown)).apply(Score(box))
    return state.apply(Roll(dice))


# ---------------------------------------------------------------- timing


class OtherLoad:
    """CPU seconds that other processes used while this one ran (from /proc/stat).

    The busy time of the whole machine less this process's and its children's.
    Every bot here runs in one thread; when others keep all the cores busy,
    the timings stretch (wall more than CPU).
    """

    def __init__(self) -> None:
        self.start = self._sample()

    @staticmethod
    def _sample() -> tuple[float, float, float] | None:
        try:
            fields = Path("/proc/stat").read_text().splitlines()[0].split()
        except OSError:
            return None
        ticks = [int(x) for x in fields[1:]]
        busy = sum(ticks[:8]) - ticks[3] - ticks[4]  # all but idle and iowait
        own = os.times()
        mine = own.user + own.system + own.children_user + own.children_system
        return time.perf_counter(), busy / os.sysconf("SC_CLK_TCK"), mine

    def cpus(self) -> float:
        """Average CPUs kept busy by other processes since the start (nan without /proc)."""
        end = self._sample()
        if self.start is None or end is None:
            return float("nan")
        wall = end[0] - self.start[0]
        return max(0.0, (end[1] - self.start[1]) - (end[2] - self.start[2])) / wall


def timed(fn: Callable[[], Any]) -> tuple[float, float, Any]:
    """``(wall seconds, process CPU seconds, result)`` of calling ``fn``."""
    gc.collect()
    cpu = time.process_time()
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, time.process_time() - cpu, out


@dataclass
class Runs:
    """The timed decisions of one bot at one position."""

    bot: str
    position: str
    sims: int
    walls: list[float] = field(default_factory=list)
    cpus: list[float] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)

    def add(self, wall: float, cpu: float, action: str) -> None:
        self.walls.append(wall)
        self.cpus.append(cpu)
        self.actions.append(action)

    @property
    def rate(self) -> float:
        """Simulations per wall second of the fastest decision (the headline figure)."""
        return self.sims / min(self.walls) if self.walls else math.nan

    @property
    def mean_rate(self) -> float:
        """Simulations per wall second over all the decisions."""
        return self.sims * len(self.walls) / sum(self.walls) if self.walls else math.nan

    @property
    def cpu_rate(self) -> float:
        """Simulations per process CPU second over all the decisions."""
        return self.sims * len(self.cpus) / sum(self.cpus) if self.cpus else math.nan

    @property
    def chose(self) -> str:
        return ", ".join(f"{a} {n}" for a, n in Counter(self.actions).most_common())

    def as_json(self) -> dict[str, Any]:
        return {
            "decisions": len(self.walls),
            "sims_per_decision": self.sims,
            "sims_per_s": self.rate,
            "mean_sims_per_s": self.mean_rate,
            "sims_per_cpu_s": self.cpu_rate,
            "decision_s": self.walls,
            "decision_cpu_s": self.cpus,
            "chose": dict(Counter(self.actions)),
        }


# ---------------------------------------------------------------- the bots
# Each maker returns ``decide() -> action name`` for one position; it raises
# RuntimeError when a search did not run the simulations asked for.

PEER_ACTIONS = {0: "roll", 1: "hold"}  # OpenSpiel's "stop" is our "hold"


def make_ours(state: Any, sims: int, c: float, seed: int, compiled: bool) -> Callable[[], str]:
    from stratagem.algorithms.mcts import MCTS
    from stratagem.games.pig.fast import fast_game
    from stratagem.games.pig.rollout import rollout as pig_rollout

    fast = fast_game(state.rules) if compiled else None
    agent = MCTS(c=c, simulations=sims, rollout="random", rollout_fn=pig_rollout, fast=fast)
    rng = np.random.default_rng(seed)

    def decide() -> str:
        advice = agent.search(state, rng)
        n = sum(a.n or 0 for a in advice)
        if n != sims:
            raise RuntimeError(f"ours ran {n} simulations, not {sims}")
        return str(advice[0].action)

    return decide


def make_cpp(game: Any, state: Any, sims: int, c: float, seed: int) -> Callable[[], str]:
    import pyspiel

    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    bot = pyspiel.MCTSBot(game, evaluator, c, sims, PEER_MAX_MEMORY_MB, False, seed + 1, False)
    # Step() returns the action only: check the simulation count on a search of
    # its own (untimed). The root's visits count every simulation; its
    # children's sum to one less (the first one evaluates the root itself).
    check = pyspiel.MCTSBot(
        game, pyspiel.RandomRolloutEvaluator(1, seed), c, sims, PEER_MAX_MEMORY_MB, False, seed,
        False,
    )  # fmt: skip
    n = check.mcts_search(state).explore_count
    if n != sims:
        raise RuntimeError(f"OpenSpiel's C++ MCTSBot ran {n} simulations, not {sims}")

    def decide() -> str:
        return PEER_ACTIONS[bot.step(state)]

    return decide


def make_python(game: Any, state: Any, sims: int, c: float, seed: int) -> Callable[[], str]:
    from open_spiel.python.algorithms import mcts as os_mcts

    evaluator = os_mcts.RandomRolloutEvaluator(
        n_rollouts=1, random_state=np.random.RandomState(seed)
    )
    bot = os_mcts.MCTSBot(
        game, c, sims, evaluator, solve=False, random_state=np.random.RandomState(seed + 1)
    )
    roots: list[Any] = []
    search = bot.mcts_search

    def recording_search(s: Any) -> Any:  # step() calls self.mcts_search: keep its root
        root = search(s)
        roots.append(root)
        return root

    bot.mcts_search = recording_search

    def decide() -> str:
        roots.clear()
        action = bot.step(state)
        n = roots[0].explore_count if roots else -1
        if n != sims:
            raise RuntimeError(f"OpenSpiel's Python MCTSBot ran {n} simulations, not {sims}")
        return PEER_ACTIONS[action]

    return decide


def load_peer_game(horizon: int = PEER_HORIZON) -> Any:
    import pyspiel

    return pyspiel.load_game("pig", {**PEER_GAME, "horizon": horizon})


# ---------------------------------------------------------------- measurements


def warm_up(peer_game: Any, seed: int) -> float:
    """Load numba's compiled playouts and tree, build the greedy tables, run each bot once."""
    from stratagem.algorithms.mcts import MCTS
    from stratagem.games.yahtzee.rollout import rollout as yahtzee_rollout

    start = time.perf_counter()
    for _, a, b, t in PIG_POSITIONS:
        ours = ours_pig_state(a, b, t)
        peer, _ = peer_pig_state(peer_game, a, b, t)
        make_ours(ours, 200, PIG_C, seed, compiled=True)()
        make_ours(ours, 200, PIG_C, seed, compiled=False)()
        make_cpp(peer_game, peer, 200, PEER_UCT_C, seed)()
    make_python(peer_game, peer, 20, PEER_UCT_C, seed)()
    state = yahtzee_state(*YAHTZEE_POSITIONS[0][1:])
    for policy in YAHTZEE_ROLLOUTS:
        agent = MCTS(YAHTZEE_C, 100, policy, rollout_fn=yahtzee_rollout)
        agent.search(state, np.random.default_rng(seed))
    return time.perf_counter() - start


def measure_pig(
    sims: int, decisions: int, python_decisions: int, seed: int, log: Callable[[str], None]
) -> tuple[dict[str, dict[str, Runs]], list[str]]:
    """Timed decisions per position and bot, alternated: compiled, tree, C++, Python, ..."""
    game = load_peer_game()
    results: dict[str, dict[str, Runs]] = {}
    problems: list[str] = []
    for i, (name, a, b, t) in enumerate(PIG_POSITIONS):
        ours_state = ours_pig_state(a, b, t)
        peer_state, _ = peer_pig_state(game, a, b, t)
        mismatch = check_positions(ours_state, peer_state)
        if mismatch:
            problems.append(f"Pig position {name}: the games differ: {mismatch}")
            continue
        pos_seed = seed * 1_000 + i
        deciders = {
            "compiled": make_ours(ours_state, sims, PIG_C, pos_seed, compiled=True),
            "tree": make_ours(ours_state, sims, PIG_C, pos_seed, compiled=False),
            "cpp": make_cpp(game, peer_state, sims, PEER_UCT_C, pos_seed),
            "python": make_python(game, peer_state, sims, PEER_UCT_C, pos_seed),
        }
        runs = {bot: Runs(bot, name, sims) for bot in BOTS}
        for d in range(decisions):
            for bot in BOTS:
                if bot == "python" and d >= python_decisions:
                    continue
                wall, cpu, action = timed(deciders[bot])
                runs[bot].add(wall, cpu, action)
        results[name] = runs
        log(
            f"Pig {name} ({a}-{b}, turn total {t}): "
            + "; ".join(f"{bot} {r.rate:,.0f} sims/s" for bot, r in runs.items())
        )
    return results, problems


def measure_c(sims: int, decisions: int, seed: int) -> dict[str, dict[float, Runs]]:
    """Our trees and the C++ bot at the early position for each c in C_SENSITIVITY."""
    game = load_peer_game()
    name, a, b, t = PIG_POSITIONS[0]
    ours_state = ours_pig_state(a, b, t)
    peer_state, _ = peer_pig_state(game, a, b, t)
    out: dict[str, dict[float, Runs]] = {"compiled": {}, "tree": {}, "cpp": {}}
    for c in C_SENSITIVITY:
        deciders = {
            "compiled": make_ours(ours_state, sims, c, seed, compiled=True),
            "tree": make_ours(ours_state, sims, c, seed, compiled=False),
            "cpp": make_cpp(game, peer_state, sims, c, seed),
        }
        for bot, decide in deciders.items():
            runs = out[bot][c] = Runs(bot, name, sims)
            for _ in range(decisions):
                runs.add(*timed(decide))
    return out


@dataclass
class Playouts:
    """Lengths of uniformly random playouts from one position, in each game."""

    position: str
    ours_moves: float = math.nan  # decisions and dice rolls per playout
    ours_decisions: float = math.nan
    peer_moves: float = math.nan
    peer_decisions: float = math.nan
    peer_longest: int = 0  # decisions from the start of the game, the horizon's count
    peer_over_default_horizon: int = 0

    @property
    def moves_ratio(self) -> float:
        return self.peer_moves / self.ours_moves

    def as_json(self) -> dict[str, Any]:
        return {
            "ours_moves": self.ours_moves,
            "ours_decisions": self.ours_decisions,
            "peer_moves": self.peer_moves,
            "peer_decisions": self.peer_decisions,
            "peer_over_ours_moves": self.moves_ratio,
            "peer_longest_game_decisions": self.peer_longest,
            "peer_games_over_default_horizon": self.peer_over_default_horizon,
        }


def measure_playouts(count: int, seed: int) -> list[Playouts]:
    """Random playouts through each game's own state (pure Python; lengths only)."""
    from stratagem.core.game import CHANCE

    game = load_peer_game()
    out = []
    for i, (name, a, b, t) in enumerate(PIG_POSITIONS):
        r = random.Random(seed * 1_000 + i)
        ours_state = ours_pig_state(a, b, t)
        peer_state, prefix = peer_pig_state(game, a, b, t)
        ours_lengths, peer_lengths = [], []
        for _ in range(count):
            s, moves, decisions = ours_state, 0, 0
            while not s.is_terminal():
                if s.current_player == CHANCE:
                    s = s.apply(r.randint(1, s.rules.faces))
                else:
                    actions = s.legal_actions()
                    s = s.apply(actions[r.randrange(len(actions))])
                    decisions += 1
                moves += 1
            ours_lengths.append((moves, decisions))
            p, moves, decisions = peer_state.clone(), 0, 0
            while not p.is_terminal():
                if p.is_chance_node():
                    p.apply_action(r.randrange(len(p.chance_outcomes())))
                else:
                    actions = p.legal_actions()
                    p.apply_action(actions[r.randrange(len(actions))])
                    decisions += 1
                moves += 1
            peer_lengths.append((moves, decisions))
        longest = prefix + max(d for _, d in peer_lengths)
        out.append(
            Playouts(
                name,
                statistics.fmean(m for m, _ in ours_lengths),
                statistics.fmean(d for _, d in ours_lengths),
                statistics.fmean(m for m, _ in peer_lengths),
                statistics.fmean(d for _, d in peer_lengths),
                longest,
                sum(prefix + d >= DEFAULT_HORIZON for _, d in peer_lengths),
            )
        )
    return out


def measure_yahtzee(sims: int, decisions: int, seed: int) -> dict[tuple[str, str, int], Runs]:
    """Ours on Yahtzee: (position, rollout, expand) -> timed decisions."""
    from stratagem.algorithms.mcts import MCTS
    from stratagem.games.yahtzee.rollout import rollout as yahtzee_rollout

    out = {}
    for i, (name, filled, dice) in enumerate(YAHTZEE_POSITIONS):
        state = yahtzee_state(filled, dice)
        for policy in YAHTZEE_ROLLOUTS:
            for expand in YAHTZEE_EXPANDS:
                agent = MCTS(
                    YAHTZEE_C, sims, policy, expand_after=expand, rollout_fn=yahtzee_rollout
                )
                rng = np.random.default_rng(seed * 1_000 + i)
                runs = out[name, policy, expand] = Runs("ours", name, sims)

                def search(a: Any = agent, s: Any = state, r: Any = rng) -> Any:
                    return a.search(s, r)

                for _ in range(decisions):
                    wall, cpu, advice = timed(search)
                    n = sum(a.n or 0 for a in advice)
                    if n != sims:
                        raise RuntimeError(f"ours ran {n} simulations on Yahtzee, not {sims}")
                    runs.add(wall, cpu, str(advice[0].action))
    return out


# ---------------------------------------------------------------- report


def verdict(ok: bool | None) -> str:
    return "-" if ok is None else ("met" if ok else "MISSED")


def geomean(values: Sequence[float]) -> float:
    values = [v for v in values if v > 0 and math.isfinite(v)]
    return math.exp(statistics.fmean(map(math.log, values))) if values else math.nan


@dataclass
class Table:
    title: str
    headers: list[str]
    rows: list[list[str]]
    right: set[int] = field(default_factory=set)  # right-aligned (numeric) columns

    def text(self) -> str:
        cells = [self.headers, *self.rows]
        widths = [max(len(row[i]) for row in cells) for i in range(len(self.headers))]

        def line(row: Sequence[str]) -> str:
            parts = [
                c.rjust(w) if i in self.right else c.ljust(w)
                for i, (c, w) in enumerate(zip(row, widths, strict=True))
            ]
            return "  ".join(parts).rstrip()

        rule = "  ".join("-" * w for w in widths)
        return "\n".join([self.title, line(self.headers), rule, *map(line, self.rows)])

    def markdown(self) -> str:
        align = ["---:" if i in self.right else ":---" for i in range(len(self.headers))]
        out = [
            f"**{self.title}**",
            "",
            "| " + " | ".join(self.headers) + " |",
            "| " + " | ".join(align) + " |",
        ]
        out += ["| " + " | ".join(row) + " |" for row in self.rows]
        return "\n".join(out)


@dataclass
class Ratios:
    """ours / peer per position, wall and CPU, and the geometric mean over positions."""

    by_position: dict[str, float]
    cpu_by_position: dict[str, float]

    @property
    def overall(self) -> float:
        return geomean(list(self.by_position.values()))

    @property
    def cpu_overall(self) -> float:
        return geomean(list(self.cpu_by_position.values()))

    @property
    def lowest(self) -> float:
        return min(self.by_position.values(), default=math.nan)

    @property
    def cpu_lowest(self) -> float:
        return min(self.cpu_by_position.values(), default=math.nan)


def ratios(pig: dict[str, dict[str, Runs]], ours: str, peer: str) -> Ratios:
    return Ratios(
        {p: r[ours].rate / r[peer].rate for p, r in pig.items()},
        {p: r[ours].cpu_rate / r[peer].cpu_rate for p, r in pig.items()},
    )


RatioTable = dict[tuple[str, str], Ratios]
"""(our bot, peer) -> ratios."""


def all_ratios(pig: dict[str, dict[str, Runs]]) -> RatioTable:
    return {(ours, peer): ratios(pig, ours, peer) for ours in OURS for peer in ("python", "cpp")}


def build_tables(
    pig: dict[str, dict[str, Runs]],
    rat: RatioTable,
    c_runs: dict[str, dict[float, Runs]],
    playouts: list[Playouts],
    yahtzee: dict[tuple[str, str, int], Runs],
    sims: int,
) -> list[Table]:
    positions = {name: (a, b, t) for name, a, b, t in PIG_POSITIONS}
    rate_rows = []
    for name, runs in pig.items():
        a, b, t = positions[name]
        for bot in BOTS:
            r = runs[bot]
            rate_rows.append([
                name, f"{a}-{b}, {t}", BOT_LABELS[bot], str(len(r.walls)),
                f"{1000 * min(r.walls):,.1f}", f"{r.rate:,.0f}", f"{r.mean_rate:,.0f}",
                f"{r.cpu_rate:,.0f}", r.chose,
            ])  # fmt: skip
    vs_python, vs_cpp = rat["compiled", "python"], rat["compiled", "cpp"]
    tree_python, tree_cpp = rat["tree", "python"], rat["tree", "cpp"]
    ratio_rows = []
    for name in pig:
        p, c = vs_python.by_position[name], vs_cpp.by_position[name]
        ratio_rows.append([
            name, f"{p:,.1f}", f"{vs_python.cpu_by_position[name]:,.1f}", "",
            f"{c:.2f}", f"{vs_cpp.cpu_by_position[name]:.2f}", verdict(c >= GOAL_VS_CPP),
            f"{tree_python.by_position[name]:,.1f}", f"{tree_cpp.by_position[name]:.2f}",
        ])  # fmt: skip
    ratio_rows.append([
        "geometric mean", f"{vs_python.overall:,.1f}", f"{vs_python.cpu_overall:,.1f}",
        verdict(vs_python.overall >= GOAL_VS_PYTHON), f"{vs_cpp.overall:.2f}",
        f"{vs_cpp.cpu_overall:.2f}", "", f"{tree_python.overall:,.1f}",
        f"{tree_cpp.overall:.2f}",
    ])  # fmt: skip
    ratio_rows.append([
        "lowest", f"{vs_python.lowest:,.1f}", f"{vs_python.cpu_lowest:,.1f}", "",
        f"{vs_cpp.lowest:.2f}", f"{vs_cpp.cpu_lowest:.2f}", verdict(vs_cpp.lowest >= GOAL_VS_CPP),
        f"{tree_python.lowest:,.1f}", f"{tree_cpp.lowest:.2f}",
    ])  # fmt: skip
    c_rows = []
    for c in C_SENSITIVITY:
        o, y, x = c_runs["compiled"][c], c_runs["tree"][c], c_runs["cpp"][c]
        c_rows.append([
            f"{c:g}", f"{o.rate:,.0f}", o.chose, f"{y.rate:,.0f}", y.chose, f"{x.rate:,.0f}",
            x.chose, f"{o.rate / x.rate:.2f}",
        ])  # fmt: skip
    playout_rows = [
        [
            p.position, f"{p.ours_moves:.1f}", f"{p.ours_decisions:.1f}", f"{p.peer_moves:.1f}",
            f"{p.peer_decisions:.1f}", f"{p.moves_ratio:.2f}", str(p.peer_longest),
            str(p.peer_over_default_horizon),
        ]
        for p in playouts
    ]  # fmt: skip
    y_rows = []
    for (name, policy, expand), r in yahtzee.items():
        y_rows.append([
            name, policy, str(expand), str(len(r.walls)),
            f"{1000 * min(r.walls):,.1f}", f"{r.rate:,.0f}", f"{r.mean_rate:,.0f}",
            f"{r.cpu_rate:,.0f}", r.chose,
        ])  # fmt: skip
    boxes = {name: len(filled) for name, filled, _ in YAHTZEE_POSITIONS}
    return [
        Table(
            f"Pig to {GOAL}, player 0 to move (scores 0-1, turn total): {sims:,} simulations "
            "per decision, random playouts; best ms and sims/s = the fastest decision; mean = "
            "all simulations / all their wall time; cpu = the same in process CPU time; "
            "'chose' = the actions played",
            ["position", "state", "bot", "decisions", "best ms", "sims/s", "mean sims/s",
             "sims/cpu-s", "chose"],
            rate_rows,
            right={3, 4, 5, 6, 7},
        ),
        Table(
            "Speed ratios, ours / peer in simulations per second (higher is better); "
            f"goals, on the compiled tree: >= {GOAL_VS_PYTHON:g}x the Python bot (geometric "
            f"mean over the positions), >= {GOAL_VS_CPP:g}x the C++ bot (within 2x) at every "
            "position; wall = the fastest decisions' rates, cpu = mean rates in process CPU "
            "time; the goals are judged on the wall ratios; the Python tree's for information",
            ["position", "compiled/python", "cpu", "goal >= 10", "compiled/C++", "cpu",
             "goal >= 0.5", "tree/python", "tree/C++"],
            ratio_rows,
            right={1, 2, 4, 5, 7, 8},
        ),
        Table(
            f"Exploration constant c (position {PIG_POSITIONS[0][0]}; ours on its [0, 1] "
            "scale, the C++ bot on the raw [-1, 1] one): how much the rate depends on it",
            ["c", "compiled sims/s", "compiled chose", "tree sims/s", "tree chose",
             "C++ sims/s", "C++ chose", "compiled/C++"],
            c_rows,
            right={1, 3, 5, 7},
        ),
        Table(
            "What a simulation costs: uniformly random playouts from each position, mean "
            "moves (decisions and dice rolls) and decisions per playout in each game; "
            "OpenSpiel's 'longest' counts decisions from the start of the game (its horizon's "
            f"unit), 'over {DEFAULT_HORIZON}' the playouts its default horizon would have cut",
            ["position", "ours moves", "ours decisions", "OpenSpiel moves",
             "OpenSpiel decisions", "moves ratio", "longest", f"over {DEFAULT_HORIZON}"],
            playout_rows,
            right={1, 2, 3, 4, 5, 6, 7},
        ),
        Table(
            f"Yahtzee ({YAHTZEE_PRESET}, one player), ours only: {sims:,} simulations per "
            f"decision, c = {YAHTZEE_C:g}; expand = visits before a node below the root grows "
            "children (1 = textbook UCT); positions: "
            + ", ".join(f"{n} ({b} boxes filled)" for n, b in boxes.items())
            + ", the first throw of the turn; columns as in the Pig table",
            ["position", "rollout", "expand", "decisions", "best ms", "sims/s", "mean sims/s",
             "sims/cpu-s", "chose"],
            y_rows,
            right={2, 3, 4, 5, 6, 7},
        ),
    ]  # fmt: skip


def machine() -> dict[str, Any]:
    from importlib.metadata import version

    import numba

    cpu_model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu_model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "cpu_count": os.cpu_count(),
        "cpu_model": cpu_model or platform.processor(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba.__version__,
        "peer": f"open_spiel {version('open_spiel')}",
    }


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--sims",
        type=int,
        default=DEFAULT_SIMS,
        help=f"simulations per decision, every bot (default {DEFAULT_SIMS:,})",
    )
    parser.add_argument(
        "--decisions",
        type=int,
        default=None,
        help="timed decisions per position for ours and the C++ bot, and per Yahtzee setting "
        f"(default {DEFAULT_DECISIONS}, {QUICK_DECISIONS} with --quick)",
    )
    parser.add_argument(
        "--python-decisions",
        type=int,
        default=None,
        help="timed decisions per position for OpenSpiel's Python bot, at most --decisions "
        f"(default {DEFAULT_PYTHON_DECISIONS}, {QUICK_PYTHON_DECISIONS} with --quick)",
    )
    parser.add_argument(
        "--playouts",
        type=int,
        default=None,
        help="random playouts per position to measure their length "
        f"(default {DEFAULT_PLAYOUTS:,}, {QUICK_PLAYOUTS} with --quick)",
    )
    parser.add_argument("--seed", type=int, default=1, help="seeds every bot (default 1)")
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"--decisions {QUICK_DECISIONS} --python-decisions {QUICK_PYTHON_DECISIONS} "
        f"--playouts {QUICK_PLAYOUTS} unless given (the same simulations per decision)",
    )
    parser.add_argument(
        "--markdown", type=Path, default=None, help="also write the tables as Markdown to this file"
    )
    args = parser.parse_args(argv)
    if args.decisions is None:
        args.decisions = QUICK_DECISIONS if args.quick else DEFAULT_DECISIONS
    if args.python_decisions is None:
        args.python_decisions = QUICK_PYTHON_DECISIONS if args.quick else DEFAULT_PYTHON_DECISIONS
    args.python_decisions = min(args.python_decisions, args.decisions)
    if args.playouts is None:
        args.playouts = QUICK_PLAYOUTS if args.quick else DEFAULT_PLAYOUTS
    if args.sims < 2:
        parser.error("--sims must be >= 2 (one simulation only evaluates the root in OpenSpiel)")
    if args.decisions < 1 or args.python_decisions < 1 or args.playouts < 1:
        parser.error("--decisions, --python-decisions and --playouts must be >= 1")
    if args.seed < 0:
        parser.error("--seed must be >= 0")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        import pyspiel  # noqa: F401
        from open_spiel.python.algorithms import mcts as _  # noqa: F401
    except ImportError as exc:
        print(f"the peer is missing ({exc}): pip install -e '.[bench]'", file=sys.stderr)
        return 2

    def log(msg: str) -> None:
        print(msg, flush=True)

    info = machine()
    log(
        f"machine: {info['cpu_count']} CPUs ({info['cpu_model']}); Python {info['python']}, "
        f"numpy {info['numpy']}, numba {info['numba']}; peer {info['peer']}; every bot runs "
        "in one thread"
    )
    problems: list[str] = []
    try:
        warmup_s = warm_up(load_peer_game(), args.seed)
        log(
            f"warm-up: {warmup_s:.2f} s (numba's compiled playouts loaded or compiled, greedy "
            "tables built, one short search per bot); excluded from every timing below"
        )
        load = OtherLoad()
        pig, pig_problems = measure_pig(
            args.sims, args.decisions, args.python_decisions, args.seed, log
        )
        others_pig = load.cpus()
        problems += pig_problems
        load = OtherLoad()
        c_runs = measure_c(args.sims, args.decisions, args.seed)
        yahtzee = measure_yahtzee(args.sims, args.decisions, args.seed)
        others_rest = load.cpus()
    except RuntimeError as exc:
        print(f"PROBLEM {exc}")
        print(json.dumps({"benchmark": "mcts", **info, "problems": [str(exc)]}))
        return 1
    log(f"Yahtzee and c runs done; random playout lengths ({args.playouts:,} per position)")
    playouts = measure_playouts(args.playouts, args.seed)
    if not pig:
        for p in problems:
            print(f"PROBLEM {p}")
        print(json.dumps({"benchmark": "mcts", **info, "problems": problems}))
        return 1

    rat = all_ratios(pig)
    vs_python, vs_cpp = rat["compiled", "python"], rat["compiled", "cpp"]
    tables = build_tables(pig, rat, c_runs, playouts, yahtzee, args.sims)
    spare = (os.cpu_count() or 1) - 1  # each bot needs one core
    others = max(others_pig, others_rest)
    shared = not others < BUSY_OTHERS
    loaded = not others < spare + BUSY_OTHERS
    c_spread = {
        bot: max(r.rate for r in by_c.values()) / min(r.rate for r in by_c.values())
        for bot, by_c in c_runs.items()
    }
    mean_moves_ratio = geomean([p.moves_ratio for p in playouts])
    notes = [
        f"Machine: {info['cpu_count']} CPUs ({info['cpu_model']}); {info['peer']}. Each bot "
        "runs in one thread; the decisions of the four bots alternate (ours compiled, ours "
        "Python tree, C++, Python, ours compiled, ...), so a change in the machine's load hits "
        "each alike.",
        f"Same rules and position: OpenSpiel's pig (players=2, diceoutcomes=6, winscore={GOAL}, "
        f"horizon={PEER_HORIZON:,}) and ours (preset 'pig'); every position is checked to be "
        "the same scores, player and turn total in both, with roll and hold legal.",
        f"Same search: {args.sims:,} simulations per decision, one uniformly random playout "
        "per simulation, no solver backup (solve=False), one new node per simulation. "
        f"Exploration: ours c = {PIG_C:g} on min-max normalised means ([0, 1]); OpenSpiel "
        f"uct_c = {PEER_UCT_C:g} on raw returns ([-1, 1]): not the same exploration. Across "
        f"c = {', '.join(f'{c:g}' for c in C_SENSITIVITY)} (c table) the fastest rate is "
        f"{c_spread['compiled']:.2f}x the slowest for our compiled tree, "
        f"{c_spread['tree']:.2f}x for our Python tree, {c_spread['cpp']:.2f}x for the C++ bot.",
        "Our two trees run the same algorithm (tests/algorithms/test_mcts_compiled.py checks "
        "that their root statistics agree); the compiled one keeps the tree in numba arrays "
        "and runs every simulation without returning to Python.",
        "Timed: ours agent.search(state, rng) (the tree, advice included); OpenSpiel "
        "bot.step(state). Every count of simulations is checked (ours: the visits of the "
        "root's actions; OpenSpiel: the root's visits -- its first simulation evaluates the "
        "root itself, so its actions get one visit fewer).",
        "A simulation costs more in OpenSpiel's pig: a player may stop at turn total 0 "
        "(a wasted turn, half the time in a random playout) and must stop to bank a win, so its "
        f"random playouts are {mean_moves_ratio:.2f}x as long as ours (geometric mean over the "
        "positions): at most that factor of the ratios is the game rather than the search.",
        f"The horizon: OpenSpiel's default ({DEFAULT_HORIZON} decisions, then a draw) cut none "
        f"of the random playouts measured (longest: {max(p.peer_longest for p in playouts)} "
        "decisions from the start of the game); we set it out of reach anyway.",
        "Timings exclude the warm-up (numba's playouts and compiled tree loaded from its disk "
        "cache, Yahtzee's greedy tables built, one short search per bot).",
        f"Other processes kept {others_pig:.2f} CPUs busy on average while Pig was timed, "
        f"{others_rest:.2f} during the c and Yahtzee runs.",
    ]
    if loaded:
        notes.append(
            "WARNING: other processes took more than the cores our one thread did not need: "
            "every rate is low and noisy (the CPU columns are less affected); the ratios "
            "suffer less, as the bots alternate. Rerun on an idle machine."
        )
    elif shared:
        notes.append(
            "Note: the machine was shared (another core was busy). The one-thread bots had a "
            "core each, but caches and memory bandwidth were shared: for final figures, rerun "
            "on an idle machine."
        )
    print()
    for table in tables:
        print(table.text())
        print()
    for note in notes:
        print(note)
    for p in problems:
        print(f"PROBLEM {p}")

    if args.markdown is not None:
        md = [
            "<!-- generated by benchmarks/mcts.py; do not edit by hand -->",
            "",
            *(f"{t.markdown()}\n" for t in tables),
            *(f"- {n}" for n in notes),
            *(f"- **Problem** {p}" for p in problems),
            "",
        ]
        args.markdown.parent.mkdir(parents=True, exist_ok=True)
        args.markdown.write_text("\n".join(md))
        print(f"Markdown written to {args.markdown}")

    summary = {
        "benchmark": "mcts",
        **info,
        "sims": args.sims,
        "decisions": args.decisions,
        "python_decisions": args.python_decisions,
        "seed": args.seed,
        "quick": args.quick,
        "pig_c_ours": PIG_C,
        "pig_uct_c_peer": PEER_UCT_C,
        "peer_horizon": PEER_HORIZON,
        "warmup_s": warmup_s,
        "other_processes_cpus_pig": others_pig,
        "other_processes_cpus_rest": others_rest,
        "machine_shared": shared,
        "machine_loaded": loaded,
        "goals": {
            "compiled_over_python_geomean_min": GOAL_VS_PYTHON,
            "compiled_over_cpp_every_position_min": GOAL_VS_CPP,
        },
        "goals_met": {
            "compiled_over_python": vs_python.overall >= GOAL_VS_PYTHON,
            "compiled_over_cpp": vs_cpp.lowest >= GOAL_VS_CPP,
        },
        "compiled_over_cpp_lowest": vs_cpp.lowest,
        **{
            f"{ours}_over_{peer}{suffix}": value
            for (ours, peer), r in rat.items()
            for suffix, value in (("", r.overall), ("_cpu", r.cpu_overall))
        },
        "pig_sims_per_s_geomean": {
            bot: geomean([runs[bot].rate for runs in pig.values()]) for bot in BOTS
        },
        "pig_by_position": {
            name: {
                **{f"{ours}_over_{peer}": r.by_position[name] for (ours, peer), r in rat.items()},
                **{bot: r.as_json() for bot, r in runs.items()},
            }
            for name, runs in pig.items()
        },
        "pig_c_sensitivity": {
            bot: {f"{c:g}": r.rate for c, r in by_c.items()} for bot, by_c in c_runs.items()
        },
        "pig_c_spread": c_spread,
        "pig_playouts": {p.position: p.as_json() for p in playouts},
        "yahtzee_preset": YAHTZEE_PRESET,
        "yahtzee_c": YAHTZEE_C,
        "yahtzee_sims_per_s_geomean": {
            f"{policy},expand={expand}": geomean(
                [r.rate for (_, p, e), r in yahtzee.items() if (p, e) == (policy, expand)]
            )
            for policy in YAHTZEE_ROLLOUTS
            for expand in YAHTZEE_EXPANDS
        },
        "yahtzee_by_position": {
            f"{name},{policy},expand={expand}": r.as_json()
            for (name, policy, expand), r in yahtzee.items()
        },
        "problems": problems,
    }
    print(json.dumps(summary))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
