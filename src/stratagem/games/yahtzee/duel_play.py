"""Playing a reduced score card (a duel *variant*) in the arena, and its exact players.

The arena's :class:`~.state.YahtzeeState` always carries a preset's whole card.
A variant is a rules spec of its own, ``yahtzee:boxes=ones+twos+chance,bonus=true``
(boxes joined by ``+``; ``bonus`` pays the upper bonus for three of each of the
card's upper faces), whose games are :class:`VariantState` positions: the same
actions (:class:`~.state.Keep`, :class:`~.state.Score`, :class:`~.state.Roll`),
a card of only the variant's boxes, each scored by its own rule.

Two players play a variant exactly:

* ``duel-optimal`` (:class:`DuelOptimalAgent`): the two-player win-optimal strategy,
  read from the ``max``/``max`` tables of :mod:`.duel` on disk; it refuses
  (:class:`~stratagem.core.errors.InvalidAgentError`) rules it has no table for;
* ``optimal`` on a variant (:class:`VariantOptimalAgent`): the expected-score
  optimum of the variant's card (the ``es`` mode of :mod:`.duel`).

Their choices, ties included, are those of the duel kernels (``_duel_kernels``), so
an arena series of the two estimates the solver's exact ``win-es`` / ``es-win``.

>>> v = variant_rules("yahtzee", {"boxes": "twos+ones", "bonus": True})
>>> v.name
'yahtzee[ones+twos +bonus]'
>>> s = VariantState.new(v, 2).apply(Roll((1, 1, 2, 2, 6)))
>>> [str(a) for a in s.legal_actions()][-2:]
['score ones', 'score twos']
>>> str(s.apply(Score("twos")).cards[0])
'twos=4 | total 4'
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from stratagem.core.agent import Advice, Agent, with_regrets
from stratagem.core.errors import (
    IllegalActionError,
    InvalidAgentError,
    InvalidRulesError,
    InvalidStateError,
    StratagemError,
)
from stratagem.core.game import State
from stratagem.core.registry import AgentInfo, Param
from stratagem.games.yahtzee import dice as D
from stratagem.games.yahtzee.duel import (
    Level,
    Run,
    TurnTables,
    Variant,
    _cards,
    _policy,
    estimate,
    level_layers,
    turn_tables,
)
from stratagem.games.yahtzee.rules import (
    YahtzeeRules,
    _score_for,
    check_dice,
)
from stratagem.games.yahtzee.state import CardTotals, Keep, Score, TurnState, YahtzeeState
from stratagem.games.yahtzee.state import Roll as Roll  # the module doc plays a roll

BOX_LIST = r"[a-z_]+(\+[a-z_]+)*"

RULE_PARAMS = (
    Param(
        "boxes",
        str,
        None,
        "a reduced card (a duel variant): its boxes joined by +, e.g. ones+twos+chance",
        pattern=BOX_LIST,
        accepts="box names joined by +",
    ),
    Param(
        "bonus",
        bool,
        None,
        "with boxes: pay the upper bonus for three of each of the card's upper faces",
    ),
)
"""Yahtzee's rule parameters (``GameSpec.rule_params``): a variant of a preset."""


def variant_rules(preset: str, values: Mapping[str, Any]) -> Variant:
    """``GameSpec.vary`` for Yahtzee: the variant a rules spec names (boxes are required)."""
    if "boxes" not in values:
        raise InvalidRulesError(
            f"rules {preset}: bonus=... belongs to a reduced card; name its boxes too, "
            "e.g. boxes=ones+twos,bonus=true"
        )
    boxes = tuple(str(values["boxes"]).split("+"))
    return Variant(preset, boxes, upper_bonus=bool(values.get("bonus") or False))


def rules_spec(variant: Variant) -> str:
    """The rules spec that names ``variant`` (card order)."""
    bonus = ",bonus=true" if variant.upper_bonus else ""
    return f"{variant.preset}:boxes={'+'.join(variant.boxes)}{bonus}"


def new_state(rules: YahtzeeRules | Variant, players: int) -> State:
    """``GameSpec.new`` for Yahtzee: a full card, or a variant's card."""
    if isinstance(rules, Variant):
        return VariantState.new(rules, players)
    return YahtzeeState.new(rules, players)


def highest_score(variant: Variant) -> int:
    """The most points a card of ``variant`` can hold (every box at its best, the bonus)."""
    return int(variant.box_max().sum()) + variant.bonus


# --- the game on a reduced card ------------------------------------------------------------


@dataclass(frozen=True)
class VariantCard(CardTotals):
    """One player's card of a variant: points in each of its boxes (``None`` while open)."""

    variant: Variant
    boxes: tuple[int | None, ...]

    def bonus_rule(self) -> tuple[int, int]:
        """Three of each of the card's upper faces, when the variant pays the bonus."""
        return self.variant.threshold, self.variant.bonus

    @property
    def categories(self) -> tuple[str, ...]:
        return self.variant.boxes

    @property
    def open_boxes(self) -> list[str]:
        return [c for c, v in zip(self.variant.boxes, self.boxes) if v is None]

    def options(self, dice: Sequence[int]) -> dict[str, tuple[int, int]]:
        """Every open box with what ``dice`` score there: ``{box: (points, 0)}`` (a
        variant has no Yahtzee bonus and no joker, so every open box may take them)."""
        ordered = tuple(sorted(dice))
        family = self.variant.rules.family
        return {c: (_score_for(family, c, ordered), 0) for c in self.open_boxes}

    def score(self, category: str, dice: Sequence[int]) -> VariantCard:
        """The card after scoring ``dice`` in ``category`` (an open box of the card)."""
        check_dice(dice)
        if category not in self.variant.boxes:
            raise IllegalActionError(
                f"cannot score {category}: {self.variant.name} has only the boxes "
                f"{', '.join(self.variant.boxes)}"
            )
        index = self.variant.boxes.index(category)
        if self.boxes[index] is not None:
            raise IllegalActionError(f"cannot score {category}: the box is already filled")
        boxes = list(self.boxes)
        boxes[index] = _score_for(self.variant.rules.family, category, tuple(sorted(dice)))
        return VariantCard(self.variant, tuple(boxes))


@dataclass(frozen=True)
class VariantState(TurnState[Variant, VariantCard]):
    """A position of a 1-4 player game on a variant's card (implements
    :class:`stratagem.core.game.State`, turn by turn as :class:`~.state.YahtzeeState`:
    both are :class:`~.state.TurnState`)."""

    @classmethod
    def empty_card(cls, rules: Variant) -> VariantCard:
        return VariantCard(rules, (None,) * rules.num_boxes)

    @property
    def variant(self) -> Variant:
        return self.rules


def _decision(state: object, who: str) -> VariantState:
    if not isinstance(state, VariantState):
        raise InvalidStateError(f"{who} plays a reduced card (a VariantState), not {state!r:.80}")
    if state.rolling or state.is_terminal():
        raise InvalidStateError(f"{who}: there is no decision at a roll or at the end")
    return state


def _card_index(variant: Variant, card: VariantCard) -> tuple[int, int]:
    """(layer, index in layer) of a card in the duel tables."""
    cards = _cards(variant)
    upper = min(card.upper_total, variant.threshold)
    return len(card.filled), int(cards.sid[card.mask, upper])


# --- the expected-score optimum of a variant ---------------------------------------------


class VariantOptimalAgent:
    """The expected-score optimum of a variant's card (the ``es`` side of :mod:`.duel`),
    with the duel kernels' choices: keep tables ``keep2``, ``keep1``, box table ``cat``."""

    name = "optimal"

    def __init__(self, variant: Variant) -> None:
        self.variant = variant

    def act(self, state: State, rng: np.random.Generator) -> Keep | Score:
        s = _decision(state, "the variant's optimal player")
        if s.variant != self.variant:
            raise InvalidStateError(f"this player was built for {self.variant.name}")
        layer, a = _card_index(self.variant, s.card)
        keep2, keep1, cat = _policy(self.variant, layer)
        roll = D.KEEP_INDEX[s.dice]
        left = s.rolls_left
        # Keeping the whole roll is the same roll with a reroll fewer: follow it down, so
        # that a box chosen at the end is scored now, as the kernels' policy would.
        while left > 0:
            kept = int((keep2 if left == 2 else keep1)[a, roll])
            if kept != roll:
                if left == s.rolls_left:
                    return Keep(D.KEEPS[kept])
                return Keep(s.dice)  # pass a reroll, keep the later choice exact
            left -= 1
        return Score(self.variant.boxes[int(cat[a, roll])])


# --- the exact two-player win-optimal strategy --------------------------------------------


def find_run(variant: Variant) -> Run | None:
    """The solved ``max``/``max`` run of ``variant`` on disk (every level), else ``None``."""
    for track in (True, False):
        run = Run(variant, ("max", "max"), track_loss=track)
        if len(run.finished_levels()) == 2 * variant.num_boxes:
            return run
    return None


class DuelOptimalAgent:
    """Plays the two-player win-optimal strategy of a solved variant (both sides maximise
    their chance to win, a draw half), from the duel tables on disk; also an advisor
    (each option's exact win chance with optimal play after it)."""

    name = "duel-optimal"

    def __init__(self, run: Run) -> None:
        self.run = run
        self.variant = run.variant
        self._levels: dict[int, Level | None] = {}
        self._turns: dict[tuple[int, int, int, int], TurnTables] = {}
        self._keeps: dict[tuple[int, int], tuple[TurnTables, np.ndarray]] = {}

    def _level(self, t: int) -> Level | None:
        if t >= 2 * self.variant.num_boxes:
            return None
        if t not in self._levels:
            self._levels[t] = self.run.load(t)
            if self._levels[t] is None:
                raise InvalidAgentError(
                    f"level {t} of the duel table of {self.variant.name} is gone"
                )
        return self._levels[t]

    def _turn(self, s: VariantState) -> TurnTables:
        if s.num_players != 2:
            raise InvalidStateError(
                f"duel-optimal plays two-player games; this one has {s.num_players} players"
            )
        if s.variant != self.variant:
            raise InvalidStateError(
                f"duel-optimal was built for {self.variant.name}, not {s.variant.name}"
            )
        mine, other = s.cards[s.player], s.cards[1 - s.player]
        i, a = _card_index(self.variant, mine)
        j, b = _card_index(self.variant, other)
        t = i + j
        assert level_layers(t) == (i, j)
        d = mine.total - other.total
        key = (t, a, b, d)
        turn = self._turns.get(key)
        if turn is None:
            if len(self._turns) > 4096:
                self._turns.clear()
            turn = turn_tables(self.run, t, a, b, d, self._level(t + 1))
            self._turns[key] = turn
        return turn

    def _best_keep(self, turn: TurnTables, roll: int, left: int) -> int:
        key = (id(turn), left)
        choices = self._keeps.get(key)
        if choices is None or choices[0] is not turn:
            if len(self._keeps) > 4096:
                self._keeps.clear()
            choices = (turn, turn.keep_choices(left))
            self._keeps[key] = choices
        return int(choices[1][roll])

    def advise(self, state: State) -> list[Advice]:
        """Every legal option with its exact win chance (optimal play after it), best first."""
        s = _decision(state, "duel-optimal")
        turn = self._turn(s)
        roll = D.KEEP_INDEX[s.dice]
        options: list[tuple[Keep | Score, float]] = []
        if s.rolls_left > 0:
            E = turn.keep[s.rolls_left]
            options.extend((k, float(E[D.KEEP_INDEX[k.dice]])) for k in s._keeps)
        boxes = self.variant.boxes
        options.extend((Score(boxes[c]), turn.box[(c, roll)]) for c in turn.open_boxes)
        return with_regrets(options)

    def act(self, state: State, rng: np.random.Generator) -> Keep | Score:
        s = _decision(state, "duel-optimal")
        turn = self._turn(s)
        roll = D.KEEP_INDEX[s.dice]
        left = s.rolls_left
        while left > 0:  # the kernels' choice; a whole roll kept is followed down
            kept = self._best_keep(turn, roll, left)
            if kept != roll:
                return Keep(D.KEEPS[kept]) if left == s.rolls_left else Keep(s.dice)
            left -= 1
        return Score(self.variant.boxes[turn.best_box(roll)])


AGENT_PARAMS = (
    Param(
        "boxes",
        str,
        None,
        "the variant whose table to play (boxes joined by +); default: the game's rules",
        pattern=BOX_LIST,
        accepts="box names joined by +",
    ),
    Param("bonus", bool, False, "with boxes: the variant has the upper bonus"),
    Param(
        "solve",
        bool,
        False,
        "solve the table now when none is on disk (within the solver's size limits)",
    ),
)


def _variant_of(rules: Any, values: Mapping[str, Any]) -> Variant:
    """The variant the agent plays: the rules', checked against ``boxes``/``bonus`` if given."""
    if not isinstance(rules, Variant):
        name = getattr(rules, "name", repr(rules))
        raise InvalidAgentError(
            f"duel-optimal plays a reduced card solved exactly for two players; the full "
            f"{name} card is not solved (about 1e14 values, see "
            "docs/results/yahtzee_two_player.md): play a variant, e.g. rules "
            "yahtzee:boxes=ones+twos+chance,bonus=true"
        )
    if values.get("boxes") is not None:
        try:
            named = variant_rules(
                rules.preset, {"boxes": values["boxes"], "bonus": values["bonus"]}
            )
        except InvalidRulesError as e:
            raise InvalidAgentError(f"duel-optimal: {e}") from None
        if named != rules:
            raise InvalidAgentError(
                f"duel-optimal was asked for {named.name}, but the game is {rules.name}"
            )
    return rules


WEB_MAX_SECONDS = 30.0
"""The longest estimated two-player solve a web request may start (a person waits for it)."""
WEB_MAX_BYTES = 256 << 20
"""The most memory a two-player solve started by a web request may need."""


def solve_limits() -> tuple[int, float]:
    """``(bytes, seconds)``: the largest two-player solve the running code may start. The
    library and the terminal take the solver's own limits (:data:`.duel.MAX_BYTES`,
    :data:`.duel.MAX_SECONDS`); inside a web request
    (:func:`~stratagem.core.tables.no_large_builds`) a person waits, so a variant is
    solved there only within :data:`WEB_MAX_BYTES` and :data:`WEB_MAX_SECONDS`."""
    from stratagem.core.tables import large_builds_allowed
    from stratagem.games.yahtzee.duel import MAX_BYTES, MAX_SECONDS

    if large_builds_allowed():
        return MAX_BYTES, MAX_SECONDS
    return WEB_MAX_BYTES, WEB_MAX_SECONDS


def check_solvable(variant: Variant) -> None:
    """Refuse (:class:`~stratagem.core.errors.InvalidRulesError`, naming the estimate and
    the limits) a variant with no two-player table on disk that is too large to solve
    here and now (:func:`solve_limits`). Cheap: the estimate counts cards, it solves
    nothing."""
    if find_run(variant) is not None:
        return
    from stratagem.games.yahtzee.duel import check_size

    max_bytes, max_seconds = solve_limits()
    try:
        check_size(estimate(variant, _cards(variant)), max_bytes, max_seconds)
    except InvalidRulesError as e:
        if max_seconds == WEB_MAX_SECONDS:
            raise InvalidRulesError(
                f"{e} (a web page's limits: solve it first in the terminal, e.g. "
                "experiments/yahtzee_duel.py, and the page plays it from the table on disk)"
            ) from None
        raise


_SOLVING = threading.Lock()


def solved_run(variant: Variant) -> Run:
    """The ``max``/``max`` run of ``variant``: from disk, or solved now within
    :func:`solve_limits` (one solve at a time in a process; levels another process
    wrote are loaded, not solved again). One :class:`Run` object per variant."""
    run = find_run(variant)
    if run is None:
        with _SOLVING:
            run = find_run(variant)
            if run is None:
                check_solvable(variant)
                max_bytes, max_seconds = solve_limits()
                run = Run(variant, ("max", "max"))
                run.solve(max_bytes=max_bytes, max_seconds=max_seconds)
    return _shared_run(run)


def check_duel_optimal(rules: Any, values: Mapping[str, Any]) -> None:
    """Refuse, before anything is built, rules with no duel table (and no ``solve``, or
    one too large to solve here: :func:`solve_limits`)."""
    variant = _variant_of(rules, values)
    if find_run(variant) is not None:
        return
    if not values.get("solve"):
        est = estimate(variant, _cards(variant))
        raise InvalidAgentError(
            f"no solved two-player table for {variant.name} on disk; solve it with "
            f"duel-optimal:solve=true ({est.values:,} values, about "
            f"{est.bytes_peak / 2**20:,.1f} MiB and {est.seconds:,.1f} s here) or "
            "experiments/yahtzee_duel.py"
        )
    try:
        check_solvable(variant)
    except InvalidRulesError as e:
        raise InvalidAgentError(f"duel-optimal: {e}") from None


def make_duel_optimal(rules: Any, boxes: str | None = None, bonus: bool = False,
                      solve: bool = False) -> Agent:  # fmt: skip
    values = {"boxes": boxes, "bonus": bonus, "solve": solve}
    check_duel_optimal(rules, values)
    variant = _variant_of(rules, values)
    try:
        run = solved_run(variant)
    except StratagemError as e:
        raise InvalidAgentError(f"duel-optimal could not solve {variant.name}: {e}") from None
    return DuelOptimalAgent(run)


@lru_cache(maxsize=4)
def _shared_run_by_key(variant: Variant, track: bool) -> Run:
    return Run(variant, ("max", "max"), track_loss=track)


def _shared_run(run: Run) -> Run:
    """One Run object per variant and process (its cards are built once)."""
    return _shared_run_by_key(run.variant, run.track_loss)


DUEL_OPTIMAL = AgentInfo(
    "duel-optimal",
    "two players on a reduced card (rules yahtzee:boxes=...): the exact win-optimal "
    "strategy, from the solved duel table",
    make_duel_optimal,
    AGENT_PARAMS,
    min_players=2,
    check=check_duel_optimal,
)
"""The registry's entry (added to Yahtzee's ``GAME.agents``)."""
