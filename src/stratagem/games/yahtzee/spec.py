"""Yahtzee for core: presets, how a game starts, and every agent with its parameters.

Every player has their own card and their own dice; a game has 1 to 4 players.
``stratagem arena agents --game yahtzee`` lists the agents; the command line,
the arena and the web page all build Yahtzee agents from here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from stratagem.algorithms import mcts
from stratagem.core.agent import Agent, RandomAgent
from stratagem.core.errors import InvalidAgentError
from stratagem.core.game import State
from stratagem.core.registry import AgentInfo, GameSpec, Lazy, Param, WebExtras, agent_table
from stratagem.core.series import SeriesResult
from stratagem.core.tables import solved
from stratagem.games.yahtzee.duel import Variant
from stratagem.games.yahtzee.duel_play import (
    DUEL_OPTIMAL,
    RULE_PARAMS,
    VariantOptimalAgent,
    highest_score,
    new_state,
    variant_rules,
)
from stratagem.games.yahtzee.rules import PRESETS, YahtzeeRules, preset
from stratagem.games.yahtzee.solver import Solution, solve
from stratagem.games.yahtzee.state import highest_final_score
from stratagem.games.yahtzee.strategies import OptimalStrategy, simulate


def _full_card(rules: Any, values: dict[str, Any] | None = None) -> None:
    """Refuse a reduced card (``AgentInfo.check`` of the agents that read the full card's
    table: refused when the game starts, not at their first move)."""
    if not isinstance(rules, YahtzeeRules):  # a reduced card (duel_play.Variant)
        raise InvalidAgentError(
            f"this agent plays a preset's full card, not {getattr(rules, 'name', rules)}; "
            "on a reduced card play optimal, duel-optimal, random or mcts"
        )


def solution(rules: YahtzeeRules, progress: Any = None) -> Solution:
    """The solved table of ``rules``, solved or loaded once per process and shared by every
    agent, coach and page (the process's one memo, keyed by the rules' fingerprint);
    ``progress`` reports a first solve."""
    _full_card(rules)
    return solved("yahtzee", rules.fingerprint, lambda: solve(rules, progress=progress))


def _optimal(rules: YahtzeeRules) -> Agent:
    if isinstance(rules, Variant):
        return VariantOptimalAgent(rules)
    return OptimalStrategy(solution(rules))


def _win(rules: YahtzeeRules) -> Agent:
    from stratagem.games.yahtzee.coach import check_remaining
    from stratagem.games.yahtzee.winning import WinAgent

    check_remaining(rules)  # a server never builds its 1 GB tables inside a move
    return WinAgent(solution(rules))


def _high_score(rules: YahtzeeRules, target: int) -> Agent:
    from stratagem.games.yahtzee.high_score import HighScoreStrategy

    return HighScoreStrategy(solution(rules), target)


def _check_high_score(rules: YahtzeeRules, values: dict[str, Any]) -> None:
    """The target against the rules' highest final score, before anything is solved."""
    from stratagem.games.yahtzee.high_score import check_target

    if isinstance(rules, Variant):
        solution(rules)  # refuses a reduced card, naming the agents that play one
    check_target(values["target"], rules)


HIGHEST_TARGET = max(highest_final_score(r) for r in PRESETS.values())
"""The spec's static range for ``target``; :func:`_check_high_score` narrows it per rules."""


def _coaching(
    rules: YahtzeeRules, players: int | None = None, seats: Sequence[str] | None = None
) -> Any:
    from stratagem.games.yahtzee.coach import coaching

    return coaching(rules, len(seats) if seats is not None else players)


def _policy(name: str, summary: str) -> AgentInfo:
    def make(rules: YahtzeeRules) -> Agent:
        from stratagem.games.yahtzee.strategies import PolicyAgent

        return PolicyAgent(solution(rules), name)

    return AgentInfo(name, summary, make, check=_full_card)


def _rollout(state: State, policy: str, rng: np.random.Generator) -> tuple[float, ...]:
    from stratagem.games.yahtzee.rollout import rollout  # compiled: loaded on first use

    return rollout(state, policy, rng)


def _series(
    rules: YahtzeeRules, agents: Sequence[Agent], games: int, seed: int
) -> SeriesResult | None:
    """The optimal strategy alone (the compiled solitaire simulation, ``simulate``) or
    against itself (the compiled two-player match, seats alternating as in
    :func:`stratagem.core.series.run_series`). The compiled ``win`` player has no exact
    last turns (:class:`~.winning.WinAgent` has), so it is not used for ``win``."""
    if len(agents) not in (1, 2) or any(type(a) is not OptimalStrategy for a in agents):
        return None
    if len(agents) == 1:
        result = simulate(solution(rules), games, seed)
        returns = result.scores.astype(np.float64)[:, None]
        return SeriesResult((), seed, returns, np.zeros(games, dtype=np.int64), True, result)
    from stratagem.games.yahtzee.match import final_totals

    totals = final_totals(solution(rules), ["optimal", "optimal"], games, seed)
    first = np.arange(games, dtype=np.int64) % 2  # game g: agent g % 2 sits first
    returns = np.empty((games, 2))
    returns[:, 0] = np.where(first == 0, totals[:, 0], totals[:, 1])
    returns[:, 1] = np.where(first == 0, totals[:, 1], totals[:, 0])
    return SeriesResult((), seed, returns, first, True, totals)


AGENTS = (
    AgentInfo("optimal", "maximises the expected final score (exact)", _optimal),
    AgentInfo(
        "win",
        "maximises the chance of finishing ahead (needs 2+ players; builds the "
        "remaining-score tables once, about 1 GB)",
        _win,
        min_players=2,
        check=_full_card,
    ),
    AgentInfo(
        "high-score",
        "maximises P(final score >= target), exactly (builds the high-score table "
        "once, minutes; then memory-mapped)",
        _high_score,
        (
            Param(
                "target",
                int,
                None,
                "the final score to reach (at most the rules' highest)",
                low=1,
                high=HIGHEST_TARGET,
                required=True,
            ),
        ),
        positional="target",
        check=_check_high_score,
    ),
    _policy("greedy", "maximises this turn's points"),
    _policy("yahtzee-only", "keeps its most common face; most points now"),
    _policy("yahtzee-and-straights", "as yahtzee-only, but also chases open straights"),
    _policy("heuristic", "one-turn expectimax over a hand-written worth of the card"),
    DUEL_OPTIMAL,
    AgentInfo("random", "uniformly random legal action", lambda rules: RandomAgent()),
    mcts.agent_info(
        "Monte Carlo tree search with chance nodes (compiled playouts)",
        Param("rollout", str, "random", "playout policy", choices=("random", "greedy")),
        rollout_fn=_rollout,
    ),
)

GAME = GameSpec(
    name="yahtzee",
    summary="Yahtzee and Yatzy: 13 or 15 boxes, three throws of five dice a turn",
    rules_text=Lazy("stratagem.games.yahtzee.rules_text:all_rules"),
    cli=Lazy("stratagem.games.yahtzee.cli:app"),
    codec=Lazy("stratagem.interop.codecs:YAHTZEE"),
    web=WebExtras(Lazy("stratagem.web.yahtzee:router"), page="yahtzee.html"),
    presets=tuple(PRESETS),
    default_rules="yahtzee",
    min_players=1,
    max_players=4,
    rules=preset,
    new=new_state,  # a preset's full card, or a reduced one (rules yahtzee:boxes=...)
    rule_params=RULE_PARAMS,
    vary=variant_rules,
    result="score",
    agents=agent_table(*AGENTS),
    series=_series,
    # the range of a final score, for the arena's report
    returns_range=lambda r: (
        0.0,
        float(highest_score(r) if isinstance(r, Variant) else highest_final_score(r)),
    ),
    rules_type=YahtzeeRules,
    # coaching(rules[, players]): expected points alone, chance of winning against others;
    # without players, bound to the first position's player count
    coaching=_coaching,
)
