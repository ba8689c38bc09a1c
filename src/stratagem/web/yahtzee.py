"""Yahtzee/Yatzy's extras beside the one REST shape (games are played through
``/api/sessions``, :mod:`stratagem.web.play`): the assistant, the tables and their
build, distributions, MCTS, and the coach's verdicts on a session's decisions. The
numbers are the game's own (:mod:`stratagem.games.yahtzee.coach` and the modules
below); nothing is computed here.

Numbers come from the library: expected final scores from the solved table
(:class:`~stratagem.games.yahtzee.strategies.OptimalStrategy`, exact),
P(final >= target) and the chance of finishing ahead from
:class:`~stratagem.games.yahtzee.winning.ChanceAdvisor` (exact given its
assumptions), final-score distributions from
:mod:`stratagem.games.yahtzee.outcomes` (exact), MCTS rows from
:class:`~stratagem.algorithms.mcts.MCTS` (estimated). The remaining-score
tables behind the probabilities take about 1 GB and 1-2.5 minutes to build
the first time; they are built (or loaded from the cache) as a background job
whose progress the page polls.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Request
from pydantic import BaseModel, ConfigDict, Field

from stratagem.core.errors import InvalidStateError, StratagemError
from stratagem.core.tables import TableCache, solved_memo
from stratagem.games.yahtzee.assistant import advisor, situation_state
from stratagem.games.yahtzee.distribution import RemainingDistributions
from stratagem.games.yahtzee.high_score import check_target
from stratagem.games.yahtzee.match import REMAINING_KIND, REMAINING_VERSION, optimal_remaining
from stratagem.games.yahtzee.monte_carlo import OptionEstimate
from stratagem.games.yahtzee.rules import PRESETS, preset
from stratagem.games.yahtzee.solver import Solution
from stratagem.games.yahtzee.spec import solution as preset_solution
from stratagem.games.yahtzee.state import (
    Keep,
    Score,
    Situation,
    parse_action,
)
from stratagem.web.common import (
    ERROR_RESPONSES,
    JobStatus,
    Probability,
    jobs,
    run_heavy,
    run_light,
    settings,
)
from stratagem.web.sessions import ID_PATTERN

# a request never builds the remaining-score tables for the coach (RequestContext runs every
# request under core.tables.no_large_builds): the page starts their build as a background job
# (POST /api/yahtzee/tables/{rules}) and the coach waits for it

router: APIRouter = APIRouter(prefix="/api/yahtzee", tags=["yahtzee"], responses=ERROR_RESPONSES)

RulesName = Literal["yahtzee", "yahtzee-free-joker", "yahtzee-no-bonus", "yatzy"]
BoxName = Literal[
    "ones", "twos", "threes", "fours", "fives", "sixes", "three_of_a_kind", "four_of_a_kind",
    "full_house", "small_straight", "large_straight", "yahtzee", "chance", "one_pair",
    "two_pairs", "yatzy",
]  # fmt: skip
Die = Annotated[int, Field(ge=1, le=6)]
Dice = Annotated[list[Die], Field(min_length=5, max_length=5, description="five dice, 1..6")]
SessionId = Annotated[str, Path(pattern=ID_PATTERN, description="a game session id")]
ActionText = Annotated[
    str,
    Field(
        min_length=4,
        max_length=40,
        description="the CLI's action: 'keep 1 1 4', 'keep -' or 'score <box>'",
        examples=["keep 6 6", "score chance"],
    ),
]
MAX_TARGET = 1600
MAX_SCORE = 1600
SMALL, LARGE = 1.0, 5.0
"""Mistake sizes: a loss below SMALL points is small, at or above LARGE large."""


_LOCK = threading.Lock()
"""Guards the app state's per-app registries (the Monte Carlo jobs)."""


# --- tables ------------------------------------------------------------------------------


def solution(name: str, progress: Any = None) -> Solution:
    """The solved table of a preset (the process's one memo: solved once, cached on disk)."""
    return preset_solution(preset(name), progress)


def _remaining_key(name: str) -> str:
    return f"yahtzee-remaining:{name}"


def _remaining_cached(name: str, cache: TableCache | None = None) -> bool:
    """Whether the remaining-score tables of ``name`` are in ``cache`` (default: the cache
    the server uses)."""
    rules = preset(name)
    cache = cache if cache is not None else TableCache()
    return cache.mapped_path(REMAINING_KIND, rules.fingerprint, REMAINING_VERSION).is_file()


TABLES_LEASE = 120.0
"""Seconds a table build goes on with nobody asking how it is doing (the page asks every
second while it shows the build) before it is stopped as abandoned (:class:`~.common.Jobs`);
generous, as a browser slows the timers of a tab in the background to once a minute."""


def remaining(request: Request, name: str, start: bool = True) -> RemainingDistributions | None:
    """The remaining-score tables if ready; otherwise start loading/building them
    (when allowed) and return ``None``. A build the player cancelled is not started
    again by a question that would use the tables: only the page's own request does
    (``POST /api/yahtzee/tables/{rules}``)."""
    table = jobs(request).result(_remaining_key(name))
    if table is not None:
        assert isinstance(table, RemainingDistributions)
        return table
    if start and jobs(request).status(_remaining_key(name)).state != "cancelled":
        _start_remaining(request, name)
    return None


def _start_remaining(request: Request, name: str) -> JobStatus:
    key = _remaining_key(name)
    status = jobs(request).status(key)
    if status.state in ("building", "ready"):
        return status
    mode = settings(request).tables
    cached = _remaining_cached(name)
    if mode == "off" or (not cached and mode != "build"):
        return status

    def build(progress: Any) -> RemainingDistributions:
        progress(0.0, "solving the expected-score table")
        sol = solution(name)
        if cached:
            progress(0.05, "loading the remaining-score tables from the cache (about 1 GB)")
            table = optimal_remaining(sol)
        else:

            def states(done: int, total: int) -> None:
                progress(
                    0.05 + 0.95 * done / max(total, 1),
                    f"building the remaining-score tables (once; about 1 GB): "
                    f"{done:,} of {total:,} card states",
                )

            progress(0.05, "building the remaining-score tables (once; about 1 GB)")
            table = optimal_remaining(sol, progress=states)
        advisor(name).with_tables(table)
        return table

    return jobs(request).start(key, build, lease=TABLES_LEASE)


def _tables_view(request: Request, name: str) -> TablesView:
    sol: Solution | None = solved_memo().get(("yahtzee", preset(name).fingerprint))
    rem = jobs(request).status(_remaining_key(name))
    return TablesView(
        rules=name,  # type: ignore[arg-type]
        solved=sol is not None,
        expected_score=sol.expected_score if sol is not None else None,
        remaining=rem,
        remaining_cached=rem.state == "ready" or _remaining_cached(name),
        can_build=settings(request).tables == "build",
    )


# --- models ------------------------------------------------------------------------------


class Position(BaseModel):
    """One decision of a real game, as ``stratagem yahtzee advise --batch`` reads it."""

    model_config = ConfigDict(strict=True)  # 0 is not false, false is not 0

    rules: RulesName = "yahtzee"
    dice: Dice
    rolls_left: int = Field(ge=0, le=2, description="throws still allowed this turn (0..2)")
    filled: list[BoxName] = Field(
        default_factory=list, max_length=15, description="the filled boxes (names of the preset)"
    )
    upper: int = Field(0, ge=0, le=105, description="upper-section total (not capped)")
    yahtzee_box: Literal[0, 50] | None = Field(
        None, description="what a filled Yahtzee box holds (American rules only)"
    )
    score: int | None = Field(
        None, ge=0, le=MAX_SCORE, description="points so far, bonuses included"
    )

    def situation(self) -> Situation:
        rules = preset(self.rules)
        for name in self.filled:
            rules.category_index(name)
        if len(set(self.filled)) != len(self.filled):
            raise InvalidStateError("a box is listed twice in filled")
        return Situation(
            rules, tuple(self.dice), self.rolls_left, frozenset(self.filled), self.upper,
            self.yahtzee_box, self.score,
        )  # fmt: skip


class AdviseRequest(Position):
    target: int | None = Field(
        None, ge=0, le=MAX_TARGET, description="also price options by P(final score >= target)"
    )


class OptionRow(BaseModel):
    action: str
    value: float = Field(description="expected final score (exact)")
    regret: float = Field(ge=0, description="best option's value minus this one's")
    p_target: Probability | None = Field(
        None, description="P(final >= target): exact, when the tables are ready"
    )


class AdviceView(BaseModel):
    rules: RulesName
    options: list[OptionRow]
    target: int | None = None
    target_note: str = ""
    tables: JobStatus


class DistributionRequest(Position):
    action: ActionText | None = Field(None, description="the option; the best when omitted")


class DistributionView(BaseModel):
    action: str
    exact: bool = True
    mean: float
    sd: float
    low: int
    p: list[Probability] = Field(description="p[i] = P(final score = low + i)")
    p_at_least: Probability | None = None
    target: int | None = None


class DistributionRequestT(DistributionRequest):
    target: int | None = Field(None, ge=0, le=MAX_TARGET)


class MctsRequest(Position):
    simulations: int = Field(2000, ge=10, le=20_000, description="server-capped")
    c: float = Field(0.71, ge=0, le=10)
    rollout: Literal["random", "greedy"] = "greedy"
    seed: int = Field(1, ge=0, le=2**31 - 1)


class MctsView(BaseModel):
    rules: RulesName
    simulations: int
    rollout: str
    method: str = Field(description="what the panel computes, in one sentence")
    min_playouts: int = Field(description="playouts each of two options needs to be compared")
    search_best: str
    exact_best: str
    exact_best_value: float
    pick_cost: float = Field(description="exact points the search's pick gives up")
    rows: list[OptionEstimate] = Field(description="per option, the search's best first")


class TablesView(BaseModel):
    rules: RulesName
    solved: bool
    expected_score: float | None
    remaining: JobStatus
    remaining_cached: bool
    can_build: bool


class PresetView(BaseModel):
    name: RulesName
    family: Literal["yahtzee", "yatzy"]
    categories: list[str]
    upper_bonus: int
    upper_bonus_threshold: int
    yahtzee_bonus: int
    joker: str
    yahtzee_box: str


def _solved(rules: str) -> bool:
    """Whether the preset's table is loaded: requests then cost look-ups (the light pool);
    before, the first one solves or loads it (the heavy pool)."""
    return ("yahtzee-assistant", preset(rules).fingerprint) in solved_memo()


# --- endpoints ---------------------------------------------------------------------------


@router.get("/presets")
def presets() -> list[PresetView]:
    """The rule presets and their score cards."""
    return [
        PresetView(
            name=name,  # type: ignore[arg-type]
            family=r.family,
            categories=list(r.categories),
            upper_bonus=r.upper_bonus,
            upper_bonus_threshold=r.upper_bonus_threshold,
            yahtzee_bonus=r.yahtzee_bonus,
            joker=r.joker,
            yahtzee_box=r.yahtzee_category,
        )
        for name, r in PRESETS.items()
    ]


@router.get("/tables/{rules}")
def tables(request: Request, rules: RulesName) -> TablesView:
    """Whether the tables of a preset are ready (the page polls this while they build)."""
    return _tables_view(request, rules)


class PrepareTables(BaseModel):
    """What to prepare (a JSON body: no other site can start a build in a user's name)."""

    model_config = ConfigDict(strict=True)  # 0 is not false, false is not 0

    remaining: bool = Field(True, description="also load or build the remaining-score tables")


@router.post("/tables/{rules}")
async def prepare_tables(request: Request, rules: RulesName, body: PrepareTables) -> TablesView:
    """Solve the preset (seconds) and start loading or building its remaining-score
    tables in the background (refused quietly when the server does not build them)."""
    if not _solved(rules):
        await run_heavy(advisor, rules)
    if body.remaining:
        _start_remaining(request, rules)
    return _tables_view(request, rules)


@router.delete("/tables/{rules}")
def cancel_tables(request: Request, rules: RulesName) -> TablesView:
    """Stop the build of a preset's remaining-score tables (its half-written cache file is
    removed and its memory freed as the build unwinds, within a second or so); the
    game goes on with the advice that needs no tables. A build that has ended is left as
    it is; ``POST`` starts it again."""
    jobs(request).cancel(_remaining_key(rules), "cancelled by the player")
    return _tables_view(request, rules)


def _advise(request: Request, pos: Position, target: int | None) -> AdviceView:
    sit = pos.situation()
    adv = advisor(pos.rules)
    options = adv.advise(sit)
    p_target: dict[str, float] = {}
    note = ""
    status = jobs(request).status(_remaining_key(pos.rules))
    if target is not None:
        table = remaining(request, pos.rules)
        if table is None:
            status = jobs(request).status(_remaining_key(pos.rules))
            note = "P(final >= target) needs the remaining-score tables: " + (
                "not built on this server" if status.state == "missing" else status.state
            )
        else:
            adv.with_tables(table)
            assert adv.chance is not None
            with adv.lock:
                chances = adv.chance.advise_target(sit, target)
            p_target = {str(a.action): a.value for a in chances}
            note = (
                "exact: the rest of this turn played for the target, later turns by the "
                "expected-score optimum"
            )
            status = jobs(request).status(_remaining_key(pos.rules))
    return AdviceView(
        rules=pos.rules,
        options=[
            OptionRow(
                action=str(a.action),
                value=a.value,
                regret=max(a.regret, 0.0),
                p_target=p_target.get(str(a.action)),
            )
            for a in options
        ],
        target=target,
        target_note=note,
        tables=status,
    )


@router.post("/advise")
async def advise(request: Request, body: AdviseRequest) -> AdviceView:
    """The assistant: every option of a position with its expected final score and,
    with ``target``, P(final >= target)."""
    _check_target(body.rules, body.target)
    if _solved(body.rules):
        return await run_light(_advise, request, body, body.target)
    return await run_heavy(_advise, request, body, body.target)


def _check_target(rules: str, target: int | None) -> None:
    """A target outside 1..the rules' highest final score is refused (a 400 naming it)."""
    if target is not None:
        check_target(target, preset(rules))


def _distribution(request: Request, body: DistributionRequestT) -> DistributionView:
    sit = body.situation()
    adv = advisor(body.rules)
    table = remaining(request, body.rules)
    if table is None:
        status = jobs(request).status(_remaining_key(body.rules))
        raise StratagemError(
            "final-score distributions need the remaining-score tables, which are not ready "
            f"({'not built on this server' if status.state == 'missing' else status.state})"
        )
    adv.with_tables(table)
    assert adv.outcomes is not None
    action: Keep | Score
    if body.action is None:
        best = adv.advise(sit)[0].action
        assert isinstance(best, Keep | Score)
        action = best
    else:
        action = parse_action(body.action)
    with adv.lock:
        dist = adv.outcomes.final_score(sit, action)
    return DistributionView(
        action=str(action),
        mean=dist.mean,
        sd=dist.sd,
        low=dist.low,
        p=[float(x) for x in dist.pmf],
        p_at_least=dist.p_at_least(body.target) if body.target is not None else None,
        target=body.target,
    )


@router.post("/distribution")
async def distribution(request: Request, body: DistributionRequestT) -> DistributionView:
    """The exact final-score distribution of one option (the best when ``action`` is
    omitted), playing the expected-score optimum afterwards."""
    _check_target(body.rules, body.target)
    return await run_heavy(_distribution, request, body)


def _mcts(
    request: Request,
    body: MctsRequest,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> MctsView:
    from stratagem.games.yahtzee.monte_carlo import estimate_options

    cap = settings(request).max_mcts_sims
    if body.simulations > cap:
        raise StratagemError(f"at most {cap} simulations per search on this server")
    sit = body.situation()
    exact = {str(a.action): a.value for a in advisor(body.rules).advise(sit)}
    report = estimate_options(
        situation_state(sit), exact, simulations=body.simulations, c=body.c,
        rollout=body.rollout, seed=body.seed, progress=progress, cancelled=cancelled,
    )  # fmt: skip
    return MctsView(
        rules=body.rules, simulations=body.simulations, rollout=body.rollout,
        method=report.method, min_playouts=report.min_playouts,
        search_best=report.search_best, exact_best=report.exact_best,
        exact_best_value=report.exact_best_value, pick_cost=report.pick_cost, rows=report.rows,
    )  # fmt: skip


@router.post("/mcts")
async def mcts(request: Request, body: MctsRequest) -> MctsView:
    """Monte Carlo tree search from a position: per option the mean final score of its
    simulations, SE, SD, n, a histogram, and whether it is statistically tied with the
    best (estimated; the exact expected score is beside it). With progress and a cancel:
    ``POST /api/yahtzee/mcts/jobs``."""
    return await run_heavy(_mcts, request, body)


# --- verdicts of a session (the one REST shape's games, web/play.py) -------------------


_VERDICTS: OrderedDict[str, dict[str, Any]] = OrderedDict()
_VERDICTS_LOCK = threading.Lock()
MAX_VERDICTS = 4096
"""Verdicts remembered, keyed by the game's deal and the decisions up to the one judged."""


class VerdictsView(BaseModel):
    """The coach's verdicts on the person's decisions so far (the page's feedback line
    and running totals); each is :meth:`~stratagem.core.coaching.Judged.to_json` with the
    decision number. ``report`` (when the game is over): luck against skill in expected
    points, :func:`stratagem.games.yahtzee.coach.final_report`."""

    unit: dict[str, Any]
    note: str
    verdicts: list[dict[str, Any]]
    total_cost: float
    report: dict[str, Any] | None


def _verdicts(request: Request, sid: str) -> VerdictsView:
    from stratagem.games.yahtzee.coach import CardCoaching, final_report
    from stratagem.games.yahtzee.state import TurnState
    from stratagem.web.play import open_session

    with open_session(request, sid) as play:
        session = play.session
        coach = play.coaching_now  # in expected points while the tables are not ready
        if session.game.name != "yahtzee" or not isinstance(coach, CardCoaching):
            raise InvalidStateError(f"game {sid} is not a Yahtzee game")
        texts = session.decisions()
        head = f"{session.rules}|{session.seed}|{len(session.seats)}|{coach.unit.name}|"
        out: list[dict[str, Any]] = []
        judged = []
        for j in session.human_decisions():
            key = head + "\n".join(texts[: j + 1])
            with _VERDICTS_LOCK:
                hit = _VERDICTS.get(key)
            if hit is None:
                verdict = coach.judge(session.state_at(j), texts[j])
                hit = {"decision": j, "judged": verdict, **verdict.to_json()}
                with _VERDICTS_LOCK:
                    _VERDICTS[key] = hit
                    while len(_VERDICTS) > MAX_VERDICTS:
                        _VERDICTS.popitem(last=False)
            judged.append(hit["judged"])
            out.append({k: v for k, v in hit.items() if k != "judged"})
        report = None
        if session.over:
            state = session.state
            assert isinstance(state, TurnState)
            seat = next((i for i, s in enumerate(session.seats) if s.human), 0)
            report = final_report(coach, [c.total for c in state.cards], judged, seat)
        return VerdictsView(
            unit=coach.unit.to_json(),
            note=coach.note,
            verdicts=out,
            total_cost=sum(j.cost for j in judged),
            report=report,
        )


@router.get("/sessions/{sid}/verdicts")
async def verdicts(request: Request, sid: SessionId) -> VerdictsView:
    """The coach's verdict on each decision of the person in game ``sid`` (a game of
    ``/api/sessions``), in the game's unit, and the final report once it is over."""
    return await run_heavy(_verdicts, request, sid)


# the panel's search jobs (progress, cancel) add their routes to ``router``
import stratagem.web.yahtzee_mc  # noqa: E402, F401
