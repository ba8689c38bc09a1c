"""The assistant's deep analysis (games/scrabble/assistant.py): the position it simulates,
the lexicon's lock taken deal by deal, and its ranges."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest

from stratagem.core.errors import StratagemError
from stratagem.games.scrabble import assistant
from stratagem.games.scrabble.assistant import deep_analysis, deep_position
from stratagem.games.scrabble.lexicon import default_lexicon
from stratagem.games.scrabble.position import write_position

from .test_superleaves import _position


def test_a_position_telling_the_bag_but_no_opponent_rack_is_dealt_a_full_one() -> None:
    lex = default_lexicon("english")
    s = _position(5, 6)
    opp = 1 - s.player
    hidden = np.array(s.bag) + np.array(s.racks[opp])
    lines = write_position(s).splitlines()
    mine = s.rack_text(s.player)
    text = "\n".join(
        f"racks: {mine} -" if line.startswith("racks:")
        else f"bag: {s.tiles.rack_text(hidden)}" if line.startswith("bag:") else line
        for line in lines
    )  # fmt: skip
    state = deep_position(lex, text, None, None, None)
    assert sum(state.racks[opp]) == 7
    assert np.array_equal(np.array(state.bag) + np.array(state.racks[opp]), hidden)
    assert state.racks[s.player] == s.racks[s.player]


def test_the_lexicon_lock_is_taken_deal_by_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    lex = default_lexicon("english")
    held = []

    @contextmanager
    def counting(_lexicon: Any) -> Any:
        held.append(1)
        yield

    monkeypatch.setattr(assistant, "lexicon_lock", counting)
    found = deep_analysis(lex, write_position(_position(5, 6)), candidates=3, seconds=2.0)
    assert found.deals >= 1
    # the ranking once, then each deal (every candidate of it under one hold)
    assert len(held) == 1 + found.deals
    assert found.stopped in ("finished", "budget")


@pytest.mark.parametrize(
    ("kw", "name"),
    [({"candidates": 1}, "candidates"), ({"candidates": 31}, "candidates"),
     ({"candidates": True}, "candidates"), ({"seconds": 0.5}, "seconds"),
     ({"seconds": 61.0}, "seconds"), ({"seconds": float("nan")}, "seconds")],
)  # fmt: skip
def test_out_of_range_budgets_are_refused_by_name(kw: dict[str, Any], name: str) -> None:
    with pytest.raises(StratagemError, match=name):
        deep_analysis(default_lexicon("english"), write_position(_position(5, 6)), **kw)
