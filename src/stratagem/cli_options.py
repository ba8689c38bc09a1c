"""The options every command shares, declared once, and the one way ``--json`` prints.

An idea has one name and one declaration on the whole command line: ``--json``,
``--seed``, ``--rules``, ``--seconds`` and ``--ai`` (an agent spec of the
registry) mean the same everywhere, with the same help and the same range; a
command takes them from here instead of declaring its own
(``tests/test_cli_options.py`` walks every command and checks it). A command's
default (``--rules`` of Pig is ``pig``) is the parameter's default, not part of
the declaration.

Every ``--json`` output is one envelope, printed by :func:`emit_json`::

    {"command": "pig simulate", "version": "0.4.0",
     "inputs": {...the inputs as understood...}, "result": {...}}

so that a script reads any command the same way and knows which version made it.
"""

from __future__ import annotations

import functools
import inspect
import json
from collections.abc import Callable, Sequence
from typing import Annotated, Any

import typer

from stratagem.cli_types import SECONDS_MAX, SEED_MAX, finite

__all__ = [
    "AI_HELP",
    "JSON_HELP",
    "RULES_HELP",
    "SECONDS_HELP",
    "SEED_HELP",
    "AiOpt",
    "JsonOpt",
    "OptionalRulesOpt",
    "OptionalSecondsOpt",
    "OptionalSeedOpt",
    "RulesOpt",
    "SecondsOpt",
    "SeedOpt",
    "emit_json",
    "envelope",
    "option_group",
    "parse_seconds",
]

JSON_HELP = 'Print JSON: {"command", "version", "inputs", "result"}.'
SEED_HELP = "Random seed, 0..2**63-1 (the same seed plays the same games)."
RULES_HELP = (
    "Rules: a preset, or preset:key=value,... (pig:goal=50,faces=8; "
    "english:lexicon=FILE); `stratagem arena agents --game G` lists them."
)
SECONDS_HELP = f"Time budget of a search in seconds, more than 0 and at most {SECONDS_MAX:g}."
AI_HELP = (
    "The AI player: an agent spec of `stratagem arena agents --game G` "
    "(name, name:value or name:key=value,...)."
)

JsonOpt = Annotated[bool, typer.Option("--json", help=JSON_HELP)]
SeedOpt = Annotated[int, typer.Option("--seed", min=0, max=SEED_MAX, help=SEED_HELP)]
OptionalSeedOpt = Annotated[int | None, typer.Option("--seed", min=0, max=SEED_MAX, help=SEED_HELP)]
"""``--seed`` where leaving it out means a fresh random seed (interactive play)."""
RulesOpt = Annotated[str, typer.Option("--rules", help=RULES_HELP)]
OptionalRulesOpt = Annotated[str | None, typer.Option("--rules", help=RULES_HELP)]
"""``--rules`` where leaving it out means the game's default rules (the game is an option)."""
parse_seconds = finite(0.0, SECONDS_MAX, low_open=True)
SecondsOpt = Annotated[
    float, typer.Option("--seconds", parser=parse_seconds, metavar="SECONDS", help=SECONDS_HELP)
]
OptionalSecondsOpt = Annotated[
    float | None,
    typer.Option("--seconds", parser=parse_seconds, metavar="SECONDS", help=SECONDS_HELP),
]
"""``--seconds`` where leaving it out lets the command choose (a depth, or its default)."""
AiOpt = Annotated[str, typer.Option("--ai", help=AI_HELP)]


def envelope(command: str, inputs: dict[str, Any], result: Any) -> dict[str, Any]:
    """The one shape of every ``--json`` output."""
    from stratagem import __version__

    return {"command": command, "version": __version__, "inputs": inputs, "result": result}


def emit_json(command: str, inputs: dict[str, Any], result: Any) -> None:
    """Print :func:`envelope` as one line of JSON on standard output (plain text, no
    colour or wrapping, whatever the terminal)."""
    typer.echo(json.dumps(envelope(command, inputs, result)))


def option_group(
    name: str, options: Sequence[tuple[str, Any, Any]], make: Callable[..., Any]
) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """A decorator declaring a group of options once for every command that takes it.

    ``options`` are ``(parameter, annotated type, default)``; typer sees them where the
    command declares the parameter ``name``, and the command receives
    ``make(**their values)`` there: one value (a word list, a rule set) instead of the
    same few options repeated, and one place that turns them into it.
    """
    group = [
        inspect.Parameter(param, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=kind)
        for param, kind, default in options
    ]
    names = [p.name for p in group]

    def decorate(command: Callable[..., None]) -> Callable[..., None]:
        signature = inspect.signature(command, eval_str=True)
        if name not in signature.parameters:
            raise TypeError(f"{command.__name__} has no parameter {name!r} for the options")
        params: list[inspect.Parameter] = []
        for param in signature.parameters.values():
            params.extend(group if param.name == name else [param])

        @functools.wraps(command)
        def with_group(**kwargs: Any) -> None:
            kwargs[name] = make(**{key: kwargs.pop(key) for key in names})
            command(**kwargs)

        with_group.__signature__ = signature.replace(parameters=params)  # type: ignore[attr-defined]
        with_group.__annotations__ = {p.name: p.annotation for p in params}
        return with_group

    return decorate
