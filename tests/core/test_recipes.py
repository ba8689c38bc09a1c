"""The recipes of docs/architecture.md, followed step by step.

"Add a game": the toy game Nim lives in one folder (tests/core/recipes/nim/);
putting that folder among stratagem's games (here: the games package's search
path) is all it takes for the registry, the play loop, the arena, the command
line (its spec names its commands) and the OpenSpiel and PettingZoo adapters (its
spec names its codec) to offer it.

"Add an agent": one AgentInfo entry with one parameter in a game's agent table.
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import stratagem.games
from stratagem.arena_cli import app as arena_app
from stratagem.cli import build_app
from stratagem.core.arena import make_experiment, report, run
from stratagem.core.errors import InvalidAgentError
from stratagem.core.game import State
from stratagem.core.play import Deal, play
from stratagem.core.registry import AgentInfo, Param, available_games, load_game
from stratagem.games.pig.rules import PigRules
from stratagem.games.pig.state import PigAction, PigState

RECIPES = Path(__file__).parent / "recipes"
runner = CliRunner()


@pytest.fixture
def nim_installed(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    # Step 1 of "add a game": the game's folder sits among stratagem's games.
    monkeypatch.setattr(stratagem.games, "__path__", [*stratagem.games.__path__, str(RECIPES)])
    yield
    for name in [m for m in sys.modules if m.startswith("stratagem.games.nim")]:
        del sys.modules[name]


def test_recipe_add_a_game(nim_installed: None, tmp_path: Path) -> None:
    assert "nim" in available_games()
    game = load_game("nim")
    assert set(game.agents) == {"four", "random"}

    # the play loop, with agent objects from the registry
    agents = [game.make_agent("nim-12", "four"), game.make_agent("nim-12", "random")]
    played = play(game.new_state("nim-12", 2), agents, Deal(1))
    assert sum(played.returns) == 1.0 and played.decisions >= 3

    # the arena: a paired match, with results and a report
    exp = make_experiment("nim", None, ["four", "random"], seed=3)
    rows = run(exp, 40, tmp_path / "nim.csv")
    summary = report(rows)
    assert summary["game"] == "nim" and summary["agents"]["four"]["games"] == 40
    assert summary["agents"]["four"]["win_rate"] > summary["agents"]["random"]["win_rate"]

    # step 2: the spec names the game's commands (cli=...); the command line mounts them
    # beside the others, with no line of its own
    app = build_app()
    listed = runner.invoke(app, ["arena", "agents", "--game", "nim"])
    assert listed.exit_code == 0 and "leaves a multiple of four" in listed.output
    assert runner.invoke(app, ["nim", "presets"]).output.strip() == "nim-7, nim-12"
    assert "nim" in runner.invoke(app, ["--help"]).output


def test_the_recipe_game_ends_when_the_stones_come_back(nim_installed: None) -> None:
    """Two "four" players keep 7 stones level when a roll adds one and each takes one;
    a die keyed by the position alone rolled the same six again there, forever (deal 4
    of nim-7 did). Each roll of the die is a slot of its own."""
    game = load_game("nim")
    for seed in range(40):
        agents = [game.make_agent("nim-7", "four"), game.make_agent("nim-7", "four")]
        played = play(game.new_state("nim-7", 2), agents, Deal(seed), max_steps=10_000)
        assert sum(played.returns) == 1.0


# A fresh interpreter with the recipe's folder among stratagem's games (step 1), nothing more:
# what an installed game meets when the adapters and the command line start.
_WITH_NIM = (
    "import sys, stratagem.games\n"
    f"stratagem.games.__path__.append({str(RECIPES)!r})\n"
)


def _run(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    return subprocess.run(
        [sys.executable, "-c", _WITH_NIM + script, *args],
        capture_output=True, text=True, env=env, timeout=300, check=False,
    )  # fmt: skip


def test_the_recipe_game_has_its_commands_on_the_command_line() -> None:
    """``stratagem nim presets`` through the console script's own entry point (the quick path
    that mounts one group) and ``stratagem --help``."""
    main = "from stratagem.cli import main\nsys.argv = ['stratagem', *sys.argv[1:]]\nmain()\n"
    presets = _run(main, "nim", "presets")
    assert presets.returncode == 0, presets.stderr
    assert presets.stdout.strip() == "nim-7, nim-12"
    helped = _run(main, "--help")
    assert helped.returncode == 0 and "nim" in helped.stdout.split()


def test_the_recipe_game_is_in_the_openspiel_and_pettingzoo_adapters() -> None:
    """Step 3: the codec the spec names (tests/core/recipes/nim/codec.py) is all the adapters
    need: OpenSpiel's own random simulation test and PettingZoo's API test pass."""
    pytest.importorskip("pyspiel", reason="needs the interop extra")
    pytest.importorskip("pettingzoo", reason="needs the interop extra")
    script = """
import pyspiel
from pettingzoo.test import api_test
import stratagem.interop.openspiel
from stratagem.interop.pettingzoo import env

game = pyspiel.load_game("stratagem_nim")
kind = game.get_type()
print(kind.long_name, kind.min_num_players, kind.max_num_players, kind.utility)
print(dict(game.get_parameters()))
pyspiel.random_sim_test(game, num_sims=20, serialize=False, verbose=False)
pyspiel.random_sim_test(pyspiel.load_game("stratagem_nim(rules=nim-12)"), num_sims=5,
                        serialize=False, verbose=False)
api_test(env("nim", "nim-12"), num_cycles=100)
print("ok")
"""
    done = _run(script)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert lines[0] == "Stratagem Nim 2 2 Utility.ZERO_SUM"
    assert lines[1] == "{'rules': 'nim-7'}"
    assert lines[-1] == "ok"


class Cautious:
    """Holds at n, or at 10 when behind (the agent of the recipe)."""

    def __init__(self, rules: PigRules, n: int) -> None:
        self.rules, self.n = rules, n

    def act(self, state: State, rng: np.random.Generator) -> PigAction:
        assert isinstance(state, PigState)
        me, opp = state.scores[state.player], state.scores[1 - state.player]
        hold_at = 10 if me < opp else self.n
        if state.turn_total >= hold_at or me + state.turn_total >= self.rules.goal:
            return PigAction.HOLD
        return PigAction.ROLL


def test_recipe_add_an_agent(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    pig = load_game("pig")
    entry = AgentInfo(  # the one entry the recipe adds to games/pig/spec.py
        "cautious", "holds at n, or at 10 when behind", lambda rules, n: Cautious(rules, n),
        (Param("n", int, 20, "the turn total to hold at", low=1, high=100),),
        positional="n",
    )  # fmt: skip
    extended = dataclasses.replace(pig, agents={**pig.agents, "cautious": entry})
    monkeypatch.setattr(sys.modules["stratagem.games.pig.spec"], "GAME", extended)

    agent = load_game("pig").make_agent("pig", "cautious:15")
    assert isinstance(agent, Cautious) and agent.n == 15
    with pytest.raises(InvalidAgentError, match=r"n must be a whole number 1\.\.100, got '0'"):
        load_game("pig").make_agent("pig", "cautious:0")
    listed = runner.invoke(arena_app, ["agents", "--game", "pig"])
    assert "cautious:n" in listed.output and "whole number 1..100 (default 20)" in listed.output

    exp = make_experiment("pig", "coin-3", ["cautious:2", "random"], seed=5)
    rows = run(exp, 20, tmp_path / "c.csv")
    assert report(rows)["agents"]["cautious:2"]["games"] == 20
