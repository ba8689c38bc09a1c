"""The ``stratagem`` command line: one sub-command group per game.

Every game's commands live in ``games/<game>/cli.py``; this file only mounts
them and turns a :class:`~stratagem.core.errors.StratagemError` into a one-line
``error: ...`` message on standard error with exit status 2.
"""

from __future__ import annotations

import sys

import typer

from stratagem import __version__
from stratagem.arena_cli import app as arena_app
from stratagem.core.errors import StratagemError
from stratagem.games.pig.cli import app as pig_app
from stratagem.games.scorefour.cli import app as scorefour_app
from stratagem.games.scrabble.cli import app as scrabble_app
from stratagem.games.yahtzee.cli import app as yahtzee_app

app = typer.Typer(
    name="stratagem",
    help="Compute, play and explain strong strategies for games of chance.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(yahtzee_app, name="yahtzee")
app.add_typer(pig_app, name="pig")
app.add_typer(scorefour_app, name="scorefour")
app.add_typer(scrabble_app, name="scrabble")
app.add_typer(arena_app, name="arena")


@app.command()
def version() -> None:
    """Print the version."""
    typer.echo(__version__)


def main() -> None:
    """Entry point of the console script."""
    try:
        app()
    except StratagemError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)
