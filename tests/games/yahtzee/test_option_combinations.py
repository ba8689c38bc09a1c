"""``stratagem yahtzee``: an option that a combination would ignore is refused by name, or
takes effect."""

from __future__ import annotations

import json

import pytest

from stratagem.core.errors import StratagemError
from tests.cli_outcome import invoke

GOOD = json.dumps({"dice": [1, 1, 1, 1, 4], "rolls_left": 2})


@pytest.mark.parametrize(
    ("options", "named"),
    [
        (["--dice", "11114"], "--dice"),
        (["--rolls-left", "2", "--upper", "0"], "--rolls-left, --upper"),
        (["--filled", "ones", "--yahtzee-box", "50", "--score", "3"],
         "--filled, --yahtzee-box, --score"),
        (["--target", "200"], "--target"),
        (["--target-play", "expected"], "--target-play"),
    ],
)  # fmt: skip
def test_batch_refuses_the_options_of_a_single_situation(options: list[str], named: str) -> None:
    """`advise --batch --dice 66666` read standard input and ignored --dice (and the rest)."""
    result = invoke(["yahtzee", "advise", "--batch", *options], stdin=GOOD + "\n")
    assert result.exit_code == 2
    assert (
        f"error: --batch reads every situation from standard input; {named} cannot be "
        "combined with it (give the fields in each JSON line)"
    ) in result.stderr
    assert "options" not in result.stdout  # no line was priced


def test_target_play_without_a_target_is_refused() -> None:
    """`advise --target-play expected` without --target priced by the expected score."""
    result = invoke(["yahtzee", "advise", "--dice", "11114", "--rolls-left", "2",
                     "--target-play", "expected"])  # fmt: skip
    assert result.exit_code == 2
    assert "error: --target-play says how the game is played for a --target; give --target" in (
        result.stderr
    )


def test_distribution_starts_from_the_card_the_yahtzee_box_fills(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`distribution --yahtzee-box 50` without --filled gave the empty card's distribution
    (its cache file); the box is filled, so it is the card to start from."""
    import stratagem.games.yahtzee.cli as yahtzee_cli
    import stratagem.games.yahtzee.distribution as D

    def empty_card(*args: object, **kwargs: object) -> None:
        raise StratagemError("the empty card's distribution")

    def late_card(solution: object, policy: str, min_filled: int, **kwargs: object) -> None:
        raise StratagemError(f"from a card with {min_filled} box(es) filled")

    monkeypatch.setattr(yahtzee_cli, "_solution", lambda rules, quiet=False: None)
    monkeypatch.setattr(D, "cached_score_distribution", empty_card)
    monkeypatch.setattr(D, "score_distribution", empty_card)
    monkeypatch.setattr(D, "remaining_distributions", late_card)
    for box in ("50", "0"):
        result = invoke(["yahtzee", "distribution", "--yahtzee-box", box])
        assert "error: from a card with 1 box(es) filled" in result.stderr, result.output
