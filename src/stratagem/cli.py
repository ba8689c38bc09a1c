"""The ``stratagem`` command line: one sub-command group per game.

Every game's commands live in ``games/<game>/cli.py``, named by the game's spec
(``GameSpec.cli``) and found through the registry: this file lists no game; it
mounts the groups and turns a :class:`~stratagem.core.errors.StratagemError`
into a one-line ``error: ...`` message on standard error with exit status 2.

A command of one group imports only that group (``stratagem yahtzee advise``
does not load the Pig, Scrabble or arena modules, nor what they import): the
whole-process time of a quick answer is mostly imports. ``app`` is the full
command tree, for ``stratagem --help`` and for tests.
"""

from __future__ import annotations

import _thread
import importlib
import importlib.util
import os
import signal
import sys
import threading
from pathlib import Path
from types import FrameType
from typing import Annotated, Any

import typer

from stratagem import __version__
from stratagem.core.errors import StratagemError
from stratagem.core.registry import available_games, load_game

COMMANDS = {"arena": "stratagem.arena_cli"}
"""Sub-command groups that are not games -> the module whose ``app`` holds the commands.
Every game's group comes from its spec (:attr:`GameSpec.cli`), found by the registry."""


def game_groups() -> dict[str, typer.Typer]:
    """``stratagem <game>`` of every game the registry finds that has commands of its own
    (loads every game's spec)."""
    groups = {}
    for name in available_games():
        cli = load_game(name).cli
        if cli is not None:
            groups[name] = cli.load()
    return groups


def _quick_group(name: str) -> typer.Typer | None:
    """The group of ``stratagem <name> ...`` loading only what it needs.

    A game's spec imports its engines (numba, a second or so), and a quick command must not
    pay for them: a game whose commands live where its spec names them by convention,
    ``games/<name>/cli.py``, is mounted from there without reading the spec
    (``tests/test_cli.py`` checks that every game's spec names exactly that module).
    ``None``: not a quick group (the full tree is built).
    """
    if name in COMMANDS:
        app: typer.Typer = importlib.import_module(COMMANDS[name]).app
        return app
    if name in available_games() and importlib.util.find_spec(game_cli_module(name)):
        app = importlib.import_module(game_cli_module(name)).app
        return app
    return None


def game_cli_module(name: str) -> str:
    """Where a game keeps its commands by convention (what its spec's ``cli`` names)."""
    return f"stratagem.games.{name}.cli"


def build_app(groups: list[str] | None = None) -> typer.Typer:
    """The command tree with ``groups`` mounted (every game's and the arena's by default)."""
    root = typer.Typer(
        name="stratagem",
        help="Compute, play and explain strong strategies for games of chance.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )
    mounted: dict[str, typer.Typer] = {}
    if groups is None:
        mounted.update(game_groups())
        mounted.update({name: importlib.import_module(m).app for name, m in COMMANDS.items()})
    else:
        for name in groups:
            group = _quick_group(name) or game_groups().get(name)
            if group is None:
                raise StratagemError(f"no command group {name!r}")
            mounted[name] = group
    for name, group in mounted.items():
        root.add_typer(group, name=name)
    root.command()(version)
    root.command()(serve)
    root.command("review")(importlib.import_module("stratagem.review_cli").review)
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
    data: Annotated[
        Path | None,
        typer.Option(help="folder of the games database (default: the per-user data folder)"),
    ] = None,
    deep_workers: Annotated[
        int,
        typer.Option(
            help="processes a Scrabble deep analysis plays its deals in, 1 to the "
            "cores (the heavy work of every player shares the cores)"
        ),
    ] = 1,
) -> None:
    """Start the web page (play, coach and assistant for every game) at http://HOST:PORT/."""
    from stratagem.web.serve import serve as run

    run(host, port, lexicon, data, deep_workers)


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


def _compiler_lock() -> Any:
    """numba's compile lock (held while numba compiles), if numba is loaded at all."""
    module = sys.modules.get("numba.core.compiler_lock")
    lock = getattr(module, "global_compiler_lock", None)
    return getattr(lock, "_lock", None)


_deferred: list[bool] = []


def _on_ctrl_c(signum: int, frame: FrameType | None) -> None:
    """Ctrl-C: ``KeyboardInterrupt`` at once, except while numba compiles.

    An interrupt raised inside numba's compiler (in LLVM's callbacks) left a
    traceback from llvmlite, or a crashed process, instead of the one
    "interrupted" line. So during a compile the interrupt waits for the compile to end
    (a thread waits on numba's compile lock, then interrupts the main thread again),
    and a second Ctrl-C stops at once.
    """
    lock = _compiler_lock()
    owned = getattr(lock, "_is_owned", None)
    if owned is None or not owned():
        _deferred.clear()
        raise KeyboardInterrupt
    if _deferred:  # the second Ctrl-C
        print("interrupted", file=sys.stderr, flush=True)
        os._exit(130)
    _deferred.append(True)
    print(
        "stopping when numba finishes compiling (a few seconds; Ctrl-C again stops at once)",
        file=sys.stderr,
        flush=True,
    )

    def interrupt_after_compile() -> None:
        with lock:  # numba released it: the compile is over
            pass
        _thread.interrupt_main(signal.SIGINT)

    threading.Thread(target=interrupt_after_compile, name="stratagem-ctrl-c", daemon=True).start()


def _interrupted_exit(exc: SystemExit) -> bool:
    """typer turns a ``KeyboardInterrupt`` into a silent ``SystemExit(130)``; True for that
    exit (not for a command's own exit 130, which has said what it stopped)."""
    if exc.code != 130:
        return False
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, KeyboardInterrupt):
            return True
        seen = seen.__cause__ or (None if seen.__suppress_context__ else seen.__context__)
    return False


def main() -> None:
    """Entry point of the console script."""
    _never_fail_to_print()
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # not when ignored
        signal.signal(signal.SIGINT, _on_ctrl_c)
    first = sys.argv[1] if len(sys.argv) > 1 else ""
    try:
        quick = bool(first) and not first.startswith("-") and _quick_group(first) is not None
        build_app([first] if quick else None)()
    except StratagemError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        # every command leaves its files whole (atomic writes, resumable results files)
        print("interrupted", file=sys.stderr)
        sys.exit(130)
    except SystemExit as exc:
        if _interrupted_exit(exc):
            print("interrupted", file=sys.stderr)
        raise
