"""The Yahtzee final report in chromium: skill and luck to one decimal, rows keep their size."""

from __future__ import annotations

from typing import Any


def test_the_final_report_splits_the_score_into_optimum_skill_and_luck(
    page: Any, screenshot: Any
) -> None:
    with page.expect_response(lambda r: r.url.endswith("/api/yahtzee/games")) as started:
        page.goto("/yahtzee?mode=coach&seed=4")
    sid = started.value.json()["id"]
    page.locator("#dice .die").first.wait_for()
    # all but the last box through the API (careless: the first open box at once)...
    game = started.value.json()
    while sum(a.startswith("score ") for a in game["legal"]) > 1:
        action = next(a for a in game["legal"] if a.startswith("score "))
        game = page.request.post(f"/api/yahtzee/games/{sid}/act", data={"action": action}).json()
    # ...and the last one by a click, which ends the game on the page
    last_box = next(a for a in game["legal"] if a.startswith("score "))[6:]
    page.locator(f'#card tr[data-box="{last_box}"]').click()
    page.locator("#report").wait_for()
    optimum = page.locator("#report-optimum").inner_text()
    skill = page.locator("#report-skill").inner_text()
    luck = page.locator("#report-luck").inner_text()
    final = int(page.locator("#report-final").inner_text())
    for shown in (optimum, skill, luck):
        assert len(shown.split(".")[1]) == 1  # one decimal
    assert optimum == "254.6"
    number = lambda t: float(t.replace("−", "-").replace("+", ""))  # noqa: E731
    assert abs(number(optimum) + number(skill) + number(luck) - final) <= 0.15
    note = page.locator("#report-note").inner_text()
    assert "luck is your final score minus the optimum's expected score plus" in note
    # a small mistake's row is as large as the others (no inherited .small class)
    sizes = page.eval_on_selector_all(
        "#mistakes tbody tr", "rows => rows.map(r => [r.className, getComputedStyle(r).fontSize])"
    )
    assert any("size-small" in c for c, _ in sizes) or any("size-medium" in c for c, _ in sizes)
    assert len({size for _, size in sizes}) == 1
    assert not page.locator("#mistakes tr.small").count()
    page.locator("#summary").scroll_into_view_if_needed()
    screenshot(page, "yahtzee-final-report")


def test_the_final_report_fits_a_phone(phone: Any, screenshot: Any) -> None:
    with phone.expect_response(lambda r: r.url.endswith("/api/yahtzee/games")) as started:
        phone.goto("/yahtzee?mode=coach&seed=6")
    game = started.value.json()
    phone.locator("#dice .die").first.wait_for()
    while sum(a.startswith("score ") for a in game["legal"]) > 1:
        action = next(a for a in game["legal"] if a.startswith("score "))
        game = phone.request.post(
            f"/api/yahtzee/games/{game['id']}/act", data={"action": action}
        ).json()
    last_box = next(a for a in game["legal"] if a.startswith("score "))[6:]
    phone.locator(f'#card tr[data-box="{last_box}"]').click()
    report = phone.locator("#report")
    report.wait_for()
    box = report.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    phone.locator("#summary").scroll_into_view_if_needed()
    path = screenshot(phone, "yahtzee-final-report-phone")
    phone.locator("#summary").screenshot(path=str(path))
