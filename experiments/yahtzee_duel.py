"""Two-player Yahtzee solved exactly on reduced score cards: the numbers of
docs/results/yahtzee_two_player.md.

For each variant (a subset of the boxes, with or without the upper bonus) this
solves six runs, each a pair of strategies (first player's, second player's):

* ``max-max``: both play to win; the first player's chance under optimal play;
* ``es-es``: both play the expected-score optimum (0.5 exactly, by symmetry);
* ``max-es`` / ``es-max``: the best response to the expected-score optimum, in
  either seat; the gain over ``es-es`` is the most a deviation from the
  expected-score optimum can win, so the expected-score optimum is a best
  response to itself (a Nash equilibrium) exactly when both gains are 0;
* ``win-es`` / ``es-win``: the win-optimal strategy (of ``max-max``) against
  the expected-score optimum.

Tables go to the user cache (``yahtzee-duel/``), level by level, so an
interrupted run resumes. Results are appended to ``runs/yahtzee_duel/results.jsonl``
(a variant already there is skipped) and the report is rewritten from them.

    nice -n 10 .venv/bin/python experiments/yahtzee_duel.py --variant yahtzee:ones,twos:bonus
    nice -n 10 .venv/bin/python experiments/yahtzee_duel.py --standard
    .venv/bin/python experiments/yahtzee_duel.py --report-only
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

import numpy as np

from stratagem.games.yahtzee import duel
from stratagem.games.yahtzee.duel import Run, Variant, describe_roll, level_layers

ROOT = Path("runs/yahtzee_duel")
RESULTS = ROOT / "results.jsonl"
UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")
LOWER = ("three_of_a_kind", "four_of_a_kind", "full_house", "small_straight",
         "large_straight", "yahtzee", "chance")  # fmt: skip

STANDARD = [
    *(Variant("yahtzee", UPPER[:k]) for k in range(1, 7)),
    *(Variant("yahtzee", UPPER[:k], True) for k in range(1, 4)),
    Variant("yahtzee", ("ones", "twos", "chance"), True),
    Variant("yahtzee", ("fours", "fives", "sixes"), True),
    Variant("yahtzee", LOWER),
    Variant("yahtzee", ("ones", "twos", "threes", "chance"), True),
    Variant("yahtzee", UPPER[:4], True),
    Variant("yahtzee", ("ones", "twos", "threes", "full_house", "yahtzee"), True),
]
"""The variants of the report, smallest first (larger ones: ``--variant``)."""

RUNS = (("max", "max"), ("es", "es"), ("max", "es"), ("es", "max"), ("win", "es"), ("es", "win"))


def top_losses(run: Run, count: int = 8) -> list[dict[str, object]]:
    """The decisions where the expected-score optimum gives up most win chance against
    the win-optimal opponent, each once per pair (its worst d), as readable positions."""
    cards = run.cards
    rows = []
    for t in range(2 * run.variant.num_boxes):
        level = run.load(t)
        assert level is not None and level.loss is not None
        i, j = level_layers(t)
        nb = len(cards.layers[j])
        for p in np.argsort(-level.loss[:, 0])[:count]:
            g, di, roll, left = level.loss[p]
            if g <= 1e-12:
                break
            a, b = divmod(int(p), nb)
            d = int(di) - int(cards.most[i][a])
            rows.append((float(g), t, a, b, d, int(roll), int(left)))
    rows.sort(reverse=True)
    out = []
    for g, t, a, b, d, roll, left in rows[:count]:
        i, j = level_layers(t)
        out.append({
            "gain": g, "turn": t, "player": "first" if t % 2 == 0 else "second",
            "mover": cards.describe(i, a), "other": cards.describe(j, b), "lead": d,
            "roll": describe_roll(roll), "rerolls_left": left,
            "win_chance_optimal": run.value(t, a, b, d),
        })  # fmt: skip
    return out


def solve_variant(v: Variant) -> dict[str, object]:
    est = duel.estimate(v)
    duel.check_size(est)
    ref = Run(v, ("max", "max"), track_loss=True)
    values: dict[str, float] = {}
    seconds: dict[str, float] = {}
    for modes in RUNS:
        run = ref if modes == ("max", "max") else Run(v, modes, reference=ref)
        start = time.perf_counter()
        values["-".join(modes)] = run.solve()
        seconds["-".join(modes)] = time.perf_counter() - start
        name = "-".join(modes)
        print(f"  {name:8s} {values[name]:.15f}  {seconds[name]:.1f} s",
              flush=True)  # fmt: skip
    es_es = values["es-es"]
    gain_first = values["max-es"] - es_es
    gain_second = es_es - values["es-max"]
    return {
        "variant": v.name, "preset": v.preset, "boxes": list(v.boxes),
        "upper_bonus": v.upper_bonus, "threshold": v.threshold, "bonus": v.bonus,
        "cards": int(sum(len(x) for x in ref.cards.layers)), "pairs": est.pairs,
        "values_stored": est.values, "values_per_level": est.values_per_level,
        "bytes_peak_estimate": est.bytes_peak, "values": values, "seconds": seconds,
        "level_seconds_max_max": {str(k): s for k, s in sorted(ref.level_seconds.items())},
        "es_expected_score": float(duel.es_values(v)[0, 0, 0]),
        "gain_first": gain_first, "gain_second": gain_second,
        "es_is_best_response_to_itself": max(gain_first, gain_second) <= 1e-12,
        "top_losses": top_losses(ref),
        "max_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }  # fmt: skip


def load_results() -> dict[str, dict[str, object]]:
    if not RESULTS.exists():
        return {}
    return {r["variant"]: r for r in map(json.loads, RESULTS.read_text().splitlines())}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--variant", action="append", default=[], help="preset:box,box[:bonus]")
    ap.add_argument("--standard", action="store_true", help="every variant of the report")
    ap.add_argument("--report-only", action="store_true")
    args = ap.parse_args(argv)
    variants = [duel.parse_variant(t) for t in args.variant]
    if args.standard:
        variants += STANDARD
    done = load_results()
    ROOT.mkdir(parents=True, exist_ok=True)
    if not args.report_only:
        for v in variants:
            if v.name in done:
                continue
            print(v.name, flush=True)
            row = solve_variant(v)
            with RESULTS.open("a") as f:
                f.write(json.dumps(row) + "\n")
            done[v.name] = row
    print(json.dumps({k: r["values"] for k, r in done.items()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
