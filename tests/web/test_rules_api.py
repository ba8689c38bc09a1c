"""GET /api/{game}/rules: every preset's rules, written from the rules objects."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from stratagem.core.registry import load_game
from stratagem.core.rules_text import games_with_rules


@pytest.mark.parametrize("game", games_with_rules())
def test_every_preset_of_the_registry_has_its_rules(client: TestClient, game: str) -> None:
    r = client.get(f"/api/{game}/rules")
    assert r.status_code == 200
    body = r.json()
    assert [p["preset"] for p in body["presets"]] == list(load_game(game).presets)
    for p in body["presets"]:
        assert p["paragraphs"] and all(len(t) > 40 for t in p["paragraphs"])
        assert [label for label, _ in p["facts"]] == [lb for lb, _ in body["presets"][0]["facts"]]


def test_the_yahtzee_presets_show_their_own_numbers(client: TestClient) -> None:
    from stratagem.games.yahtzee.rules import PRESETS

    by = {p["preset"]: dict(p["facts"]) for p in client.get("/api/yahtzee/rules").json()["presets"]}
    assert by["yatzy"]["upper bonus"] == f"{PRESETS['yatzy'].upper_bonus} at 63"
    assert (
        by["yahtzee"]["joker rule"] == "forced" and by["yahtzee-free-joker"]["joker rule"] == "free"
    )
    assert by["yahtzee-no-bonus"]["bonus per further five of a kind"] == "none"


@pytest.mark.parametrize("game", ["chess", "..", "yahtzee%2F..", "x" * 200])
def test_an_unknown_game_is_refused_with_a_message(client: TestClient, game: str) -> None:
    r = client.get(f"/api/{game}/rules")
    assert r.status_code in (404, 422)
    assert "detail" in r.json()


def test_pig_rules_answer_at_their_literal_path(client: TestClient) -> None:
    assert client.get("/api/pig/rules").json()["game"] == "pig"
