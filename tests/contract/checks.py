"""The contract every game's states keep, as plain checks (OpenSpiel's random simulation test).

Each check raises ``AssertionError`` saying what broke, so the same functions run on the
registered games (``test_games.py``) and on broken toy games that must fail them
(``test_broken_games.py``). :func:`random_game` plays one game to the end with random
actions and runs every check on every state it meets.
"""

from __future__ import annotations

import copy
import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from stratagem.core.game import CHANCE, TERMINAL, Action, State, sample_chance

WIDEST_CHANCE = 20_000
"""Chance nodes with more outcomes than this are checked through ``sample_chance`` only
(a Scrabble draw of seven tiles from a full bag has millions of outcomes)."""


Width = Callable[[Any], int]


@dataclass(frozen=True)
class Forms:
    """A game's text forms: an action's text and its parser, a position's text and its parser.

    ``None`` where the game has no such form (the contract then checks only that the
    action's ``str`` tells the legal actions apart, which the web page and the terminal
    rely on)."""

    action_text: Callable[[Action], str] = str
    read_action: Callable[[str, State], Action] | None = None
    position_text: Callable[[State], str] | None = None
    read_position: Callable[[str, State], State] | None = None


MOST_READ_BACK = 24
"""Actions read back from their text per state (evenly spread over the legal list), so that
a Scrabble position with hundreds of placements costs tens of parses, not hundreds."""


@dataclass(frozen=True)
class Outcomes:
    """What a game declares of its final values: each player's range, and for a game of
    wins that they sum to 1 (a draw splits it)."""

    low: float
    high: float
    win: bool = False


def snapshot(state: State) -> Any:
    """A deep copy of what makes ``state`` equal to another (a dataclass's compared fields;
    its lexicon or rules objects are shared, read-only tables and are compared as fields)."""
    if dataclasses.is_dataclass(state):
        return tuple(
            (f.name, copy.deepcopy(getattr(state, f.name)))
            for f in dataclasses.fields(state)
            if f.compare
        )
    return copy.deepcopy(state.__dict__)


def check_immutable(state: State) -> None:
    """The state is hashable, equal to (and hashes as) a copy of itself, and refuses new
    values for its attributes."""
    assert isinstance(hash(state), int)
    twin = copy.copy(state)
    assert twin == state and hash(twin) == hash(state), "a copy of a state is not equal to it"
    names = [f.name for f in dataclasses.fields(state)] if dataclasses.is_dataclass(state) else []
    names += list(getattr(state, "__dict__", {}))
    for name in names[:1] or ["current_player"]:
        try:
            setattr(state, name, getattr(state, name, None))
        except (AttributeError, TypeError):
            continue
        raise AssertionError(
            f"{type(state).__name__}.{name} can be reassigned: a state is immutable"
        )


def check_chance(state: State, rng: np.random.Generator, width: Width | None = None) -> Action:
    """At a chance node: no legal actions; outcomes distinct, each with a positive
    probability, summing to 1 within 1e-9. Returns one outcome drawn as the play loop does.

    ``width(state)``: at most how many outcomes the node has, for games whose chance nodes
    can be too wide to list (then only ``sample_chance`` runs)."""
    assert not list(state.legal_actions()), "a chance node offers actions to a player"
    if width is None or width(state) <= WIDEST_CHANCE:
        outcomes = list(state.chance_outcomes())
        assert outcomes, "a chance node without outcomes"
        probabilities = [p for _, p in outcomes]
        assert all(p > 0 for p in probabilities), (
            f"a chance outcome with probability <= 0: {min(probabilities)}"
        )
        total = math.fsum(probabilities)
        assert abs(total - 1.0) <= 1e-9, f"chance probabilities sum to {total!r}, not 1"
        keys = [o for o, _ in outcomes]
        assert len(set(keys)) == len(keys), "a chance outcome is listed twice"
        drawn = sample_chance(state, rng)
        assert drawn in set(keys), f"sample_chance drew {drawn!r}, not among the outcomes"
        return drawn
    return sample_chance(state, rng)


def check_decision(state: State, forms: Forms) -> Sequence[Action]:
    """At a decision node: legal actions non-empty and distinct, told apart by their text,
    each read back from its text; no chance outcomes; the position read back from its text."""
    legal = list(state.legal_actions())
    assert legal, "a player to move without legal actions (the game should have ended)"
    assert len(set(legal)) == len(legal), "an action is listed twice"
    assert not list(state.chance_outcomes()), "a decision node lists chance outcomes"
    texts = [forms.action_text(a) for a in legal]
    assert len(set(texts)) == len(texts), "two legal actions have the same text"
    if forms.read_action is not None:
        step = max(1, len(legal) // MOST_READ_BACK)
        for action, text in list(zip(legal, texts))[::step]:
            back = forms.read_action(text, state)
            assert back == action, f"{text!r} reads back as {back!r}, not {action!r}"
    check_position_text(state, forms)
    return legal


def check_position_text(state: State, forms: Forms) -> None:
    if forms.position_text is None or forms.read_position is None:
        return
    text = forms.position_text(state)
    back = forms.read_position(text, state)
    assert back == state, f"the position does not read back from its text:\n{text}"
    assert forms.position_text(back) == text


def check_returns(state: State, outcomes: Outcomes) -> None:
    """Returns are one finite number per player; a game of wins gives nothing until the end;
    at the end each lies in the declared range (a game of wins: they sum to 1)."""
    values = tuple(state.returns())
    assert len(values) == state.num_players, (
        f"{len(values)} returns for {state.num_players} players"
    )
    assert all(math.isfinite(v) for v in values), f"returns {values} are not all finite"
    if not state.is_terminal():
        if outcomes.win:
            assert not any(values), f"returns {values} before the end of a game of wins"
        return
    assert not list(state.legal_actions()), "a finished game offers actions"
    assert all(outcomes.low <= v <= outcomes.high for v in values), (
        f"returns {values} outside {outcomes.low}..{outcomes.high}"
    )
    if outcomes.win:
        assert math.isclose(sum(values), 1.0), f"returns {values} of a game of wins do not sum to 1"


@dataclass(frozen=True)
class Contract:
    """What the checks need to know of one game: its text forms, its declared outcomes and,
    for a game with very wide chance nodes, how wide a node is."""

    forms: Forms
    outcomes: Outcomes
    width: Width | None = None


def check_state(state: State, contract: Contract, rng: np.random.Generator) -> Action | None:
    """Every check of one state; the next action of a random game (None at the end)."""
    check_immutable(state)
    player = state.current_player
    assert (player == TERMINAL) == state.is_terminal(), "current_player and is_terminal disagree"
    assert player in (CHANCE, TERMINAL) or 0 <= player < state.num_players, f"player {player}?"
    check_returns(state, contract.outcomes)
    if player == TERMINAL:
        return None
    if player == CHANCE:
        return check_chance(state, rng, contract.width)
    legal = check_decision(state, contract.forms)
    return legal[int(rng.integers(len(legal)))]


def check_apply(state: State, action: Action) -> State:
    """``apply`` returns a new state and leaves ``state`` as it was."""
    before, hashed = snapshot(state), hash(state)
    after = state.apply(action)
    assert after is not state, "apply returned the same object"
    assert snapshot(state) == before and hash(state) == hashed, (
        "apply changed the state it was given"
    )
    return after


def random_game(
    state: State, contract: Contract, rng: np.random.Generator, most: int = 100_000
) -> tuple[State, int]:
    """Play ``state`` to the end with uniformly random actions and chance drawn from its
    distribution, every check on every state; the final state and the number of steps."""
    for steps in range(most):
        action = check_state(state, contract, rng)
        if action is None:
            return state, steps
        state = check_apply(state, action)
    raise AssertionError(f"no end after {most} steps")
