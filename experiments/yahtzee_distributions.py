"""Exact final-score distributions of the optimal strategy for every rule preset.

Backward induction over the turn-start states gives each state's remaining-score
distribution; the empty card's is the final-score distribution (no simulation).
Writes docs/results/yahtzee_distribution.md and one PNG per preset. Usage:
``python experiments/yahtzee_distributions.py``.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

from stratagem.games.yahtzee.distribution import score_distribution
from stratagem.games.yahtzee.plots import plot_distribution
from stratagem.games.yahtzee.rules import PRESETS, preset
from stratagem.games.yahtzee.solver import solve

ROOT = Path(__file__).resolve().parents[1]

# Published values: Glenn (2006) SD 59.6117 (yahtzee-free-joker); 1M-game simulations
# quoted in issue 5: yatzy SD 38.4846; medians 248 (free joker) and 249 (yatzy).
PUBLISHED = {"yahtzee-free-joker": "SD 59.6117, median 248", "yatzy": "SD 38.4846, median 249"}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, default=ROOT / "docs/results")
    args = p.parse_args()
    rows = []
    for name in PRESETS:
        sol = solve(preset(name))
        start = time.perf_counter()
        d = score_distribution(sol)
        seconds = time.perf_counter() - start
        png = args.out / f"yahtzee_distribution_{name}.png"
        plot_distribution(d, png)
        s = d.summary()
        rows.append((name, d, s, seconds, png.name))
        print(f"{name}: mean {d.mean:.4f} sd {d.sd:.4f} ({seconds:.0f} s)", file=sys.stderr)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    lines = [
        "# Exact final-score distributions of the optimal strategy",
        "",
        "Made by `experiments/yahtzee_distributions.py` "
        "(`stratagem yahtzee distribution --rules R` prints the same for one preset). "
        "Every number is exact (backward induction over all turn-start states, double "
        "precision, tails below 1e-15 cut), not a simulation. The upper-bonus and "
        "Yahtzee rates come from a forward pass of the probability of reaching each state.",
        "",
        "| preset | mean | SD | median | P(>= 200) | P(>= 250) | P(>= 300) | P(>= 400) "
        "| P(>= 500) | upper bonus | Yahtzee/Yatzy box scored | Yahtzee bonuses per game "
        "| published | seconds |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|",
    ]
    for name, d, s, seconds, _png in rows:
        tails = s["p_at_least"]
        assert isinstance(tails, dict)
        bonus = f"{d.yahtzee_bonus_mean:.4f}" if sol_has_bonus(name) else "-"
        lines.append(
            f"| {name} | {d.mean:.4f} | {d.sd:.4f} | {d.median} | "
            + " | ".join(f"{100 * tails[str(t)]:.3g}%" for t in (200, 250, 300, 400, 500))
            + f" | {100 * (d.upper_bonus_rate or 0):.2f}% | {100 * (d.yahtzee_50_rate or 0):.2f}%"
            f" | {bonus} | {PUBLISHED.get(name, '-')} | {seconds:.0f} |"
        )
    lines += ["", "Percentiles:", "",
              "| preset | 1 | 5 | 10 | 25 | 75 | 90 | 95 | 99 | min | max |",
              "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]  # fmt: skip
    for name, _d, s, _sec, _png in rows:
        pct = s["percentiles"]
        assert isinstance(pct, dict)
        lines.append(f"| {name} | " + " | ".join(str(pct[q]) for q in pct)
                     + f" | {s['min']} | {s['max']} |")  # fmt: skip
    lines += ["", f"Peak memory of the whole run: {peak:,.0f} MiB (2 cores).", ""]
    for name, *_rest, png in rows:
        lines += [f"![{name}]({png})", ""]
    (args.out / "yahtzee_distribution.md").write_text("\n".join(lines))


def sol_has_bonus(name: str) -> bool:
    return preset(name).has_yahtzee_bonus


if __name__ == "__main__":
    main()
