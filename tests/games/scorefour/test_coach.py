"""The Score Four coach: proven results in words, one unit otherwise, one judge for every
number the page and the terminal show."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from stratagem.core.errors import IllegalActionError, InvalidRulesError
from stratagem.games.scorefour import _kernels
from stratagem.games.scorefour.board import parse_peg
from stratagem.games.scorefour.coach import MISTAKE, advise, judge, review
from stratagem.games.scorefour.search import Minimax
from stratagem.games.scorefour.state import ScoreFourState

# Reached in the web game against `minimax:depth=1` by X playing the coach's best move:
# a1, c2, d4, a4, d1 (tests/web/test_scorefour_page.py plays it in the browser).
FORCED = "x..o..x.....x..x/...o..o........./...o..o........./...x............"
# X has a1 b1 c1 (d1 open), O has a2 b2 c2 (d2 open); X to move.
THREATS = "xxx.ooo........./................/................/................"
SENTINEL = 5000.0


def test_a_forced_win_is_said_in_the_movers_own_moves() -> None:
    state = ScoreFourState.from_string(FORCED)
    best = advise(state)[0]
    assert best.outcome == "win" and best.value_text == "wins in 3"
    assert best.points is None and best.behind is None and best.quality == 1.0
    # The search's own score: a win on the fifth ply from now is X's third move.
    assert Minimax().search(state, depth=5).value == _kernels.WIN - 5
    # and no move wins sooner: none completes a line at once
    assert all(r.moves != 1 for r in advise(state) if r.outcome == "win")


def test_a_win_now_and_a_loss_next_are_said_and_judged() -> None:
    rows = {r.action: r for r in advise(ScoreFourState.from_string(THREATS))}
    assert rows["d1"].value_text == "wins in 1" and rows["d1"].verdict == "best"
    assert rows["d2"].verdict == "misses the win" and rows["d2"].severity == "bad"
    assert rows["a3"].value_text == "loses in 1"
    assert rows["a3"].verdict == "misses the win, and loses" and rows["a3"].quality == 0.0


def test_the_best_of_a_lost_position_says_so_without_calling_it_a_mistake() -> None:
    # O to move must block d1 and cannot also block X's second threat after it: X has
    # a1 b1 c1 and a2 b2 c2 on the bottom level (d1 and d2 open); O has a3 b3, and a1 b1 c1
    # on level 2, a three whose fourth cell (d1, level 2) is not yet playable.
    lost = ScoreFourState.from_string(
        "xxx.xxx.oo....../ooo............./................/................"
    )
    rows = advise(lost)
    assert all(r.outcome == "loss" for r in rows)
    assert rows[0].verdict == "best; every move loses" and rows[0].severity == "good"
    assert rows[0].value_text == "loses in 1"  # whatever O blocks, X completes the other


def test_no_row_shows_a_sentinel_number() -> None:
    for board in (FORCED, THREATS):
        for row in advise(ScoreFourState.from_string(board)):
            for number in (row.points, row.behind, row.moves, row.quality):
                assert number is None or abs(number) < SENTINEL, row
            assert "999" not in row.line() and "1000" not in row.line()


def random_positions(n: int, seed: int) -> list[ScoreFourState]:
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        s = ScoreFourState.new()
        for _ in range(int(rng.integers(0, 30))):
            if s.is_terminal():
                break
            s = s.apply(int(rng.choice(s.legal_actions())))
        if not s.is_terminal():
            out.append(s)
    return out


def test_a_move_as_good_as_the_best_is_never_coloured_as_a_mistake() -> None:
    for state in random_positions(25, seed=7):
        rows = advise(state, depth=3)
        for row in rows:
            if row.verdict.startswith(("best", "as good as the best")):
                assert row.severity == "good" and row.quality == 1.0, row
            if row.severity == "bad":
                assert row.quality < 1.0, row
        # f follows the search: best first, never rising down the list
        assert all(a.quality >= b.quality for a, b in itertools.pairwise(rows))


@pytest.mark.parametrize("depth", [1, 2, 3, 4, 5, 6])
def test_the_centre_opening_is_rated_worst_only_where_the_search_rates_it_worst(
    depth: int,
) -> None:
    state = ScoreFourState.new()
    values = Minimax(table_bits=14).move_values(state, depth)
    centre = next(r for r in advise(state, depth) if r.action == "b2")
    assert (centre.quality == 0.0) == (values[parse_peg("b2")] == min(values.values()))
    assert (centre.quality == 1.0) == (values[parse_peg("b2")] == max(values.values()))


def test_where_the_search_rates_the_centre_best_so_does_f() -> None:
    values = {p: 5.0 for p in range(16)} | {parse_peg("b2"): 12.0}
    rows = judge(values)
    assert rows[0].action == "b2" and rows[0].verdict == "best" and rows[0].quality == 1.0
    assert (
        rows[-1].verdict == "inaccuracy" and rows[-1].behind == 7.0 and rows[-1].severity == "warn"
    )


def test_points_behind_decide_inaccuracy_and_mistake() -> None:
    rows = {r.peg: r for r in judge({0: 40.0, 1: 38.0, 2: 20.0, 3: 40.0 - MISTAKE})}
    assert (rows[0].verdict, rows[3].verdict) == ("best", "mistake")
    assert (rows[1].verdict, rows[1].severity) == ("good", "good")
    assert (rows[2].verdict, rows[2].severity) == ("inaccuracy", "warn")


def test_review_of_a_full_peg_and_bad_depths_are_refused() -> None:
    state = ScoreFourState.new()
    for _ in range(4):
        state = state.apply(0)
    with pytest.raises(IllegalActionError, match="full"):
        review(state, 0)
    with pytest.raises(InvalidRulesError, match="depth"):
        advise(state, depth=0)
    with pytest.raises(InvalidRulesError, match="depth"):
        advise(state, depth=99)
