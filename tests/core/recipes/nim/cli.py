"""``stratagem nim ...`` (the "add a game" recipe, step 2)."""

from __future__ import annotations

import typer

from stratagem.core.registry import load_game

app = typer.Typer(help="Nim.", no_args_is_help=True)


@app.command("presets")
def presets() -> None:
    """List the rule presets."""
    typer.echo(", ".join(load_game("nim").presets))


@app.command("new")
def new() -> None:
    """Show the stones of a new game."""
    typer.echo(str(load_game("nim").new_state(None, 2)))
