"""Scrabble's coaching: the position as one player may see it, the coach's rows in points
of equity, a judge that prices a move against every move, and the review's evaluation."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest

from stratagem.core.coaching import Coaching
from stratagem.core.errors import IllegalActionError
from stratagem.core.registry import load_game
from stratagem.core.session import Session
from stratagem.games.scrabble.coach import UNIT, ScrabbleCoaching, parse_action
from stratagem.games.scrabble.gcg_session import session_from_gcg
from stratagem.games.scrabble.heuristic import phase_of
from stratagem.games.scrabble.state import ScrabbleState

DATA = Path(__file__).parent / "data"


@lru_cache(maxsize=1)
def coach() -> ScrabbleCoaching:
    game = load_game("scrabble")
    assert game.coaching is not None
    made = game.coaching(game.rules_object("english"))
    assert isinstance(made, ScrabbleCoaching)
    return made


@lru_cache(maxsize=5)
def recorded(n: int) -> tuple[Session, list[str]]:
    text = (DATA / f"selfplay_{n}.gcg").read_text()
    names = [line.split()[2] for line in text.splitlines() if line.startswith("#player")]
    return session_from_gcg(text), names


def test_the_game_registers_its_coaching() -> None:
    assert isinstance(coach(), Coaching)
    assert coach().unit.name == "points of equity"
    assert UNIT.thresholds == (3.0, 8.0, 15.0)


def test_the_view_shows_the_viewers_rack_and_never_the_opponents_in_play() -> None:
    session, _ = recorded(1)
    state = session.state_at(4)
    assert isinstance(state, ScrabbleState)
    view = coach().view(state)
    me = state.player
    assert view["rack"] == state.rack_text(me)
    assert view["racks"][me] == state.rack_text(me)
    assert view["racks"][1 - me] is None
    assert state.rack_text(1 - me) not in str(view)  # not even in the unseen-tile panel's text
    other = coach().view(state, viewer=1 - me)
    assert other["racks"][me] is None and other["rack"] == state.rack_text(1 - me)


def test_the_view_of_a_finished_game_shows_every_rack() -> None:
    session, _ = recorded(1)
    view = coach().view(session.state)
    assert view["over"] and all(r is not None for r in view["racks"])
    assert view["scores"] == list(session.state.scores)  # type: ignore[attr-defined]


def test_the_unseen_tiles_are_the_opponents_rack_and_the_bag() -> None:
    session, _ = recorded(2)
    state = session.state_at(9)
    assert isinstance(state, ScrabbleState)
    tracking = coach().view(state)["tracking"]
    opp = state.tiles.rack_counts(state.rack_text(1 - state.player), 7)
    assert tracking["unseen_total"] == state.bag_size() + int(opp.sum())


def test_rows_are_best_first_with_value_equal_to_score_plus_leave() -> None:
    session, _ = recorded(3)
    rows = coach().rows(session.state_at(6))
    assert rows[0]["cost"] == 0 and rows[0]["label"] == "best"
    assert [r["value"] for r in rows] == sorted((r["value"] for r in rows), reverse=True)
    for r in rows:
        assert r["value"] == pytest.approx(r["score"] + r["leave"] + r["closing"], abs=0.02)
        assert r["cost"] == pytest.approx(rows[0]["value"] - r["value"], abs=0.02)
        assert not r["exact"]


def test_judging_a_listed_move_gives_its_rows_cost_and_rank() -> None:
    session, _ = recorded(3)
    state = session.state_at(8)
    rows = coach().rows(state, top=10)
    for k, row in enumerate(rows):
        judged = coach().judge(state, row["action"])
        assert judged.cost == pytest.approx(row["cost"], abs=0.02)
        assert judged.label == row["label"]
        if row["value"] < rows[0]["value"]:
            assert judged.best == rows[0]["action"]
        higher = sum(r["value"] > row["value"] + 0.01 for r in rows)
        assert judged.extra["rank"] == higher + 1
        assert judged.extra["of"] > len(rows) or k < len(rows)


def test_the_equity_players_own_moves_cost_nothing_before_its_endgame() -> None:
    for n in (1, 2, 3):
        session, names = recorded(n)
        for j, step in enumerate(session.decision_steps()):
            state = session.state_at(j)
            if names[step.player] == "EquityAgent" and phase_of(state) != "closing":  # type: ignore[arg-type]
                judged = coach().judge(state, step.text)
                assert judged.cost == 0, (n, j, step.text, judged.best)


def test_a_move_that_is_not_legal_is_refused_by_name() -> None:
    session, _ = recorded(4)
    state = session.state_at(3)
    with pytest.raises(IllegalActionError, match="not a legal move"):
        coach().judge(state, "8H ZZZZ 40")
    with pytest.raises(IllegalActionError, match="not a Scrabble move"):
        parse_action(state, "fly away")  # type: ignore[arg-type]


def test_the_evaluation_is_the_spread_plus_the_movers_best_equity() -> None:
    session, _ = recorded(5)
    state = session.state_at(10)
    assert isinstance(state, ScrabbleState)
    best = coach().rows(state, top=1)[0]["value"]
    p = state.player
    spread = state.scores[p] - state.scores[1 - p]
    assert coach().evaluation(state, p) == pytest.approx(spread + best, abs=0.02)
    assert coach().evaluation(state, 1 - p) == pytest.approx(-spread - best, abs=0.02)
    final = session.state
    assert coach().evaluation(final, 0) == final.scores[0] - final.scores[1]  # type: ignore[attr-defined]


def test_a_finished_game_has_no_rows() -> None:
    session, _ = recorded(5)
    with pytest.raises(IllegalActionError, match="over"):
        coach().rows(session.state)
