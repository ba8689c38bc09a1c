"""Yahtzee in the arena: presets and agent factories (``stratagem arena agents --game yahtzee``).

Every player has their own card and their own dice; a game has 1 to 4 players.
"""

from __future__ import annotations

from stratagem.algorithms.mcts import MCTS, MCTSConfig
from stratagem.core.agent import Agent, RandomAgent
from stratagem.core.arena import AgentFactory, AgentInfo, AgentSpec, ArenaError, GameSpec
from stratagem.core.errors import StratagemError
from stratagem.games.yahtzee.rules import PRESETS, preset
from stratagem.games.yahtzee.solver import solve
from stratagem.games.yahtzee.state import YahtzeeState
from stratagem.games.yahtzee.strategies import OptimalStrategy


def _optimal(rules: str, spec: AgentSpec) -> Agent:
    return OptimalStrategy(solve(preset(rules)))


def _mcts(rules: str, spec: AgentSpec) -> Agent:
    from stratagem.games.yahtzee.rollout import rollout

    try:
        config = MCTSConfig.from_spec(",".join(f"{k}={v}" for k, v in spec.params))
    except StratagemError as exc:
        raise ArenaError(str(exc)) from None
    return MCTS.from_config(config, rollout_fn=rollout)


def _win(rules: str, spec: AgentSpec) -> Agent:
    from stratagem.games.yahtzee.winning import WinAgent

    return WinAgent(solve(preset(rules)))


def _high_score(rules: str, spec: AgentSpec) -> Agent:
    from stratagem.games.yahtzee.high_score import HighScoreStrategy

    text = spec.param("target")
    if text is None:
        raise ArenaError("high-score needs a target: high-score:target=300")
    try:
        target = int(text)
    except ValueError:
        raise ArenaError(f"high-score: target must be a whole number, got {text!r}") from None
    try:
        return HighScoreStrategy(solve(preset(rules)), target)
    except StratagemError as exc:
        raise ArenaError(f"high-score: {exc}") from None


def _policy(name: str) -> AgentFactory:
    def make(rules: str, spec: AgentSpec) -> Agent:
        from stratagem.games.yahtzee.strategies import PolicyAgent

        return PolicyAgent(solve(preset(rules)), name)

    return make


def _random(rules: str, spec: AgentSpec) -> Agent:
    return RandomAgent()


GAME = GameSpec(
    name="yahtzee",
    presets=tuple(PRESETS),
    default_rules="yahtzee",
    min_players=1,
    max_players=4,
    new_state=lambda rules, players: YahtzeeState.new(preset(rules), players),
    result="score",
    agents={
        "optimal": AgentInfo("optimal", "maximises the expected final score (exact)", _optimal),
        "win": AgentInfo(
            "win",
            "maximises the chance of finishing ahead (needs 2+ players; builds the "
            "remaining-score tables once, about 1 GB)",
            _win,
        ),
        "high-score": AgentInfo(
            "high-score",
            "maximises P(final score >= target), exactly (builds the high-score table "
            "once, minutes; then memory-mapped)",
            _high_score,
            params={"target": "the final score to reach (required), 0..10000"},
        ),
        "greedy": AgentInfo("greedy", "maximises this turn's points", _policy("greedy")),
        "yahtzee-only": AgentInfo(
            "yahtzee-only",
            "keeps its most common face; most points now",
            _policy("yahtzee-only"),
        ),
        "yahtzee-and-straights": AgentInfo(
            "yahtzee-and-straights",
            "as yahtzee-only, but also chases open straights",
            _policy("yahtzee-and-straights"),
        ),
        "heuristic": AgentInfo(
            "heuristic",
            "one-turn expectimax over a hand-written worth of the card",
            _policy("heuristic"),
        ),
        "random": AgentInfo("random", "uniformly random legal action", _random),
        "mcts": AgentInfo(
            "mcts",
            "Monte Carlo tree search with chance nodes (compiled playouts)",
            _mcts,
            params={
                "c": "exploration constant on min-max normalised values (0.71)",
                "sims": "simulations per decision (2500)",
                "rollout": "playout policy: random, greedy (random)",
                "expand": "visits before a node below the root grows children (1)",
                "seed": "seed of advise(); act() uses the arena's generator",
            },
        ),
    },
)
