"""A slow, plain value iteration for small Pig variants (test oracle).

Jacobi sweeps over every state at once until nothing changes by 1e-15, with
none of the solver's staging, ragged tables or numba. Under the catch-up
rule the starter's totals past the goal are kept up to ``goal + extra``
(holding is forced beyond), and the last player's chance to beat a total
comes from its own small recursion.
"""

from __future__ import annotations

from functools import cache

from stratagem.games.pig.rules import PigRules

Key = tuple[int, int, int, int]


def beat(rules: PigRules, j: int, total: int) -> float:
    """P(a player on j, rolling until past ``total``, gets past it in one turn)."""

    @cache
    def reach(d: int) -> float:
        if d <= 0:
            return 1.0
        return sum(reach(d - a) for a in rules.adding_faces) / rules.faces

    return reach(total - j + 1)


def solve_reference(rules: PigRules, extra: int = 24) -> dict[Key, float]:
    """``{(role, i, j, k): P(the player to move wins)}``; role 0 is the starter.

    Without the catch-up rule the two roles get the same values.
    """
    g, f = rules.goal, rules.faces
    catch = rules.catch_up_turn
    pb = len(rules.bust_faces) / f
    keys: list[Key] = [
        (role, i, j, k)
        for role in (0, 1)
        for i in range(g)
        for j in range(g)
        for k in range(g - i + (extra if catch and role == 0 else 0))
    ]
    old = dict.fromkeys(keys, 0.0)

    def ended(role: int, i: int, j: int, total: int) -> float:
        """Value of holding with ``total`` >= goal."""
        return 1.0 - beat(rules, j, total) if catch and role == 0 else 1.0

    def update(role: int, i: int, j: int, k: int) -> float:
        other = 1 - role if catch else role

        def after_roll(t: int) -> float:
            if (role, i, j, t) in old:
                return old[(role, i, j, t)]
            return ended(role, i, j, i + t)  # reached the goal (or the catch-up cap)

        if rules.bust_scores_one:
            bust = ended(role, i, j, i + 1) if i + 1 >= g else 1.0 - old[(other, j, i + 1, 0)]
        else:
            bust = 1.0 - old[(other, j, i, 0)]
        roll = pb * bust + sum(after_roll(k + a) for a in rules.adding_faces) / f
        if k == 0:
            return roll
        hold = ended(role, i, j, i + k) if i + k >= g else 1.0 - old[(other, j, i + k, 0)]
        return max(roll, hold)

    for _ in range(100_000):
        new = {key: update(*key) for key in keys}
        change = max(abs(new[key] - old[key]) for key in keys)
        old = new
        if change < 1e-15:
            break
    return old
