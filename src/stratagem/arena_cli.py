"""``stratagem arena ...``: run experiments between agents and report them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from stratagem.core.arena import (
    ArenaError,
    available_games,
    load_game,
    make_executor,
    make_experiment,
    read_results,
    report,
    run,
    split_specs,
)

app = typer.Typer(
    help="Matches, tournaments and solitaire series between agents.", no_args_is_help=True
)
out = Console(highlight=False)
err = Console(stderr=True, highlight=False)


@app.command("agents")
def agents_command(
    game: Annotated[str, typer.Option("--game", help="Game name.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """List a game's agents and their parameters (type, range, default, meaning)."""
    spec = load_game(game)
    if as_json:
        typer.echo(json.dumps(spec.to_json()))
        return
    out.print(
        f"[bold]{spec.name}[/] (rules: {', '.join(spec.presets)}; "
        f"{spec.min_players}-{spec.max_players} players)"
    )
    for info in spec.agents.values():
        out.print(f"  {info.usage():<36} {info.summary}")
        for p in info.params:
            out.print(f"      {p.name}: {p.help}; {p.describe()}")


@app.command("run")
def run_command(
    game: Annotated[str, typer.Option("--game", help=f"Game: {', '.join(available_games())}.")],
    agents: Annotated[str, typer.Option("--agents", help="Agent specs, e.g. optimal,hold:20.")],
    out_file: Annotated[Path, typer.Option("--out", help="Results file (.csv or .parquet).")],
    games: Annotated[int, typer.Option("--games", help="Games to play in all.")] = 100,
    seed: Annotated[int, typer.Option("--seed", help="Experiment seed.")] = 0,
    rules: Annotated[str | None, typer.Option("--rules", help="Rule preset.")] = None,
    mode: Annotated[
        str | None, typer.Option("--mode", help="solitaire, match or round-robin (inferred).")
    ] = None,
    workers: Annotated[int | None, typer.Option("--workers", help="Processes (all cores).")] = None,
    backend: Annotated[str, typer.Option("--backend", help="local or ray.")] = "local",
    chunk: Annotated[int, typer.Option("--chunk", help="Games per work unit.")] = 8,
) -> None:
    """Play (or resume) an experiment, streaming one row per game to --out."""
    if mode is not None and mode not in ("solitaire", "match", "round-robin"):
        raise ArenaError(f"unknown mode {mode!r}; use solitaire, match or round-robin")
    exp = make_experiment(game, rules, split_specs(agents), seed, mode)  # type: ignore[arg-type]
    executor = make_executor(backend, workers)
    with Progress(
        TextColumn(f"{exp.game}: " + " vs ".join(exp.agents)[:60]),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeRemainingColumn(),
        console=err,
        disable=not err.is_terminal,
    ) as bar:
        task = bar.add_task("games", total=games, rate="")
        import time

        start = time.perf_counter()
        first: list[int] = []

        def progress(done: int, total: int) -> None:
            if not first:
                first.append(done)
            elapsed = time.perf_counter() - start
            rate = (done - first[0]) / elapsed if elapsed > 0 else 0.0
            bar.update(task, completed=done, total=total, rate=f"{rate:.1f} games/s")

        rows = run(exp, games, out_file, executor, chunk=chunk, progress=progress)
    summary = report(rows)
    out.print(f"{len(rows)} games in {out_file} ({exp.describe()})")
    _print_report(summary)


@app.command("report")
def report_command(
    results: Annotated[Path, typer.Argument(help="A results file from arena run.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Win rates (Wilson 95%), mean scores with intervals, paired differences."""
    summary = report(read_results(results))
    if as_json:
        typer.echo(json.dumps(summary))
        return
    _print_report(summary)


def _print_report(s: dict[str, Any]) -> None:
    table = Table(
        title=f"{s['game']} ({s['rules']}), {s['mode']}, {s['games']} games", show_edge=False
    )
    for col in ("agent", "games", "mean", "SD", "95% CI", "win rate", "Wilson 95%"):
        table.add_column(col, justify="left" if col == "agent" else "right")
    for name, a in s["agents"].items():
        win = f"{a['win_rate']:.4f}" if "win_rate" in a else "-"
        wil = f"{a['win_lo']:.4f}-{a['win_hi']:.4f}" if "win_rate" in a else "-"
        table.add_row(
            name,
            str(a["games"]),
            f"{a['mean']:.4f}",
            f"{a['sd']:.4f}",
            f"{a['lo']:.4f}-{a['hi']:.4f}",
            win,
            wil,
        )
    out.print(table)
    for p in s["paired"]:
        out.print(
            f"paired: {p['a']} - {p['b']} = {p['mean_diff']:+.4f} per game "
            f"(95% CI {p['lo']:+.4f} to {p['hi']:+.4f}, {p['pairs']} deals)"
        )
