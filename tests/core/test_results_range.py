"""The arena's report bounds every interval by the game's own range of returns."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stratagem.core.errors import ArenaError
from stratagem.core.results import report, returns_kind

# (game, rules, the range its spec declares, a return value that is one of its results)
GAMES = [
    ("pig", "pig", (0.0, 1.0)),
    ("scorefour", "scorefour", (0.0, 1.0)),
    ("yahtzee", "yahtzee", (0.0, 1575.0)),
]


def _rows(game: str, rules: str, mode: str, returns: list[list[float]]) -> list[dict[str, object]]:
    """A results table: game ``i`` is game ``i`` of pair ``i // 2``, seats swapped in the second."""
    rows = []
    for i, ret in enumerate(returns):
        seats = ["a", "b"] if i % 2 == 0 else ["b", "a"]
        rows.append({
            "experiment": "e", "game": game, "rules": rules, "mode": mode, "game_index": i,
            "pair_index": i // 2, "deal_seed": i // 2, "seats": json.dumps(seats[: len(ret)]),
            "returns": json.dumps(ret), "length": 1, "seconds": 0.0,
        })  # fmt: skip
    return rows


def _intervals(out: dict[str, object]) -> list[tuple[float, float, float, tuple[float, float]]]:
    """(lo, mean, hi, range) of every interval in a report (agents, then paired differences)."""
    found = []
    for entry in out["agents"].values():  # type: ignore[attr-defined]
        if entry["lo"] is not None:
            found.append((entry["lo"], entry["mean"], entry["hi"], tuple(entry["range"])))
    for pair in out["paired"]:  # type: ignore[attr-defined]
        if pair["lo"] is not None:
            low, high = tuple(found[0][3])
            found.append((pair["lo"], pair["mean_diff"], pair["hi"], (low - high, high - low)))
    return found


def test_openspiel_games_report_their_utility_range() -> None:
    pytest.importorskip("pyspiel")
    assert returns_kind("openspiel:connect_four", "default").bounds == (-1.0, 1.0)
    assert returns_kind("openspiel:kuhn_poker", "default").bounds == (-2.0, 2.0)


def test_connect_four_interval_of_a_losing_seat_lies_below_zero() -> None:
    """The reproduction of issue 33: 400 games, mean -0.1 for seat 2, was reported 0.0..-0.002."""
    pytest.importorskip("pyspiel")
    a_wins = [True] * 180 + [False] * 220  # agent a's mean return is -0.1
    returns = [[1.0, -1.0] if won == (i % 2 == 0) else [-1.0, 1.0] for i, won in enumerate(a_wins)]
    out = report(_rows("openspiel:connect_four", "default", "match", returns))
    for lo, mean, hi, (low, high) in _intervals(out):
        assert low <= lo <= mean <= hi <= high
    a = out["agents"]["a"]
    assert a["mean"] == pytest.approx(-0.1) and -1.0 <= a["lo"] < a["hi"] < 0.0


def test_a_return_outside_the_range_is_refused() -> None:
    with pytest.raises(ArenaError, match="outside"):
        report(_rows("pig", "pig", "match", [[2.0, 0.0], [0.0, 1.0]]))


def test_cooperative_games_have_no_win_rate() -> None:
    pytest.importorskip("pyspiel")
    assert returns_kind("openspiel:tiny_hanabi", "default").wins is False


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    which=st.integers(0, len(GAMES) - 1),
    mode=st.sampled_from(["match", "solitaire"]),
)
def test_every_reported_interval_holds_its_mean_inside_the_range(
    data: st.DataObject, which: int, mode: str
) -> None:
    game, rules, (low, high) = GAMES[which]
    if mode == "solitaire" and game != "yahtzee":
        mode = "match"
    seats = 1 if mode == "solitaire" else 2
    if high == 1.0:  # a win game: each return is 1, 0 or 0.5 (a draw)
        value = st.sampled_from([0.0, 0.5, 1.0])
    else:
        value = st.floats(low, high, allow_nan=False) | st.sampled_from([low, high])
    returns = data.draw(st.lists(st.lists(value, min_size=seats, max_size=seats),
                                 min_size=1, max_size=40))  # fmt: skip
    out = report(_rows(game, rules, mode, returns))
    for lo, mean, hi, (a, b) in _intervals(out):
        assert a <= lo <= mean <= hi <= b
        assert math.isfinite(lo) and math.isfinite(hi)


@settings(max_examples=40, deadline=None)
@given(returns=st.lists(st.lists(st.sampled_from([-2.0, -1.0, 1.0, 2.0]), min_size=2, max_size=2),
                        min_size=2, max_size=60))  # fmt: skip
def test_kuhn_poker_intervals_stay_within_two_chips(returns: list[list[float]]) -> None:
    pytest.importorskip("pyspiel")
    out = report(_rows("openspiel:kuhn_poker", "default", "match", returns))
    for lo, mean, hi, (a, b) in _intervals(out):
        assert a <= lo <= mean <= hi <= b


def test_the_connect_four_reproduction_through_the_cli(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Issue 33's commands: `arena report --json` gave seat 2 "lo": 0.0, "hi": -0.00207."""
    import subprocess
    import sys

    pytest.importorskip("pyspiel")
    out = tmp_path / "c4.csv"
    run = [sys.executable, "-m", "stratagem", "arena"]
    subprocess.run(
        [*run, "run", "--game", "openspiel:connect_four", "--agents", "random,random",
         "--games", "400", "--seed", "1", "--out", str(out)],
        check=True, capture_output=True,
    )  # fmt: skip
    done = subprocess.run(
        [*run, "report", str(out), "--json"], check=True, capture_output=True, text=True
    )
    agents = json.loads(done.stdout)["result"]["agents"]  # inside the one JSON envelope
    for entry in agents.values():
        assert -1.0 <= entry["lo"] <= entry["mean"] <= entry["hi"] <= 1.0
        assert entry["range"] == [-1.0, 1.0] and "win_rate" in entry
