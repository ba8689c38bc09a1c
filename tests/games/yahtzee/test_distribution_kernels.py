"""The remaining-score build's one-pass turn outcomes (``_dist_kernels.fast_outcomes``)
against the general ``state_outcomes`` (the policy's choices, then the outcomes pushed
through them), which the high-score build and the older tables use."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from numba import njit

from stratagem.games.yahtzee import _dist_kernels as DK
from stratagem.games.yahtzee.distribution import POLICIES, _Kernels
from stratagem.games.yahtzee.solver import Solution, reachable_states


@njit(cache=False)
def _differences(pid, V, V0, states, R):  # type: ignore[no-untyped-def]
    """How many states' outcome lists differ in length or in any box, points, chance
    (compared with ==, so to the last bit), upper total or flag."""
    ncat = R.score.shape[0]
    ws = DK.workspace(ncat)
    tw = DK.turn_work(ncat)
    bad = 0
    for i in range(states.shape[0]):
        mask, u, y = states[i, 0], states[i, 1], states[i, 2]
        n, oc, ot, op, onu, ony = DK.state_outcomes(pid, V, V0, mask, u, y, R, ws)
        m = DK.fast_outcomes(pid, V, V0, mask, u, y, R, tw)
        fc, ft, fp, fnu, fny = DK.listed(tw)
        if m != n:
            bad += 1
            continue
        for k in range(n):
            if (oc[k] != fc[k] or ot[k] != ft[k] or op[k] != fp[k] or onu[k] != fnu[k]
                    or ony[k] != fny[k]):  # fmt: skip
                bad += 1
                break
    return bad


@pytest.mark.parametrize("name", ["yahtzee", "yatzy", "yahtzee-free-joker"])
@pytest.mark.parametrize("policy", list(POLICIES))
def test_one_pass_outcomes_equal_the_general_ones_to_the_bit(
    solved: Callable[[str], Solution], name: str, policy: str
) -> None:
    solution = solved(name)
    k = _Kernels(solution, POLICIES[policy])
    layers = reachable_states(solution.rules, solution.arrays)
    # every 61st state of every layer but the full card: all numbers of open boxes,
    # upper totals and flags, five of a kind with and without the joker rules
    states = np.ascontiguousarray(np.concatenate(layers[:-1])[::61])
    assert len(states) > 1000
    assert _differences(k.pid, solution.values, k.V0, states, k.R) == 0
