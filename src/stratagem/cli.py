"""The ``stratagem`` command line: one sub-command group per game.

Every game's commands live in ``games/<game>/cli.py``; this file only mounts
them and turns a :class:`~stratagem.core.errors.StratagemError` into a one-line
``error: ...`` message on standard error with exit status 2.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

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


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port, 1..65535")] = 8000,
    lexicon: Annotated[
        Path | None, typer.Option(help="a server-side Scrabble word list (one word a line)")
    ] = None,
) -> None:
    """Start the web page (play, coach and assistant for every game) at http://HOST:PORT/."""
    from stratagem.web.serve import serve as run

    run(host, port, lexicon)


def main() -> None:
    """Entry point of the console script."""
    try:
        app()
    except StratagemError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)
