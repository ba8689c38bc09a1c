"""Pig positions for two players (implements :mod:`stratagem.core.game`).

A decision is ``ROLL`` or ``HOLD`` (holding needs a turn total above 0); a
roll leads to a chance node whose outcomes are the faces 1..faces. Reaching
the goal ends the game at once, except for the starting player (player 0)
under the catch-up rule, who may roll on; when player 0 holds at or above the
goal, player 1 takes a last turn and wins only by finishing above player 0.

>>> from stratagem.games.pig.rules import preset
>>> s = PigState.new(preset("pig"))
>>> s.legal_actions()
[<PigAction.ROLL: 0>]
>>> s = s.apply(PigAction.ROLL).apply(5)
>>> s.turn_total, [str(a) for a in s.legal_actions()]
(5, ['roll', 'hold'])
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from stratagem.core.errors import IllegalActionError, InvalidStateError
from stratagem.core.game import CHANCE, TERMINAL
from stratagem.games.pig.rules import PigRules


class PigAction(IntEnum):
    """The two choices; ``str`` gives ``roll`` / ``hold``."""

    ROLL = 0
    HOLD = 1

    def __str__(self) -> str:
        return self.name.lower()


@dataclass(frozen=True)
class PigState:
    """Scores, the player to move, the turn total, and the catch-up target if any."""

    rules: PigRules
    scores: tuple[int, int] = (0, 0)
    player: int = 0
    turn_total: int = 0
    rolling: bool = False
    target: int | None = None
    winner: int | None = None
    turns: int = 0  # turns ended so far, both players
    rolls: int = 0  # rolls that scored in the current turn

    @classmethod
    def new(cls, rules: PigRules, players: int = 2) -> PigState:
        """Both scores 0, player 0 to move (Pig has two players)."""
        if players != 2:
            raise InvalidStateError(f"Pig takes 2 players, got {players}")
        return cls(rules)

    @property
    def num_players(self) -> int:
        return 2

    @property
    def current_player(self) -> int:
        if self.winner is not None:
            return TERMINAL
        return CHANCE if self.rolling else self.player

    @property
    def is_last_turn(self) -> bool:
        """Player 1's catch-up turn against ``target``."""
        return self.target is not None

    def is_terminal(self) -> bool:
        return self.winner is not None

    def returns(self) -> tuple[float, ...]:
        if self.winner is None:
            return (0.0, 0.0)
        return (1.0, 0.0) if self.winner == 0 else (0.0, 1.0)

    def legal_actions(self) -> list[PigAction]:
        if self.rolling or self.winner is not None:
            return []
        return [PigAction.ROLL] if self.turn_total == 0 else [PigAction.ROLL, PigAction.HOLD]

    def chance_key(self) -> tuple[int, int, int]:
        """(player, turns ended so far, rolls made in this turn): the slot of a roll."""
        return (self.player, self.turns, self.rolls)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.rolling or self.winner is not None:
            return []
        p = 1.0 / self.rules.faces
        return [(face, p) for face in range(1, self.rules.faces + 1)]

    def _with(self, **changes: object) -> PigState:
        fields = {
            "rules": self.rules,
            "scores": self.scores,
            "player": self.player,
            "turn_total": self.turn_total,
            "rolling": False,
            "target": self.target,
            "winner": self.winner,
            "turns": self.turns,
            "rolls": self.rolls,
        }
        fields.update(changes)
        if "turn_total" in changes and changes["turn_total"] == 0:
            fields["turns"] = self.turns + 1  # a turn ended
            fields["rolls"] = 0
        return PigState(**fields)  # type: ignore[arg-type]

    def _bank(self, points: int) -> PigState:
        """End the turn with ``points`` added to the mover's score."""
        rules = self.rules
        p = self.player
        scores = list(self.scores)
        scores[p] += points
        total = scores[p]
        if self.target is not None:  # player 1's last turn ends
            return self._with(
                scores=tuple(scores), turn_total=0, winner=1 if total > self.target else 0
            )
        if total >= rules.goal:
            if rules.catch_up_turn and p == 0:
                return self._with(scores=tuple(scores), player=1, turn_total=0, target=total)
            return self._with(scores=tuple(scores), turn_total=0, winner=p)
        return self._with(scores=tuple(scores), player=1 - p, turn_total=0)

    def apply(self, action: object) -> PigState:
        if self.winner is not None:
            raise IllegalActionError("the game is over")
        rules = self.rules
        if self.rolling:
            if (
                isinstance(action, bool)
                or not isinstance(action, int)
                or not (1 <= action <= rules.faces)
            ):
                raise IllegalActionError(f"a roll shows a face 1..{rules.faces}, not {action!r}")
            if action in rules.bust_faces:
                return (
                    self._bank(1)
                    if rules.bust_scores_one
                    else self._with(
                        player=self.player if self.target is not None else 1 - self.player,
                        turn_total=0,
                        winner=0 if self.target is not None else None,
                    )
                )
            turn = self.turn_total + action
            total = self.scores[self.player] + turn
            starter_rolls_on = rules.catch_up_turn and self.player == 0
            won = (
                total > self.target
                if self.target is not None
                else (total >= rules.goal and not starter_rolls_on)
            )
            if won:  # the winning total is banked at once
                scores = list(self.scores)
                scores[self.player] = total
                return self._with(scores=tuple(scores), turn_total=0, winner=self.player)
            return self._with(turn_total=turn, rolls=self.rolls + 1)
        if action == PigAction.ROLL and not isinstance(action, bool):
            return self._with(rolling=True)
        if action == PigAction.HOLD and not isinstance(action, bool):
            if self.turn_total == 0:
                raise IllegalActionError("a turn starts with a roll: cannot hold at turn total 0")
            return self._bank(self.turn_total)
        raise IllegalActionError(f"{action!r} is not a Pig action (roll or hold)")

    def __str__(self) -> str:
        me, opp = self.scores[self.player], self.scores[1 - self.player]
        extra = f", must beat {self.target}" if self.target is not None else ""
        if self.winner is not None:
            return f"player {self.winner} won {self.scores[0]}-{self.scores[1]}"
        return (
            f"player {self.player} to {'roll' if self.rolling else 'move'}: "
            f"score {me}, opponent {opp}, turn total {self.turn_total}{extra}"
        )


def check_position(rules: PigRules, me: int, opp: int, turn: int) -> None:
    """Raise :class:`InvalidStateError` unless (me, opp, turn) can occur before the goal."""
    g = rules.goal
    for label, value in (("my score", me), ("the opponent's score", opp)):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < g:
            raise InvalidStateError(
                f"{label} must be 0..{g - 1} (the game ends at {g}), got {value!r}"
            )
    if isinstance(turn, bool) or not isinstance(turn, int) or turn < 0:
        raise InvalidStateError(f"the turn total must be a whole number >= 0, got {turn!r}")
    steps = set(rules.adding_faces)
    if not _makes(turn, steps):
        raise InvalidStateError(
            f"a turn total of {turn} cannot occur: it is no sum of the faces "
            f"{', '.join(map(str, rules.adding_faces))}"
        )
    score_steps = steps | ({1} if rules.bust_scores_one else set())
    for label, value in (("my score", me), ("the opponent's score", opp)):
        if not _makes(value, score_steps):
            raise InvalidStateError(f"{label} of {value} cannot occur in {rules.name}")


def _makes(total: int, steps: set[int]) -> bool:
    reachable = [True] + [False] * total
    for t in range(1, total + 1):
        reachable[t] = any(t - s >= 0 and reachable[t - s] for s in steps)
    return reachable[total]
