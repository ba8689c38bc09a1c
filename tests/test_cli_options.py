"""One command convention: every shared option is declared once, the same everywhere."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import typer.main

from stratagem.cli import build_app
from stratagem.cli_options import (
    AI_HELP,
    JSON_HELP,
    RULES_HELP,
    SECONDS_HELP,
    SEED_HELP,
    JsonOpt,
    parse_seconds,
)
from stratagem.cli_types import SEED_MAX
from stratagem.core.registry import available_games, load_game

SHARED = {
    "--json": JSON_HELP,
    "--seed": SEED_HELP,
    "--rules": RULES_HELP,
    "--seconds": SECONDS_HELP,
    "--ai": AI_HELP,
}
NOT_YET: set[tuple[str, str]] = set()
"""Options not yet on the shared declaration (none: Score Four's play takes --ai SPEC)."""
OLD_NAMES = {
    "--time-limit": "--seconds",
    "--tiles": "--rules",
    "--lexicon": "--rules",
    "--players": "--agents",
    "--goal": "--rules",
    "--faces": "--rules",
    "--bust": "--rules",
    "--catch-up-turn": "--rules",
    "--bust-scores-one": "--rules",
}
"""Old spellings kept only as hidden aliases, used by docs and tests (the arena's --lexicon;
the per-game Scrabble commands' --lexicon is still a way to give a word list beside a tile
set)."""


def commands() -> Iterator[tuple[str, Any]]:
    root = typer.main.get_command(build_app())
    ctx = type(root).context_class(root)  # typer's own (vendored) click context

    def walk(command: Any, path: list[str]) -> Iterator[tuple[str, Any]]:
        if hasattr(command, "list_commands"):
            for name in command.list_commands(ctx):
                yield from walk(command.get_command(ctx, name), [*path, name])
        else:
            yield " ".join(path), command

    yield from walk(root, [])


def options() -> Iterator[tuple[str, Any]]:
    for path, command in commands():
        for param in command.params:
            if param.param_type_name == "option":
                yield path, param


def test_the_walk_finds_every_group() -> None:
    groups = {path.split()[0] for path, _ in commands()}
    games = {g for g in available_games() if load_game(g).cli is not None}
    assert len(games) >= 4 and games | {"arena"} <= groups


@pytest.mark.parametrize("name", sorted(SHARED))
def test_a_shared_option_has_one_declaration(name: str) -> None:
    found = [(path, p) for path, p in options() if name in p.opts]
    assert found, f"no command takes {name}"
    for path, param in found:
        if (path, name) in NOT_YET:
            continue
        assert param.help == SHARED[name], f"{path} {name} declares its own help"
        assert param.opts == [name] and not param.secondary_opts, path
        if name == "--seed":
            assert (param.min, param.max) == (0, SEED_MAX), path
        if name == "--seconds":
            parser = param.type_descriptor.parameter_info.parser
            assert parser is parse_seconds, f"{path} --seconds has its own range"


def test_one_name_per_idea() -> None:
    for path, param in options():
        for old, new in OLD_NAMES.items():
            if old in param.opts and not (old == "--lexicon" and path != "arena run"):
                assert param.hidden, f"{path} shows {old}; the option is {new}"


# --- the one --json envelope --------------------------------------------------------------

END_ROWS = ["." * 15] * 7 + [".......CAT....."] + ["." * 15] * 7
WORDS = "cat\ncats\nat\nta\nquiz\ntea\neat\nseat\n"

QUICK: dict[str, list[str]] = {
    "arena agents": ["--game", "pig"],
    "arena report": ["{results}"],
    "pig solve": ["--rules", "piglet"],
    "pig value": ["--rules", "piglet", "--me", "0", "--opp", "0"],
    "pig evaluate": ["--rules", "piglet", "--b", "hold:2"],
    "pig simulate": ["--rules", "piglet:goal=5", "--b", "hold:2", "--games", "10"],
    "pig rules": ["--rules", "piglet", "--max-rows", "1"],
    "scorefour count": ["--depth", "1"],
    "scorefour evaluate": [],
    "scorefour best": ["--depth", "1"],
    "scrabble moves": ["--lexicon", "{words}", "--rack", "ACST"],
    "scrabble selfplay": ["--lexicon", "{words}", "--games", "1"],
    "scrabble gcg": ["{gcg}", "--lexicon", "{words}"],
    "scrabble endgame": ["--lexicon", "{words}", "--position", "{end}"],
    "scrabble deep": ["--lexicon", "{words}", "--position", "{mid}", "--seconds", "1"],
    "review": ["{nim-record}"],
}
"""A tiny input for each ``--json`` command that answers in about a second."""
SLOW: dict[str, list[str]] = {
    "yahtzee solve": ["--rules", "yatzy"],
    "yahtzee advise": ["--rules", "yatzy", "--dice", "11234", "--rolls-left", "2"],
    "yahtzee simulate": ["--rules", "yatzy", "--games", "10"],
    "yahtzee distribution": ["--rules", "yatzy"],
    "yahtzee zoo": ["--rules", "yatzy"],
    "yahtzee high-score": ["--rules", "yatzy", "--targets", "200"],
}
"""Yahtzee's need the solved table (and the zoo and high-score tables: minutes unsolved)."""


def test_every_json_command_has_a_tiny_input_here() -> None:
    with_json = {path for path, p in options() if "--json" in p.opts}
    assert with_json == set(QUICK) | set(SLOW)


def run_json(command: str, args: list[str], tmp_path: Any) -> dict[str, Any]:
    import json

    from stratagem.core.arena import make_experiment, run
    from tests.cli_outcome import invoke

    words = tmp_path / "words.txt"
    words.write_text(WORDS, encoding="utf-8")
    end = tmp_path / "end.txt"
    end.write_text("racks: S AT\nscores: 10 20\nbag:\nboard:\n" + "\n".join(END_ROWS) + "\n")
    mid = tmp_path / "mid.txt"  # the bag holds the tiles not on the board or the rack
    mid.write_text("racks: SEAT ?\nboard:\n" + "\n".join(END_ROWS) + "\n")
    results = tmp_path / "r.csv"
    if "{results}" in args:
        run(make_experiment("pig", "piglet", ["hold:2", "hold:3"], 0), 2, results)
    from pathlib import Path

    gcg = Path(__file__).parent / "games" / "scrabble" / "data" / "selfplay_1.gcg"
    subs = {"{words}": str(words), "{end}": str(end), "{mid}": str(mid),
            "{results}": str(results), "{gcg}": str(gcg)}  # fmt: skip
    argv = [*command.split(), *(subs.get(a, a) for a in args), "--json"]
    if "{nim-record}" in args:  # a record of the recipe game (its coaching is exact)
        from tests.contract.games import registered

        with registered("nim"):
            from stratagem.core.session import Session

            record = tmp_path / "nim.json"
            record.write_text(Session.new("nim", "nim-7", ["human", "four"], seed=1).to_json())
            done = invoke([a.replace("{nim-record}", str(record)) for a in argv])
    else:
        done = invoke(argv)
    assert done.exit_code == 0, done.output
    data: dict[str, Any] = json.loads(done.stdout)
    return data


def check_envelope(command: str, data: dict[str, Any]) -> None:
    from stratagem import __version__

    assert list(data) == ["command", "version", "inputs", "result"]
    assert data["command"] == command and data["version"] == __version__
    assert isinstance(data["inputs"], dict) and data["result"] is not None


@pytest.mark.parametrize("command", sorted(QUICK))
def test_a_json_output_is_the_one_envelope(
    command: str, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STRATAGEM_CACHE_DIR", str(tmp_path / "cache"))
    check_envelope(command, run_json(command, QUICK[command], tmp_path))


@pytest.mark.slow
@pytest.mark.parametrize("command", sorted(SLOW))
def test_a_yahtzee_json_output_is_the_one_envelope(
    command: str, tmp_path: Any, table_cache: Any
) -> None:
    check_envelope(command, run_json(command, SLOW[command], tmp_path))


def test_the_streamed_move_list_is_in_the_envelope_too(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STRATAGEM_CACHE_DIR", str(tmp_path / "cache"))
    data = run_json("scrabble moves", ["--lexicon", "{words}", "--rack", "ACST", "--top", "all"],
                    tmp_path)  # fmt: skip
    check_envelope("scrabble moves", data)
    moves = data["result"]["moves"]
    top = ["--lexicon", "{words}", "--rack", "ACST", "--top", "10000"]
    listed = run_json("scrabble moves", top, tmp_path)["result"]["moves"]
    assert data["inputs"]["top"] == "all" and moves and moves == listed
    assert [m["score"] for m in moves] == sorted((m["score"] for m in moves), reverse=True)


def test_an_option_group_reaches_the_command_as_one_value() -> None:
    from typing import Annotated

    from typer.testing import CliRunner

    from stratagem.cli_options import option_group

    got: list[object] = []
    pair = option_group(
        "span",
        [("low", Annotated[int, typer.Option("--low")], 1),
         ("high", Annotated[int, typer.Option("--high")], 9)],
        lambda low, high: (low, high),
    )  # fmt: skip
    app = typer.Typer()

    @app.command()
    @pair
    def show(*, span: tuple[int, int], as_json: JsonOpt = False) -> None:
        got.append((span, as_json))

    @app.command()
    def other() -> None:  # a second command, so that typer keeps command names
        pass

    result = CliRunner().invoke(app, ["show", "--high", "5", "--json"])
    assert result.exit_code == 0, result.output
    assert got == [((1, 5), True)]


def test_a_games_option_groups_are_made_by_option_group() -> None:
    # issue 39's one convention: a group of options that becomes one value (Pig's rule
    # options, Scrabble's word options) is declared with cli_options.option_group, never
    # by a game's own rewriting of a command's signature
    from pathlib import Path

    import stratagem.games

    for cli in sorted(Path(stratagem.games.__file__).parent.glob("*/cli.py")):
        source = cli.read_text(encoding="utf-8")
        assert "__signature__" not in source, f"{cli.parent.name}/cli.py rewrites a signature"
    from stratagem.games.pig import cli as pig_cli

    assert pig_cli.rule_options.__qualname__.startswith("option_group.")
