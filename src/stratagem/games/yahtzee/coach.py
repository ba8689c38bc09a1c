"""What the Yahtzee page, the terminal game and the review show: the coach.

:class:`YahtzeeCoaching` is Yahtzee's :class:`~stratagem.core.coaching.Coaching`. It
prices a decision in the unit that fits the game being played:

* **solitaire** (one card): *expected points*, the expected final score of each option
  when the rest of the game is played by the expected-score optimum, exact from the
  solved table (:class:`~.strategies.OptimalStrategy`; 254.59 from the start of a
  ``yahtzee`` game, 248.44 for ``yatzy``);
* **against opponents** (2 to 4 cards): *chance of winning*, the chance of finishing
  ahead of every opponent (a tie counts half) when this turn is played as the option
  says and every player then plays the expected-score optimum (the project's
  win-seeking player, :class:`~.winning.ChanceAdvisor`). The number is exact under
  that assumption: with two or three opponents it is the field's table
  (:func:`~.field.field_win_table`: each opponent's final score from its own optimal
  remaining-score distribution, which are independent, ties at the top shared). The
  expected final score of each option stays beside it as a second column.

Thresholds (the smallest cost of an inaccuracy, a mistake, a blunder):

* expected points: **1, 4, 10**. The optimum's final score has a standard deviation of
  about 60 points, so a loss under a point is invisible in any one game; 4 points is
  the order of giving up a likely small straight's worth of a turn; 10 points is about
  a fifth of the Yahtzee box's 50 or the 35-point upper bonus lost outright.
* chance of winning: **0.5, 2, 5 percentage points**, the same sizes in the other unit:
  between two optimal players the final-score difference has a standard deviation of
  about 85 points, so one expected point moves the chance of winning by about
  ``0.4 / 85`` = 0.5 percentage points near an even game.

The module also holds what the page used to compute itself: the final report's
totals (expected points lost, luck against the optimum's expected score) and the
Monte Carlo panel's rows as plain data.

>>> from stratagem.games.yahtzee.rules import preset
>>> SOLO_UNIT.label(0.5), SOLO_UNIT.label(4.0), WIN_UNIT.label(0.03)
('good', 'mistake', 'mistake')
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from stratagem.core.agent import Advice
from stratagem.core.coaching import Judged, Unit, judged_from_rows
from stratagem.core.errors import IllegalActionError, InvalidStateError, StratagemError
from stratagem.core.game import State
from stratagem.games.yahtzee.distribution import RemainingDistributions
from stratagem.games.yahtzee.rules import UPPER, YahtzeeRules
from stratagem.games.yahtzee.solver import Solution
from stratagem.games.yahtzee.state import CardTotals, Keep, Score, TurnState, YahtzeeState

__all__ = [
    "SOLO_UNIT",
    "WIN_UNIT",
    "CardCoaching",
    "TablesNotReady",
    "YahtzeeCoaching",
    "coaching",
    "final_report",
]


class TablesNotReady(StratagemError):
    """The chance of winning needs the remaining-score tables, which are not loaded and
    may not be built here (a web server builds them in the background, on request)."""


def solved(rules: YahtzeeRules) -> Solution:
    """The solved table of ``rules`` from the process's one memo (the game's spec)."""
    from stratagem.games.yahtzee.spec import solution

    found: Solution = solution(rules)
    return found


def remaining_ready(rules: YahtzeeRules) -> bool:
    """Whether the optimum's remaining-score tables of ``rules`` are loaded or cached."""
    from stratagem.core.tables import TableCache
    from stratagem.games.yahtzee import match

    if rules.name in match._TABLES:
        return True
    path = TableCache().mapped_path(
        match.REMAINING_KIND, rules.fingerprint, match.REMAINING_VERSION
    )
    return path.is_file()


def check_remaining(rules: YahtzeeRules, what: str = "the win-seeking player") -> None:
    """Inside a web request (:func:`~stratagem.core.tables.large_builds_allowed` is False),
    raise :class:`TablesNotReady` unless the tables are loaded or cached; elsewhere (the
    library, the terminal) they are built where they are first needed (minutes, once)."""
    from stratagem.core.tables import large_builds_allowed

    if not large_builds_allowed() and not remaining_ready(rules):
        raise TablesNotReady(
            f"{what} needs the remaining-score tables of {rules.name} (about 1 GB), "
            "which this server has not loaded yet; the page builds them in the background "
            "where the server allows it (POST /api/yahtzee/tables/{rules}); the game goes "
            "on meanwhile"
        )


SOLO_UNIT = Unit("expected points", "pts", (1.0, 4.0, 10.0))
"""Solitaire: the expected final score (see the module doc for the thresholds)."""

WIN_UNIT = Unit("chance of winning", "win %", (0.005, 0.02, 0.05), percent=True)
"""Against opponents: the chance of finishing ahead (a tie counts half)."""

SOLO_NOTE = (
    "Exact: each option's expected final score when the rest of the game is played by "
    "the expected-score optimum (the solved table)."
)
WIN_NOTE_EXACT = (
    "Exact if this turn is played as the option says and both players then play the "
    "expected-score optimum; the expected final score is the second column."
)
WIN_NOTE_FIELD = (
    "Exact if this turn is played as the option says and every player then plays the "
    "expected-score optimum (each opponent's final score from its own card; a tie at the "
    "top shared); the expected final score is the second column."
)
STANDIN_NOTE = (
    "Shown: each option's expected final score (exact, the solved table), because the "
    "chance of winning needs the probability tables, which are not ready on this server "
    "(still building, or the build was cancelled); the chance-of-winning column appears "
    "once they are."
)


def _words(action: Keep | Score, state: TurnState[Any, Any]) -> str:
    """The option in words: what it scores now, or which dice it rerolls."""
    if isinstance(action, Score):
        points, bonus = state.card.options(state.dice)[action.category]
        name = action.category.replace("_", " ")
        extra = f" and a {bonus}-point Yahtzee bonus" if bonus else ""
        return f"score {points} in {name} now{extra}, ending the turn"
    thrown = len(state.dice) - len(action.dice)
    if not action.dice:
        return "reroll all five dice"
    if thrown == 0:
        return "keep all five dice (wastes a roll)"
    kept = " ".join(map(str, action.dice))
    return f"keep {kept} and reroll {thrown} {'die' if thrown == 1 else 'dice'}"


def check_players(players: object) -> int:
    """``players`` if it is a number of players a Yahtzee coach takes (1 to 4)."""
    if isinstance(players, bool) or not isinstance(players, int) or not 1 <= players <= 4:
        raise InvalidStateError(f"Yahtzee's coach takes 1 to 4 players, not {players!r}")
    return players


class CardCoaching:
    """What every Yahtzee coach shows and judges, whatever card it is for: the position
    (:meth:`view`), the rows (:meth:`rows`), a verdict (:meth:`judge`) and the value of
    a position (:meth:`evaluation`). A subclass gives the rules and the position type it
    takes, binds the player count (:meth:`_bind`: unit, note), prices the options
    (:meth:`_priced`) and values a solitaire turn start (:meth:`_solo_start`):
    :class:`YahtzeeCoaching` for a preset's full card, and
    :class:`~.variant_coach.VariantCoaching` for a reduced one.

    ``players`` fixes the unit: 1 is expected points, more is chance of winning (where
    the subclass can price it); ``None`` binds the coach to the player count of the
    first position it is shown, and refuses other counts after.
    """

    unit: Unit
    note: str
    exact: bool
    players: int | None
    name: str
    """The rules' name, as the view shows it."""
    categories: tuple[str, ...]
    upper_bonus_threshold: int
    upper_bonus: int

    def __init__(self, rules: object, state_type: type[TurnState[Any, Any]]) -> None:
        self.rules_object = rules
        """The rules the positions shown must have (a preset's, or a reduced card)."""
        self._state_type = state_type
        self._lock = threading.Lock()  # the advisors' memos are not thread-safe
        self.players = None
        self.unit = SOLO_UNIT
        self.exact = True
        self.note = SOLO_NOTE

    def _bind(self, players: int) -> None:
        """Fix the number of players, and with it the unit, the note and exactness."""
        raise NotImplementedError

    def _check(self, state: State) -> TurnState[Any, Any]:
        if not isinstance(state, self._state_type):
            raise InvalidStateError(f"this coach needs a position on the {self.name} card")
        if state.rules != self.rules_object:
            raise InvalidStateError(f"this coach is for {self.name}, not {state.rules.name}")
        if self.players is None:
            self._bind(state.num_players)
        if state.num_players != self.players:
            raise InvalidStateError(
                f"this coach is for {self.players} player(s), the game has {state.num_players}"
            )
        return state

    def _decision(self, state: State) -> TurnState[Any, Any]:
        s = self._check(state)
        if s.is_terminal():
            raise IllegalActionError("the game is over: there is no decision to price")
        if s.rolling:
            raise IllegalActionError("the dice are to be thrown: there is no decision yet")
        return s

    def _priced(self, s: TurnState[Any, Any]) -> tuple[Sequence[Advice], Sequence[Advice] | None]:
        """Every option's expected final score, best first, and (against opponents, where
        the unit is the chance of winning) every option's chance, best first."""
        raise NotImplementedError

    def _solo_start(self, card: Any) -> float:
        """The expected final score of a solitaire card at the start of a turn."""
        raise NotImplementedError

    @property
    def optimum_expected(self) -> float:
        """The expected-score optimum's expected final score from an empty card."""
        raise NotImplementedError

    def _chance_at_turn_start(self, s: TurnState[Any, Any]) -> float | None:
        """The mover's chance of winning before a turn's first throw, where a table has
        it cheaply (``None``: not said)."""
        return None

    # --- the protocol ------------------------------------------------------------------

    def view(self, state: State) -> dict[str, Any]:
        """Dice, rolls left, whose turn, every card (boxes, upper total and the bonus
        still needed, bonuses, total) and what the dice would score in each open box.
        ``upper_bonus_on``: whether the card pays an upper bonus (a reduced card may not)."""
        s = self._check(state)
        over = s.is_terminal()
        deciding = not over and not s.rolling
        box_points = (
            {name: pts + bonus for name, (pts, bonus) in s.card.options(s.dice).items()}
            if deciding
            else {}
        )
        rounds = len(self.categories)
        return {
            "rules": self.name,
            "categories": list(self.categories),
            "upper": [c for c in self.categories if c in UPPER],
            "upper_bonus_on": self.upper_bonus > 0 and self.upper_bonus_threshold > 0,
            "player": None if over else s.player,
            "over": over,
            "round": None if over else min(len(s.card.filled) + 1, rounds),
            "rounds": rounds,
            "dice": list(s.dice) if deciding else [],
            "rolls_left": s.rolls_left if deciding else 0,
            "cards": [self._card(c) for c in s.cards],
            "box_points": box_points,
            "unit": self.unit.to_json(),
            "note": self.note,
            "exact": self.exact,
        }

    def _card(self, card: CardTotals) -> dict[str, Any]:
        threshold = self.upper_bonus_threshold
        upper_open = [c for c in UPPER if c in self.categories and c not in card.filled]
        return {
            "boxes": dict(zip(self.categories, card.boxes, strict=True)),
            "upper_total": card.upper_total,
            "upper_bonus": card.upper_bonus_points,
            "upper_bonus_threshold": threshold,
            "upper_bonus_needed": max(0, threshold - card.upper_total),
            "upper_bonus_possible": card.upper_total
            + sum(5 * (UPPER.index(c) + 1) for c in upper_open)
            >= threshold,
            "yahtzee_bonus": card.extra_points(),
            "total": card.total,
            "full": card.is_full,
        }

    def rows(self, state: State) -> list[dict[str, Any]]:
        """Every option, best first in the unit, each with its expected final score
        (``expected_score``, exact) and, against opponents, its chance of winning
        (``win_chance``); ``words`` says what the option does."""
        s = self._decision(state)
        with self._lock:
            expected, wins = self._priced(s)
        best_points = expected[0].value
        by_text = {str(a.action): a for a in expected}
        ranked: Sequence[Advice] = wins if wins is not None else expected
        rows = []
        for a in ranked:
            text = str(a.action)
            points = by_text[text].value
            cost = max(0.0, a.regret)
            assert isinstance(a.action, Keep | Score)
            row: dict[str, Any] = {
                "action": text,
                "value": a.value,
                "cost": cost,
                "exact": self.exact,
                "label": self.unit.label(cost),
                "expected_score": points,
                "expected_cost": max(0.0, best_points - points),
                "words": _words(a.action, s),
            }
            if wins is not None:
                row["win_chance"] = a.value
            rows.append(row)
        return rows

    def judge(self, state: State, played: str) -> Judged:
        """The verdict on ``played`` (an action's text): its cost in the unit, the best
        option, and (``extra``) the cost in expected points too."""
        s = self._decision(state)
        rows = self.rows(s)
        texts = {r["action"] for r in rows}
        if played not in texts:
            legal = ", ".join(sorted(texts))
            raise IllegalActionError(f"{played!r} is not an option here; the options are {legal}")
        judged = judged_from_rows(rows, played, self.unit)
        row = next(r for r in rows if r["action"] == played)
        best = rows[0]
        if judged.cost <= 1e-9:
            explanation = f"{played} is the best option ({row['words']})"
        else:
            explanation = (
                f"the best was to {best['words']} ({best['action']}), worth "
                f"{self.amount(judged.cost)} more than {played}"
            )
        return Judged(
            played=judged.played,
            best=judged.best,
            cost=judged.cost,
            exact=judged.exact,
            label=judged.label,
            value_played=judged.value_played,
            value_best=judged.value_best,
            explanation=explanation,
            extra={
                "expected_score": row["expected_score"],
                "expected_cost": row["expected_cost"],
                "words": row["words"],
            },
        )

    def amount(self, cost: float) -> str:
        """A cost in words: '1.3 expected points', '2.0 percentage points of ...'."""
        if self.unit.percent:
            return f"{100 * cost:.1f} percentage points of the chance of winning"
        return f"{cost:.1f} expected points"

    def evaluation(self, state: State, player: int) -> float | None:
        """``player``'s expected final score (in expected points) or chance of winning
        (against opponents) with best play from here; ``None`` where it cannot be said
        cheaply (a throw pending mid-turn; a player not to move among three or more)."""
        s = self._check(state)
        if not 0 <= player < s.num_players:
            raise InvalidStateError(f"player {player} is not at this table of {s.num_players}")
        if s.is_terminal():
            totals = [c.total for c in s.cards]
            if not self.unit.percent:
                return float(totals[player])
            top = max(totals)
            if totals[player] < top:
                return 0.0
            return 1.0 / totals.count(top)
        if not self.unit.percent:
            if s.num_players > 1 and player != s.player:
                return None
            if s.rolling:
                return self._solo_start(s.card) if s.rolls_left == 3 else None
            return float(self.rows(s)[0]["value"])
        if s.rolling:
            chance = self._chance_at_turn_start(s) if s.rolls_left == 3 else None
            if chance is None or player == s.player:
                return chance
            return 1.0 - chance if self.players == 2 else None
        best = float(self.rows(s)[0]["value"])
        if player == s.player:
            return best
        if self.players == 2:
            return 1.0 - best
        return None


class YahtzeeCoaching(CardCoaching):
    """Yahtzee's coach for a preset's full card (see the module doc and :class:`CardCoaching`).

    The solved table is read from the registry's per-process memo; the remaining-score
    tables (about 1 GB, memory-mapped from the cache; minutes to build the first time)
    are opened on the first question that needs them (``tables`` gives them instead:
    tests pass the late-game part).
    """

    def __init__(
        self,
        rules: YahtzeeRules,
        players: int | None = 1,
        solution: Solution | None = None,
        tables: RemainingDistributions | None = None,
        expected_only: bool = False,
    ) -> None:
        super().__init__(rules, YahtzeeState)
        self.expected_only = expected_only
        """Price in expected points whatever the player count: the stand-in
        :meth:`for_now` gives while the chance of winning cannot be priced."""
        self._standin: YahtzeeCoaching | None = None
        if solution is None:
            solution = solved(rules)
        if solution.rules != rules:
            raise InvalidStateError(
                f"the solved table is for {solution.rules.name}, not {rules.name}"
            )
        from stratagem.games.yahtzee.strategies import OptimalStrategy

        self.rules = rules
        self.name = rules.name
        self.categories = rules.categories
        self.upper_bonus_threshold = rules.upper_bonus_threshold
        self.upper_bonus = rules.upper_bonus
        self.solution = solution
        self.optimal = OptimalStrategy(solution)
        self._tables = tables
        self._chance: Any = None
        if players is not None:
            self._bind(players)

    def _bind(self, players: int) -> None:
        self.players = check_players(players)
        self.exact = True  # 3-4 players: the field's table shares ties exactly
        if self.expected_only:
            self.unit, self.note = SOLO_UNIT, SOLO_NOTE if players == 1 else STANDIN_NOTE
            return
        self.unit = SOLO_UNIT if players == 1 else WIN_UNIT
        self.note = (
            SOLO_NOTE if players == 1 else (WIN_NOTE_EXACT if players == 2 else WIN_NOTE_FIELD)
        )

    def for_now(self) -> YahtzeeCoaching:
        """The coach to use at this moment: this one, or, against opponents while the
        remaining-score tables are neither loaded nor cached and may not be built here (a
        web request: a build runs in the background, or was cancelled), its stand-in that
        prices every option in expected points from the solved table alone, so that the
        game and its review go on with the advice that needs no tables (:data:`STANDIN_NOTE`
        says so). Elsewhere (the terminal, the library) the tables are built where first
        needed, so this is the coach itself.

        A renderer asks once per answer and uses the coach it gets for the whole answer
        (rows, unit and note agree even if the tables become ready meanwhile)."""
        from stratagem.core.tables import large_builds_allowed

        if self.expected_only or self.players in (None, 1) or self.tables_ready:
            return self
        if large_builds_allowed():
            return self
        if self._standin is None:
            self._standin = YahtzeeCoaching(
                self.rules, self.players, self.solution, expected_only=True
            )
        return self._standin

    @property
    def tables_ready(self) -> bool:
        """Whether the chance of winning can be priced without building tables now."""
        if (
            self.players == 1
            or self.expected_only
            or self._tables is not None
            or self._chance is not None
        ):
            return True
        return remaining_ready(self.rules)

    def _chance_advisor(self) -> Any:
        if self._chance is None:
            if self._tables is None:
                check_remaining(self.rules, "the chance of winning")
            from stratagem.games.yahtzee.winning import ChanceAdvisor

            self._chance = ChanceAdvisor(self.solution, self._tables)
        return self._chance

    def _priced(self, s: TurnState[Any, Any]) -> tuple[Sequence[Advice], Sequence[Advice] | None]:
        assert isinstance(s, YahtzeeState)
        expected = self.optimal.advise_situation(s.situation())
        if s.num_players == 1 or self.expected_only:
            return expected, None
        return expected, self._chance_advisor().advise_win(s)

    def _solo_start(self, card: Any) -> float:
        return float(card.total) + self.solution.state_value(card.mask, card.upper_total, card.flag)

    @property
    def optimum_expected(self) -> float:
        return self.solution.expected_score


def coaching(rules: Any, players: int | None = None) -> CardCoaching:
    """The registry's factory (``GameSpec.coaching``): the coach for ``players`` cards,
    or (``None``) for as many as the first position it is shown has; a reduced card
    (a :class:`~.duel.Variant`) gets :class:`~.variant_coach.VariantCoaching`."""
    from stratagem.games.yahtzee.duel import Variant

    if isinstance(rules, Variant):
        from stratagem.games.yahtzee.variant_coach import VariantCoaching

        return VariantCoaching(rules, players)
    return YahtzeeCoaching(rules, players)


def final_report(
    coach: CardCoaching, finals: Sequence[int], judged: Sequence[Judged], seat: int = 0
) -> dict[str, Any]:
    """The end-of-game report of one seat: the decisions' total cost, the counts per
    label, and (in expected points, whatever the unit) luck separated from skill:
    ``luck = final - optimum's expected score + expected points lost``, so that
    ``final = optimum + luck - lost``. One decimal is meaningful; the numbers are
    returned unrounded."""
    optimum = coach.optimum_expected
    lost_points = sum(
        float(j.extra.get("expected_cost", j.cost if not coach.unit.percent else 0.0))
        for j in judged
    )
    counts = {label: 0 for label in ("best", "good", "inaccuracy", "mistake", "blunder")}
    for j in judged:
        counts[j.label] += 1
    final = finals[seat]
    report: dict[str, Any] = {
        "final": list(finals),
        "decisions": len(judged),
        "unit": coach.unit.to_json(),
        "total_cost": sum(j.cost for j in judged),
        "expected_points_lost": lost_points,
        "optimum_expected": optimum,
        "luck": final - optimum + lost_points,
        "counts": counts,
    }
    if len(finals) > 1:
        top = max(finals)
        report["result"] = (
            "win" if final == top and finals.count(top) == 1 else "tie" if final == top else "loss"
        )
    return report
