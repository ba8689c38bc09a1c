"""The agent registry: one spec grammar, typed parameters with ranges, one error style."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import stratagem.games
from stratagem.cli import app
from stratagem.core.errors import ArenaError, InvalidAgentError
from stratagem.core.registry import (
    AgentInfo,
    Lazy,
    Param,
    available_games,
    load_game,
    make_agent,
    parse_spec,
)

runner = CliRunner()


def test_every_game_is_found_by_its_folder() -> None:
    # Stratagem's own four games (the one place a test names them: every other test over
    # the games is parametrised by available_games())
    assert {"pig", "scorefour", "scrabble", "yahtzee"} <= set(available_games())
    with pytest.raises(ArenaError, match="unknown game 'chess'"):
        load_game("chess")


def test_a_game_laid_out_the_old_way_is_told_to_rename_its_spec(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """games/<g>/arena.py was renamed spec.py: a third-party game still using the old name
    is refused with the fix, not silently missing."""
    old = tmp_path / "oldgame"
    old.mkdir()
    (old / "__init__.py").write_text("")
    (old / "arena.py").write_text("GAME = None\n")
    monkeypatch.setattr(stratagem.games, "__path__", [*stratagem.games.__path__, str(tmp_path)])
    assert "oldgame" not in available_games()
    with pytest.raises(ArenaError, match=r"games/oldgame/arena.py.*rename.*games/oldgame/spec.py"):
        load_game("oldgame")
    assert "stratagem.games.oldgame.arena" not in sys.modules


@pytest.mark.parametrize("name", available_games())
def test_every_capability_a_spec_names_can_be_loaded(name: str) -> None:
    """A lazy reference is checked only when used: a typo would surface in a user's
    command; here every one is loaded (the codec too: its module needs no framework)."""
    game = load_game(name)
    for ref in (game.rules_text, game.cli, game.codec):
        if ref is not None:
            assert ref.load() is not None
    if game.web is not None and game.web.router is not None:
        pytest.importorskip("fastapi")
        assert game.web.router.load() is not None


def test_a_lazy_reference_must_name_module_and_object() -> None:
    with pytest.raises(ValueError, match=r"package\.module:name"):
        Lazy("stratagem.games.pig.cli")
    assert Lazy("stratagem.core.errors:ArenaError").module == "stratagem.core.errors"


@pytest.mark.parametrize("name", available_games())
def test_every_declared_default_lies_in_its_own_range(name: str) -> None:
    game = load_game(name)
    assert game.default_rules in game.presets
    for info in game.agents.values():
        for p in info.params:
            if p.default is not None:
                assert p.check(p.default, info.name) == p.default
        if not any(p.required for p in info.params):
            assert game.check_agent(info.name).name == info.name


def test_positional_and_keyword_forms_are_the_same_parameter() -> None:
    assert make_agent("pig", "pig", "hold:20").spec == make_agent("pig", "pig", "hold:n=20").spec
    with pytest.raises(InvalidAgentError, match="takes no value after ':'"):
        make_agent("pig", "pig", "keep-pace:30")
    with pytest.raises(InvalidAgentError, match="has no parameter 'x'; its parameters are: n"):
        make_agent("pig", "pig", "hold:x=3")


@pytest.mark.parametrize(
    ("param", "text", "value"),
    [
        (Param("k", int, 1, "", low=1, high=5), "5", 5),
        (Param("k", int, 1, "", low=1, high=5), "+3", 3),
        (Param("x", float, 0.5, "", low=0.0, high=1.0), "1e-3", 0.001),
        (Param("p", str, "a", "", choices=("a", "b")), "b", "b"),
        (Param("s", int, None, "", low=0, high=9), "none", None),
    ],
)
def test_values_are_read_by_type(param: Param, text: str, value: object) -> None:
    assert param.parse(text, "toy") == value


@pytest.mark.parametrize(
    ("param", "text", "message"),
    [
        (Param("k", int, 1, "", low=1, high=5), "6", "k must be a whole number 1..5, got '6'"),
        (Param("k", int, 1, "", low=1, high=5), "1.0", "k must be a whole number 1..5"),
        (Param("k", int, 1, "", low=1, high=9), "10" * 30, "k must be a whole number 1..9"),
        (
            Param("x", float, 1.0, "", low=0.0, high=2.0, low_open=True),
            "0",
            "x must be a number > 0.0 and <= 2.0",
        ),
        (
            Param("x", float, 1.0, "", low=0.0, high=1e9),
            "inf",
            "x must be a number 0.0..1000000000.0, got 'inf'",
        ),
        (Param("p", str, "a", "", choices=("a", "b")), "c", "p must be one of a, b, got 'c'"),
        (Param("k", int, 1, "", low=0, high=3), "none", "k must be a whole number 0..3"),
    ],
)
def test_bad_values_name_the_parameter_its_type_and_range(
    param: Param, text: str, message: str
) -> None:
    with pytest.raises(InvalidAgentError, match=f"^agent toy: {message}"):
        param.parse(text, "toy")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "cannot read agent spec"),
        ("a b", "cannot read agent spec"),
        ("x:", "nothing after ':'"),
        ("x:k=", "write key=value"),
        ("x:k=1,k=2", "sets the parameter 'k' twice"),
    ],
)
def test_malformed_specs_are_refused(text: str, message: str) -> None:
    with pytest.raises(InvalidAgentError, match=message):
        parse_spec(text)


def test_a_number_parameter_must_declare_its_range() -> None:
    with pytest.raises(ValueError, match="needs a range"):
        Param("k", int, 1, "", low=1)


def test_an_agent_cannot_declare_a_parameter_twice() -> None:
    with pytest.raises(ValueError, match="twice"):
        AgentInfo("x", "", lambda r, a: None, (Param("a", str, "1", ""), Param("a", str, "2", "")))


def test_agents_command_lists_parameters_with_type_range_and_default() -> None:
    result = runner.invoke(app, ["arena", "agents", "--game", "pig"])
    assert result.exit_code == 0, result.output
    assert "keep-pace[:base=...,race=...,div=...]" in result.output
    assert "base: hold threshold at equal scores; whole number 1..100000 (default 21)" in (
        result.output
    )
    assert "hold:n" in result.output
    listing = json.loads(runner.invoke(app, ["arena", "agents", "--game", "pig", "--json"]).output)[
        "result"
    ]
    mcts = next(a for a in listing["agents"] if a["name"] == "mcts")
    sims = next(p for p in mcts["params"] if p["name"] == "sims")
    assert (sims["type"], sims["default"], sims["low"], sims["high"]) == ("int", 2500, 1, 10**7)
