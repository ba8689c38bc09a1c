"""Helpers the browser tests of the game pages and the review page share: one way to call
the API, to open a page on a live server, and to judge a game's decisions with its coach
(the review's numbers, checked against the coach's judge of the same decisions)."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from stratagem.core.coaching import Coaching, Judged
from stratagem.core.session import Session

__all__ = ["call", "coach_verdicts", "open_page", "recorded_session", "serious_violations"]


def call(url: str, body: dict[str, Any] | None = None, timeout: float = 300.0) -> Any:
    """``GET url`` (or ``POST`` of the JSON ``body``) and its JSON answer."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=timeout) as answer:
        return json.loads(answer.read())


def open_page(browser: Any, url: str, path: str, **context: Any) -> Any:
    """A new browser context on the server ``url`` (desktop size unless ``context`` says
    otherwise) at ``path``; its script errors are collected in ``page.errors``."""
    ctx = browser.new_context(
        base_url=url, **({"viewport": {"width": 1200, "height": 900}} | context)
    )
    page = ctx.new_page()
    page.set_default_timeout(120_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    page.goto(path)
    return page


def recorded_session(url: str, sid: str) -> Session:
    """The game ``sid`` replayed from the record the server gives."""
    with urllib.request.urlopen(f"{url}/api/sessions/{sid}/record", timeout=60) as answer:
        return Session.from_json(answer.read())


def coach_verdicts(url: str, sid: str, coaching: Coaching) -> list[tuple[int, Judged]]:
    """``(decision number, coaching.judge(...))`` of each decision a person took in the
    game ``sid``, in the position where it was taken: what a review must show."""
    session = recorded_session(url, sid)
    texts = session.decisions()
    return [(j, coaching.judge(session.state_at(j), texts[j])) for j in session.human_decisions()]


def serious_violations(page: Any) -> list[str]:
    """axe-core's serious and critical findings on the page as it stands (the pages are
    to have none, in every mode, in light and dark)."""
    from axe_playwright_python.sync_playwright import Axe

    result = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:5]}"
        for v in result.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]
