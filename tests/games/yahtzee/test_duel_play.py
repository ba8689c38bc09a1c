"""A reduced card in the arena, and its exact two-player players (duel-optimal, optimal)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from stratagem.core.errors import IllegalActionError, InvalidAgentError, InvalidRulesError
from stratagem.core.registry import load_game
from stratagem.core.series import run_series
from stratagem.games.yahtzee import dice as D
from stratagem.games.yahtzee.duel import Run, Variant, level_layers
from stratagem.games.yahtzee.duel_play import (
    DuelOptimalAgent,
    VariantState,
    find_run,
    rules_spec,
)
from stratagem.games.yahtzee.state import Roll, Score

SMALL = "yahtzee:boxes=ones+twos+chance,bonus=true"
"""The smallest variant whose strategies differ a lot (the ES optimum loses 4% of games)."""


@pytest.fixture(scope="module")
def small() -> Variant:
    v = load_game("yahtzee").rules_object(SMALL)
    assert isinstance(v, Variant)
    return v


@pytest.fixture(scope="module")
def solved(small: Variant) -> Run:
    """The max/max tables of the small variant, in the tests' cache."""
    run = Run(small, ("max", "max"))
    run.solve()
    return run


def test_a_rules_spec_names_a_variant_and_back():
    game = load_game("yahtzee")
    v = game.rules_object("yahtzee:boxes=chance+twos+ones,bonus=true")
    assert v == Variant("yahtzee", ("ones", "twos", "chance"), upper_bonus=True)
    assert game.rules_object(rules_spec(v)) == v


@pytest.mark.parametrize(
    "spec, words",
    [
        ("yahtzee:bonus=true", "name its boxes"),
        ("yahtzee:boxes=ones+sevens", "unknown box"),
        ("yahtzee:boxes=ones+ones", "named twice"),
        ("yahtzee:boxes=chance,bonus=true", "needs at least one upper box"),
        ("yahtzee:boxes=ones;twos", "box names joined by +"),
    ],
)
def test_a_bad_variant_spec_is_refused_naming_the_problem(spec, words):
    with pytest.raises(InvalidRulesError, match=words):
        load_game("yahtzee").check_rules(spec)


def test_the_variant_card_scores_only_its_boxes_with_its_bonus(small):
    s = VariantState.new(small, 2).apply(Roll((2, 2, 2, 2, 1)))
    assert [str(a) for a in s.legal_actions() if isinstance(a, Score)] == [
        "score ones", "score twos", "score chance",
    ]  # fmt: skip
    with pytest.raises(IllegalActionError, match="has only the boxes"):
        s.apply(Score("sixes"))
    # the bonus: 3 x (1 + 2) = 9 upper points pay 35
    s = s.apply(Score("twos"))
    assert s.cards[0].total == 8 and s.cards[0].upper_bonus_points == 0
    s = s.apply(Roll((1, 1, 1, 1, 1))).apply(Score("ones"))
    s = s.apply(Roll((1, 2, 3, 4, 5))).apply(Score("ones"))
    assert s.cards[0].upper_bonus_points == 35 and s.cards[0].total == 8 + 1 + 35


def test_a_game_of_the_variant_ends_when_every_card_is_full(small):
    game = load_game("yahtzee")
    result = run_series(game, SMALL, ["random", "random"], games=2, seed=1)
    highest = game.returns_range(small)[1] if game.returns_range else math.inf
    assert highest == 5 + 10 + 30 + 35
    assert ((result.returns >= 0) & (result.returns <= highest)).all()


def test_duel_optimal_refuses_the_full_card():
    with pytest.raises(InvalidAgentError, match="full yahtzee card is not solved"):
        load_game("yahtzee").check_agent("duel-optimal", "yahtzee")


def test_duel_optimal_refuses_a_variant_without_a_table_saying_what_it_would_cost():
    rules = "yahtzee:boxes=ones+fives+large_straight"
    assert find_run(load_game("yahtzee").rules_object(rules)) is None
    with pytest.raises(InvalidAgentError, match=r"no solved two-player table.*MiB"):
        load_game("yahtzee").check_agent("duel-optimal", rules)


def test_duel_optimal_refuses_a_table_of_another_variant(solved):
    with pytest.raises(InvalidAgentError, match="asked for yahtzee\\[ones\\+twos\\]"):
        load_game("yahtzee").check_agent("duel-optimal:boxes=ones+twos", SMALL)


def test_full_card_agents_refuse_a_variant():
    game = load_game("yahtzee")
    with pytest.raises(InvalidAgentError, match="full card"):
        game.make_agent(game.rules_object(SMALL), "greedy")


def _expected_turn_start(agent: DuelOptimalAgent, state: VariantState) -> float:
    """The mover's chance at a turn start, from the agent's own advice on every first throw."""
    total = 0.0
    for k, p in D.outcomes(5):
        advice = agent.advise(state.apply(Roll(k)))
        total += p * advice[0].value
    return total


def test_duel_optimal_advice_is_the_solved_value_at_every_turn_start_played(small, solved):
    """The agent's best options, averaged over the first throw, give the table's value of
    the position (reached by a game of duel-optimal against the ES optimum)."""
    game = load_game("yahtzee")
    duel = game.make_agent(small, "duel-optimal")
    es = game.make_agent(small, "optimal")
    assert isinstance(duel, DuelOptimalAgent)
    rng = np.random.default_rng(7)
    state = game.new_state(small, 2)
    checked = 0
    while not state.is_terminal():
        if state.current_player < 0:
            if state.rolls_left == 3:
                mine, other = state.cards[state.player], state.cards[1 - state.player]
                t = len(mine.filled) + len(other.filled)
                assert level_layers(t) == (len(mine.filled), len(other.filled))
                a = int(solved.cards.sid[mine.mask, min(mine.upper_total, small.threshold)])
                b = int(solved.cards.sid[other.mask, min(other.upper_total, small.threshold)])
                d = mine.total - other.total
                assert _expected_turn_start(duel, state) == pytest.approx(
                    solved.value(t, a, b, d), abs=1e-12
                )
                checked += 1
            state = state.apply(state.sample_chance(rng))
        else:
            agent = duel if state.current_player == 0 else es
            state = state.apply(agent.act(state, rng))
    assert checked == 6


@pytest.mark.slow
def test_duel_optimal_against_the_es_optimum_in_the_arena_wins_the_solved_share(small, solved):
    """Arena games of duel-optimal against the expected-score optimum (seats alternating)
    reproduce the solver's exact win-es and es-win values within a 99.9% interval."""
    win_es = Run(small, ("win", "es"), reference=solved).solve()
    es_win = Run(small, ("es", "win"), reference=solved).solve()
    exact = (win_es + 1.0 - es_win) / 2  # the agent's share, each seat half the games
    games = 3000
    result = run_series("yahtzee", SMALL, ["duel-optimal", "optimal"], games=games, seed=38)
    share = float(result.wins()[0]) / games
    draws = float(np.mean(result.returns[:, 0] == result.returns[:, 1]))
    se = math.sqrt(max(share * (1 - share) - draws / 4, 1e-9) / games)
    assert abs(share - exact) < 3.29 * se, (share, exact, se)
    # and it is not the ES optimum's even share: the strategies differ measurably here
    assert exact - 0.5 > 3.29 * se
