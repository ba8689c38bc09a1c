"""Score Four boards: any text gives a position or a StratagemError."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from stratagem.core.errors import StratagemError
from stratagem.games.scorefour.state import ScoreFourState

LEVEL = st.text(alphabet="xo.XO-", min_size=0, max_size=18)


@settings(max_examples=300)
@given(st.lists(LEVEL, max_size=5).map("/".join) | st.text(max_size=80))
def test_boards(text: str) -> None:
    try:
        state = ScoreFourState.from_string(text)
    except StratagemError:
        return
    assert ScoreFourState.from_string(state.to_string()) == state
