"""Yahtzee for three and four players: the numbers of docs/results/yahtzee_field.md.

* ``--measure``: the win-seeking player (:mod:`stratagem.games.yahtzee.field`) against
  two and against three expected-score optimum players on the full ``yahtzee`` card,
  compiled, in deals that rotate it through every seat;
* ``--exact``: the smallest variants solved exactly for three players
  (:mod:`stratagem.games.yahtzee.duel3`): the equilibrium, the expected-score optimum
  against itself, and each seat's best deviation from it;
* ``--report-only``: the report, its JSON and its plot from the saved runs.

Runs go to ``runs/yahtzee_field/`` (a measurement or variant already there is kept).

    nice -n 10 .venv/bin/python experiments/yahtzee_field.py --measure --deals 3000
    nice -n 10 .venv/bin/python experiments/yahtzee_field.py --exact
    .venv/bin/python experiments/yahtzee_field.py --report-only
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path("runs/yahtzee_field")
MEASURED = ROOT / "measured.jsonl"
EXACT = ROOT / "exact.jsonl"
DOC = Path("docs/results/yahtzee_field.md")
JSON_OUT = Path("docs/results/yahtzee_field.json")
PNG = Path("docs/results/yahtzee_field.png")

EXACT_VARIANTS = [
    ("yahtzee", ("ones",), False),
    ("yahtzee", ("ones", "twos"), False),
    ("yahtzee", ("ones", "chance"), False),
    ("yahtzee", ("ones", "twos", "threes"), False),
]


def _read(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _append(path: Path, row: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as f:
        f.write(json.dumps(row) + "\n")


def measure(deals: int, seed: int) -> None:
    from stratagem.games.yahtzee.field import field_study
    from stratagem.games.yahtzee.rules import preset
    from stratagem.games.yahtzee.solver import solve

    done = {(r["players"], r["deals"], r["seed"]) for r in _read(MEASURED)}
    solution = solve(preset("yahtzee"))
    for seats in (3, 4):
        if (seats, deals, seed) in done:
            print(f"{seats} players: already measured", file=sys.stderr)
            continue
        study = field_study(solution, seats, deals, seed)
        row = study.summary()
        row["load"] = list(os.getloadavg())
        _append(MEASURED, row)
        print(json.dumps(row), file=sys.stderr)


def exact() -> None:
    from stratagem.games.yahtzee.duel import Variant
    from stratagem.games.yahtzee.duel3 import solve_three

    done = {r["variant"] for r in _read(EXACT)}
    for preset_name, boxes, bonus in EXACT_VARIANTS:
        v = Variant(preset_name, boxes, bonus)
        if v.name in done:
            continue
        start = time.perf_counter()
        result = solve_three(v)
        row = result.summary()
        row["seconds"] = time.perf_counter() - start
        row["max_rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        _append(EXACT, row)
        print(json.dumps(row), file=sys.stderr)


def report() -> None:
    measured = _read(MEASURED)
    solved = _read(EXACT)
    lines = [
        "# Yahtzee for three and four players",
        "",
        "Written by `experiments/yahtzee_field.py` from `runs/yahtzee_field/` (all numbers "
        "also in `yahtzee_field.json`).",
        "",
        "## The win-seeking player against a field of expected-score optimum players",
        "",
        "The win-seeking player (`stratagem.games.yahtzee.field`, compiled kernels "
        "`_field_kernels.py`) prices each way its turn can end by its expected share of the "
        "win against the whole field: its own remaining score and every opponent's final "
        "score from the optimal remaining-score distributions (each opponent from its "
        "current card, independently), a tie at the top among k + 1 players giving each "
        "1/(k + 1); then it plays the solver's keep-and-reroll recursion on those chances. "
        "With one opponent this is the two-player player of `match.py` (51.8% against the "
        "optimum, docs/results/yahtzee_win.md).",
        "",
        "Each deal is played once per seat, the win-seeker in that seat and the expected-"
        "score optimum in the others, every seat throwing from the deal's dice stream for "
        "that seat. Among optimum players alone each seat's share is 1/n (final scores are "
        "independent and identically distributed), so the share above 1/n is the edge. "
        "Intervals are 95% Student-t over deals (the games of a deal are not independent).",
        "",
        "| rules | players | deals | games | fair share | win-seeker's share | 95% CI | edge "
        "| its mean points | the optimum's mean points | s |",
        "|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|",
    ]
    for r in measured:
        lo, hi = r["ci95"]
        lines.append(
            f"| {r['rules']} | {r['players']} | {r['deals']:,} | {r['games']:,} | "
            f"{r['fair_share']:.4f} | {r['win_share']:.4f} | [{lo:.4f}, {hi:.4f}] | "
            f"{r['edge']:+.4f} | {r['mean_points_win']:.2f} | {r['mean_points_optimal']:.2f} | "
            f"{r['seconds']:.0f} |"
        )
    if measured:
        lines += ["", "By seat (the win-seeker's share in each seat, 95% CI):", ""]
        lines += ["| players | seat | share | 95% CI |", "|---:|---:|---:|---|"]
        for r in measured:
            for s, (v, (lo, hi)) in enumerate(zip(r["by_seat"], r["by_seat_ci95"], strict=True)):
                lines.append(f"| {r['players']} | {s + 1} | {v:.4f} | [{lo:.4f}, {hi:.4f}] |")
        loads = ", ".join(f"{x:.1f}" for r in measured for x in r["load"][:1])
        lines += [
            "",
            f"Times are wall-clock on this machine's 2 shared cores (`nice -n 10`, load "
            f"average {loads} when each finished).",
        ]
    lines += exact_section(solved)
    lines += ["", "![win shares](yahtzee_field.png)", ""]
    DOC.write_text("\n".join(lines))
    JSON_OUT.write_text(json.dumps({"measured": measured, "exact": solved}, indent=1) + "\n")
    if measured or solved:
        from stratagem.games.yahtzee.field_plots import plot_field

        plot_field(measured, solved, PNG)
    print(f"wrote {DOC}, {JSON_OUT}, {PNG}", file=sys.stderr)


def exact_section(solved: list[dict[str, Any]]) -> list[str]:
    from stratagem.games.yahtzee.duel3 import DESCRIPTION

    if not solved:
        return []
    out = ["", "## Three players, solved exactly on the smallest variants", "", *DESCRIPTION, ""]
    out += [
        "| variant | cards | positions (card triples x score differences) | stored values "
        "| ES points | max-max-max (seats 1, 2, 3) | largest deviation gain from es-es-es "
        "(seat) | ES a best response to itself? | two players: largest gain | s | max RSS MiB |",
        "|---|---:|---:|---:|---:|---|---|---|---:|---:|---:|",
    ]
    two = _two_player_gains()
    for r in solved:
        eq = ", ".join(f"{x:.6f}" for x in r["max_max_max"])
        gains = r["deviation_gains"]
        seat = int(np.argmax(gains))
        nash = "yes" if max(gains) <= 1e-12 else "**no**"
        out.append(
            f"| {r['variant']} | {r['cards']} | {r['positions']:,} | {r['values']:,} | "
            f"{r['es_points']:.4f} | {eq} | {max(gains):.2e} (seat {seat + 1}) | {nash} | "
            f"{two.get(r['variant'], float('nan')):.2e} | {r['seconds']:.1f} | "
            f"{r['max_rss_mib']:.0f} |"
        )
    not_nash = [r for r in solved if max(r["deviation_gains"]) > 1e-12]
    top = max(solved, key=lambda r: max(r["deviation_gains"]))
    seat = int(np.argmax(top["deviation_gains"])) + 1
    out += [
        "",
        f"**The thesis's question for three players.** The expected-score optimum is not a "
        f"best response to itself in {len(not_nash)} of the {len(solved)} variants solved "
        f"({', '.join(r['variant'] for r in not_nash) or 'none'}); the largest gain a "
        f"single deviation has is {max(top['deviation_gains']):.2e} (seat {seat} of "
        f"{top['variant']}). *s* is the wall-clock time of all five runs of a variant "
        "(numpy, one core, shared machine); *two players* is the largest gain on the same "
        "card from docs/results/yahtzee_two_player.md (solved here where that report lacks the "
        "card); *max RSS* is the peak of the process that solved the variants in turn.",
    ]
    from stratagem.games.yahtzee.duel3 import full_game_size
    from stratagem.games.yahtzee.rules import preset

    out += ["", "How the full games would scale on this layout (counted by "
            "`duel3.full_game_size` from the solitaire solver's reachable cards):", "",
            "| game | turn-start cards | card pairs (two players) | card triples (three) "
            "| values, three players |", "|---|---:|---:|---:|---:|"]  # fmt: skip
    for name in ("yahtzee", "yatzy"):
        size = full_game_size(preset(name))
        out.append(f"| {name} | {size['cards']:,.0f} | {size['pairs']:,.0f} | "
                   f"{size['triples']:.3e} | {size['values']:.2e} |")  # fmt: skip
    out += ["", "Each seat's value when it alone deviates to its best response (the others on "
            "the ES optimum), against 1/3:", ""]  # fmt: skip
    out += ["| variant | seat 1 | seat 2 | seat 3 | es-es-es |", "|---|---:|---:|---:|---|"]
    for r in solved:
        dev = r["deviation_values"]
        es = ", ".join(f"{x:.6f}" for x in r["es_es_es"])
        out.append(f"| {r['variant']} | {dev[0]:.6f} | {dev[1]:.6f} | {dev[2]:.6f} | {es} |")
    return out


def _two_player_gains() -> dict[str, float]:
    """The largest two-player deviation gain per variant: from the two-player report, or
    solved here (max-es, es-max, es-es runs; seconds on these small cards)."""
    from stratagem.games.yahtzee.duel import Run, Variant

    path = Path("docs/results/yahtzee_two_player.json")
    rows = json.loads(path.read_text())["variants"] if path.exists() else []
    gains = {r["variant"]: max(float(r["gain_first"]), float(r["gain_second"])) for r in rows}
    for preset_name, boxes, bonus in EXACT_VARIANTS:
        v = Variant(preset_name, boxes, bonus)
        if v.name not in gains:
            es_es = Run(v, ("es", "es")).solve()
            first = Run(v, ("max", "es")).solve() - es_es
            second = es_es - Run(v, ("es", "max")).solve()
            gains[v.name] = max(first, second)
    return gains


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--measure", action="store_true")
    ap.add_argument("--exact", action="store_true")
    ap.add_argument("--report-only", action="store_true")
    ap.add_argument("--deals", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args(argv)
    if not 2 <= args.deals <= 10_000_000:
        ap.error("--deals must be in 2..10000000")
    if args.measure:
        measure(args.deals, args.seed)
    if args.exact:
        exact()
    report()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
