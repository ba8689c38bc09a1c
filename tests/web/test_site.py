"""The start page, the shared assets, the limits every API shares."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from stratagem.core.registry import available_games
from stratagem.web.app import create_app


def test_the_games_list_names_every_game_of_the_registry_with_its_page(
    client: TestClient,
) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    assert set(games) == set(available_games())
    for name, game in games.items():
        assert game["page"] == f"/{name}"  # each of the four has a page of its own
        assert client.get(game["page"]).status_code == 200


def test_static_assets_are_served_without_a_cdn(client: TestClient) -> None:
    for asset in ("style.css", "common.js", "favicon.svg"):
        response = client.get(f"/static/{asset}")
        assert response.status_code == 200
        assert "https://" not in response.text


def test_unknown_page_is_a_json_404(client: TestClient) -> None:
    response = client.get("/no-such-page")
    assert response.status_code == 404
    assert "start page" in response.json()["detail"]


def test_oversized_body_is_refused_with_413() -> None:
    client = TestClient(create_app(max_body_bytes=100))
    response = client.post("/api/sessions", content=b"x" * 1000)
    assert response.status_code == 413
    assert "100 bytes" in response.json()["detail"]


def test_start_page_in_the_browser(page: Any, screenshot: Any) -> None:
    page.goto("/")
    assert page.title() == "Stratagem"
    page.wait_for_selector("#games:not([aria-busy])")
    assert page.locator("#games section").count() == len(available_games())
    screenshot(page, "start")


@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        ("GET", "/api/sessions/ses-0000000000000000/move", "POST"),  # a 405, not a 404
        ("PUT", "/api/pig/sessions/ses-0000000000000000/map", "GET"),
        ("OPTIONS", "/api/yahtzee/tables/yahtzee", "DELETE, GET, POST"),
    ],
)
def test_a_method_the_path_does_not_take_is_405_naming_the_allowed(
    method: str, path: str, allow: str
) -> None:
    r = TestClient(create_app(tables="off")).request(method, path)
    assert r.status_code == 405 and r.headers["Allow"] == allow
