"""Pig rule sets: the die (or coin), which faces bust, the goal, and two options.

Every non-busting face adds its number of pips to the turn total; a coin is a
two-faced die whose face 1 (heads) adds one point and face 2 (tails) busts.
A turn starts with a compulsory roll; after that the player may roll again or
hold at any time.

>>> r = preset("pig")
>>> r.goal, r.faces, r.bust_faces, r.adding_faces
(100, 6, (1,), (2, 3, 4, 5, 6))
>>> preset("piglet").adding_faces
(1,)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace

from stratagem.core.errors import InvalidRulesError, look_up
from stratagem.core.tables import fingerprint

MAX_GOAL = 400
"""Largest goal accepted: the table holds goal**2 * (goal + 1) / 2 states (256 MB at 400)."""

MAX_FACES = 100


@dataclass(frozen=True)
class PigRules:
    """One Pig variant. Use :func:`preset` and :meth:`with_options` to make one.

    ``bust_scores_one``: a bust still banks one point (this removes every cycle
    from the game). ``catch_up_turn``: when the starting player holds at or
    above the goal, the other player gets one last turn and wins only by
    finishing strictly above the starter's total, so the starter may roll on
    past the goal to set a higher bar. When the second player reaches the goal
    the game ends at once.
    """

    name: str
    goal: int
    faces: int
    bust_faces: tuple[int, ...]
    bust_scores_one: bool = False
    catch_up_turn: bool = False

    def __post_init__(self) -> None:
        for label, value in (("goal", self.goal), ("faces", self.faces)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidRulesError(f"{label} must be a whole number, got {value!r}")
        if self.goal < 1:
            raise InvalidRulesError(f"the goal must be at least 1, got {self.goal}")
        if self.goal > MAX_GOAL:
            raise InvalidRulesError(
                f"the goal must be at most {MAX_GOAL} (the table grows with goal**3), "
                f"got {self.goal}"
            )
        if not 2 <= self.faces <= MAX_FACES:
            raise InvalidRulesError(f"the die needs 2..{MAX_FACES} faces, got {self.faces}")
        busts = tuple(self.bust_faces)
        if not busts:
            raise InvalidRulesError("at least one face must bust (otherwise there is no risk)")
        for face in busts:
            if isinstance(face, bool) or not isinstance(face, int):
                raise InvalidRulesError(f"a bust face must be a whole number, got {face!r}")
            if not 1 <= face <= self.faces:
                raise InvalidRulesError(
                    f"bust face {face} is not on a {self.faces}-faced die (faces 1..{self.faces})"
                )
        if len(set(busts)) != len(busts):
            raise InvalidRulesError(f"bust faces listed twice: {list(busts)}")
        if len(busts) == self.faces:
            raise InvalidRulesError("every face busts: no turn could ever score")
        object.__setattr__(self, "bust_faces", tuple(sorted(busts)))

    @property
    def adding_faces(self) -> tuple[int, ...]:
        """The faces that add their pips to the turn total."""
        return tuple(f for f in range(1, self.faces + 1) if f not in self.bust_faces)

    @property
    def bust_probability(self) -> float:
        return len(self.bust_faces) / self.faces

    @property
    def num_states(self) -> int:
        """States (i, j, k) with i, j < goal and i + k < goal, per table."""
        g = self.goal
        return g * g * (g + 1) // 2

    @property
    def fingerprint(self) -> str:
        described = asdict(self)
        del described["name"]
        described["bust_faces"] = list(self.bust_faces)
        return fingerprint(described)

    def with_options(
        self,
        goal: int | None = None,
        faces: int | None = None,
        bust_faces: tuple[int, ...] | list[int] | None = None,
        bust_scores_one: bool | None = None,
        catch_up_turn: bool | None = None,
    ) -> PigRules:
        """A copy with some options changed (``None`` keeps the preset's value).

        >>> preset("pig").with_options(goal=20).goal
        20
        """
        changes: dict[str, object] = {}
        if goal is not None:
            changes["goal"] = goal
        if faces is not None:
            changes["faces"] = faces
        if bust_faces is not None:
            changes["bust_faces"] = tuple(bust_faces)
        if bust_scores_one is not None:
            changes["bust_scores_one"] = bust_scores_one
        if catch_up_turn is not None:
            changes["catch_up_turn"] = catch_up_turn
        if not changes:
            return self
        return replace(self, **changes)  # type: ignore[arg-type]

    def describe(self) -> str:
        """One line for people: ``pig: d6, 1 busts, goal 100``."""
        die = "coin" if self.faces == 2 else f"d{self.faces}"
        busts = ",".join(map(str, self.bust_faces))
        extras = [
            x
            for x, on in (
                ("a bust scores one", self.bust_scores_one),
                ("catch-up turn", self.catch_up_turn),
            )
            if on
        ]
        verb = "busts" if len(self.bust_faces) == 1 else "bust"
        return f"{self.name}: {die}, {busts} {verb}, goal {self.goal}" + "".join(
            f", {x}" for x in extras
        )


PRESETS: dict[str, PigRules] = {
    # Neller & Presser (2004), "Optimal Play of the Dice Game Pig".
    "pig": PigRules("pig", goal=100, faces=6, bust_faces=(1,)),
    # The TV-show version: a 6 busts, 1..5 add, goal 50.
    "pig-raab": PigRules("pig-raab", goal=50, faces=6, bust_faces=(6,)),
    # A coin: heads (face 1) adds one point, tails (face 2) busts.
    "piglet": PigRules("piglet", goal=10, faces=2, bust_faces=(2,)),
    "coin-3": PigRules("coin-3", goal=3, faces=2, bust_faces=(2,)),
}
DEFAULT_PRESET = "pig"


def preset(name: str = DEFAULT_PRESET) -> PigRules:
    """The named variant; an unknown name raises :class:`InvalidRulesError`."""
    return look_up(PRESETS, name, "Pig rules", "presets")
