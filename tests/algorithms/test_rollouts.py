"""The games' compiled MCTS playouts against the protocol's own play.

The compiled random playout must be the protocol's uniform random playout
(:func:`stratagem.algorithms.mcts.random_playout`) in distribution, rule
options included; the Pig ``holdN`` playout must win as often as the exact
evaluation of ``hold:N`` says.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest

from stratagem.algorithms.mcts import random_playout
from stratagem.core.agent import RandomAgent
from stratagem.core.errors import InvalidRulesError, InvalidStateError
from stratagem.core.game import CHANCE, TERMINAL, State
from stratagem.core.play import play as play_game
from stratagem.games.pig import rollout as pig
from stratagem.games.pig.rules import PigRules
from stratagem.games.pig.rules import preset as pig_preset
from stratagem.games.pig.solver import evaluate
from stratagem.games.pig.state import PigAction, PigState
from stratagem.games.pig.strategies import HoldAt
from stratagem.games.yahtzee import rollout as yahtzee
from stratagem.games.yahtzee.rules import UPPER, YahtzeeRules
from stratagem.games.yahtzee.rules import preset as yahtzee_preset
from stratagem.games.yahtzee.state import Roll, Score, Scorecard, YahtzeeState

Rollout = Callable[[State, str, np.random.Generator], tuple[float, ...]]


def mean_and_se(samples: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return samples.mean(axis=0), samples.std(axis=0, ddof=1) / math.sqrt(len(samples))


def assert_same_mean(compiled: np.ndarray, generic: np.ndarray, z: float = 4.5) -> None:
    """Per-player means agree within ``z`` standard errors of their difference."""
    m1, se1 = mean_and_se(compiled)
    m2, se2 = mean_and_se(generic)
    bound = z * np.sqrt(se1**2 + se2**2) + 1e-9
    assert np.all(np.abs(m1 - m2) <= bound), (m1, m2, bound)


def play(fn: Rollout, state: State, policy: str, n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.array([fn(state, policy, rng) for _ in range(n)])


def play_generic(state: State, n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.array([random_playout(state, rng) for _ in range(n)])


# -- Yahtzee -------------------------------------------------------------------


def card(rules: YahtzeeRules, open_boxes: set[str], **filled: int) -> Scorecard:
    """A card with every box filled but ``open_boxes``; unnamed filled boxes hold 0."""
    boxes = tuple(None if c in open_boxes else filled.get(c, 0) for c in rules.categories)
    return Scorecard(rules, boxes)


def decision(
    rules: YahtzeeRules, cards: tuple[Scorecard, ...], dice: tuple[int, ...], rolls_left: int
) -> YahtzeeState:
    return YahtzeeState(rules, cards, 0, dice, rolls_left, False)


LAST_BOX_CASES = [
    # Forced joker: the Yahtzee box holds 50 and the threes are filled, so a
    # Yahtzee of threes scores 25 in full house, plus the 100 bonus.
    ("yahtzee", {"full_house"}, {"yahtzee": 50, "threes": 9}, (3, 3, 3, 3, 3)),
    # Free joker: a large straight at full value once the fives are filled.
    ("yahtzee-free-joker", {"large_straight"}, {"yahtzee": 50, "fives": 20}, (5,) * 5),
    # The upper bonus: 45 in five upper boxes, then three sixes reach 63.
    ("yahtzee-no-bonus", {"sixes"}, {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15},
     (1, 2, 6, 6, 6)),
    ("yatzy", {"yatzy"}, {"chance": 20}, (4,) * 5),
]  # fmt: skip


@pytest.mark.parametrize(("name", "open_boxes", "filled", "dice"), LAST_BOX_CASES)
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_a_last_box_scores_as_the_protocol_scores_it(
    name: str, open_boxes: set[str], filled: dict[str, int], dice: tuple[int, ...], policy: str
) -> None:
    rules = yahtzee_preset(name)
    state = decision(rules, (card(rules, open_boxes, **filled),), dice, rolls_left=0)
    (action,) = state.legal_actions()
    assert isinstance(action, Score)
    expected = state.apply(action).returns()
    assert yahtzee.rollout(state, policy, np.random.default_rng(0)) == expected


def random_play_value(state: YahtzeeState, memo: dict[YahtzeeState, float]) -> float:
    """Player 0's exact expected final total under uniform random play (protocol only)."""
    value = memo.get(state)
    if value is None:
        player = state.current_player
        if player == TERMINAL:
            value = state.returns()[0]
        elif player == CHANCE:
            value = sum(
                p * random_play_value(state.apply(o), memo) for o, p in state.chance_outcomes()
            )
        else:
            actions = state.legal_actions()
            value = sum(random_play_value(state.apply(a), memo) for a in actions) / len(actions)
        memo[state] = value
    return value


LAST_TURN_CASES = [
    # A Yahtzee with two rerolls left; a Yahtzee in full house is a forced joker.
    ("yahtzee", {"full_house"}, {"yahtzee": 50, "threes": 9}, (3,) * 5, 2, False),
    ("yahtzee-free-joker", {"small_straight"}, {"yahtzee": 50}, (), 3, True),
    ("yahtzee-no-bonus", {"fours"}, {"ones": 3, "twos": 6, "threes": 9, "fives": 15, "sixes": 18},
     (4, 4), 2, True),
    ("yatzy", {"two_pairs"}, {}, (1, 1, 2, 5, 6), 1, False),
]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "open_boxes", "filled", "dice", "rolls_left", "rolling"), LAST_TURN_CASES
)
def test_compiled_random_playouts_of_a_last_turn_have_the_exact_mean(
    name: str,
    open_boxes: set[str],
    filled: dict[str, int],
    dice: tuple[int, ...],
    rolls_left: int,
    rolling: bool,
) -> None:
    rules = yahtzee_preset(name)
    c = card(rules, open_boxes, **filled)
    state = YahtzeeState(rules, (c,), 0, dice, rolls_left, rolling)
    exact = random_play_value(state, {})
    totals = play(yahtzee.rollout, state, "random", 100_000, seed=7)[:, 0]
    mean, se = mean_and_se(totals)
    assert abs(mean - exact) < 4.5 * se + 1e-9


def joker_position(name: str) -> YahtzeeState:
    """A Yahtzee of fives with two rerolls left, the Yahtzee box holding 50."""
    rules = yahtzee_preset(name)
    return decision(
        rules, (card(rules, {"fives", "full_house", "chance"}, yahtzee=50),), (5,) * 5, 2
    )


def two_player_yatzy() -> YahtzeeState:
    rules = yahtzee_preset("yatzy")
    me = card(rules, {"sixes", "one_pair"}, ones=3, twos=6, threes=9, fours=12, fives=15)
    other = card(rules, {"chance", "two_pairs", "fours"})
    return YahtzeeState(rules, (me, other), 1, (2, 4, 4, 6, 6), 1, False)


def mid_turn_roll() -> YahtzeeState:
    """Solitaire, kept dice (2, 2) with one throw left: a chance node in mid-turn."""
    rules = yahtzee_preset("yahtzee-no-bonus")
    c = card(rules, {"twos", "three_of_a_kind", "small_straight", "chance"}, sixes=24, fives=20)
    return YahtzeeState(rules, (c,), 0, (2, 2), 2, True)


@pytest.mark.parametrize(
    "make",
    [
        lambda: joker_position("yahtzee"),
        lambda: joker_position("yahtzee-free-joker"),
        two_player_yatzy,
        mid_turn_roll,
    ],
    ids=["forced-joker", "free-joker", "two-player-yatzy", "mid-turn-roll"],
)
def test_compiled_random_yahtzee_playouts_match_the_protocol(
    make: Callable[[], YahtzeeState],
) -> None:
    state = make()
    compiled = play(yahtzee.rollout, state, "random", 20_000, seed=1)
    generic = play_generic(state, 1500, seed=2)
    assert compiled.shape[1] == generic.shape[1] == state.num_players
    assert_same_mean(compiled, generic)


def test_compiled_yahtzee_playouts_end_from_any_position() -> None:
    rng = np.random.default_rng(3)
    for players, name in [(1, "yahtzee"), (3, "yatzy"), (4, "yahtzee-free-joker")]:
        steps = [0]

        def check(
            state: YahtzeeState, player: int, action: object, steps: list[int] = steps,
            players: int = players,
        ) -> None:  # fmt: skip
            steps[0] += 1
            if steps[0] % 7 == 0:
                for policy in yahtzee.POLICIES:
                    totals = yahtzee.rollout(state, policy, rng)
                    assert len(totals) == players
                    for total, c in zip(totals, state.cards):
                        assert total == int(total) and total >= c.total

        start = YahtzeeState.new(yahtzee_preset(name), players)
        end = play_game(start, [RandomAgent()] * players, rng, observe=check)  # type: ignore[arg-type]
        assert steps[0] > 7 * players
        assert yahtzee.rollout(end.state, "random", rng) == end.returns


def test_greedy_yahtzee_playouts_score_well() -> None:
    # Played alone, the greedy playout averages about 225 on yahtzee-no-bonus
    # (optimal play: 245.87) and 216 on yatzy (optimal: 248.44); a uniform
    # random playout averages about 46.
    start = YahtzeeState.new(yahtzee_preset("yahtzee-no-bonus"))
    greedy = play(yahtzee.rollout, start, "greedy", 4000, seed=4)
    assert greedy.mean() > 220
    assert play(yahtzee.rollout, start, "random", 4000, seed=4).mean() < 60
    yatzy = YahtzeeState.new(yahtzee_preset("yatzy"))
    assert play(yahtzee.rollout, yatzy, "greedy", 4000, seed=5).mean() > 210


def test_yahtzee_playouts_repeat_with_the_seed() -> None:
    state = YahtzeeState.new(yahtzee_preset("yahtzee"), 2).apply(Roll((1, 2, 3, 4, 6)))
    for policy in yahtzee.POLICIES:
        assert np.array_equal(
            play(yahtzee.rollout, state, policy, 50, seed=9),
            play(yahtzee.rollout, state, policy, 50, seed=9),
        )


def test_yahtzee_rollout_refuses_unknown_policies_and_other_games() -> None:
    state = YahtzeeState.new(yahtzee_preset("yahtzee"))
    with pytest.raises(InvalidRulesError, match="use one of: random, greedy"):
        yahtzee.rollout(state, "smart", np.random.default_rng(0))
    with pytest.raises(InvalidStateError, match="needs a YahtzeeState"):
        yahtzee.rollout(PigState.new(pig_preset("pig")), "random", np.random.default_rng(0))


def test_upper_boxes_are_the_first_six() -> None:
    # The kernel reads the upper total from the first six boxes of a card.
    for rules in (yahtzee_preset("yahtzee"), yahtzee_preset("yatzy")):
        assert rules.categories[: len(UPPER)] == UPPER


# -- Pig -------------------------------------------------------------------------

GOAL_20 = pig_preset("pig").with_options(goal=20)
CATCH_UP_20 = GOAL_20.with_options(catch_up_turn=True)

PIG_POSITIONS = [
    ("start", GOAL_20, PigState.new(GOAL_20)),
    ("mid-turn", GOAL_20, PigState(GOAL_20, (12, 15), 1, 4)),
    ("at-a-roll", GOAL_20, PigState(GOAL_20, (12, 15), 1, 4, rolling=True)),
    ("bust-scores-one", GOAL_20.with_options(bust_scores_one=True), None),
    ("starter-past-goal", CATCH_UP_20, PigState(CATCH_UP_20, (15, 10), 0, 8)),
    ("last-turn", CATCH_UP_20, PigState(CATCH_UP_20, (22, 12), 1, 3, target=22)),
    ("coin", pig_preset("piglet").with_options(catch_up_turn=True, bust_scores_one=True), None),
]


@pytest.mark.parametrize(
    ("rules", "state"), [(r, s) for _, r, s in PIG_POSITIONS], ids=[i for i, *_ in PIG_POSITIONS]
)
def test_compiled_random_pig_playouts_match_the_protocol(
    rules: PigRules, state: PigState | None
) -> None:
    state = state or PigState.new(rules)
    compiled = play(pig.rollout, state, "random", 40_000, seed=1)
    generic = play_generic(state, 4000, seed=2)
    assert np.all(compiled.sum(axis=1) == 1.0)
    assert_same_mean(compiled, generic)


@pytest.mark.parametrize(
    "rules",
    [
        pig_preset("pig"),
        pig_preset("pig").with_options(catch_up_turn=True),
        pig_preset("pig").with_options(bust_scores_one=True),
    ],
    ids=["pig", "catch-up", "bust-scores-one"],
)
def test_hold_playouts_win_as_often_as_the_exact_evaluation_says(rules: PigRules) -> None:
    policy = HoldAt(rules, 20).policy()
    exact = evaluate(rules, policy, policy).a_first
    wins = play(pig.rollout, PigState.new(rules), "hold20", 40_000, seed=3)[:, 0]
    se = math.sqrt(exact * (1 - exact) / len(wins))
    assert abs(wins.mean() - exact) < 4.5 * se


def test_pig_hold_playout_plays_like_the_hold_agent() -> None:
    rules = GOAL_20.with_options(catch_up_turn=True)
    agent = HoldAt(rules, 7)
    rng = np.random.default_rng(5)

    def agent_playout(state: PigState) -> tuple[float, ...]:
        return play_game(state, [agent, agent], rng).returns

    start = PigState(rules, (9, 14), 0, 2)
    by_agent = np.array([agent_playout(start) for _ in range(4000)])
    compiled = play(pig.rollout, start, "hold:7", 40_000, seed=6)
    assert_same_mean(compiled, by_agent)


def test_pig_playouts_repeat_with_the_seed_and_end_at_once_when_over() -> None:
    state = PigState.new(GOAL_20).apply(PigAction.ROLL)
    assert np.array_equal(
        play(pig.rollout, state, "random", 100, seed=8),
        play(pig.rollout, state, "random", 100, seed=8),
    )
    over = PigState(GOAL_20, (20, 5), 1, 0, winner=0)
    assert pig.rollout(over, "random", np.random.default_rng(0)) == (1.0, 0.0)


@pytest.mark.parametrize("policy", ["hold", "hold:0", "greedy", "hold20x"])
def test_pig_rollout_refuses_unknown_policies(policy: str) -> None:
    with pytest.raises(InvalidRulesError, match="unknown Pig rollout policy"):
        pig.rollout(PigState.new(GOAL_20), policy, np.random.default_rng(0))
