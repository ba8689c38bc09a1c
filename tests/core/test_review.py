"""The review of a session: the coach's judge for every decision of a person, a graph of
the evaluation, totals and the luck/skill split (core/review.py).

Exact numbers come from the recipe game Nim (tests/core/recipes/nim/coach.py), whose
chances of winning are fractions worked out by hand in the comments; the rest of the
review's behaviour is shown with a fake coaching whose answers are fixed.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from tests.contract.games import registered

from stratagem.core.coaching import Coaching, Judged, Unit
from stratagem.core.game import State
from stratagem.core.registry import GameSpec
from stratagem.core.review import ReviewCancelled, ReviewError, review
from stratagem.core.session import Session


@pytest.fixture
def nim() -> Iterator[GameSpec]:
    with registered("nim") as spec:
        yield spec


def nim_coaching(spec: GameSpec, rules: str = "nim-7") -> Coaching:
    assert spec.coaching is not None
    coaching = spec.coaching(spec.rules_object(rules))
    assert isinstance(coaching, Coaching)
    return coaching


def quiet_die_game() -> Session:
    """nim-7, the person (player 0) against "four", seed 3: the die adds no stone all
    game. The person takes 1 of 7, "four" takes 2 of 6, the person 1 of 4, "four" the
    last 3."""
    s = Session.new("nim", "nim-7", ["human", "four"], seed=3)
    for take in ("1", "1"):
        s.submit(take)
        s.play_agents()
    assert [(step.player, step.text) for step in s.line] == [
        (-1, "0"), (0, "1"), (-1, "0"), (1, "2"), (-1, "0"), (0, "1"), (-1, "0"), (1, "3"),
    ]  # fmt: skip
    assert s.over
    return s


def close(x: float | None, fraction: Fraction) -> bool:
    return x is not None and abs(x - float(fraction)) < 1e-12


def test_each_decision_of_the_person_is_priced_by_hand_computed_chances(nim: GameSpec) -> None:
    r = review(quiet_die_game(), nim_coaching(nim))
    # W(n): the mover's chance with n stones; W(1..3) = 1, W(4) = 1/7, W(5..7) = 37/49.
    # With 7 stones taking 3 leaves 4 to the opponent's roll: 1 - (5/6 W(4) + 1/6 W(5))
    # = 1 - (35 + 37)/294 = 37/49; taking 1 leaves 6: 1 - (5/6 + 1/6) 37/49 = 12/49.
    first, second = r.decisions
    assert (first.decision, first.player) == (0, 0)
    assert (first.judged.played, first.judged.best) == ("1", "3")
    assert close(first.judged.cost, Fraction(25, 49)) and first.judged.label == "blunder"
    assert first.judged.exact
    # With 4 stones, taking 1 leaves 3: 1 - (5/6 + 1/6 * 1/7) = 1/7 = W(4): the best.
    assert (second.decision, second.judged.played, second.judged.best) == (2, "1", "1")
    assert second.judged.cost == 0.0 and second.judged.label == "best"


def test_the_graph_is_the_persons_chance_before_each_decision_and_at_the_end(
    nim: GameSpec,
) -> None:
    r = review(quiet_die_game(), nim_coaching(nim))
    # before decision 0: W(7) = 37/49; 1: "four" has 6, W(6) = 37/49 for it, 12/49 for
    # the person; 2: the person has 4, 1/7; 3: "four" has 3 and wins: 0; the end: lost.
    want = [Fraction(37, 49), Fraction(12, 49), Fraction(1, 7), Fraction(0), Fraction(0)]
    assert [p.decision for p in r.graph] == [0, 1, 2, 3, 4]
    assert all(close(p.value, w) for p, w in zip(r.graph, want, strict=True))
    assert [p.by for p in r.graph] == ["human", "agent", "human", "agent", None]


def test_luck_is_the_outcome_against_the_start_less_the_cost_of_the_decisions(
    nim: GameSpec,
) -> None:
    t = review(quiet_die_game(), nim_coaching(nim)).totals
    # The deal: player 0 rolls with 7: 5/6 W(7) + 1/6 W(8), W(8) = 109/343, = 234/343.
    assert t.start_at == "deal" and close(t.start, Fraction(234, 343))
    assert close(t.skill, Fraction(25, 49)) and t.outcome == 0.0
    # luck = 0 - (234/343 - 175/343) = -59/343
    assert close(t.luck, Fraction(-59, 343))
    assert close(t.cost, Fraction(25, 49)) and close(t.mean_cost, Fraction(25, 98))
    assert t.labels == {"best": 1, "good": 0, "inaccuracy": 0, "mistake": 0, "blunder": 1}


def play_randomly(seed: int) -> Session:
    """A finished nim-12 game of seeded random takes (half the time the most) against
    "random" (whose draws differ at every decision number, so no loop lasts)."""
    s = Session.new("nim", "nim-12", ["human", "random"], seed=seed)
    rng = np.random.default_rng(seed)
    while not s.over:
        if s.waiting_for_human:
            texts = s.legal_texts()
            s.submit(texts[int(rng.integers(len(texts)))] if rng.random() < 0.5 else texts[-1])
        else:
            s.play_agents()
    return s


@pytest.mark.parametrize("seed", range(8))
def test_the_reviews_numbers_are_the_judges_for_each_decision(nim: GameSpec, seed: int) -> None:
    s = play_randomly(seed)
    coaching = nim_coaching(nim, "nim-12")
    r = review(s, coaching)
    assert [d.decision for d in r.decisions] == s.human_decisions()
    for d in r.decisions:
        played = s.decision_steps()[d.decision].text
        assert d.judged == coaching.judge(s.state_at(d.decision), played)
    t = r.totals
    assert t.start is not None and t.outcome is not None and t.skill is not None
    assert t.luck is not None and abs(t.outcome - (t.start - t.skill + t.luck)) < 1e-12


class FakeCoaching:
    """Every decision costs 0.5 with "best" as the best; evaluation: the decision
    number, or None everywhere when ``blind``."""

    unit = Unit("points", "pts", (0.25, 1.0, 2.0))

    def __init__(self, blind: bool = False, cost: float = 0.5) -> None:
        self.blind, self.cost, self.judged = blind, cost, 0

    def view(self, state: State) -> dict[str, Any]:
        return {"text": str(state)}

    def rows(self, state: State) -> list[dict[str, Any]]:
        return []

    def judge(self, state: State, played: str) -> Judged:
        self.judged += 1
        return Judged(played, "best", self.cost, False, self.unit.label(self.cost))

    def evaluation(self, state: State, player: int) -> float | None:
        return None if self.blind else 10.0


def scorefour_game(moves: int, seats: tuple[str, str] = ("human", "human")) -> Session:
    s = Session.new("scorefour", None, list(seats), seed=1)
    for _ in range(moves):
        s.play_agents()
        s.submit(s.legal_texts()[0])
    return s


def test_with_two_people_both_are_reviewed_and_the_graph_is_player_0s() -> None:
    r = review(scorefour_game(4), FakeCoaching())
    assert r.player == 0
    assert [(d.player, d.decision) for d in r.decisions] == [(0, 0), (1, 1), (0, 2), (1, 3)]
    assert r.totals.cost == 2.0 and r.totals.mean_cost == 0.5 and r.totals.labels["good"] == 0
    assert r.totals.labels["inaccuracy"] == 4


def test_the_one_human_seat_is_reviewed_and_agents_are_not_judged() -> None:
    s = scorefour_game(3, ("random", "human"))
    r = review(s, FakeCoaching())
    assert r.player == 1 and {d.player for d in r.decisions} == {1}
    assert len(r.graph) == len(s.decisions()) + 1


def test_a_game_without_chance_or_not_over_has_no_luck_and_skill() -> None:
    t = review(scorefour_game(3), FakeCoaching()).totals
    assert t.outcome is None and t.luck is None and t.skill is None


def test_a_coach_that_cannot_evaluate_leaves_the_graph_empty_and_luck_unknown(
    nim: GameSpec,
) -> None:
    r = review(quiet_die_game(), FakeCoaching(blind=True))
    assert all(p.value is None for p in r.graph)
    assert r.totals.luck is None and r.totals.cost == 1.0


def test_a_bounded_review_stops_and_says_where(nim: GameSpec) -> None:
    fake = FakeCoaching()
    r = review(scorefour_game(6), fake, max_positions=5)
    # decision 0: point + judge, 1: point + judge, 2 would need 2 more than the 1 left
    assert not r.complete and r.stopped_at == 2 and r.positions == 4
    assert fake.judged == 2 and len(r.decisions) == 2


def test_progress_counts_every_position_up_to_its_total() -> None:
    seen: list[tuple[int, int]] = []
    review(scorefour_game(2), FakeCoaching(), progress=lambda d, t: seen.append((d, t)))
    # 2 decisions: 2 points + 2 judgements + the end (no chance: no deal evaluated)
    assert [d for d, _ in seen] == [1, 2, 3, 4, 5] and all(t >= 5 for _, t in seen)


def test_a_cancelled_review_raises_after_the_positions_done() -> None:
    calls: list[int] = []
    fake = FakeCoaching()

    def cancelled() -> bool:
        calls.append(1)
        return len(calls) > 3

    with pytest.raises(ReviewCancelled, match="after 3 of"):
        review(scorefour_game(4), fake, cancelled=cancelled)
    assert fake.judged == 1


@pytest.mark.parametrize("bound", [0, -1, True, 1.5, 10**9])
def test_the_bound_is_range_checked(bound: Any) -> None:
    with pytest.raises(ReviewError, match="max_positions must be a whole number"):
        review(scorefour_game(1), FakeCoaching(), max_positions=bound)


@pytest.mark.parametrize("cost", [-0.1, float("nan"), float("inf")])
def test_a_coach_pricing_a_decision_below_zero_or_not_finite_is_refused(cost: float) -> None:
    with pytest.raises(ReviewError, match="a cost is a finite number >= 0"):
        review(scorefour_game(1), FakeCoaching(cost=cost))


def test_the_review_is_json_with_the_units_thresholds(nim: GameSpec) -> None:
    data = review(quiet_die_game(), nim_coaching(nim)).to_json()
    assert data["unit"]["thresholds"] == {"inaccuracy": 0.02, "mistake": 0.05, "blunder": 0.1}
    assert data["decisions"][0]["index"] == 0 and data["decisions"][0]["decision"] == 0
    assert data["decisions"][0]["played"] == "1" and data["finished"] is True
    assert data["returns"] == [0.0, 1.0] and data["has_chance"] is True


class NoChanceNodes:
    """Nim's coaching, except that it cannot evaluate a position where the die is to roll."""

    def __init__(self, inner: Coaching) -> None:
        self.inner, self.unit = inner, inner.unit

    def view(self, state: State) -> dict[str, Any]:
        return self.inner.view(state)

    def rows(self, state: State) -> list[dict[str, Any]]:
        return self.inner.rows(state)

    def judge(self, state: State, played: str) -> Judged:
        return self.inner.judge(state, played)

    def evaluation(self, state: State, player: int) -> float | None:
        return None if state.current_player == -1 else self.inner.evaluation(state, player)


def test_without_the_deal_luck_starts_at_the_first_decision(nim: GameSpec) -> None:
    t = review(quiet_die_game(), NoChanceNodes(nim_coaching(nim))).totals
    # start W(7) = 37/49; luck = 0 - (37/49 - 25/49) = -12/49
    assert t.start_at == "first decision" and close(t.start, Fraction(37, 49))
    assert close(t.luck, Fraction(-12, 49))


def test_the_review_counts_the_takebacks(nim: GameSpec) -> None:
    s = Session.new("nim", "nim-7", ["human", "four"], seed=3)
    s.submit("2")
    s.play_agents()
    s.takeback(0)
    s.submit("3")
    s.play_agents()
    r = review(s, nim_coaching(nim))
    assert r.takebacks == 1 and r.decisions[0].judged.played == "3"
    assert r.decisions[0].judged.label == "best"


class Named(FakeCoaching):
    """A coach that names a decision as its players read it (Score Four's "b3 (level 1)")."""

    def decision_text(self, state: State, text: str) -> str:
        return f"{text} by player {state.current_player + 1}"


def test_each_decision_is_named_as_the_coach_writes_it_else_by_its_text() -> None:
    s = scorefour_game(2)
    plain = review(s, FakeCoaching()).to_json()["decisions"]
    assert [(d["played_text"], d["best_text"]) for d in plain] == [
        (d["played"], d["best"]) for d in plain
    ]
    named = review(s, Named()).to_json()["decisions"]
    for d in named:
        state = s.state_at(d["decision"])
        who = state.current_player + 1
        assert (d["played_text"], d["best_text"]) == (
            f"{d['played']} by player {who}",
            f"{d['best']} by player {who}",
        )
