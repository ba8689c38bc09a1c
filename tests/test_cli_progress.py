"""Progress of long commands: a bar on a terminal, lines in a log, nothing when quiet."""

from __future__ import annotations

import io

from rich.console import Console

from stratagem.cli_progress import progress_reporter


def _log() -> Console:
    return Console(file=io.StringIO(), force_terminal=False, width=200)


def test_a_log_gets_the_first_report_then_one_line_per_interval_and_the_last() -> None:
    log = _log()
    with progress_reporter("solving", "states", console=log, every=3600) as report:
        assert report is not None
        for done in range(1, 11):
            report(done, 10)
    assert log.file.getvalue().splitlines() == ["solving: 1/10 states", "solving: 10/10 states"]  # type: ignore[attr-defined]


def test_quiet_or_terminal_only_work_shows_nothing_in_a_log() -> None:
    log = _log()
    with progress_reporter("x", "games", quiet=True, console=log) as report:
        assert report is None
    with progress_reporter("x", "games", console=log, lines=False) as report:
        assert report is None
    assert log.file.getvalue() == ""  # type: ignore[attr-defined]


def test_a_terminal_gets_a_bar_that_is_cleared_at_the_end() -> None:
    term = Console(file=io.StringIO(), force_terminal=True, width=80)
    with progress_reporter("playing", "games", console=term) as report:
        assert report is not None
        report(5, 10)
        report(10, 10)
    text = term.file.getvalue()  # type: ignore[attr-defined]
    assert "playing" in text and "10/10 games" in text
