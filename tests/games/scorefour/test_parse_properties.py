"""Score Four boards: any text gives a position or a StratagemError."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from stratagem.core.errors import StratagemError
from stratagem.games.scorefour.arena import GAME
from stratagem.games.scorefour.state import ScoreFourState
from tests.agent_specs import agent_or_refusal, specs

LEVEL = st.text(alphabet="xo.XO-", min_size=0, max_size=18)


@settings(max_examples=300)
@given(st.lists(LEVEL, max_size=5).map("/".join) | st.text(max_size=80))
def test_boards(text: str) -> None:
    try:
        state = ScoreFourState.from_string(text)
    except StratagemError:
        return
    assert ScoreFourState.from_string(state.to_string()) == state


@settings(max_examples=300)
@given(specs(GAME))
def test_agent_specs(spec: str) -> None:
    agent_or_refusal(GAME, "scorefour", spec)
