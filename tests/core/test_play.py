"""The one play loop: agents per seat, common random numbers, a fresh agent per game."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import numpy as np
import pytest

from stratagem.core.agent import RandomAgent
from stratagem.core.arena import play_game
from stratagem.core.errors import ArenaError
from stratagem.core.game import State
from stratagem.core.play import Deal, play
from stratagem.core.registry import AgentInfo, load_game
from stratagem.games.pig.rules import preset
from stratagem.games.pig.state import PigState
from stratagem.games.pig.strategies import HoldAt


class Spy:
    """Remembers every (game, seat) it was asked to move for."""

    made: ClassVar[list[Spy]] = []

    def __init__(self) -> None:
        self.seen: set[tuple[int, int]] = set()
        Spy.made.append(self)

    def act(self, state: State, rng: np.random.Generator) -> object:
        # a game is known by its deal generator object's identity (one per seat and game)
        self.seen.add((id(rng), state.current_player))
        return state.legal_actions()[0]


def test_each_game_and_seat_gets_its_own_agent() -> None:
    # The arena once cached agents by spec: one object served both seats of a mirrored
    # match and every game, so a learning agent (decision analysis) never learned.
    pig = load_game("pig")
    spy_game = dataclasses.replace(
        pig, agents={**pig.agents, "spy": AgentInfo("spy", "records its games", lambda r: Spy())}
    )
    Spy.made.clear()
    for deal in (1, 2):
        play_game(spy_game, "coin-3", ["spy", "spy"], deal)
    assert len(Spy.made) == 4
    assert len({id(s) for s in Spy.made}) == 4
    assert all(len(s.seen) == 1 for s in Spy.made)  # one seat of one game each


def test_decision_analysis_keeps_its_estimate_through_a_game() -> None:
    # With a fresh agent per seat, the learner recognises the opponent's replies, so
    # its skill trace grows over the game instead of restarting at every move.
    game = load_game("scorefour")
    agents = [game.make_agent("scorefour", "decision-analysis:beta=0.5,depth=1"), RandomAgent()]
    play(game.new_state("scorefour", 2), agents, Deal(4))
    assert len(agents[0].trace) >= 3  # type: ignore[attr-defined]


def test_a_deal_repeats_the_same_dice_for_the_same_seat() -> None:
    rules = preset("pig")
    a, b = HoldAt(rules, 20), HoldAt(rules, 20)
    first = play(PigState.new(rules), [a, b], Deal(9))
    again = play(PigState.new(rules), [a, b], Deal(9))
    assert first == again


def test_one_generator_drives_chance_and_agents_in_turn() -> None:
    rules = preset("coin-3")
    agents = [RandomAgent(), RandomAgent()]
    x = play(PigState.new(rules), agents, np.random.default_rng(3))
    y = play(PigState.new(rules), agents, np.random.default_rng(3))
    assert x == y and x.state.is_terminal() and x.decisions >= 1


def test_observe_sees_every_action_before_it_is_applied() -> None:
    rules = preset("coin-3")
    steps: list[tuple[int, object]] = []
    played = play(
        PigState.new(rules), [HoldAt(rules, 2), HoldAt(rules, 2)], np.random.default_rng(0),
        observe=lambda s, p, a: steps.append((p, a)),
    )  # fmt: skip
    assert sum(1 for p, _ in steps if p >= 0) == played.decisions
    assert len(steps) > played.decisions  # chance events too


def test_the_number_of_agents_must_match_the_players() -> None:
    with pytest.raises(ArenaError, match="2 players but 1 agents"):
        play(PigState.new(preset("pig")), [RandomAgent()], np.random.default_rng(0))
    with pytest.raises(ArenaError, match="deal seed"):
        Deal(-1)


@dataclasses.dataclass(frozen=True)
class Circle:
    """A game whose one position comes back forever: one player, one move, no end."""

    num_players: ClassVar[int] = 1
    current_player: ClassVar[int] = 0

    def legal_actions(self) -> list[int]:
        return [0]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return []

    def apply(self, action: int) -> Circle:
        return self

    def is_terminal(self) -> bool:
        return False

    def returns(self) -> tuple[float, ...]:
        return (0.0,)


def test_a_game_that_never_ends_stops_at_the_step_limit_naming_it() -> None:
    agent = RandomAgent()
    with pytest.raises(ArenaError, match="did not end after 50 steps"):
        play(Circle(), [agent], Deal(0), max_steps=50)  # type: ignore[arg-type]
    with pytest.raises(ArenaError, match="a step limit must be"):
        play(Circle(), [agent], Deal(0), max_steps=0)  # type: ignore[arg-type]
