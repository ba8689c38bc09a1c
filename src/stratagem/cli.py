"""The ``stratagem`` command line: one sub-command group per game.

Every game's commands live in ``games/<game>/cli.py``; this file only mounts
them and turns a :class:`~stratagem.core.errors.StratagemError` into a one-line
``error: ...`` message on standard error with exit status 2.

A command of one group imports only that group (``stratagem yahtzee advise``
does not load the Pig, Scrabble or arena modules, nor what they import): the
whole-process time of a quick answer is mostly imports. ``app`` is the full
command tree, for ``stratagem --help`` and for tests.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Annotated

import typer

from stratagem import __version__
from stratagem.core.errors import StratagemError

GROUPS = {
    "yahtzee": "stratagem.games.yahtzee.cli",
    "pig": "stratagem.games.pig.cli",
    "scorefour": "stratagem.games.scorefour.cli",
    "scrabble": "stratagem.games.scrabble.cli",
    "arena": "stratagem.arena_cli",
}
"""Sub-command group -> the module whose ``app`` holds its commands."""


def build_app(groups: list[str] | None = None) -> typer.Typer:
    """The command tree with ``groups`` mounted (all of them by default)."""
    root = typer.Typer(
        name="stratagem",
        help="Compute, play and explain strong strategies for games of chance.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )
    for name in GROUPS if groups is None else groups:
        root.add_typer(importlib.import_module(GROUPS[name]).app, name=name)
    root.command()(version)
    root.command()(serve)
    return root


def version() -> None:
    """Print the version."""
    typer.echo(__version__)


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


_FULL: typer.Typer | None = None


def __getattr__(name: str) -> typer.Typer:
    if name == "app":
        global _FULL
        if _FULL is None:
            _FULL = build_app()
        return _FULL
    raise AttributeError(name)


def _never_fail_to_print() -> None:
    """Write what standard output's encoding cannot show (Czech letters under
    ``PYTHONIOENCODING=ascii`` or a C locale) as ``\\u017d`` escapes instead of dying
    with a UnicodeEncodeError; text it can show is unchanged. (Python's standard error
    already escapes so.)"""
    reconfigure = getattr(sys.stdout, "reconfigure", None)  # absent on a replaced stream
    if reconfigure is not None:
        reconfigure(errors="backslashreplace")


def main() -> None:
    """Entry point of the console script."""
    _never_fail_to_print()
    first = sys.argv[1] if len(sys.argv) > 1 else ""
    try:
        build_app([first] if first in GROUPS else None)()
    except StratagemError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        # every command leaves its files whole (atomic writes, resumable results files)
        print("interrupted", file=sys.stderr)
        sys.exit(130)
