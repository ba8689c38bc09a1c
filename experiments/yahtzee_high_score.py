"""The best chance of reaching a target score, beside the expected-score optimum's.

For every preset and T = 150, 200, ..., 500: P(final >= T) under the
expected-score optimum (its exact final-score distribution) and under the
high-score strategy (V at the empty card, from the high-score table), the
gain, and the mean score the high-score strategy gives up (the optimum's mean
minus the exact mean of the high-score strategy's own final-score
distribution, :func:`stratagem.games.yahtzee.high_score.high_score_distribution`).
Writes docs/results/yahtzee_high_score.md and yahtzee_high_score.png.

Usage: ``nice -n 10 python experiments/yahtzee_high_score.py [--presets yahtzee,yatzy]
[--only-cached] [--means compute|reuse|skip]``. A table is built when missing (minutes per
preset) unless ``--only-cached``; presets left out are listed as such.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from stratagem.core.files import write_json
from stratagem.core.tables import TableCache
from stratagem.games.yahtzee import high_score as H
from stratagem.games.yahtzee.distribution import (
    ScoreDistribution,
    remaining_distributions,
    score_distribution,
)
from stratagem.games.yahtzee.plots import plot_high_score
from stratagem.games.yahtzee.rules import PRESETS, preset
from stratagem.games.yahtzee.solver import solve

ROOT = Path(__file__).resolve().parents[1]
TARGETS = list(range(150, 501, 50))


NOTES = """Reading the tables:

* *best* is exact: every P(final >= T) of the high-score strategy computed by pushing
  its own turn outcomes forward equals V to 1e-9 (the script asserts it per row).
* Ties: options whose chances differ by at most 1e-12 are tied, and the tie goes to
  the option with the larger expected score (then boxes before keeps). Before
  2026-12-01 ties went by order (boxes first, then the first box of the card), which
  gave up expected score wherever the target was certain or out of reach inside a
  turn; the late-card *mean given up* was then 31.32 (yahtzee, T = 150), 31.10
  (yahtzee, T = 300), 57.17 (yahtzee, T = 450) and 49.91 (yatzy, T = 150); with the
  tie rule it is 3.20, 19.98, 34.04 and 2.49 (the rows above). P(final >= T) did not
  change. The 2.49 points of yatzy at T = 150 buy certainty that six decimals do not
  show: the optimum misses 150 with probability 4.9e-7, the high-score strategy with
  1.3e-10.
* `yahtzee` and `yahtzee-free-joker` differ only in where a joker may go; their
  curves in the first plot lie on each other (the largest gap in the table is
  0.00008 at T = 350).
* Once a turn starts with the target reached or out of reach (V < 1e-12) the
  strategy plays for the expected score, so an unreachable T gives up nothing.
* The empty-card rows need the whole high-score table of a preset (17 minutes and
  1.1 GB for yahtzee; see benchmarks/yahtzee_high_score.py). Their *mean given up*
  comes from one backward pass (`high_score.high_score_means`) that carries, beside
  V, the strategy's expected points still to come for every number of points still
  needed; it makes the same decisions as the forward pass, and from the late card
  below the two agree to 1e-9 for every T (the script asserts it). The means are
  saved in yahtzee_high_score_means.json. The passes took 4,077 s (yahtzee), 6,253 s
  (yatzy), 4,217 s (yahtzee-free-joker) and 762 s (yahtzee-no-bonus), on shared cores.
* From the empty card itself: `stratagem yahtzee distribution --policy
  high-score:target=300` (yahtzee) pushes the strategy forward in 534 s (peak RSS
  2.9 GB, the mapped table included) and gives P(final >= 300) = 0.17601877, V to
  the six places stored, and a mean of 236.7792153, which the backward pass gives to
  2.4e-7 (the forward pass drops 6.8e-10 of probability in its tails)."""


def progress(name: str) -> H.Progress:
    last = [0.0]

    def report(done: int, total: int) -> None:
        if time.monotonic() - last[0] > 30 or done == total:
            last[0] = time.monotonic()
            print(f"{name}: {done:,}/{total:,} states", file=sys.stderr, flush=True)

    return report


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, default=ROOT / "docs/results")
    p.add_argument("--presets", default=",".join(PRESETS))
    p.add_argument("--only-cached", action="store_true")
    p.add_argument("--means", choices=("compute", "reuse", "skip"), default="compute",
                   help="the empty card's high-score means: compute them (a backward pass of "
                   "minutes per preset), reuse those saved with the same rules in "
                   "yahtzee_high_score_means.json, or skip them")
    args = p.parse_args()
    means_file = args.out / "yahtzee_high_score_means.json"
    saved = json.loads(means_file.read_text()) if means_file.exists() else {}
    lines = [
        "# The high-score strategy: the best chance of reaching a target",
        "",
        "Made by `experiments/yahtzee_high_score.py`. For each target T, *optimum* is",
        "P(final >= T) when every game is played for the expected score (its exact",
        "final-score distribution); *best* is the largest P(final >= T) any strategy",
        "achieves, V(empty card, T) from the high-score table (exact, stored in single",
        "precision); *mean given up* is the optimum's mean minus the exact mean of the",
        "high-score strategy for that T (its own final-score distribution, or the same mean",
        "from a backward pass). No simulation.",
        "",
        "| preset | T | optimum | best | gain | mean given up |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    rows: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
    missing = []
    no_means = []
    for name in args.presets.split(","):
        rules = preset(name)
        sol = solve(rules)
        cache = TableCache()
        if (
            args.only_cached
            and cache.open_mapped(H.TABLE_KIND, rules.fingerprint, H.FORMAT_VERSION) is None
        ):
            missing.append(name)
            continue
        table = H.high_score_table(sol, progress=progress(name))
        ev = score_distribution(sol)
        fine = np.arange(100, 701, 5)
        rows[name] = (
            fine,
            np.array([table.value(0, 0, 0, int(t)) for t in fine]),
            np.array([ev.p_at_least(int(t)) for t in fine]),
        )
        means = None
        if args.means == "reuse" and saved.get(name, {}).get("fingerprint") == rules.fingerprint:
            means = {int(t): m for t, m in saved[name]["means"].items()}
        elif args.means == "compute":  # one backward pass for every target (minutes)
            began = time.perf_counter()
            means = H.high_score_means(sol, table, TARGETS, progress=progress(name + " means"))
            print(f"{name}: means in {time.perf_counter() - began:.0f} s", file=sys.stderr)
        if means is not None:
            saved[name] = {"fingerprint": rules.fingerprint, "means": means}
            write_json(means_file, saved, indent=1)
        else:
            no_means.append(name)
        for t in TARGETS:
            best = table.value(0, 0, 0, t)
            opt = ev.p_at_least(t)
            # + 0.0 turns a rounded -0.00 (a difference of 1e-12) into 0.00
            given = "-" if means is None else f"{round(ev.mean - means[t], 2) + 0.0:.2f}"
            lines.append(f"| {name} | {t} | {opt:.6f} | {best:.6f} | {best - opt:+.6f} | {given} |")
            print(lines[-1], flush=True)
    if no_means:
        lines += ["", f"Mean given up not computed in this run (`--means {args.means}`): "
                  f"{', '.join(no_means)}. The backward pass took 68 minutes for yahtzee "
                  "on 2 shared cores."]  # fmt: skip
    if missing:
        lines += ["", f"Empty card not computed in this run (no cached high-score table): "
                  f"{', '.join(missing)}."]  # fmt: skip
    lines += [
        "",
        "## From a card with the upper section done",
        "",
        "The same comparison from the start of the seventh turn of a game whose six upper",
        "boxes hold exactly 63 (the upper bonus earned) and whose lower section is empty:",
        "only the states this card can reach are solved, so this part runs in seconds.",
        "",
        "| preset | points so far | T | optimum | best | gain | mean given up |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    late: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
    for name in args.presets.split(","):
        rules = preset(name)
        sol = solve(rules)
        mask, upper, flag = 63, 63, 0
        points = 63 + rules.upper_bonus
        table = H.build_table(sol, dtype=np.float64, start=(mask, upper, flag))
        ev_table = remaining_distributions(sol, start=(mask, upper, flag), keep="last")
        low, pmf = ev_table.pmf(mask, upper, flag)
        ev = ScoreDistribution(rules, "optimal", points + low, pmf.copy())
        fine = np.arange(100, 701, 5)
        late[name] = (
            fine,
            np.array([table.value(mask, upper, flag, int(t) - points) for t in fine]),
            np.array([ev.p_at_least(int(t)) for t in fine]),
        )
        late_means = H.high_score_means(sol, table, TARGETS, (mask, upper, flag, points))
        for t in TARGETS:
            best = table.value(mask, upper, flag, t - points)
            opt = ev.p_at_least(t)
            # from the late card these passes take seconds
            hlow, hpmf = H.high_score_distribution(sol, table, t, (mask, upper, flag, points))
            reached = float(hpmf[np.arange(hlow, hlow + len(hpmf)) >= t].sum())
            assert abs(reached - best) < 1e-9, (name, t, reached, best)
            mean = float(np.dot(np.arange(hlow, hlow + len(hpmf)), hpmf))
            assert abs(late_means[t] - mean) < 1e-9, (name, t, late_means[t], mean)
            given = f"{ev.mean - mean:.2f}"
            lines.append(
                f"| {name} | {points} | {t} | {opt:.6f} | {best:.6f} | {best - opt:+.6f} "
                f"| {given} |"
            )
            print(lines[-1], flush=True)
    plot_high_score(late, args.out / "yahtzee_high_score_late.png")
    lines += ["", "![P(final >= T), upper section done](yahtzee_high_score_late.png)"]
    lines += ["", NOTES]
    if rows:
        plot_high_score(rows, args.out / "yahtzee_high_score.png")
        lines += ["", "![P(final >= T)](yahtzee_high_score.png)"]
    (args.out / "yahtzee_high_score.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
