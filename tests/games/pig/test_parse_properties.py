"""Pig's parsers take any text: a result or a StratagemError, never another exception."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from stratagem.core.errors import StratagemError
from stratagem.games.pig.cli import make_rules
from stratagem.games.pig.rules import preset
from stratagem.games.pig.spec import GAME
from stratagem.games.pig.state import check_position
from stratagem.games.pig.strategies import OptimalAgent, RuleAgent, RuleTable
from tests.agent_specs import agent_or_refusal, specs
from tests.cli_outcome import allowed

ROW = st.builds(
    lambda a, b, c, d, h: f"me={a}-{b} opp={c}-{d} hold={h}",
    *[st.integers(-3, 12) | st.text(max_size=3)] * 5,
)


@settings(max_examples=150)
@given(st.lists(ROW | st.text(max_size=30), max_size=5).map("\n".join))
def test_rule_tables(text: str) -> None:
    try:
        table = RuleTable.parse(text, preset("piglet"))
    except StratagemError:
        return
    assert table.rows


@settings(max_examples=150)
@given(
    rules=st.sampled_from(["pig", "piglet", "coin-3", "nope"]),
    goal=st.none() | st.integers(-5, 10**6),
    faces=st.none() | st.integers(-2, 40),
    bust=st.none() | st.text(alphabet="0123456789, x", max_size=8),
    flags=st.tuples(st.none() | st.booleans(), st.none() | st.booleans()),
)
def test_rule_options(
    rules: str, goal: int | None, faces: int | None, bust: str | None,
    flags: tuple[bool | None, bool | None],
) -> None:  # fmt: skip
    try:
        made = make_rules(rules, goal, faces, bust, *flags)
    except StratagemError:
        return
    assert made.goal >= 1 and made.faces >= 2


@given(
    me=st.integers(-5, 120) | st.integers(),
    opp=st.integers(-5, 120) | st.integers(),
    turn=st.integers(-5, 200) | st.integers(),
    starter=st.booleans(),
    catch=st.booleans(),
)
def test_positions(me: int, opp: int, turn: int, starter: bool, catch: bool) -> None:
    rules = preset("pig").with_options(catch_up_turn=catch)
    try:
        check_position(rules, me, opp, turn, starter)
    except StratagemError:
        return
    assert 0 <= me < 100 and 0 <= opp < 100 and turn >= 0


@settings(max_examples=60)
@given(specs(GAME))
def test_agent_specs_on_the_command_line(spec: str) -> None:
    code, _ = allowed(["pig", "evaluate", "--rules", "piglet", "--a", spec, "--b", "hold:2"])
    if code == 0:  # only agents with a fixed policy can be evaluated exactly
        agent = agent_or_refusal(GAME, preset("piglet"), spec)
        assert isinstance(agent, RuleAgent | OptimalAgent)
