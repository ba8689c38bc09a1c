"""MCTS: settings, advice statistics, determinism, chance nodes, and play against exact optima."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pytest

from stratagem.algorithms.mcts import MCTS, MCTSConfig, random_playout
from stratagem.core.agent import Advisor, Agent
from stratagem.core.errors import InvalidAgentError, InvalidRulesError, InvalidStateError
from stratagem.core.game import CHANCE, TERMINAL, State
from stratagem.core.registry import make_agent
from stratagem.games.pig.rollout import rollout as pig_rollout
from stratagem.games.pig.rules import PigRules, preset
from stratagem.games.pig.solver import solve
from stratagem.games.pig.state import PigAction, PigState
from stratagem.games.yahtzee import rules as yahtzee_rules
from stratagem.games.yahtzee.rollout import rollout as yahtzee_rollout
from stratagem.games.yahtzee.state import Keep, Roll, YahtzeeState

# -- toy games ---------------------------------------------------------------


@dataclass(frozen=True)
class Lottery:
    """One player picks ``draw`` (a chance node: ``prizes`` with ``weights``) or ``stop`` (0.2).

    With ``mover`` 1 a second, idle player takes part and the prizes are paid
    to player 1 (player 0 gets the complement), to check per-player backups.
    """

    stage: str = "choose"
    prize: float = 0.0
    mover: int = 0
    prizes: tuple[float, ...] = (0.0, 0.5, 1.0)
    weights: tuple[float, ...] = (0.5, 0.3, 0.2)

    @property
    def num_players(self) -> int:
        return 1 + self.mover

    @property
    def current_player(self) -> int:
        return {"choose": self.mover, "draw": CHANCE, "done": TERMINAL}[self.stage]

    def legal_actions(self) -> list[str]:
        return ["draw", "stop"] if self.stage == "choose" else []

    def chance_outcomes(self) -> list[tuple[float, float]]:
        return list(zip(self.prizes, self.weights)) if self.stage == "draw" else []

    def apply(self, action: object) -> Lottery:
        if self.stage == "choose":
            stage = "draw" if action == "draw" else "done"
            return Lottery(stage, 0.2, self.mover, self.prizes, self.weights)
        assert isinstance(action, float)
        return Lottery("done", action, self.mover, self.prizes, self.weights)

    def is_terminal(self) -> bool:
        return self.stage == "done"

    def returns(self) -> tuple[float, ...]:
        return (self.prize,) if self.mover == 0 else (1.0 - self.prize, self.prize)


@dataclass(frozen=True)
class FastLottery(Lottery):
    """A lottery with its own ``rollout`` fast path, which counts its calls."""

    calls: list[str] | None = None

    def apply(self, action: object) -> FastLottery:
        s = super().apply(action)
        return FastLottery(s.stage, s.prize, s.mover, s.prizes, s.weights, self.calls)

    def rollout(self, policy: str, rng: np.random.Generator) -> tuple[float, ...]:
        assert self.calls is not None
        self.calls.append(policy)
        return random_playout(self, rng)


def pig_position(
    rules: PigRules, scores: tuple[int, int], player: int = 0, turn: int = 0
) -> PigState:
    return PigState(rules, scores=scores, player=player, turn_total=turn)


# -- settings ----------------------------------------------------------------


def test_spec_strings_make_the_configured_search() -> None:
    agent = make_agent("yahtzee", "yahtzee", "mcts:c=0.71,sims=2500,rollout=greedy")
    assert isinstance(agent, MCTS)
    assert agent.config == MCTSConfig(c=0.71, simulations=2500, rollout="greedy")
    assert make_agent("yahtzee", "yahtzee", agent.spec).spec == agent.spec
    full = make_agent("pig", "pig", "mcts:seed=7, expand=50, sims=10")
    assert isinstance(full, MCTS) and full.fast is not None
    config = full.config
    assert (config.seed, config.expand_after, config.simulations, config.c) == (7, 50, 10, 0.71)
    assert make_agent("pig", "pig", full.spec).spec == full.spec


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("c=-1", "c must be a number 0.0..1000.0, got '-1'"),
        ("c=nan", "c must be a number 0.0..1000.0, got 'nan'"),
        ("sims=0", "sims must be a whole number 1..10000000, got '0'"),
        ("sims=2.5", "sims must be a whole number 1..10000000, got '2.5'"),
        ("expand=0", "expand must be a whole number 1..10000000"),
        ("expand=9223372036854775808", "expand must be a whole number 1..10000000"),
        ("seed=-1", "seed must be a whole number 0..9223372036854775807"),
        ("rollout=hold20", "rollout must be one of random, greedy"),
        ("depth=3", "mcts has no parameter 'depth'"),
    ],
)
def test_bad_settings_are_refused(spec: str, message: str) -> None:
    with pytest.raises(InvalidAgentError, match=message):
        make_agent("yahtzee", "yahtzee", "mcts:" + spec)
    if "=" in spec and spec.split("=")[0] in ("sims", "expand"):
        field = {"sims": "simulations", "expand": "expand_after"}[spec.split("=")[0]]
        value = float(spec.split("=")[1])
        if value.is_integer():
            with pytest.raises(InvalidAgentError, match=message.split(",")[0]):
                MCTSConfig(**{field: int(value)})  # type: ignore[arg-type]


def test_mcts_is_an_agent_and_an_advisor() -> None:
    agent = MCTS(simulations=10)
    assert isinstance(agent, Agent) and isinstance(agent, Advisor)


def test_search_is_refused_at_chance_and_terminal_nodes() -> None:
    agent = MCTS(simulations=10)
    with pytest.raises(InvalidStateError, match="not a chance node"):
        agent.advise(Lottery("draw"))
    with pytest.raises(InvalidStateError, match="not the end of the game"):
        agent.advise(Lottery("done"))


def test_generic_playouts_offer_only_the_random_policy() -> None:
    with pytest.raises(InvalidRulesError, match="needs a game-provided rollout"):
        MCTS(simulations=10, rollout="greedy").advise(Lottery())


def test_a_states_own_rollout_method_is_used() -> None:
    calls: list[str] = []
    MCTS(simulations=50, rollout="custom", seed=1).advise(FastLottery(calls=calls))
    assert calls and set(calls) == {"custom"}


# -- advice ------------------------------------------------------------------


def test_yahtzee_advice_histograms_hold_final_scores() -> None:
    state = YahtzeeState.new(yahtzee_rules.preset("yahtzee")).apply(Roll((2, 3, 4, 5, 5)))
    advice = MCTS(simulations=300, seed=1, rollout_fn=yahtzee_rollout).advise(state)
    assert len(advice) == len(state.legal_actions())
    assert sum(a.n or 0 for a in advice) == 300
    for a in advice:
        if a.n:
            assert a.histogram is not None and sum(a.histogram.values()) == a.n
            assert a.value == pytest.approx(sum(k * v for k, v in a.histogram.items()) / a.n)


def test_actions_never_tried_come_last_without_statistics() -> None:
    state = YahtzeeState.new(yahtzee_rules.preset("yahtzee")).apply(Roll((1, 2, 3, 5, 6)))
    advice = MCTS(simulations=5, seed=1, rollout_fn=yahtzee_rollout).advise(state)
    tried = [a for a in advice if a.n]
    assert len(tried) == 5 and advice[:5] == tried
    assert all(math.isnan(a.value) and a.n == 0 and a.se is None for a in advice[5:])


def test_the_same_seed_gives_the_same_search() -> None:
    state = YahtzeeState.new(yahtzee_rules.preset("yatzy")).apply(Roll((1, 1, 4, 6, 6)))
    agent = MCTS(simulations=200, seed=11, rollout_fn=yahtzee_rollout)
    first = agent.advise(state)
    assert agent.advise(state) == first
    assert [a.histogram for a in agent.advise(state)] == [a.histogram for a in first]
    generic = MCTS(simulations=200)
    pig = pig_position(preset("pig"), (10, 30), turn=8)
    acts = {generic.act(pig, np.random.default_rng(5)) for _ in range(3)}
    assert len(acts) == 1
    a = generic.search(pig, np.random.default_rng(5))
    assert a == generic.search(pig, np.random.default_rng(5))


def test_a_lone_legal_action_is_played_without_search() -> None:
    state = PigState.new(preset("pig"))
    assert MCTS(simulations=10).act(state, np.random.default_rng(0)) == PigAction.ROLL


# -- the tree ----------------------------------------------------------------


@pytest.mark.parametrize("weights", [(0.5, 0.3, 0.2), (1 / 3, 1 / 3, 1 / 3)])
def test_chance_children_are_keyed_by_outcome_at_their_frequencies(
    weights: tuple[float, ...],
) -> None:
    game = Lottery(weights=weights)
    # Large c keeps visiting the chance node although "stop" may look better.
    root = MCTS(c=50.0, simulations=4000)._run(game, np.random.default_rng(2))
    (chance,) = [child for child in root.children if child.action == "draw"]
    assert set(chance.outcomes) == set(game.prizes)
    draws = sum(child.visits for child in chance.outcomes.values())
    assert draws == chance.visits - 1  # the first visit was the rollout from the node itself
    for prize, weight in zip(game.prizes, weights):
        seen = chance.outcomes[prize].visits / draws
        assert abs(seen - weight) < 4 * math.sqrt(weight * (1 - weight) / draws)


def test_yahtzee_rolls_are_keyed_by_the_dice_thrown() -> None:
    state = YahtzeeState.new(yahtzee_rules.preset("yahtzee")).apply(Roll((3, 3, 3, 3, 6)))
    root = MCTS(c=50.0, simulations=3000, rollout_fn=yahtzee_rollout)._run(
        state, np.random.default_rng(4)
    )
    (chance,) = [child for child in root.children if child.action == Keep((3, 3, 3, 3))]
    assert set(chance.outcomes) == {Roll((f,)) for f in range(1, 7)}
    draws = chance.visits - 1
    for child in chance.outcomes.values():
        assert abs(child.visits / draws - 1 / 6) < 4 * math.sqrt(5 / 36 / draws)


def test_each_player_backs_up_its_own_return() -> None:
    # Player 1 moves; a draw pays player 1 0.35 on average, stopping pays 0.2,
    # so player 1 draws (player 0's returns would say stop).
    game = Lottery(mover=1)
    advice = MCTS(c=2.0, simulations=3000, seed=5).advise(game)
    assert advice[0].action == "draw"
    assert advice[0].value == pytest.approx(0.35, abs=0.05)
    assert advice[1].value == pytest.approx(0.2)


# -- play against the exact optimum --------------------------------------------


def decisions(rules: PigRules, margin: float) -> list[tuple[PigState, str]]:
    """Every roll/hold decision whose optimal choice wins at least ``margin`` more."""
    solution = solve(rules, use_cache=False)
    g = rules.goal
    out = []
    for me, opp, player in itertools.product(range(g), range(g), (0, 1)):
        for turn in range(1, g - me):
            p_roll, p_hold = solution.action_values(me, opp, turn, starter=player == 0)
            assert p_hold is not None
            if abs(p_roll - p_hold) >= margin:
                scores = (me, opp) if player == 0 else (opp, me)
                best = "roll" if p_roll > p_hold else "hold"
                out.append((pig_position(rules, scores, player, turn), best))
    return out


def wrong_choices(
    positions: Sequence[tuple[PigState, str]], agent_rollout: bool, sims: int
) -> list[str]:
    wrong = []
    for i, (state, best) in enumerate(positions):
        agent = MCTS(
            c=2.0, simulations=sims, seed=i, rollout_fn=pig_rollout if agent_rollout else None
        )
        chosen = str(agent.act(state, np.random.default_rng(i)))
        if chosen != best:
            wrong.append(f"{state}: chose {chosen}, optimal {best}")
    return wrong


@pytest.mark.parametrize(
    "rules",
    [
        preset("coin-3"),
        preset("coin-3").with_options(catch_up_turn=True),
        preset("coin-3").with_options(bust_scores_one=True),
    ],
    ids=["coin-3", "catch-up", "bust-scores-one"],
)
@pytest.mark.parametrize("compiled", [True, False], ids=["compiled", "generic"])
def test_mcts_plays_the_optimal_action_when_the_margin_is_large(
    rules: PigRules, compiled: bool
) -> None:
    positions = decisions(rules, margin=0.1)
    assert positions
    assert wrong_choices(positions, compiled, sims=1000) == []


@pytest.mark.slow
def test_mcts_plays_piglet_almost_optimally() -> None:
    positions = decisions(preset("piglet"), margin=0.15)
    wrong = wrong_choices(positions, agent_rollout=True, sims=2000)
    assert len(wrong) <= len(positions) // 50, wrong


def test_protocol_states_are_searched_through_the_protocol_only() -> None:
    # The generic path works on any State: here a Pig state with no rollout_fn.
    state: State = pig_position(preset("piglet"), (8, 3), turn=1)
    advice = MCTS(c=2.0, simulations=400, seed=0).advise(state)
    assert sum(a.n or 0 for a in advice) == 400
