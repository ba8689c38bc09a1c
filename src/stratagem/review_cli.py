"""``stratagem review RECORD.json``: the review of a recorded game in the terminal.

The same review as the web page's (:func:`stratagem.core.review.review`, with the game's
own coaching): every decision of a person with its cost in the game's unit, exact or
estimated, and its label; the thresholds; the evaluation before each decision; totals
with luck and skill. ``--json`` prints the review in the one envelope of every command.

The record is read with a size limit (:data:`~stratagem.core.session.MAX_RECORD_BYTES`)
and replayed, checked decision by decision; a bad one stops with exit status 2 and a
message naming the problem. Progress goes to standard error; Ctrl-C stops between two
positions.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from stratagem.cli_options import JsonOpt, emit_json

__all__ = ["review"]

RecordArg = Annotated[
    Path,
    typer.Argument(
        help="a game record (JSON, docs/sessions.md): My games' Export, or "
        "GET /api/sessions/<id>/record",
        metavar="RECORD.json",
        show_default=False,
    ),
]


def read_record(path: Path) -> Any:
    """The session of the record at ``path``, read with the record's size limit."""
    from stratagem.core.errors import RecordError
    from stratagem.core.session import MAX_RECORD_BYTES, Session

    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_RECORD_BYTES + 1)
    except OSError as exc:
        raise RecordError(f"cannot read the record {path}: {exc.strerror or exc}") from None
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(
            f"{path} is larger than a game record may be ({MAX_RECORD_BYTES:,} bytes)"
        )
    try:
        return Session.from_json(data)
    except RecordError as exc:
        raise RecordError(f"{path}: {exc}") from None


def review(record: RecordArg, as_json: JsonOpt = False) -> None:
    """Review a recorded game: each of your decisions priced by the game's coach."""
    from stratagem.cli_progress import progress_reporter
    from stratagem.core.errors import StratagemError
    from stratagem.core.review import review as make_review

    session = read_record(record)
    spec = session.game
    if spec.coaching is None:
        raise StratagemError(
            f"{spec.display_title} has no coaching, so its games cannot be reviewed"
        )
    coaching = spec.coaching(spec.rules_object(session.rules))
    with progress_reporter("reviewing", "positions", quiet=as_json, lines=False) as report:
        done = make_review(session, coaching, progress=report)
    if as_json:
        emit_json("review", {"record": str(record)}, done.to_json())
        return
    _print(done, spec.display_title)


def _print(done: Any, title: str) -> None:
    from rich.console import Console
    from rich.table import Table

    out = Console(highlight=False, emoji=False)
    unit = done.unit

    def amount(x: float | None, signed: bool = False) -> str:
        if x is None:
            return "-"
        v, digits = (100 * x, 1) if unit.percent else (x, 2)
        return f"{v:+.{digits}f}" if signed else f"{v:.{digits}f}"

    unit_words = (
        f"{unit.name} in percentage points ({unit.short})"
        if unit.percent
        else f"{unit.name} ({unit.short})"
    )
    seats = ", ".join(f"player {i + 1}: {s}" for i, s in enumerate(done.seats))
    out.print(f"[bold]Review of {title}[/bold] ({done.rules}; {seats})")
    if done.finished and done.returns is not None:
        returns = list(done.returns)
        if sorted(returns) == [0.0] * (len(returns) - 1) + [1.0]:
            out.print(f"Result: player {returns.index(1.0) + 1} won.")
        else:
            shown = ", ".join(f"player {i + 1} {r:g}" for i, r in enumerate(returns))
            out.print(f"Result: {shown}.")
    else:
        out.print("The game is not over: reviewed so far.")
    t = unit.thresholds
    out.print(
        f"Costs in {unit_words}. Labels: best (0), good (below {amount(t[0])}), "
        f"inaccuracy (from {amount(t[0])}), mistake (from {amount(t[1])}), "
        f"blunder (from {amount(t[2])})."
    )
    if done.cost_note:
        out.print(done.cost_note)
    if done.takebacks:
        out.print(f"{done.takebacks} takeback(s) during the game.")
    if not done.complete:
        out.print(f"[bold]The review stopped at decision {done.stopped_at + 1}[/bold] (its bound).")
    values = {p.decision: p.value for p in done.graph}
    words = {p.decision: p.text for p in done.graph if p.text}  # "wins in 3" (Score Four)
    table = Table(
        title="Decisions of people",
        title_justify="left",
        caption=f"cost, and the evaluation before the decision, in {unit.short}",
        caption_justify="left",
    )
    table.add_column("#", justify="right")
    table.add_column("player", justify="right")
    table.add_column("played")
    table.add_column("best")
    table.add_column("cost", justify="right")
    table.add_column("", justify="left")
    table.add_column("label")
    table.add_column("before", justify="right")
    for d in done.decisions:
        j = d.judged
        table.add_row(
            str(d.decision + 1),
            str(d.player + 1),
            d.played_text or j.played,
            "= played" if j.best == j.played else d.best_text or j.best,
            amount(j.cost)
            + (f" ({j.extra['result_change']})" if j.extra.get("result_change") else ""),
            "exact" if j.exact else "estimated",
            j.label,
            words.get(d.decision) or amount(values.get(d.decision)),
        )
    out.print(table)
    tt = done.totals
    totals = Table(title="Totals", title_justify="left", show_header=False)
    totals.add_column("", justify="left")
    totals.add_column("", justify="right")
    totals.add_row("decisions reviewed", str(tt.decisions))
    if tt.results_changed:
        totals.add_row("proven results thrown away", str(tt.results_changed))
        totals.add_row("total cost of the other decisions", amount(tt.cost))
        totals.add_row("mean cost of the other decisions", amount(tt.mean_cost))
    else:
        totals.add_row("total cost", amount(tt.cost))
        totals.add_row("mean cost", amount(tt.mean_cost))
    for label, count in tt.labels.items():
        totals.add_row(label, str(count))
    if tt.luck is not None:
        where = "before the first chance" if tt.start_at == "deal" else "at the first decision"
        totals.add_row(f"start ({where})", amount(tt.start))
        totals.add_row("skill: what the decisions cost", amount(tt.skill))
        totals.add_row("outcome", amount(tt.outcome))
        totals.add_row("luck = outcome - (start - skill)", amount(tt.luck, signed=True))
    out.print(totals)
