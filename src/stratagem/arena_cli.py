"""``stratagem arena ...``: run experiments between agents and report them."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from stratagem.cli_options import JsonOpt, OptionalRulesOpt, SeedOpt, emit_json
from stratagem.cli_types import GAMES_MAX
from stratagem.core.arena import (
    ArenaError,
    available_games,
    games_beyond,
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
out = Console(highlight=False, emoji=False)
err = Console(stderr=True, highlight=False, emoji=False)


@app.command("agents")
def agents_command(
    game: Annotated[str, typer.Option("--game", help="Game name.")],
    as_json: JsonOpt = False,
) -> None:
    """List a game's agents and their parameters (type, range, default, meaning)."""
    spec = load_game(game)
    if as_json:
        emit_json("arena agents", {"game": spec.name}, spec.to_json())
        return
    out.print(
        f"[bold]{spec.name}[/] (rules: {spec.rules_usage()}; "
        f"{spec.min_players}-{spec.max_players} players)"
    )
    for p in spec.rule_params:
        out.print(f"    rules {p.name}: {p.help}; {p.kind()} (default: the preset's)")
    for info in spec.agents.values():
        out.print(f"  {info.usage():<36} {info.summary}")
        for p in info.params:
            out.print(f"      {p.name}: {p.help}; {p.describe()}")


@app.command("run")
def run_command(
    game: Annotated[str, typer.Option("--game", help=f"Game: {', '.join(available_games())}.")],
    agents: Annotated[str, typer.Option("--agents", help="Agent specs, e.g. optimal,hold:20.")],
    out_file: Annotated[Path, typer.Option("--out", help="Results file (.csv or .parquet).")],
    games: Annotated[
        int, typer.Option("--games", min=1, max=GAMES_MAX, help="Games to play in all.")
    ] = 100,
    seed: SeedOpt = 0,
    rules: OptionalRulesOpt = None,
    lexicon: Annotated[
        Path | None,
        typer.Option(
            "--lexicon", hidden=True, help="Deprecated: --rules english:lexicon=FILE says it."
        ),
    ] = None,
    mode: Annotated[
        str | None, typer.Option("--mode", help="solitaire, match or round-robin (inferred).")
    ] = None,
    workers: Annotated[
        int | None, typer.Option("--workers", min=1, max=256, help="Processes (all cores).")
    ] = None,
    backend: Annotated[str, typer.Option("--backend", help="local or ray.")] = "local",
    chunk: Annotated[
        int, typer.Option("--chunk", min=1, max=100_000, help="Games per work unit.")
    ] = 8,
) -> None:
    """Play (or resume) an experiment, streaming one row per game to --out."""
    if mode is not None and mode not in ("solitaire", "match", "round-robin"):
        raise ArenaError(f"unknown mode {mode!r}; use solitaire, match or round-robin")
    if lexicon is not None:  # the old spelling of a word list in the rules
        spec = load_game(game)
        if spec.rule_positional != "lexicon":
            raise ArenaError(f"{game} plays without a word list; --lexicon is for scrabble")
        rules = f"{rules or spec.default_rules}:{lexicon}"
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

        try:
            rows = run(exp, games, out_file, executor, chunk=chunk, progress=progress)
        except KeyboardInterrupt:
            done = bar.tasks[0].completed if bar.tasks else 0
            err.print(
                f"interrupted: {done:.0f} of {games} games are in {out_file}; "
                "the same command resumes the run"
            )
            raise typer.Exit(130) from None
    summary = report(rows)
    out.print(f"{len(rows)} games in {out_file} ({exp.describe()})")
    extra = games_beyond(out_file, games)
    if extra:
        out.print(
            f"the file also holds {extra} more game(s) from a longer run; this report covers "
            f"the {games} asked for (`arena report {out_file}` covers them all)"
        )
    _print_report(summary)


@app.command("report")
def report_command(
    results: Annotated[Path, typer.Argument(help="A results file from arena run.")],
    as_json: JsonOpt = False,
) -> None:
    """Win rates (Wilson 95%), mean scores with intervals, paired differences."""
    summary = report(read_results(results))
    if as_json:
        emit_json("arena report", {"results": str(results)}, summary)
        return
    _print_report(summary)


def _num(value: float | None, fmt: str = ".4f") -> str:
    return "n too small" if value is None else format(value, fmt)


def _span(lo: float | None, hi: float | None, fmt: str = ".4f") -> str:
    return "n too small" if lo is None or hi is None else f"{lo:{fmt}} to {hi:{fmt}}"


def _print_report(s: dict[str, Any]) -> None:
    level = f"{100 * s['confidence']:g}%"
    table = Table(
        title=f"{s['game']} ({s['rules']}), {s['mode']}, {s['games']} games", show_edge=False
    )
    for col in ("agent", "games", "mean", "SD", f"{level} CI", "win rate", f"Wilson {level}"):
        table.add_column(col, justify="left" if col == "agent" else "right")
    for name, a in s["agents"].items():
        win = f"{a['win_rate']:.4f}" if "win_rate" in a else "-"
        wil = _span(a["win_lo"], a["win_hi"]) if "win_rate" in a else "-"
        table.add_row(
            name, str(a["games"]), f"{a['mean']:.4f}", _num(a["sd"]), _span(a["lo"], a["hi"]),
            win, wil,
        )  # fmt: skip
    out.print(table)
    ranges = {tuple(a["range"]) for a in s["agents"].values() if "range" in a}
    if ranges:  # the intervals above are kept inside the range of a return
        low, high = ranges.pop()
        out.print(f"a return lies in {low:g}..{high:g}; the intervals are kept inside it")
    for p in s["paired"]:
        out.print(
            f"paired: {p['a']} - {p['b']} = {p['mean_diff']:+.4f} per game "
            f"({level} CI {_span(p['lo'], p['hi'], '+.4f')}, {p['pairs']} deals)"
        )
