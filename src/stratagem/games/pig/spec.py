"""Pig for core: presets, how a game starts, and every agent with its parameters.

``stratagem arena agents --game pig`` lists them; the command line, the arena
and the web page all build Pig agents from here (see :mod:`stratagem.core.registry`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from stratagem.algorithms import mcts
from stratagem.algorithms.mcts_compiled import FastGame
from stratagem.core.agent import Agent, RandomAgent
from stratagem.core.coaching import Coaching
from stratagem.core.errors import InvalidAgentError, InvalidRulesError
from stratagem.core.files import FileInputError, read_user_text
from stratagem.core.game import State
from stratagem.core.registry import AgentInfo, GameSpec, Lazy, Param, WebExtras, agent_table
from stratagem.core.series import SeriesResult
from stratagem.core.tables import custom_tables_saved, solved
from stratagem.games.pig.rules import MAX_FACES, MAX_GOAL, PRESETS, PigRules, preset
from stratagem.games.pig.solver import PigSolution, solve
from stratagem.games.pig.state import PigState
from stratagem.games.pig.strategies import (
    MAX_HOLD,
    HoldAt,
    KeepPace,
    OptimalAgent,
    RuleAgent,
    RuleTable,
    check_hold,
    simulate,
)

MAX_TABLE_BYTES = 1 << 20
"""Largest rule-table file read."""


_PRESET_FINGERPRINTS = frozenset(r.fingerprint for r in PRESETS.values())


def solution(rules: PigRules) -> PigSolution:
    """The solved table of ``rules``, solved or loaded once per process and shared by every
    agent, coach and page (the process's one memo, keyed by the rules' fingerprint).
    A variant that is no preset is written to the disk cache only where
    :func:`~stratagem.core.tables.custom_tables_saved` (not from a web request)."""
    save = rules.fingerprint in _PRESET_FINGERPRINTS or custom_tables_saved()
    return solved("pig", rules.fingerprint, lambda: solve(rules, save=save))


def table_bytes(rules: PigRules) -> int:
    """Bytes of the solved table of ``rules`` (float64 per state; two tables with a
    catch-up turn), known before solving."""
    return rules.num_states * 8 * (2 if rules.catch_up_turn else 1)


def _optimal(rules: PigRules) -> Agent:
    return OptimalAgent(solution(rules))


def _hold(rules: PigRules, n: int) -> Agent:
    return HoldAt(rules, n)


def _keep_pace(rules: PigRules, base: int, race: int, div: int) -> Agent:
    return KeepPace(rules, base, race, div)


def _table(rules: PigRules, file: str) -> Agent:
    try:  # size-limited: a folder, a pipe or /dev/zero is a named error, not a hang
        text = read_user_text(Path(file), limit=MAX_TABLE_BYTES, what="rule table")
    except FileInputError as exc:
        raise InvalidAgentError(str(exc)) from None
    try:
        return RuleTable.parse(text, rules, name=f"table:{file}")
    except InvalidRulesError as exc:
        raise InvalidAgentError(str(exc)) from None


def _coaching(rules: PigRules, seats: Sequence[object] | None = None) -> Coaching:
    from stratagem.games.pig.coach import coaching  # the coach imports this module

    return coaching(rules, seats)


def _fast(rules: PigRules) -> FastGame:
    from stratagem.games.pig.fast import fast_game

    return fast_game(rules)


def _rollout(state: State, policy: str, rng: np.random.Generator) -> tuple[float, ...]:
    from stratagem.games.pig.rollout import rollout  # compiled: loaded on first use

    return rollout(state, policy, rng)


def _series(rules: PigRules, agents: Sequence[Agent], games: int, seed: int) -> SeriesResult | None:
    """Fixed-policy agents play in the compiled simulation (A starts the even games)."""
    if len(agents) != 2 or not all(isinstance(a, RuleAgent | OptimalAgent) for a in agents):
        return None
    a, b = agents
    m = simulate(rules, a, b, games, seed)  # type: ignore[arg-type]
    a_won = m.winner_is_a.astype(np.float64)
    returns = np.stack([a_won, 1.0 - a_won], axis=1)
    first = np.where(m.a_starts, 0, 1)
    return SeriesResult((), seed, returns, first, True, m)


AGENTS = (
    AgentInfo("optimal", "maximises the probability of winning (exact)", _optimal),
    AgentInfo(
        "hold", "hold at turn total n (or at the goal)", _hold,
        (Param("n", int, None, "the turn total to hold at", low=1, high=MAX_HOLD,
               required=True),),
        positional="n",
        check=lambda rules, values: check_hold(rules, values["n"], "the N of hold:N"),
    ),
    AgentInfo(
        "keep-pace", "Neller & Presser's keep pace and end race", _keep_pace,
        (Param("base", int, 21, "hold threshold at equal scores", low=1, high=MAX_HOLD),
         Param("race", int, 71, "roll to the goal once either score reaches this",
               low=0, high=MAX_HOLD),
         Param("div", int, 8, "score difference per extra point of threshold",
               low=1, high=MAX_HOLD)),
    ),
    AgentInfo(
        "table", "a rule table file (stratagem pig rules)", _table,
        (Param("file", str, None, "path of the rule table", required=True,
               accepts="file path", file=True),),
        positional="file",
    ),
    AgentInfo("random", "uniformly random legal action", lambda rules: RandomAgent()),
    mcts.agent_info(
        "Monte Carlo tree search with chance nodes (compiled tree and playouts)",
        Param("rollout", str, "random", "playout policy: random, or holdN (e.g. hold20)",
              pattern="random|hold:?[1-9][0-9]{0,4}", accepts="random or holdN, N in 1..99999"),
        make_fast=_fast,
        rollout_fn=_rollout,
    ),
)  # fmt: skip

RULE_PARAMS = (
    Param("goal", int, None, "points needed to win", low=1, high=MAX_GOAL),
    Param("faces", int, None, "faces of the die (2 = a coin)", low=2, high=MAX_FACES),
    Param("bust_faces", str, None, "the face(s) that bust, joined by / (1 or 1/2)",
          pattern=r"[0-9]{1,3}(/[0-9]{1,3}){0,99}", accepts="faces joined by /, e.g. 1 or 1/2"),
    Param("bust_scores_one", bool, None, "a bust still banks one point"),
    Param("catch_up_turn", bool, None, "the second player gets a last turn to beat the "
          "starter's total"),
)  # fmt: skip
"""Pig's rules as parameters of a preset: ``pig:goal=50,faces=8,catch_up_turn=true``."""


def variant(name: str, values: Mapping[str, Any]) -> PigRules:
    """The preset ``name`` with the rule parameters ``values`` set (each already in range).

    A die with fewer faces keeps the preset's bust faces that are still on it; if none is,
    the rules must say which face busts.

    >>> variant("pig", {"goal": 50, "faces": 8}).describe()
    'pig: d8, 1 busts, goal 50'
    """
    base = preset(name)
    bust_text = values.get("bust_faces")
    bust_faces = None if bust_text is None else [int(f) for f in str(bust_text).split("/")]
    faces = values.get("faces")
    if faces is not None and bust_faces is None:
        bust_faces = [f for f in base.bust_faces if f <= faces] or None
        if bust_faces is None:
            raise InvalidRulesError(
                f"the preset's bust face(s) {list(base.bust_faces)} are not on a "
                f"{faces}-faced die; say which face busts (bust_faces=...)"
            )
    return base.with_options(
        values.get("goal"), faces, bust_faces, values.get("bust_scores_one"),
        values.get("catch_up_turn"),
    )  # fmt: skip


GAME = GameSpec(
    table_bytes=table_bytes,
    name="pig",
    summary="the dice game of Pig and its variants: roll to build a turn total, 1 busts",
    rules_text=Lazy("stratagem.games.pig.rules_text:all_rules"),
    cli=Lazy("stratagem.games.pig.cli:app"),
    codec=Lazy("stratagem.interop.codecs:PIG"),
    web=WebExtras(Lazy("stratagem.web.pig:router"), page="pig.html"),
    presets=tuple(PRESETS),
    default_rules="pig",
    min_players=2,
    max_players=2,
    rules=preset,
    new=PigState.new,
    result="win",
    agents=agent_table(*AGENTS),
    series=_series,
    rules_type=PigRules,
    rule_params=RULE_PARAMS,
    vary=variant,
    coaching=_coaching,
)
