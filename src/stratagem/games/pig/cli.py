"""``stratagem pig ...``: solve, value, evaluate, simulate, rules of thumb, play.

Every command takes the same rule options: ``--rules`` picks a preset and its rule
parameters (``pig:goal=50,faces=8,catch_up_turn=true``, read by the registry as the
arena reads them); the older flags ``--goal``, ``--faces``, ``--bust``,
``--bust-scores-one`` and ``--catch-up-turn`` (hidden) still change it.
"""

from __future__ import annotations

import time
from typing import Annotated, Any

import typer
from rich.console import Console

from stratagem.cli_options import (
    AiOpt,
    JsonOpt,
    OptionalSeedOpt,
    RulesOpt,
    SeedOpt,
    emit_json,
    option_group,
)
from stratagem.cli_progress import progress_reporter
from stratagem.cli_types import GAMES_MAX
from stratagem.core.errors import InvalidAgentError, InvalidRulesError
from stratagem.core.registry import make_agent
from stratagem.core.series import run_series
from stratagem.core.stats import finite_or_none
from stratagem.games.pig.rules import DEFAULT_PRESET, MAX_FACES, MAX_GOAL, PigRules
from stratagem.games.pig.solver import PigSolution, evaluate, solve
from stratagem.games.pig.spec import GAME
from stratagem.games.pig.strategies import MatchResult, OptimalAgent, RuleAgent, agent_policies
from stratagem.games.pig.thumb import MAX_ROWS

app = typer.Typer(help="Pig and its variants.", no_args_is_help=True)
out = Console(highlight=False, emoji=False)

GoalOpt = Annotated[
    int | None, typer.Option("--goal", min=1, max=MAX_GOAL, hidden=True, help="Old form of goal=.")
]
FacesOpt = Annotated[
    int | None,
    typer.Option("--faces", min=2, max=MAX_FACES, hidden=True, help="Old form of faces=."),
]
BustOpt = Annotated[
    str | None, typer.Option("--bust", hidden=True, help="Old form of bust_faces= (1,2 here).")
]
BsoOpt = Annotated[
    bool | None,
    typer.Option(
        "--bust-scores-one/--no-bust-scores-one", hidden=True, help="Old form of bust_scores_one="
    ),
]
CatchOpt = Annotated[
    bool | None,
    typer.Option(
        "--catch-up-turn/--no-catch-up-turn", hidden=True, help="Old form of catch_up_turn=."
    ),
]
STRATEGIES = ", ".join(a.usage() for a in GAME.agents.values() if a.name not in ("random", "mcts"))

AgentAOpt = Annotated[str, typer.Option("--a", help=f"Strategy A: {STRATEGIES}.")]
AgentBOpt = Annotated[
    str | None,
    typer.Option("--b", help="Strategy B (default hold:20, or hold at the goal if it is less)."),
]


def _default_b(rules: PigRules, b: str | None) -> str:
    """B's spec: ``hold:20`` unless given, at most the goal (a hold past it is refused)."""
    return b if b is not None else f"hold:{min(20, rules.goal)}"


def _policy_agent(rules: PigRules, spec: str) -> RuleAgent | OptimalAgent:
    """An agent with a fixed policy (exact evaluation and the compiled simulation need one)."""
    agent = make_agent(GAME, rules, spec)
    if not isinstance(agent, RuleAgent | OptimalAgent):
        raise InvalidAgentError(f"{spec} has no fixed policy to evaluate; use one of: {STRATEGIES}")
    return agent


def make_rules(
    rules: str,
    goal: int | None,
    faces: int | None,
    bust: str | None,
    bust_scores_one: bool | None,
    catch_up_turn: bool | None,
) -> PigRules:
    """The rules spec (a preset or ``preset:key=value,...``, read by the registry) with the
    command-line options applied (validated)."""
    bust_faces = None
    if bust is not None:
        parts = [p.strip() for p in bust.split(",") if p.strip()]
        if not parts or not all(p.isdigit() for p in parts):
            raise InvalidRulesError(f"--bust takes faces like 1 or 1,2, got {bust!r}")
        bust_faces = [int(p) for p in parts]
    base: PigRules = GAME.rules_object(rules)
    if faces is not None and bust_faces is None:
        # Keep the preset's bust faces only if they are still on the die.
        bust_faces = [f for f in base.bust_faces if f <= faces] or None
        if bust_faces is None:
            raise InvalidRulesError(
                f"the preset's bust face(s) {list(base.bust_faces)} are not on a "
                f"{faces}-faced die; say which face busts with --bust"
            )
    return base.with_options(goal, faces, bust_faces, bust_scores_one, catch_up_turn)


rule_options = option_group(
    "rules",
    [
        ("rules", RulesOpt, DEFAULT_PRESET),
        ("goal", GoalOpt, None),
        ("faces", FacesOpt, None),
        ("bust", BustOpt, None),
        ("bust_scores_one", BsoOpt, None),
        ("catch_up_turn", CatchOpt, None),
    ],
    make_rules,
)
"""``--rules``, ``--goal``, ``--faces``, ``--bust``, ``--bust-scores-one`` and
``--catch-up-turn`` where a command declares ``rules: PigRules``; the command receives the
rules they make (:func:`make_rules`)."""


err = Console(stderr=True, highlight=False, emoji=False)


def _solution(rules: PigRules, quiet: bool = False, use_cache: bool = True) -> PigSolution:
    """The solved variant, with a progress bar and the time left while it is solved (a
    variant that would take more than an hour is refused before it starts)."""
    with progress_reporter(f"solving {rules.describe()}", "% of the work", quiet,
                           console=err) as report:  # fmt: skip

        def percent(done: int, total: int) -> None:
            assert report is not None
            report(100 * done // total, 100)

        return solve(rules, use_cache=use_cache, progress=None if report is None else percent)


def _solve_optimal(rules: PigRules, *specs: str, quiet: bool = False) -> None:
    """Solve (with progress) before an ``optimal`` agent is built from the cache."""
    if any(spec.split(":", 1)[0].strip() == "optimal" for spec in specs):
        _solution(rules, quiet)


def _rules_json(rules: PigRules) -> dict[str, Any]:
    return {
        "name": rules.name,
        "goal": rules.goal,
        "faces": rules.faces,
        "bust_faces": list(rules.bust_faces),
        "bust_scores_one": rules.bust_scores_one,
        "catch_up_turn": rules.catch_up_turn,
    }


@app.command("solve")
@rule_options
def solve_command(
    *,
    rules: PigRules,
    as_json: JsonOpt = False,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Solve from scratch.")] = False,
    against: Annotated[
        str | None,
        typer.Option(
            "--against",
            help=f"Also solve the exact best reply to this fixed strategy: {STRATEGIES}.",
        ),
    ] = None,
) -> None:
    """Solve the optimal strategy; print P(0,0,0), the states, the sweeps and the time.

    With ``--against SPEC``, also the best reply to that fixed opponent: its chance of
    winning moving first and second, beside the optimum's against the same opponent.
    """
    if against is not None:
        from stratagem.games.pig.reply import check_size

        check_size(rules)  # before any work
        opponent = _policy_agent(rules, against)
    start = time.perf_counter()
    sol = _solution(rules, as_json, use_cache=not no_cache)
    seconds = time.perf_counter() - start
    result: dict[str, Any] = {
        "rules": _rules_json(rules),
        "p_start": sol.p_start,
        "states": sol.num_states,
        "sweeps": sol.sweeps,
        "max_sweeps": sol.max_sweeps,
        "seconds": seconds,
        "cached": sol.cached,
    }
    if against is not None:
        result["against"] = _reply_json(sol, opponent, show_progress=not as_json)
    if as_json:
        inputs = {"rules": _rules_json(rules), "no_cache": no_cache, "against": against}
        emit_json("pig solve", inputs, result)
        return
    how = "loaded from cache" if sol.cached else "solved"
    out.print(rules.describe())
    out.print(
        f"P(0,0,0) = {sol.p_start:.12f}: the starting player wins {100 * sol.p_start:.4f}% "
        f"with optimal play on both sides"
    )
    out.print(
        f"{sol.num_states:,} states, {sol.sweeps:,} pair sweeps (at most {sol.max_sweeps} for "
        f"one pair), {how} in {seconds:.3f} s"
    )
    if against is not None:
        _print_reply(result["against"])


def _reply_json(sol: PigSolution, opponent: RuleAgent | OptimalAgent, show_progress: bool) -> Any:
    """The best reply to ``opponent`` beside the optimum's chances against it."""
    from stratagem.games.pig.reply import best_reply, compare_with_optimum, reply_states

    err = Console(stderr=True, highlight=False)
    show = show_progress and err.is_terminal

    def report(done: float) -> None:
        err.print(f"\r  best reply to {opponent.spec}: {100 * done:5.1f}%", end="")

    reply = best_reply(sol.rules, opponent, progress=report if show else None)
    if show:
        err.print()
    c = compare_with_optimum(reply, sol, opponent)
    return {
        "spec": opponent.spec,
        "reply": {"first": c.reply_first, "second": c.reply_second, "coin": c.reply_coin},
        "optimal": {"first": c.optimal_first, "second": c.optimal_second, "coin": c.optimal_coin},
        "margin": {"first": c.margin_first, "second": c.margin_second, "coin": c.margin_coin},
        "states": reply_states(sol.rules),
        "sweeps": reply.sweeps,
        "seconds": reply.seconds,
    }


def _print_reply(r: dict[str, Any]) -> None:
    out.print(f"against {r['spec']}: P(win), the best reply vs the optimum (margin in points)")
    for role in ("first", "second", "coin"):
        label = {"first": "moving first ", "second": "moving second", "coin": "coin toss    "}[role]
        out.print(
            f"  {label} best reply {r['reply'][role]:.6f}   optimum {r['optimal'][role]:.6f}   "
            f"margin {100 * r['margin'][role]:+.4f}"
        )
    out.print(f"  {r['states']:,} states, {r['sweeps']:,} pair sweeps in {r['seconds']:.3f} s")


@app.command("value")
@rule_options
def value_command(
    *,
    me: Annotated[int, typer.Option("--me", help="My score.")],
    opp: Annotated[int, typer.Option("--opp", help="The opponent's score.")],
    turn: Annotated[int, typer.Option("--turn", help="My turn total.")] = 0,
    second: Annotated[
        bool,
        typer.Option("--second", help="I did not start the game (matters with a catch-up turn)."),
    ] = False,
    rules: PigRules,
    as_json: JsonOpt = False,
) -> None:
    """Win probability of the player to move, and of rolling and of holding."""
    sol = _solution(rules, as_json)
    p_roll, p_hold = sol.action_values(me, opp, turn, starter=not second)
    best = "roll" if p_hold is None or p_roll > p_hold else "hold"
    p_win = p_roll if p_hold is None else max(p_roll, p_hold)
    result = {"p_win": p_win, "p_roll": p_roll, "p_hold": p_hold, "best": best}
    if as_json:
        inputs = {"rules": _rules_json(rules), "me": me, "opp": opp, "turn": turn, "second": second}
        emit_json("pig value", inputs, result)
        return
    hold = "not allowed (a turn starts with a roll)" if p_hold is None else f"{p_hold:.6f}"
    out.print(f"{rules.describe()}; me {me}, opponent {opp}, turn total {turn}")
    out.print(f"P(win) {p_win:.6f}  roll {p_roll:.6f}  hold {hold}  -> {best}")


@app.command("evaluate")
@rule_options
def evaluate_command(
    *,
    a: AgentAOpt = "optimal",
    b: AgentBOpt = None,
    rules: PigRules,
    as_json: JsonOpt = False,
) -> None:
    """Exact win probabilities of A against B (Markov chain of the two fixed policies)."""
    b = _default_b(rules, b)
    _solve_optimal(rules, a, b, quiet=as_json)
    agent_a, agent_b = _policy_agent(rules, a), _policy_agent(rules, b)
    start = time.perf_counter()
    e = evaluate(rules, agent_policies(agent_a), agent_policies(agent_b))
    result = {
        "a": agent_a.spec,
        "b": agent_b.spec,
        "a_first": e.a_first,
        "b_first": e.b_first,
        "coin": e.coin,
        "seconds": time.perf_counter() - start,
    }
    if as_json:
        emit_json(
            "pig evaluate",
            {"rules": _rules_json(rules), "a": agent_a.spec, "b": agent_b.spec},
            result,
        )
        return
    out.print(rules.describe())
    out.print(f"A = {agent_a.spec}, B = {agent_b.spec}: P(A wins)")
    out.print(f"  A starts {e.a_first:.6f}   B starts {e.b_first:.6f}   coin toss {e.coin:.6f}")


@app.command("simulate")
@rule_options
def simulate_command(
    *,
    a: AgentAOpt = "optimal",
    b: AgentBOpt = None,
    games: Annotated[
        int,
        typer.Option(min=1, max=GAMES_MAX, help="Number of games (A starts every other one)."),
    ] = 100_000,
    seed: SeedOpt = 0,
    rules: PigRules,
    as_json: JsonOpt = False,
) -> None:
    """Play A against B many times and compare with the exact evaluation."""
    if seed < 0:
        raise InvalidRulesError(f"--seed must be >= 0, got {seed}")
    b = _default_b(rules, b)
    _solve_optimal(rules, a, b, quiet=as_json)
    agent_a, agent_b = _policy_agent(rules, a), _policy_agent(rules, b)
    policies = agent_policies(agent_a), agent_policies(agent_b)
    start = time.perf_counter()
    series = run_series(GAME, rules, [a, b], games, seed)  # compiled: both have fixed policies
    m = series.detail
    assert isinstance(m, MatchResult)
    seconds = time.perf_counter() - start
    p, se = m.p_a()
    exact = evaluate(rules, *policies)
    result = {
        "a": agent_a.spec,
        "b": agent_b.spec,
        "games": games,
        "seed": seed,
        "a_wins": m.a_wins,
        "p_a": finite_or_none(p),
        "se": finite_or_none(se),
        "p_a_first": m.a_wins_first / m.games_first if m.games_first else None,
        "p_a_second": m.a_wins_second / m.games_second if m.games_second else None,
        "exact_coin": exact.coin,
        "z": finite_or_none((p - exact.coin) / se) if se > 0 else None,
        "mean_turns": m.mean_turns,
        "seconds": seconds,
    }
    if as_json:
        inputs = {
            "rules": _rules_json(rules),
            "a": agent_a.spec,
            "b": agent_b.spec,
            "games": games,
            "seed": seed,
        }
        emit_json("pig simulate", inputs, result)
        return
    out.print(f"{rules.describe()}: {agent_a.spec} vs {agent_b.spec}, {games:,} games, seed {seed}")
    small = "n too small"
    rate = small if result["p_a"] is None else f"{p:.5f}"
    spread = small if result["se"] is None else f"{se:.5f}"
    z = small if result["z"] is None else f"{result['z']:+.2f}"
    out.print(
        f"A wins {rate} ± {spread} (SE)   exact {exact.coin:.5f}   z = {z}   "
        f"({m.mean_turns:.1f} turns a game, {games / seconds:,.0f} games/s)"
    )


@app.command("rules")
@rule_options
def rules_command(
    *,
    max_rows: Annotated[
        int,
        typer.Option(
            "--max-rows",
            min=1,
            max=MAX_ROWS,
            help="Most rows the table may have (the search stops early when a row no longer "
            "helps).",
        ),
    ] = 8,
    role: Annotated[
        str,
        typer.Option(
            "--role",
            help="Minimise the cost on a coin toss (both), or only when moving first/second.",
        ),
    ] = "both",
    rules: PigRules,
    as_json: JsonOpt = False,
) -> None:
    """Derive a rule-of-thumb table from the optimum and price it exactly."""
    from stratagem.games.pig.cost import format_seconds
    from stratagem.games.pig.thumb import ThumbResult, check_thumb, derive_tables, format_table

    if role not in ("both", "first", "second"):
        raise InvalidRulesError(f"--role must be both, first or second, got {role!r}")
    estimate = check_thumb(rules, max_rows)  # before the solve: a refusal costs nothing

    def report(found: ThumbResult) -> None:
        if err.is_terminal and not as_json:
            err.print(
                f"  {found.max_rows} row(s): cost {100 * found.objective:.4f} points "
                f"({found.seconds:.0f} s)"
            )

    if err.is_terminal and not as_json:
        err.print(
            f"searching tables of 1..{max_rows} rows (each row takes longer than the last; "
            f"estimated {format_seconds(estimate.seconds)} in all; Ctrl-C stops)"
        )

    result = derive_tables(_solution(rules, as_json), max_rows, role, progress=report)[-1]  # type: ignore[arg-type]
    if as_json:
        inputs = {"rules": _rules_json(rules), "max_rows": max_rows, "role": role}
        emit_json("pig rules", inputs, {**result.to_dict(), "rules": _rules_json(rules)})
        return
    out.print(format_table(result))


@app.command("play")
@rule_options
def play_command(
    *,
    rules: PigRules,
    ai: AiOpt = "optimal",
    ai_first: Annotated[bool, typer.Option("--ai-first", help="Let the AI start.")] = False,
    second: Annotated[bool, typer.Option("--second", hidden=True, help="Old --ai-first.")] = False,
    seed: OptionalSeedOpt = None,
) -> None:
    """Play against an AI (the optimum by default), seeing your chance to win before every
    decision: against a fixed strategy (--ai hold:25) the chance against it, with the best
    reply to it as the coach. t takes a decision back."""
    import secrets

    from stratagem.core.session import HUMAN, Session
    from stratagem.games.pig.coach import PigCoaching
    from stratagem.games.pig.play import play_terminal, rules_spec

    spec = rules_spec(rules)
    GAME.check_agent(ai, rules)
    seats = [ai, HUMAN] if ai_first or second else [HUMAN, ai]
    _solution(rules)  # the optimum's table, with progress, before the coach reads it
    session = Session.new(GAME, spec, seats, secrets.randbits(63) if seed is None else seed)
    play_terminal(session, PigCoaching(rules, seats))
