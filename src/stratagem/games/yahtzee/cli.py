"""``stratagem yahtzee ...``: solve, advise, simulate and play."""

from __future__ import annotations

import json
import re
import sys
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from stratagem.cli_options import JsonOpt, OptionalSeedOpt, RulesOpt, SeedOpt, emit_json
from stratagem.cli_progress import progress_reporter
from stratagem.cli_types import GAMES_MAX
from stratagem.core.agent import Advice
from stratagem.core.errors import InvalidStateError, StratagemError
from stratagem.core.files import check_writable_target
from stratagem.core.registry import parse_spec
from stratagem.core.series import run_series
from stratagem.games.yahtzee.rules import DEFAULT_PRESET, YahtzeeRules, preset
from stratagem.games.yahtzee.solver import Solution, solve
from stratagem.games.yahtzee.state import Situation
from stratagem.games.yahtzee.strategies import OptimalStrategy, SimulationResult

app = typer.Typer(help="Yahtzee and Scandinavian Yatzy.", no_args_is_help=True)
out = Console(highlight=False, emoji=False)
err = Console(stderr=True, highlight=False, emoji=False)

RulesOption = RulesOpt
JsonOption = JsonOpt


def _solve_progress(rules: YahtzeeRules, quiet: bool) -> AbstractContextManager[Any]:
    """Progress of solving, on a terminal only (a cache hit reports none, so shows no bar)."""
    return progress_reporter(f"solving {rules.name}", "states", quiet, console=err, lines=False)


def _build_progress(rules: YahtzeeRules, what: str, quiet: bool) -> AbstractContextManager[Any]:
    """Progress of a long table build: a bar on a terminal, else a line now and then."""
    return progress_reporter(f"building the {what} of {rules.name}", "states", quiet, console=err)


def _solution(rules: YahtzeeRules, quiet: bool = False) -> Solution:
    with _solve_progress(rules, quiet) as progress:
        return solve(rules, progress=progress)


def parse_dice(text: str) -> tuple[int, ...]:
    """``11114``, ``1,1,1,1,4`` or ``1 1 1 1 4`` -> (1, 1, 1, 1, 4)."""
    text = text.strip()
    if re.fullmatch(r"\d+", text):
        return tuple(int(ch) for ch in text)
    parts = [p for p in re.split(r"[\s,]+", text) if p]
    if not parts or not all(re.fullmatch(r"\d+", p) for p in parts):
        raise InvalidStateError(f"cannot read dice {text!r}: write e.g. 11114 or 1,1,1,1,4")
    return tuple(int(p) for p in parts)


def parse_filled(text: str | None) -> list[str]:
    if not text:
        return []
    return [name.strip() for name in text.split(",") if name.strip()]


def make_situation(
    rules: YahtzeeRules,
    dice: Any,
    rolls_left: Any,
    filled: Any = (),
    upper: Any = 0,
    yahtzee_box: Any = None,
    score: Any = None,
) -> Situation:
    """A validated :class:`Situation` from loosely typed fields (CLI or JSON)."""
    if isinstance(dice, str):
        dice = parse_dice(dice)
    if not isinstance(dice, list | tuple):
        raise InvalidStateError(f"dice must be a list of faces, got {dice!r}")
    if not isinstance(filled, list | tuple):
        raise InvalidStateError(f"filled must be a list of box names, got {filled!r}")
    for name in filled:
        if not isinstance(name, str):
            raise InvalidStateError(f"filled must hold box names, got {name!r}")
    seen: set[str] = set()
    for name in filled:
        if name in seen:
            raise InvalidStateError(f"box {name!r} is listed as filled twice")
        seen.add(name)
    for label, value in (("rolls_left", rolls_left), ("upper", upper)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidStateError(f"{label} must be an integer, got {value!r}")
    return Situation(rules, tuple(dice), rolls_left, frozenset(filled), upper, yahtzee_box, score)


def _options_json(advice: list[Advice]) -> dict[str, Any]:
    return {"options": [a.to_json() for a in advice]}


def _print_advice(
    sit: Situation, advice: list[Advice], column: str = "expected final score"
) -> None:
    filled = ", ".join(c for c in sit.rules.categories if c in sit.filled) or "none"
    out.print(
        f"[bold]{sit.rules.name}[/]  dice {' '.join(map(str, sit.dice))}  "
        f"rolls left {sit.rolls_left}  filled: {filled}  upper {sit.upper}  score {sit.points}"
    )
    table = Table(show_edge=False)
    table.add_column("#", justify="right")
    table.add_column("option")
    table.add_column(column, justify="right")
    table.add_column("regret", justify="right")
    for rank, a in enumerate(advice, start=1):
        table.add_row(str(rank), str(a.action), f"{a.value:.4f}", f"{a.regret:.4f}")
    out.print(table)


@app.command("solve")
def solve_command(
    rules: RulesOption = DEFAULT_PRESET,
    as_json: JsonOption = False,
    no_cache: Annotated[
        bool,
        typer.Option("--no-cache", help="Solve from scratch; neither read nor write the cache."),
    ] = False,
) -> None:
    """Solve the optimal strategy (cached) and print the expected score from the empty card."""
    r = preset(rules)
    start = time.perf_counter()
    if no_cache:
        with _solve_progress(r, as_json) as progress:
            solution = solve(r, use_cache=False, progress=progress)
    else:
        solution = _solution(r, quiet=as_json)
    seconds = time.perf_counter() - start
    result = {
        "rules": r.name,
        "expected_score": solution.expected_score,
        "seconds": seconds,
        "cached": solution.cached,
        "states": solution.num_states,
    }
    if as_json:
        emit_json("yahtzee solve", {"rules": r.name, "no_cache": no_cache}, result)
        return
    how = "loaded from cache" if solution.cached else "solved"
    out.print(
        f"{r.name}: expected score {solution.expected_score:.10f} "
        f"({solution.num_states:,} states, {how} in {seconds:.2f} s)"
    )


@app.command("advise")
def advise_command(
    rules: RulesOption = DEFAULT_PRESET,
    dice: Annotated[str | None, typer.Option(help="The five dice, e.g. 11114.")] = None,
    rolls_left: Annotated[int | None, typer.Option(help="Rerolls left: 0, 1 or 2.")] = None,
    filled: Annotated[
        str | None, typer.Option(help="Filled boxes, comma separated (ones,twos,...).")
    ] = None,
    upper: Annotated[int | None, typer.Option(help="Upper-section total so far (default 0).")] = (
        None
    ),
    yahtzee_box: Annotated[
        int | None, typer.Option(help="What the filled Yahtzee box holds: 50 or 0.")
    ] = None,
    score: Annotated[
        int | None,
        typer.Option(help="Points so far, bonuses included (default: what the card implies)."),
    ] = None,
    batch: Annotated[
        bool,
        typer.Option(
            "--batch",
            help="Read one JSON situation per line from stdin (the fields of --dice ... "
            "--score in each line; --rules is the default of its 'rules').",
        ),
    ] = False,
    target: Annotated[
        int | None,
        typer.Option(
            help="Price options by P(final score >= TARGET), TARGET from 1 to the highest "
            "final score of the rules (1575 for yahtzee), instead of the expected score: "
            "with the rest of the game played for the target (exact; the first use builds "
            "the high-score table, minutes, then cached), or see --target-play."
        ),
    ] = None,
    target_play: Annotated[
        str | None,
        typer.Option(
            help="With --target: how the rest of the game is played, 'high-score' (for the "
            "target, exact; the default) or 'expected' (for the expected score; "
            "remaining-score tables)."
        ),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Price every option of a decision: expected final score and regret, best first."""
    if batch:
        given = {"--dice": dice, "--rolls-left": rolls_left, "--filled": filled,
                 "--upper": upper, "--yahtzee-box": yahtzee_box, "--score": score,
                 "--target": target, "--target-play": target_play}  # fmt: skip
        unused = [option for option, value in given.items() if value is not None]
        if unused:
            raise InvalidStateError(
                f"--batch reads every situation from standard input; {', '.join(unused)} "
                "cannot be combined with it (give the fields in each JSON line)"
            )
        _advise_batch(rules)
        return
    if dice is None or rolls_left is None:
        raise InvalidStateError("advise needs --dice and --rolls-left (or --batch)")
    if target_play is not None and target is None:
        raise InvalidStateError(
            "--target-play says how the game is played for a --target; give --target too"
        )
    if target_play is None:
        target_play = "high-score"
    if target_play not in ("high-score", "expected"):
        raise InvalidStateError(
            f"--target-play must be 'high-score' or 'expected', not {target_play!r}"
        )
    r = preset(rules)
    upper = 0 if upper is None else upper
    sit = make_situation(r, dice, rolls_left, parse_filled(filled), upper, yahtzee_box, score)
    if target is not None:
        from stratagem.games.yahtzee.high_score import check_target

        check_target(target, r)  # a bad target fails before any table is built or opened
    if target is not None and target_play == "high-score":
        from stratagem.games.yahtzee.high_score import HighScoreStrategy

        solution = _solution(r, quiet=as_json)
        with _build_progress(r, "high-score table", as_json) as progress:
            table = _high_score_for(solution, (sit.mask, sit.upper, sit.flag), progress)
        advice = HighScoreStrategy(solution, target, table).advise_situation(sit)
        column = f"P(final >= {target})"
    elif target is not None:
        from stratagem.games.yahtzee.winning import ChanceAdvisor

        if not as_json:
            err.print("building or loading the remaining-score tables ...")
        advice = ChanceAdvisor(_solution(r, quiet=as_json)).advise_target(sit, target)
        column = f"P(final >= {target}), expected-score play after this turn"
    else:
        advice = OptimalStrategy(_solution(r, quiet=as_json)).advise_situation(sit)
        column = "expected final score"
    if as_json:
        inputs = {
            "rules": r.name, "dice": list(sit.dice), "rolls_left": sit.rolls_left,
            "filled": [c for c in r.categories if c in sit.filled], "upper": upper,
            "yahtzee_box": yahtzee_box, "score": score, "target": target,
            "target_play": target_play if target is not None else None,
        }  # fmt: skip
        emit_json("yahtzee advise", inputs, _options_json(advice))
    else:
        _print_advice(sit, advice, column)


BATCH_LINE_LIMIT = 1 << 16
"""Longest batch line read (64 KiB; a situation takes about 100 bytes)."""


def _stdin_lines() -> Iterator[bytes]:
    """Standard input line by line as bytes, each cut at ``BATCH_LINE_LIMIT + 1`` bytes (the
    rest of an overlong line is skipped unread into memory)."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:  # a text stream without bytes underneath (tests)
        for text in sys.stdin:
            yield text.encode("utf-8", "surrogateescape")
        return
    while True:
        line = stream.readline(BATCH_LINE_LIMIT + 1)
        if not line:
            return
        if len(line) > BATCH_LINE_LIMIT and not line.endswith(b"\n"):
            while True:  # skip the rest of the overlong line
                more = stream.readline(BATCH_LINE_LIMIT)
                if not more or more.endswith(b"\n"):
                    break
        yield line


def _advise_batch(default_rules: str) -> None:
    """One JSON result per input line, in order; a bad line gets ``{"error": ...}``."""
    strategies: dict[str, OptimalStrategy] = {}
    for lineno, raw in enumerate(_stdin_lines(), start=1):
        try:
            if len(raw) > BATCH_LINE_LIMIT:
                raise InvalidStateError(
                    f"the line is longer than {BATCH_LINE_LIMIT} bytes (a situation takes ~100)"
                )
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise InvalidStateError("not UTF-8 text") from None
            if not line.strip():
                raise InvalidStateError("empty line")
            try:
                fields = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InvalidStateError(f"not JSON: {exc.msg}") from None
            except RecursionError:
                raise InvalidStateError("not JSON: nested too deeply") from None
            if not isinstance(fields, dict):
                raise InvalidStateError("expected a JSON object")
            known = {"rules", "dice", "rolls_left", "filled", "upper", "yahtzee_box", "score"}
            unknown = sorted(set(fields) - known)
            if unknown:
                raise InvalidStateError(f"unknown field(s) {', '.join(unknown)}")
            for needed in ("dice", "rolls_left"):
                if needed not in fields:
                    raise InvalidStateError(f"missing field {needed!r}")
            name = fields.get("rules", default_rules)
            if not isinstance(name, str):
                raise InvalidStateError(f"rules must be a preset name, got {name!r}")
            r = preset(name)
            if name not in strategies:
                strategies[name] = OptimalStrategy(_solution(r, quiet=True))
            sit = make_situation(
                r,
                fields["dice"],
                fields["rolls_left"],
                fields.get("filled", []),
                fields.get("upper", 0),
                fields.get("yahtzee_box"),
                fields.get("score"),
            )
            result = _options_json(strategies[name].advise_situation(sit))
        except StratagemError as exc:
            result = {"error": f"line {lineno}: {exc}"}
        typer.echo(json.dumps(result))
        sys.stdout.flush()


@app.command("simulate")
def simulate_command(
    rules: RulesOption = DEFAULT_PRESET,
    games: Annotated[int, typer.Option(min=1, max=GAMES_MAX, help="Number of games.")] = 100_000,
    seed: SeedOpt = 0,
    as_json: JsonOption = False,
) -> None:
    """Play the optimal strategy many times and summarise the final scores."""
    if games < 1:
        raise InvalidStateError(f"--games must be at least 1, got {games}")
    if seed < 0:
        raise InvalidStateError(f"--seed must be >= 0, got {seed}")
    r = preset(rules)
    solution = _solution(r, quiet=as_json)
    start = time.perf_counter()
    series = run_series("yahtzee", r, ["optimal"], games, seed)  # compiled for the optimum
    result = series.detail
    assert isinstance(result, SimulationResult)
    summary = result.summary()
    summary["seconds"] = time.perf_counter() - start
    summary["exact_mean"] = solution.expected_score
    if as_json:
        emit_json("yahtzee simulate", {"rules": r.name, "games": games, "seed": seed}, summary)
        return
    _print_simulation(summary)


def _print_simulation(s: dict[str, Any]) -> None:
    mean, se = s["mean"], s["se"]
    small = "n too small"
    z = f"{(mean - s['exact_mean']) / se:+.2f}" if se else small
    out.print(
        f"[bold]{s['rules']}[/]: {s['games']:,} games (seed {s['seed']}) in {s['seconds']:.2f} s"
    )
    out.print(
        f"mean {mean:.3f}  SD {small if se is None else format(s['sd'], '.3f')}  "
        f"SE {small if se is None else format(se, '.3f')}  (exact {s['exact_mean']:.4f}, z = {z})"
    )
    pct = s["percentiles"]
    out.print(
        f"min {s['min']}  p5 {pct['5']:.0f}  p25 {pct['25']:.0f}  median {pct['50']:.0f}  "
        f"p75 {pct['75']:.0f}  p95 {pct['95']:.0f}  max {s['max']}"
    )
    out.print(f"upper bonus earned: {100 * s['upper_bonus_rate']:.2f}% of games")
    if s["rules"] != "yatzy":
        out.print(
            f"Yahtzee box scored 50: {100 * s['yahtzee_50_rate']:.2f}%; "
            f"Yahtzee bonus earned: {100 * s['yahtzee_bonus_rate']:.2f}% "
            f"({s['yahtzee_bonus_mean']:.4f} per game)"
        )
    else:
        out.print(f"yatzy scored: {100 * s['yahtzee_50_rate']:.2f}% of games")
    hist: dict[str, int] = s["histogram"]
    peak = max(hist.values())
    width = s["histogram_bin_width"]
    for low, count in hist.items():
        bar = "#" * max(1, round(50 * count / peak)) if count else ""
        out.print(f"{int(low):4d}-{int(low) + width - 1:<4d} {count:>9,} {bar}")


LATE_CARD = 6
"""Boxes filled from which a card without the cached table solves only what it can reach."""


def _high_score_for(solution: Solution, card: tuple[int, int, int], progress: Any) -> Any:
    """The cached high-score table; for a late card (LATE_CARD or more boxes filled) without
    it, just the states the card can reach (seconds), built in memory and not cached."""
    from stratagem.core.tables import TableCache
    from stratagem.games.yahtzee import high_score as H

    rules = solution.rules
    cached = TableCache().open_mapped(H.TABLE_KIND, rules.fingerprint, H.FORMAT_VERSION)
    if cached is None and bin(card[0]).count("1") >= LATE_CARD:
        return H.build_table(solution, start=card, progress=progress)
    return H.high_score_table(solution, progress=progress)


def _high_score_target(policy: str, rules: YahtzeeRules) -> int | None:
    """T of ``high-score:T`` (or ``high-score:target=T``); None for another policy name.

    The spec is read by the registry, the grammar the arena and the page use, so both
    spellings work here as there and a bad T gets the same message (checked against the
    rules' highest final score too).
    """
    parsed = parse_spec(policy)
    if parsed.name != "high-score":
        return None
    from stratagem.games.yahtzee.spec import GAME

    GAME.check_agent(parsed, rules)
    target: int = GAME.agent_info(parsed.name).values(parsed)["target"]
    return target


@app.command("distribution")
def distribution_command(
    rules: RulesOption = DEFAULT_PRESET,
    policy: Annotated[
        str,
        typer.Option(
            help="Strategy: optimal, greedy, yahtzee-only, yahtzee-and-straights, heuristic, "
            "high-score:T (maximises P(final >= T); also high-score:target=T)."
        ),
    ] = "optimal",
    plot: Annotated[
        str | None, typer.Option(help="Also draw the distribution into this PNG file.")
    ] = None,
    filled: Annotated[
        str | None,
        typer.Option(help="Start from a card with these boxes filled (comma separated)."),
    ] = None,
    upper: Annotated[int, typer.Option(help="Upper-section total of that card.")] = 0,
    yahtzee_box: Annotated[
        int | None, typer.Option(help="What its filled Yahtzee box holds: 50 or 0.")
    ] = None,
    score: Annotated[
        int | None,
        typer.Option(help="Its points so far, bonuses included (default: what the card implies)."),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """The exact distribution of the final score (no simulation): mean, SD, tails, bonuses.

    With --filled (and --upper, --yahtzee-box, --score) it starts from that card at
    the start of a turn instead of the empty card.
    """
    from stratagem.games.yahtzee.distribution import (
        POLICIES,
        ScoreDistribution,
        cached_score_distribution,
        remaining_distributions,
        score_distribution,
    )

    r = preset(rules)
    target = _high_score_target(policy, r)
    if target is None and policy not in POLICIES:
        raise InvalidStateError(
            f"unknown Yahtzee strategy {policy!r}; the strategies are: {', '.join(POLICIES)}, "
            "high-score:T"
        )
    if plot is not None and not plot.lower().endswith(".png"):
        raise InvalidStateError(f"--plot must name a .png file, not {plot!r}")
    if plot is not None:
        from stratagem.games.yahtzee.plots import is_our_plot

        # a folder, a missing folder, a link or another picture: refused before the work
        check_writable_target(Path(plot), "plot", is_our_plot)
    boxes = parse_filled(filled)
    card = make_situation(r, (1, 1, 1, 1, 1), 2, boxes, upper, yahtzee_box, score)
    if len(boxes) == r.num_categories:
        raise InvalidStateError("every box is filled: the game is over")
    boxes = [c for c in r.categories if c in card.filled]  # --yahtzee-box fills its box too
    start = time.perf_counter()
    # The empty card's distribution, once computed, is a cache file: read it without
    # solving anything (this path imports neither the solved table nor numba).
    cached = None if boxes or target is not None else cached_score_distribution(r, policy)
    if cached is not None:
        dist = cached
    else:
        solution = _solution(r, quiet=as_json)
        start = time.perf_counter()
        if target is not None:
            from stratagem.games.yahtzee.high_score import high_score_distribution

            with _build_progress(r, "high-score table", as_json) as progress:
                hs = _high_score_for(solution, (card.mask, card.upper, card.flag), progress)
            with _build_progress(r, f"high-score:target={target} distribution", as_json) as pg:
                low, pmf = high_score_distribution(
                    solution, hs, target, (card.mask, card.upper, card.flag, card.points),
                    progress=pg,
                )  # fmt: skip
            dist = ScoreDistribution(r, f"high-score:target={target}", low, pmf)
        else:
            with _build_progress(r, f"{policy} score distribution", as_json) as progress:
                if boxes:
                    table = remaining_distributions(
                        solution, policy, min_filled=bin(card.mask).count("1"), keep="last",
                        progress=progress,
                    )  # fmt: skip
                    low, pmf = table.pmf(card.mask, card.upper, card.flag)
                    dist = ScoreDistribution(r, policy, low + card.points, pmf.copy())
                else:
                    dist = score_distribution(solution, policy, progress=progress)
    summary = dist.summary()
    summary["filled"] = boxes
    summary["points_so_far"] = card.points
    if target is not None:
        summary["target"] = target
        summary["p_target"] = dist.p_at_least(target)
    summary["seconds"] = time.perf_counter() - start
    if plot is not None:
        from stratagem.games.yahtzee.plots import plot_distribution

        plot_distribution(dist, plot)
        summary["plot"] = plot
    if as_json:
        inputs = {
            "rules": r.name, "policy": summary["policy"], "plot": plot, "filled": boxes,
            "upper": upper, "yahtzee_box": yahtzee_box, "score": score,
        }  # fmt: skip
        emit_json("yahtzee distribution", inputs, summary)
        return
    where = f" from {', '.join(boxes)} filled, {card.points} points" if boxes else ""
    out.print(
        f"[bold]{r.name}[/], {policy} strategy: exact final-score distribution{where} "
        f"({summary['seconds']:.1f} s)"
    )
    out.print(
        f"mean {dist.mean:.4f}  SD {dist.sd:.4f}  median {dist.median}  "
        f"min {summary['min']}  max {summary['max']}"
    )
    if target is not None:
        out.print(f"P(final >= {target}) = {summary['p_target']:.6f}")
    pct: dict[str, int] = summary["percentiles"]  # type: ignore[assignment]
    out.print("percentiles: " + "  ".join(f"p{q} {v}" for q, v in pct.items()))
    tails: dict[str, float] = summary["p_at_least"]  # type: ignore[assignment]
    out.print("P(score >= t): " + "  ".join(f"{t}: {100 * p:.4g}%" for t, p in tails.items()))
    if dist.upper_bonus_rate is not None:
        out.print(f"upper bonus earned: {100 * dist.upper_bonus_rate:.3f}% of games")
        label = "Yahtzee box scored 50" if r.family == "yahtzee" else "yatzy scored"
        out.print(f"{label}: {100 * (dist.yahtzee_50_rate or 0):.3f}% of games")
        if r.has_yahtzee_bonus:
            out.print(f"Yahtzee bonuses per game: {dist.yahtzee_bonus_mean:.5f}")
    if plot is not None:
        out.print(f"plot written to {plot}")


@app.command("zoo")
def zoo_command(rules: RulesOption = "yahtzee-free-joker", as_json: JsonOption = False) -> None:
    """Exact mean and SD of every zoo strategy (no simulation), beside Glenn's table."""
    from stratagem.games.yahtzee.distribution import GLENN_FREE_JOKER, POLICIES, policy_moments

    r = preset(rules)
    solution = _solution(r, quiet=as_json)
    rows: list[dict[str, Any]] = []
    for policy in POLICIES:
        mean, sd = policy_moments(solution, policy)
        glenn = GLENN_FREE_JOKER.get(policy) if r.name == "yahtzee-free-joker" else None
        rows.append({"policy": policy, "mean": mean, "sd": sd,
                     "glenn": list(glenn) if glenn else None})  # fmt: skip
    if as_json:
        emit_json("yahtzee zoo", {"rules": r.name}, {"rules": r.name, "strategies": rows})
        return
    table = Table(title=f"{r.name}: exact final-score mean and SD", show_edge=False)
    for col in ("strategy", "mean", "SD", "Glenn (2006)", "difference"):
        table.add_column(col, justify="left" if col == "strategy" else "right")
    for row in rows:
        g = row["glenn"]
        table.add_row(
            str(row["policy"]), f"{row['mean']:.2f}", f"{row['sd']:.2f}",
            f"{g[0]:.2f} ± {g[1]:.2f}" if g else "-",
            f"{row['mean'] - g[0]:+.2f}" if g else "-",
        )  # fmt: skip
    out.print(table)
    out.print("Definitions and the reasons for differences: docs/results/yahtzee_zoo.md")


@app.command("play")
def play_command(
    rules: RulesOption = DEFAULT_PRESET,
    seed: OptionalSeedOpt = None,
    opponent: Annotated[
        list[str] | None,
        typer.Option(
            "--opponent",
            help="An opponent's agent spec (as `arena agents --game yahtzee` lists them); "
            "repeat for up to 3 opponents. None: a solitaire game.",
        ),
    ] = None,
) -> None:
    """Play a game in the terminal (alone or against agents); '?' shows the coach's
    table, 'back' takes a decision back. ``--rules`` reads the rules grammar of the rest
    of Stratagem: a preset, or a reduced card (``yahtzee:boxes=ones+twos+chance,bonus=true``)."""
    import secrets

    from stratagem.core.session import Session
    from stratagem.games.yahtzee.coach import CardCoaching, YahtzeeCoaching, coaching
    from stratagem.games.yahtzee.play import play_terminal
    from stratagem.games.yahtzee.spec import GAME

    opponents = list(opponent or [])
    if len(opponents) > 3:
        raise InvalidStateError(f"at most 3 opponents (4 players), not {len(opponents)}")
    # everything is checked before any work: the rules (a preset or a reduced card, its
    # boxes named and counted) and each opponent against them
    spelled = GAME.check_rules(rules)
    r = GAME.rules_object(spelled)
    for i, spec in enumerate(opponents, start=1):
        try:
            GAME.check_agent(spec, r)
        except StratagemError as exc:
            raise type(exc)(f"--opponent {i}: {exc}") from None
    players = 1 + len(opponents)
    coach: CardCoaching
    if isinstance(r, YahtzeeRules):
        sol = _solution(r)  # solve (with progress) before the game starts
        if opponents:
            # the chance of winning reads the optimum's remaining-score tables: opened from
            # the cache, or built once (minutes, about 1 GB) with a progress bar
            from stratagem.games.yahtzee.match import optimal_remaining

            with _build_progress(r, "remaining-score tables", False) as progress:
                optimal_remaining(sol, progress=progress)
        coach = YahtzeeCoaching(r, players, sol)
    else:
        # a reduced card: expected points alone or with 3-4 players, the exact two-player
        # chance of winning against one opponent (a table too large to solve here is
        # refused now, naming its estimate)
        coach = coaching(r, players)
    session = Session.new(
        "yahtzee",
        spelled,
        ["human", *opponents],
        seed=seed if seed is not None else secrets.randbits(63),
    )
    play_terminal(session, coach)


@app.command("high-score")
def high_score_command(
    rules: RulesOption = DEFAULT_PRESET,
    targets: Annotated[
        str, typer.Option(help="Targets T to report, comma separated.")
    ] = "150,200,250,300,350,400,450,500",
    as_json: JsonOption = False,
) -> None:
    """Build (or open) the high-score table; print the best P(final >= T) from the empty card."""
    from stratagem.games.yahtzee.high_score import check_target, high_score_table

    try:
        numbers = [int(t) for t in targets.split(",") if t.strip()]
    except ValueError:
        raise InvalidStateError(
            f"--targets must be whole numbers, comma separated: {targets!r}"
        ) from None
    if not numbers:
        raise InvalidStateError("--targets names no target; give e.g. --targets 200,300")
    r = preset(rules)
    wanted = [check_target(t, r) for t in numbers]  # the range, named, before the build
    solution = _solution(r, quiet=as_json)
    start = time.perf_counter()
    with _build_progress(r, "high-score table", as_json) as progress:
        table = high_score_table(solution, progress=progress)
    seconds = time.perf_counter() - start
    result = {
        "rules": r.name,
        "cached": table.cached,
        "seconds": seconds,
        "bytes": table.nbytes,
        "p_at_least": {str(t): table.value(0, 0, 0, t) for t in wanted},
    }
    if as_json:
        emit_json("yahtzee high-score", {"rules": r.name, "targets": wanted}, result)
        return
    how = "opened from cache" if table.cached else "built"
    size = table.nbytes / 2**20
    out.print(f"{r.name}: high-score table {how} in {seconds:.2f} s ({size:,.0f} MiB)")
    for t in wanted:
        out.print(f"best P(final >= {t}) = {table.value(0, 0, 0, t):.6f}")
