"""Yahtzee's parsers: dice, boxes and whole situations give a result or a StratagemError."""

from __future__ import annotations

from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stratagem.core.errors import StratagemError
from stratagem.games.yahtzee import winning
from stratagem.games.yahtzee.arena import GAME
from stratagem.games.yahtzee.cli import make_situation, parse_dice, parse_filled
from stratagem.games.yahtzee.rules import YAHTZEE_CATEGORIES, preset
from tests.agent_specs import agent_or_refusal, specs

BOXES = st.sampled_from([*YAHTZEE_CATEGORIES, "bogus", "Ones", ""])


@settings(max_examples=300)
@given(st.text(alphabet="0123456789 ,;x\t-", max_size=14) | st.text(max_size=14))
def test_dice(text: str) -> None:
    try:
        dice = parse_dice(text)
    except StratagemError:
        return
    assert all(isinstance(d, int) for d in dice)


@settings(max_examples=300)
@given(
    rules=st.sampled_from(["yahtzee", "yatzy", "yahtzee-no-bonus"]),
    dice=st.lists(st.integers(-1, 7), max_size=6) | st.text(max_size=7),
    rolls=st.integers(-1, 3),
    filled=st.lists(BOXES, max_size=14).map(",".join),
    upper=st.integers(-3, 110),
    ybox=st.none() | st.sampled_from([0, 25, 50]),
    score=st.none() | st.integers(-10, 1700),
)
def test_situations(
    rules: str, dice: list[int] | str, rolls: int, filled: str, upper: int,
    ybox: int | None, score: int | None,
) -> None:  # fmt: skip
    r = preset(rules)
    try:
        sit = make_situation(r, dice, rolls, parse_filled(filled), upper, ybox, score)
    except StratagemError:
        return
    assert sit.known_points <= sit.points <= sit.most_points


@settings(max_examples=200, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(spec=specs(GAME))
def test_agent_specs(solved, spec: str) -> None:  # type: ignore[no-untyped-def]
    # The session's solved table (the factories' own cache loads it from there). The win
    # agent's remaining-score tables (1 GB, 90-140 s to build) are not what a spec test is
    # about: a stand-in is built instead (test_winning.py plays the real ones).
    with mock.patch.object(winning, "optimal_remaining", lambda solution: NO_TABLES):
        agent = agent_or_refusal(GAME, solved("yahtzee").rules, spec)
    if isinstance(agent, winning.WinAgent):
        assert agent.advisor.tables is NO_TABLES


NO_TABLES = object()
