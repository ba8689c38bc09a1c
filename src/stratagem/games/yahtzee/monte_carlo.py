"""The assistant's Monte Carlo panel: every option of a position estimated by MCTS, set
beside the exact table.

The method is the Monte Carlo tree search of the report whose Yahtzee experiment
``docs/results/mcts_yahtzee.md`` repeats (UCT over decision and chance nodes,
:mod:`stratagem.algorithms.mcts`, with random or greedy playouts). Its numbers are
estimates: the mean final score of the simulations through each option, which
follow the playout policy after the tree's edge, so they sit below the optimum's
exact expected score. Each option is therefore reported with its distance from the
exact value of the same option, and two options are compared (called tied or not)
only once each has :data:`MIN_PLAYOUTS` simulations: UCT spends few simulations on
options it thinks weak, and a handful of playouts cannot tell anything apart.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Literal

from stratagem.core.errors import StratagemError

if TYPE_CHECKING:
    from stratagem.games.yahtzee.state import YahtzeeState

MIN_PLAYOUTS = 100
"""Simulations an option needs, and the best needs, before the two are compared."""

ALPHA = 0.05
"""Welch's t-test level: an option is tied with the best unless p < ALPHA."""

METHOD = (
    "Monte Carlo tree search (UCT with chance nodes, the method of the report's Yahtzee "
    "experiment repeated in docs/results/mcts_yahtzee.md): the mean final score of the "
    "simulations through each option, with {rollout} playouts after the tree; estimated, "
    "not exact."
)

Verdict = Literal["best", "tied", "worse", "too few"]


class SearchCancelled(StratagemError):
    """The search was cancelled (by its user, or because nobody was waiting for it)."""


@dataclass(frozen=True)
class OptionEstimate:
    """One option: the search's estimate beside the exact expected final score.

    The web API answers with these rows as they are (pydantic reads a dataclass, and the
    attribute docstrings below become the field descriptions of its schema), so the
    page's row and the game's row are one declaration.
    """

    __pydantic_config__: ClassVar[Mapping[str, bool]] = {"use_attribute_docstrings": True}

    action: str
    mean: float | None
    """mean final score of the simulations through the option (None if never tried)"""
    se: float | None
    sd: float | None
    n: int
    histogram: dict[int, int]
    verdict: Verdict
    """against the search's best: tied (Welch 5%), worse, or too few playouts (either has
    fewer than min_playouts) to compare"""
    tied_with_best: bool
    """verdict is best or tied"""
    exact_value: float
    """the option's exact expected final score"""
    distance: float | None
    """mean - exact_value: how far the estimate is from the exact answer (None if never
    tried)"""


@dataclass(frozen=True)
class MonteCarloReport:
    rows: list[OptionEstimate]
    simulations: int
    rollout: str
    c: float
    min_playouts: int
    method: str
    search_best: str
    exact_best: str
    exact_best_value: float
    pick_cost: float
    """Exact expected points the search's pick gives up against the exact best (0 if same)."""


def _verdict(best: OptionEstimate | None, mean: float, sd: float | None, n: int) -> Verdict:
    if best is None:
        return "best"
    if n < MIN_PLAYOUTS or best.n < MIN_PLAYOUTS or sd is None or best.sd is None:
        return "too few"
    from scipy import stats  # on first use: importing scipy.stats costs start-up time

    assert best.mean is not None
    if sd == 0 and best.sd == 0:
        return "tied" if mean == best.mean else "worse"
    _t, p = stats.ttest_ind_from_stats(best.mean, best.sd, best.n, mean, sd, n, equal_var=False)
    return "tied" if p >= ALPHA else "worse"


def estimate_options(
    state: YahtzeeState,
    exact: Mapping[str, float],
    *,
    simulations: int,
    c: float = 0.71,
    rollout: str = "greedy",
    seed: int = 1,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> MonteCarloReport:
    """Search ``state`` with MCTS and report every option beside ``exact`` (the exact
    expected final score of each option, by its action text).

    ``progress(done, simulations)`` is called as the search goes; if ``cancelled()``
    turns true the search stops with :class:`SearchCancelled`.
    """
    # imported here: the tree search and the compiled playouts (numba) load on first use
    from stratagem.algorithms.mcts import MCTS
    from stratagem.games.yahtzee.rollout import rollout as compiled_rollout

    if simulations < 1:
        raise StratagemError(f"simulations must be at least 1, got {simulations}")

    def tick(done: int) -> None:
        if cancelled is not None and cancelled():
            raise SearchCancelled(f"the search was cancelled after {done} simulations")
        if progress is not None:
            progress(done, simulations)

    agent = MCTS(c, simulations, rollout, seed, rollout_fn=compiled_rollout, tick=tick)
    found = agent.advise(state)
    if progress is not None:
        progress(simulations, simulations)
    rows: list[OptionEstimate] = []
    for a in found:
        action = str(a.action)
        if action not in exact:
            raise StratagemError(f"no exact value for the option {action!r}")
        mean = None if not a.n or math.isnan(a.value) else a.value
        n = a.n or 0
        best = rows[0] if rows else None
        verdict: Verdict = "too few" if mean is None else _verdict(best, mean, a.sd, n)
        rows.append(
            OptionEstimate(
                action=action,
                mean=mean,
                se=a.se,
                sd=a.sd,
                n=n,
                histogram=dict(a.histogram or {}),
                verdict=verdict,
                tied_with_best=verdict in ("best", "tied"),
                exact_value=exact[action],
                distance=None if mean is None else mean - exact[action],
            )
        )
    exact_best = max(exact, key=lambda k: exact[k])
    return MonteCarloReport(
        rows=rows,
        simulations=simulations,
        rollout=rollout,
        c=c,
        min_playouts=MIN_PLAYOUTS,
        method=METHOD.format(rollout=rollout),
        search_best=rows[0].action,
        exact_best=exact_best,
        exact_best_value=exact[exact_best],
        pick_cost=exact[exact_best] - exact[rows[0].action],
    )
