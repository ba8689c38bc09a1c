"""Pig's coach: what the page and the terminal show, priced in the chance of winning.

:class:`PigCoaching` is Pig's :class:`~stratagem.core.coaching.Coaching`: the
picture of a position (:meth:`~PigCoaching.view`), the two options with their
chance of winning (:meth:`~PigCoaching.rows`), the verdict on a decision
(:meth:`~PigCoaching.judge`), what a position is worth (:meth:`~PigCoaching.evaluation`)
and the strategy map (:meth:`~PigCoaching.strategy_map`). Every number is exact,
read from a solved table:

* against a **fixed strategy** (``hold:N``, ``keep-pace``, a rule table: an agent
  whose choice is a function of the position) the coach is the exact **best reply to
  that opponent** (:mod:`stratagem.games.pig.reply`): the chance of winning is the
  chance against the opponent actually chosen, and the hints are the moves that
  maximise it. The optimum's chance (which assumes an optimal opponent) stays beside
  it in every row (``optimal_value``);
* against the optimum, a person, or an agent that is not a fixed strategy (random
  play, a tree search), the coach is the optimum (Neller & Presser 2004): the chance
  of winning if both sides play optimally from here.

The unit is the chance of winning, in percentage points. The labels start at a cost
of **1, 3 and 8 points** (inaccuracy, mistake, blunder), chosen from how rules of
thumb play against the optimum (``experiments/pig_coach_thresholds.py``, 2,000 games
each in pig, seed 2026; docs/results/pig_coach_thresholds.md):

* 91-96% of the decisions of ``hold:20``, ``hold:25`` and ``keep-pace`` cost nothing,
  and the median of the others is 0.2-0.4 points: differences below 1 point are
  noise to a person, so they are "good";
* at 1 point or more are 0.24% of the decisions of keep-pace (Neller & Presser's good
  rule of thumb) and 2.1% of hold:20's: worth a second look;
* at 3 points or more: 0.03% of keep-pace's decisions (one game in 130 has one),
  but one game in four of hold:20's: what a good player does not do;
* at 8 points or more: 0.5% of hold:20's decisions, nearly all of them holds a few
  points short of the goal with the opponent on 70 or more (a sample of 300 games:
  34 of 37), where rolling on to the goal was the chance to win: one decision that
  moves the game by a tenth or more.

>>> from stratagem.games.pig.rules import preset
>>> from stratagem.games.pig.state import PigState
>>> coach = PigCoaching(preset("piglet"), ["human", "hold:1"])
>>> state = PigState(preset("piglet"), turn_total=1)  # heads: you may hold at 1
>>> [(r["action"], round(r["value"], 4)) for r in coach.rows(state)]
[('hold', 0.673), ('roll', 0.6712)]
>>> coach.judge(state, "roll").label
'good'
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from stratagem.core.coaching import Judged, Unit
from stratagem.core.errors import IllegalActionError, InvalidAgentError, InvalidStateError
from stratagem.core.game import CHANCE, State
from stratagem.games.pig.reply import BestReply, best_reply
from stratagem.games.pig.rules import PigRules
from stratagem.games.pig.solver import PigSolution, Policy, table_base
from stratagem.games.pig.state import PigAction, PigState
from stratagem.games.pig.strategies import RuleAgent

__all__ = ["UNIT", "PigCoaching", "coaching", "face_name"]

UNIT = Unit("chance of winning", "win %", (0.01, 0.03, 0.08), percent=True)
"""Pig's unit: a chance of winning; labels from 1, 3 and 8 percentage points (see the
module's docstring for why)."""

HUMAN = "human"
MAX_REPLIES = 4
"""Best replies kept in memory (two tables of 505,000 values each for pig: 8 MB)."""


def face_name(rules: PigRules, face: int) -> str:
    """How a face is called: heads/tails for a coin, else its pips.

    >>> from stratagem.games.pig.rules import preset
    >>> face_name(preset("piglet"), 2), face_name(preset("pig"), 2)
    ('tails', '2')
    """
    if rules.faces == 2:
        return "heads" if face == 1 else "tails"
    return str(face)


_warm: set[tuple[object, ...]] = set()
"""Tables asked for before in this process (so in memory unless a memo dropped them):
a view reads chances only from these, never solving on a light request."""


def _solution(rules: PigRules) -> PigSolution:
    from stratagem.games.pig.spec import solution  # the registry's one memo of tables

    found = solution(rules)
    _warm.add(("optimum", rules))
    return found


def _reply(rules: PigRules, spec: str) -> BestReply:
    found = _solve_reply(rules, spec)
    _warm.add(("reply", rules, spec))
    return found


@lru_cache(maxsize=MAX_REPLIES)
def _solve_reply(rules: PigRules, spec: str) -> BestReply:
    """The best reply to the fixed agent ``spec``, solved once per process and rules."""
    return best_reply(rules, _fixed_agent(rules, spec))


def _fixed_agent(rules: PigRules, spec: str) -> RuleAgent:
    from stratagem.games.pig.spec import GAME

    agent = GAME.make_agent(rules, spec)
    if not isinstance(agent, RuleAgent):
        raise InvalidAgentError(f"{spec} is not a fixed strategy; no best reply is solved")
    return agent


def _is_fixed(rules: PigRules, spec: str) -> bool:
    """Whether the seat's agent chooses by a function of the position (a rule of thumb
    or a rule table): the agents a best reply is solved against."""
    from stratagem.games.pig.spec import GAME

    try:
        info = GAME.agent_info(GAME.check_agent(spec).name)
    except Exception:  # an unknown spec: the session refuses it, the coach just ignores it
        return False
    return info.name in ("hold", "keep-pace", "table")


class PigCoaching:
    """Pig's coaching for one variant and one set of seats (``"human"`` or agent specs).

    When exactly one seat is a fixed strategy and the other a person, the coach is the
    best reply to that strategy (see the module); otherwise the optimum. Tables are
    solved on first use (the optimum in a second or less, a best reply in about one).
    """

    unit = UNIT

    def __init__(self, rules: PigRules, seats: Sequence[object] | None = None) -> None:
        self.rules = rules
        self.seats = [str(s) for s in seats] if seats is not None else [HUMAN, HUMAN]
        if len(self.seats) != 2:
            raise InvalidStateError(f"Pig has two seats, got {len(self.seats)}")
        fixed = [i for i, s in enumerate(self.seats) if s != HUMAN and _is_fixed(rules, s)]
        humans = [i for i, s in enumerate(self.seats) if s == HUMAN]
        self.fixed_seat: int | None = fixed[0] if len(fixed) == 1 and len(humans) == 1 else None
        """The seat whose fixed strategy the coach replies to (``None``: the optimum)."""
        self.against = None if self.fixed_seat is None else self.seats[self.fixed_seat]
        self._policies: dict[tuple[str, bool], Policy] = {}

    # --- the model ---------------------------------------------------------------------

    @property
    def ready(self) -> bool:
        """Whether the tables the coach reads were solved before in this process: a view
        then costs look-ups only. Rows, judge and evaluation solve what is missing."""
        if ("optimum", self.rules) not in _warm:
            return False
        return self.against is None or ("reply", self.rules, self.against) in _warm

    @property
    def solution(self) -> PigSolution:
        return _solution(self.rules)

    @property
    def reply(self) -> BestReply | None:
        return None if self.against is None else _reply(self.rules, self.against)

    def _agent(self) -> RuleAgent:
        assert self.against is not None
        return _fixed_agent(self.rules, self.against)

    def _optimal_values(self, state: PigState) -> dict[PigAction, float]:
        """The mover's chance for each legal option, both playing optimally after."""
        return _option_values(self.solution, state, fixed_mover=False)

    def _values(self, state: PigState) -> dict[PigAction, float]:
        """The mover's chance for each legal option under the coach's model."""
        reply = self.reply
        if reply is None:
            return self._optimal_values(state)
        return _option_values(reply, state, fixed_mover=state.player == self.fixed_seat)

    def evaluation(self, state: State, player: int) -> float | None:
        """``player``'s chance of winning from ``state`` under the coach's model: against
        the fixed seat, the best reply playing; otherwise both playing optimally."""
        s = _pig(state)
        if player not in (0, 1):
            raise InvalidStateError(f"a Pig player is 0 or 1, got {player!r}")
        if s.is_terminal():
            return float(s.returns()[player])
        if s.current_player == CHANCE:
            return self._chance_value(s, player)
        values = self._values(s)
        if self.reply is not None and s.player == self.fixed_seat:
            chosen = _choice(self._agent(), s)
            mover = values[chosen]
        else:
            mover = max(values.values())
        return mover if player == s.player else 1.0 - mover

    def _chance_value(self, s: PigState, player: int) -> float:
        """A roll's worth: the mean over the die's faces of the positions they lead to."""
        total = 0.0
        for face in range(1, self.rules.faces + 1):
            value = self.evaluation(s.apply(face), player)
            assert value is not None  # every Pig position has a value
            total += value
        return total / self.rules.faces

    # --- what renderers show -------------------------------------------------------------

    def describe(self) -> str:
        """One sentence: what the chances shown are, and under which assumption."""
        if self.against is not None:
            return (
                f"Exact: your chance of winning against {self.against}, if you play the "
                f"best reply to it from here (the optimum assumes an optimal opponent; its "
                f"chance is shown beside)."
            )
        others = [s for s in self.seats if s not in (HUMAN, "optimal")]
        if others:
            return (
                f"Exact if both play optimally from here ({others[0]} is not a fixed "
                f"strategy, so the coach is the optimum)."
            )
        return "Exact: the chance of winning if both play optimally from here."

    def view(self, state: State) -> dict[str, Any]:
        """The position as the page and the terminal show it: scores, turn total, who
        is to move, the goal, the die's faces, the catch-up target, each player's chance
        of winning, and the coach's assumption.

        ``chances`` is ``None`` until the coach's tables are in memory (the first
        :meth:`rows` solves them): a view never solves, so that a page's light request
        does not wait a second or more for a table."""
        s = _pig(state)
        r = self.rules
        over = s.is_terminal()
        return {
            "scores": list(s.scores),
            "turn_total": s.turn_total,
            "player": s.player,
            "to_move": None if over else s.current_player,
            "rolling": s.rolling,
            "over": over,
            "winner": s.winner,
            "goal": r.goal,
            "need": [max(0, r.goal - score) for score in s.scores],
            "must_beat": s.target,
            "last_turn": s.is_last_turn and not over,
            "faces": [
                {"face": f, "name": face_name(r, f), "busts": f in r.bust_faces}
                for f in range(1, r.faces + 1)
            ],
            "rules": {
                "name": r.name,
                "description": r.describe(),
                "goal": r.goal,
                "faces": r.faces,
                "bust_faces": list(r.bust_faces),
                "bust_scores_one": r.bust_scores_one,
                "catch_up_turn": r.catch_up_turn,
            },
            "chances": [self.evaluation(s, 0), self.evaluation(s, 1)] if self.ready else None,
            "coach": {
                "against": self.against,
                "against_seat": self.fixed_seat,
                "kind": "best reply" if self.against is not None else "optimum",
                "exact": True,
                "sentence": self.describe(),
            },
            "text": str(s),
        }

    def rows(self, state: State) -> list[dict[str, Any]]:
        """Hold and roll for the player to move, best first (hold first on a tie), each
        with its chance of winning, its cost against the best, its label, what it does
        in words, and (against a fixed strategy) the optimum's chance beside."""
        s = _pig(state)
        if s.current_player < 0:
            raise IllegalActionError("there is no decision to advise on: the game is over")
        values = self._values(s)
        optimal = self._optimal_values(s) if self.reply is not None else None
        order = sorted(values, key=lambda a: (-values[a], a != PigAction.HOLD))
        best = values[order[0]]
        out = []
        for action in order:
            cost = max(0.0, best - values[action])
            row: dict[str, Any] = {
                "action": str(action),
                "value": values[action],
                "cost": cost,
                "exact": True,
                "label": self.unit.label(cost),
                "explanation": self._what(s, action),
            }
            if optimal is not None:
                row["optimal_value"] = optimal[action]
            out.append(row)
        return out

    def judge(self, state: State, played: str) -> Judged:
        """The verdict on ``played`` (``roll`` or ``hold``) in ``state``: its cost in
        chance of winning against the best option, and why the best is best."""
        s = _pig(state)
        rows = self.rows(s)
        by_text = {r["action"]: r for r in rows}
        text = " ".join(str(played).split())
        if text not in by_text:
            raise IllegalActionError(
                f"{played!r} is not a legal decision here; the legal ones are: {', '.join(by_text)}"
            )
        row, best = by_text[text], rows[0]
        cost = float(row["cost"])
        extra: dict[str, Any] = {}
        if "optimal_value" in row:
            extra = {
                "against": self.against,
                "optimal_value_played": row["optimal_value"],
                "optimal_value_best": max(r["optimal_value"] for r in rows),
            }
        return Judged(
            played=text,
            best=str(best["action"]),
            cost=cost,
            exact=True,
            label=self.unit.label(cost),
            value_played=float(row["value"]),
            value_best=float(best["value"]),
            explanation=self._verdict(s, row, best),
            extra=extra,
        )

    def strategy_map(self, state: State, player: int) -> dict[str, Any]:
        """Where the coach rolls and holds for ``player``, by their score (across) and
        turn total (up), with the opponent on their score in ``state``; the fixed
        opponent's own threshold in ``player``'s place when the coach replies to one."""
        s = _pig(state)
        if player not in (0, 1):
            raise InvalidStateError(f"a Pig player is 0 or 1, got {player!r}")
        g = self.rules.goal
        opp = min(s.scores[1 - player], g - 1)
        starter = player == 0
        policy = self._policy(player, starter)
        base = table_base(g)
        roll = []
        for i in range(g):
            start = int(base[i]) + opp * (g - i)
            roll.append([int(x) for x in policy.roll[start : start + g - i]])
        rule = None
        if self.against is not None and player != self.fixed_seat:
            me = np.arange(g, dtype=np.int64)
            rule = [int(x) for x in self._agent().hold_at(me, np.full(g, opp, dtype=np.int64))]
        mine = s.scores[player]
        here = not s.is_terminal() and mine < g and s.player == player
        return {
            "goal": g,
            "player": player,
            "opponent_score": opp,
            "starter": starter,
            "kind": "best reply" if self.against is not None else "optimum",
            "against": self.against,
            "roll": roll,
            "rule_hold_at": rule,
            "me": mine if here else None,
            "turn_total": s.turn_total if here else None,
        }

    # --- inside ----------------------------------------------------------------------------

    def _policy(self, player: int, starter: bool) -> Policy:
        reply = self.reply
        key = ("reply" if reply is not None and player != self.fixed_seat else "optimum", starter)
        if key not in self._policies:
            if key[0] == "reply":
                assert reply is not None
                self._policies[key] = reply.policy(starter)
            else:
                self._policies[key] = self.solution.policy(starter)
        return self._policies[key]

    def _what(self, s: PigState, action: PigAction) -> str:
        r = self.rules
        me = s.scores[s.player]
        if action == PigAction.HOLD:
            if s.is_last_turn:
                return f"holding ends the last turn at {me + s.turn_total}, not past {s.target}"
            total = me + s.turn_total
            ends = " and wins" if total >= r.goal and not r.catch_up_turn else ""
            if total >= r.goal and r.catch_up_turn and s.player == 0:
                ends = f"; the other player gets a last turn to pass {total}"
            return f"holding banks {s.turn_total}: {me} becomes {total} of {r.goal}{ends}"
        busts = " or ".join(face_name(r, f) for f in r.bust_faces)
        loss = "loses" if not r.bust_scores_one else "gives up"
        if s.turn_total == 0:
            return f"every turn starts with a roll; a {busts} ends it at once"
        chance = len(r.bust_faces)
        return (
            f"rolling risks the turn total of {s.turn_total}: a {busts} ({chance} in "
            f"{r.faces}) {loss} it"
        )

    def _verdict(self, s: PigState, row: dict[str, Any], best: dict[str, Any]) -> str:
        against = f" against {self.against}" if self.against is not None else ""
        shown = f"{100 * best['value']:.2f}%"
        if row is best or float(row["cost"]) <= 0.0:
            return f"{row['action']} was best{against} ({shown}): {row['explanation']}"
        return (
            f"{best['action']} ({shown}) was better than {row['action']} "
            f"({100 * row['value']:.2f}%){against}; {best['explanation']}, while "
            f"{row['explanation']}"
        )


def coaching(rules: PigRules, seats: Sequence[object] | None = None) -> PigCoaching:
    """``GameSpec.coaching`` of Pig: the coach of ``rules`` for ``seats`` (the optimum
    when the seats are not given)."""
    return PigCoaching(rules, seats)


# --- values ------------------------------------------------------------------------------


def _pig(state: State) -> PigState:
    if not isinstance(state, PigState):
        raise InvalidStateError(f"the Pig coach needs a Pig state, got {type(state).__name__}")
    return state


def _choice(agent: RuleAgent, s: PigState) -> PigAction:
    if s.is_last_turn:
        return PigAction.ROLL
    me, opp = s.scores[s.player], s.scores[1 - s.player]
    return PigAction[agent.decide(me, opp, s.turn_total, s.player == 0).upper()]


def _option_values(
    values: PigSolution | BestReply, s: PigState, fixed_mover: bool
) -> dict[PigAction, float]:
    """The mover's chance of winning for each legal option of ``s``.

    ``values`` is the optimum or a best reply; ``fixed_mover``: the mover is the
    strategy a best reply was solved against (its values are read from the reply's
    second table). In a catch-up last turn only passing the target wins: holding is 0."""
    if s.current_player < 0:
        raise IllegalActionError("no player is to decide here")
    if s.is_last_turn:
        assert s.target is not None
        roll = values.last_turn_p_win(s.scores[1] + s.turn_total, s.target)
        out = {PigAction.ROLL: roll}
        if s.turn_total:
            out[PigAction.HOLD] = 0.0
        return out
    me, opp = s.scores[s.player], s.scores[1 - s.player]
    starter = s.player == 0
    if fixed_mover:
        assert isinstance(values, BestReply)
        p_roll, p_hold = values.opponent_action_values(me, opp, s.turn_total, starter)
    else:
        p_roll, p_hold = values.action_values(me, opp, s.turn_total, starter)
    options = {PigAction.ROLL: p_roll}
    if p_hold is not None:
        options[PigAction.HOLD] = p_hold
    return options
