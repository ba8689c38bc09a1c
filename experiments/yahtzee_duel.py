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
    .venv/bin/python experiments/yahtzee_duel.py --plot-only   # from yahtzee_two_player.json
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
    out: list[dict[str, object]] = []
    seen = set()
    for g, t, a, b, d, roll, left in rows:
        i, j = level_layers(t)
        mover = cards.describe(i, a)
        if (round(g, 9), t, mover, roll, left) in seen:
            continue  # the same decision against other cards differing only in upper total
        seen.add((round(g, 9), t, mover, roll, left))
        choice = duel.decision(run, t, a, b, d, roll, left)
        out.append({
            "gain": g, "turn": t, "player": "first" if t % 2 == 0 else "second",
            "mover": mover, "other": cards.describe(j, b), "lead": d,
            "roll": describe_roll(roll), "rerolls_left": left,
            "win_chance_optimal": run.value(t, a, b, d), **choice,
        })  # fmt: skip
        if len(out) == count:
            break
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


def ray_check(text: str) -> dict[str, object]:
    """Solve ``max``/``max`` of a variant with each level's blocks run on a local Ray
    cluster (``ray.util.multiprocessing.Pool``, the plan's executor) into a fresh
    directory, and compare every level with the single-process tables in the cache."""
    import tempfile

    import ray
    from ray.util.multiprocessing import Pool

    v = duel.parse_variant(text)
    single = Run(v, ("max", "max"), track_loss=True)
    single.solve()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            clustered = Run(v, ("max", "max"), Path(tmp), track_loss=True)
            start = time.perf_counter()
            value = clustered.solve(executor=Pool(2))
            seconds = time.perf_counter() - start
            same = []
            for t in range(2 * v.num_boxes):
                a, b = single.load(t), clustered.load(t)
                assert a is not None and b is not None
                same.append(bool(np.array_equal(a.data, b.data)
                                 and np.array_equal(a.loss, b.loss)))  # fmt: skip
    finally:
        ray.shutdown()
    row = {"variant": v.name, "ray": ray.__version__, "workers": 2, "seconds": seconds,
           "first_player": value, "levels_identical": same,
           "blocks_values": duel.BLOCK_VALUES}  # fmt: skip
    (ROOT / "ray_check.json").write_text(json.dumps(row))
    return row


def load_results() -> dict[str, dict[str, object]]:
    if not RESULTS.exists():
        return {}
    return {r["variant"]: r for r in map(json.loads, RESULTS.read_text().splitlines())}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--variant", action="append", default=[], help="preset:box,box[:bonus]")
    ap.add_argument("--standard", action="store_true", help="every variant of the report")
    ap.add_argument("--report-only", action="store_true")
    ap.add_argument("--plot-only", action="store_true", help="the plot from the JSON record")
    ap.add_argument("--ray", metavar="VARIANT", help="check the Ray executor on this variant")
    args = ap.parse_args(argv)
    if args.plot_only:
        plot_from_record()
        return 0
    variants = [duel.parse_variant(t) for t in args.variant]
    if args.standard:
        variants += STANDARD
    done = load_results()
    ROOT.mkdir(parents=True, exist_ok=True)
    if args.ray:
        print(ray_check(args.ray))
    if not args.report_only:
        for v in variants:
            if v.name in done:
                continue
            print(v.name, flush=True)
            row = solve_variant(v)
            with RESULTS.open("a") as f:
                f.write(json.dumps(row) + "\n")
            done[v.name] = row
    write_report()
    print(json.dumps({k: r["values"] for k, r in done.items()}))
    return 0


# ---------------------------------------------------------------------------
# The report: tables from runs/yahtzee_duel/results.jsonl, the full-game counts
# (duel.level_counts) and the benchmark's JSON line, written to docs/results/.

DOC = Path("docs/results/yahtzee_two_player.md")
PLOT = Path("docs/results/yahtzee_two_player.png")
COUNTS = ROOT / "full_counts.json"


def full_counts() -> dict[str, list[list[int]]]:
    """Per level of the full games: (card pairs, stored values, bytes); counted once."""
    if COUNTS.exists():
        return dict(json.loads(COUNTS.read_text()))
    from stratagem.games.yahtzee.rules import preset

    out = {
        name: [list(x) for x in duel.level_counts(preset(name))] for name in ("yahtzee", "yatzy")
    }
    COUNTS.write_text(json.dumps(out))
    return out


def _short(variant: object) -> str:
    """A variant's label for the plot: the preset left out, the seven lower boxes named so."""
    text = str(variant).replace("yahtzee[", "[", 1)
    return text.replace("+".join(LOWER), "the seven lower boxes")


def plot(results: dict[str, dict[str, object]], counts: dict[str, list[list[int]]]) -> None:
    """Gains and level sizes; the legends sit below their axes, clear of bars and curves."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(14, 7), width_ratios=(1.1, 1))
    rows = [r for r in results.values() if r["cards"] > 2]
    names = [_short(r["variant"]) for r in rows]
    gains = [max(float(r["gain_first"]), float(r["gain_second"])) for r in rows]
    edge = [0.5 - float(r["values"]["max-max"]) for r in rows]
    y = np.arange(len(rows))
    ax1.barh(y - 0.2, gains, 0.4, label="largest gain of a deviation from the ES optimum")
    ax1.barh(y + 0.2, edge, 0.4, label="second player's edge under optimal play")
    ax1.set_yticks(y, names, fontsize=7)
    ax1.set_xlabel("win chance")
    ax1.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.09), ncol=1)
    ax1.set_title("Is the expected-score optimum a best response to itself?")
    for name, levels in counts.items():
        ax2.semilogy([x[1] for x in levels], label=f"full {name} (counted)")
    for r in rows:
        per = r["values_per_level"]
        if len(per) >= 8:
            ax2.semilogy(per, "--", lw=1, label=_short(r["variant"]))
    ax2.set_xlabel("level (turns played)")
    ax2.set_ylabel("stored values (card pair x open score difference)")
    ax2.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.09), ncol=2)
    ax2.set_title("Size of each level")
    fig.tight_layout()
    fig.savefig(PLOT, dpi=110, bbox_inches="tight")


def plot_from_record() -> None:
    """The plot again from the report's JSON record (no runs/ needed; numbers unchanged)."""
    record = json.loads(DOC.with_suffix(".json").read_text())
    plot({r["variant"]: r for r in record["variants"]}, record["full_counts"])


def _f(x: float, digits: int = 6) -> str:
    return f"{x:.{digits}f}"


def report(results: dict[str, dict[str, object]], counts: dict[str, list[list[int]]],
           bench: dict[str, object] | None) -> str:  # fmt: skip
    rows = list(results.values())
    out: list[str] = []
    w = out.append
    w("# Two-player Yahtzee, solved exactly on reduced score cards\n")
    w("Written by `experiments/yahtzee_duel.py` from `runs/yahtzee_duel/results.jsonl` "
      "(all numbers also in `yahtzee_two_player.json`); "
      "solver `stratagem.games.yahtzee.duel` (kernels `_duel_kernels.py`).\n")  # fmt: skip
    w("Both players maximise their chance to win, a draw counting half. A *variant* is a "
      "subset of a preset's boxes, each scored by its own rule (no Yahtzee bonus, no joker); "
      "with the upper bonus, the bonus (35 in `yahtzee`) is paid for an upper total of "
      "three of each of the variant's upper faces (63 for all six, as in the real game). "
      "The state is (card of the player to move, other card, score difference); every "
      "turn's keep-and-score decisions are solved inside, vectorised over the score "
      "difference, level by level (turns played) from the end.\n")  # fmt: skip
    w("**Exactness.** Every value below is exact up to float64 rounding: the solver agrees "
      "with a plain memoised recursion over whole positions to 1e-12 at every stored "
      "position of the smallest variants (`tests/games/yahtzee/test_duel.py`), and with "
      "the project's solitaire solver where the other card is full (the mean of the win "
      "chances over the score difference is the solitaire expected score to 1e-9). "
      "`es-es` is 1/2 up to rounding (2e-15) by symmetry, which is a further check.\n")  # fmt: skip
    w("Strategies: **max** = best response (both max: the win-optimal solution); "
      "**es** = the expected-score optimum on the variant's card (Glenn's solitaire "
      "strategy, the project's solitaire kernels, its own tie rules); **win** = the "
      "win-optimal strategy of `max-max` played whatever the other side does. "
      "`A-B` is the first player's win chance with the first playing A and the second B."
      "\n")  # fmt: skip
    w("## Variants solved\n")
    w("| variant | boxes | cards | card pairs | stored values | peak (est.) MiB | max RSS MiB "
      "| max-max s | all six runs s |")  # fmt: skip
    w("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        secs = r["seconds"]
        w(
            f"| {r['variant']} | {len(r['boxes'])} | {r['cards']:,} | {r['pairs']:,} | "
            f"{r['values_stored']:,} | {r['bytes_peak_estimate'] / 2**20:,.1f} | "
            f"{r['max_rss_mib']:,.0f} | {secs['max-max']:.1f} | {sum(secs.values()):.1f} |"
        )
    w("\nTimes are wall-clock on this machine's 2 cores shared with other engineers' jobs "
      "(load average 10-14 while these ran), `nice -n 10`; they include loading the "
      "compiled kernels. *cards*: turn-start cards of one player (filled boxes, upper "
      "total capped at the threshold). *stored values*: card pairs x open score "
      "differences, summed over levels (one run).\n")  # fmt: skip
    w("## The answers\n")
    w("| variant | ES points | max-max | es-es | max-es | es-max | win-es | es-win "
      "| gain 1st | gain 2nd | ES best response to itself? |")  # fmt: skip
    w("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for r in rows:
        v = r["values"]
        ans = "yes" if r["es_is_best_response_to_itself"] else "**no**"
        w(f"| {r['variant']} | {r['es_expected_score']:.4f} | {_f(v['max-max'])} | "
          f"{_f(v['es-es'])} | {_f(v['max-es'])} | {_f(v['es-max'])} | {_f(v['win-es'])} | "
          f"{_f(v['es-win'])} | {float(r['gain_first']):.2e} | {float(r['gain_second']):.2e} "
          f"| {ans} |")  # fmt: skip
    w("\n*ES points*: the expected-score optimum's expected score on the variant. "
      "*gain 1st* = max-es - es-es: what the first player gains by deviating from the "
      "ES optimum to the best response while the second plays ES; *gain 2nd* = es-es - "
      "es-max, the same for the second player. The ES optimum is a best response to itself "
      "(the pair is a Nash equilibrium) exactly when both gains are 0 (tolerance 1e-12); "
      "the largest gain a deviation can have is the larger of the two. The win-optimal "
      "player against the ES optimum is `win-es` (win-optimal first) and `1 - es-win` "
      "(win-optimal second); the best response does at least as well (`max-es`, "
      "`1 - es-max`).\n")  # fmt: skip
    nash = [r["variant"] for r in rows if r["es_is_best_response_to_itself"]]
    not_nash = [r for r in rows if not r["es_is_best_response_to_itself"]]
    if not_nash:
        gains = [max(float(r["gain_first"]), float(r["gain_second"])) for r in not_nash]
        low, high = min(gains), max(gains)
        worst = max(not_nash, key=lambda r: max(float(r["gain_first"]), float(r["gain_second"])))
        w(f"**The thesis's question, per variant.** The expected-score optimum is *not* a best "
          f"response to itself in {len(not_nash)} of the {len(rows)} variants solved; it is in "
          f"{', '.join(map(str, nash)) or 'none'}. The largest gain a deviation has is "
          f"{max(float(worst['gain_first']), float(worst['gain_second'])):.4f} "
          f"(in {worst['variant']}). "
          "On upper-only cards the upper bonus does not change who wins (the total is an "
          "increasing function of the upper total), so `max-max` is the same with and "
          "without it, while the ES optimum changes (it chases the bonus) and loses more. "
          "On a one-box upper card, keeping every die of the box's face is best for every "
          "target at once, so all strategies coincide and every value is 1/2. The full game "
          "is not solved here: on every card of two or more boxes solved, the answer is "
          f"no, with a largest deviation gain between {low:.2%} and {high:.2%} of a game; "
          "the gain is larger with the bonus and with boxes whose points vary a lot "
          "(chance), where playing to the score difference pays.\n")  # fmt: skip
    multi = [r for r in rows if len(r["boxes"]) >= 2]
    edges = [0.5 - float(r["values"]["max-max"]) for r in multi]
    if multi:
        w(f"**Who is favoured.** Under optimal play the second player, who plays the last "
          f"turn knowing the first player's final score, is favoured on every card of two "
          f"or more boxes solved: the first player's chance is below 1/2 by {min(edges):.2e} to "
          f"{max(edges):.2e}.\n")  # fmt: skip
    w("## Where the win-optimal and expected-score strategies differ most\n")
    w("Each line is one decision of the `max-max` run: the expected-score optimum's choice "
      "there gives up the most win chance against the best choice (both followed by "
      "win-optimal play from both sides). *lead* is the mover's score minus the other's. "
      "Cards list the filled boxes (and the upper total). Each decision's largest loss is "
      "over all score differences, so it may sit at a lead that is rarely reached; the "
      "choices and chances are recomputed from the stored tables by `duel.decision` "
      "(they agree with the kernel's record).\n")  # fmt: skip
    for r in rows:
        losses = r["top_losses"]
        if not losses:
            continue
        w(f"**{r['variant']}**\n")
        w("| turn | mover | mover's card | other card | lead | roll | rerolls left "
          "| win-optimal plays | ES optimum plays | win chance lost |")  # fmt: skip
        w("|---:|---|---|---|---:|---|---:|---|---|---:|")
        for x in losses[:5]:
            w(
                f"| {x['turn'] + 1} | {x['player']} | {x['mover']} | {x['other']} | "
                f"{x['lead']:+d} | {x['roll']} | {x['rerolls_left']} | {x['best']} "
                f"({x['best_chance']:.4f}) | {x['es']} ({x['es_chance']:.4f}) | {x['gain']:.4f} |"
            )
        w("")
    largest = max(rows, key=lambda r: int(r["values_stored"]))
    w(f"## Time and memory per level, measured ({largest['variant']}, `max-max`)\n")
    w("| level | stored values | MiB (8 B/value) | seconds | values/s |")
    w("|---:|---:|---:|---:|---:|")
    for t, vals in enumerate(largest["values_per_level"]):
        secs = largest["level_seconds_max_max"].get(str(t))
        rate_t = f"{vals / secs:,.0f}" if secs else "-"
        shown = f"{secs:.2f}" if secs is not None else "-"
        w(f"| {t} | {vals:,} | {8 * vals / 2**20:,.2f} | {shown} | {rate_t} |")
    w("")
    w("## The full games: states per level, memory and time\n")
    w("Counted exactly by `duel.level_counts` from the solitaire solver's reachable "
      "turn-start states (cards) of the full rules, with the same layout as the variants: "
      "a level holds every (mover's card, other card) pair of the right fill counts and, "
      "per pair, the score differences not yet decided (bounded by each card's most points "
      "still to come, Yahtzee bonuses included). Bytes at 8 per value (float64).\n")  # fmt: skip
    w(
        "| level | yahtzee pairs | yahtzee values | yahtzee TB | yatzy pairs | yatzy values "
        "| yatzy TB |"
    )
    w("|---:|---:|---:|---:|---:|---:|---:|")
    yz, yt = counts["yahtzee"], counts["yatzy"]
    for t in range(max(len(yz), len(yt))):
        a = yz[t] if t < len(yz) else None
        b = yt[t] if t < len(yt) else None
        ca = f"{a[0]:,} | {a[1]:,} | {a[2] / 1e12:,.3f}" if a else " | | "
        cb = f"{b[0]:,} | {b[1]:,} | {b[2] / 1e12:,.3f}" if b else " | | "
        w(f"| {t} | {ca} | {cb} |")
    tot = {
        k: (sum(x[0] for x in v), sum(x[1] for x in v), max(x[2] for x in v))
        for k, v in counts.items()
    }
    w(f"| total | {tot['yahtzee'][0]:,} | {tot['yahtzee'][1]:,} | | {tot['yatzy'][0]:,} | "
      f"{tot['yatzy'][1]:,} | |\n")  # fmt: skip
    rate = None
    if bench is not None:
        bv = bench["variants"]
        w("### Measured speed (benchmarks/yahtzee_duel.py)\n")
        w(
            "| variant | levels | s | levels/s | values | values/s | bytes/value "
            "| x solitaire solve |"
        )
        w("|---|---:|---:|---:|---:|---:|---:|---:|")
        for x in bv:
            w(f"| {x['variant']} | {x['levels']} | {x['seconds']:.2f} | {x['levels_per_s']:.3f} | "
              f"{x['values']:,} | {x['values_per_s']:,.0f} | {x['bytes_per_value']:.2f} | "
              f"{x['duel_over_solitaire']:,.0f} |")  # fmt: skip
        w(f"\nLoad average during the benchmark: {bench['load_average']}.\n")
        big = max(bv, key=lambda x: x["values"])
        rate = float(big["values_per_s"])
    rate_exp = max(
        float(r["values_stored"]) / float(r["seconds"]["max-max"])
        for r in rows
        if float(r["values_stored"]) > 1e6
    )
    rate = max(rate or 0.0, rate_exp)
    core_rate = rate / 2
    w("### Extrapolation\n")
    w(f"The fastest measured rate on a variant with over a million values is {rate:,.0f} values/s "
      f"on this machine's 2 shared cores, i.e. about {core_rate:,.0f} values/s per core "
      "(shared with other work; the work per value is the same for every pair: the "
      "widget's 462 keeps x 6 faces x 2 rerolls, plus the boxes; it grows only with "
      "the number of open boxes, by at most "
      "about 2x from these variants to 13 boxes). Memory is 8 bytes a value "
      "(+8 per card pair for its offset; 8.0-8.2 bytes per value on disk, benchmark "
      "above); a level needs itself and the next level.\n")  # fmt: skip
    w(
        "| game | values | largest level | two largest adjacent levels "
        "| core-hours at the measured rate | 128-core machine-hours |"
    )
    w("|---|---:|---:|---:|---:|---:|")
    for k, v in counts.items():
        vals = sum(x[1] for x in v)
        big2 = max(v[t][2] + v[t + 1][2] for t in range(len(v) - 1))
        ch = vals / core_rate / 3600
        w(f"| {k} | {vals:.3e} | {max(x[2] for x in v) / 1e12:,.0f} TB | {big2 / 1e12:,.0f} TB | "
          f"{ch:,.0f} | {ch / 128:,.0f} |")  # fmt: skip
    w("")
    w(RAY_PLAN)
    ray_path = ROOT / "ray_check.json"
    if ray_path.exists():
        rc = json.loads(ray_path.read_text())
        same = all(rc["levels_identical"])
        single_s = (
            float(results[rc["variant"]]["seconds"]["max-max"])
            if rc["variant"] in results
            else float("nan")
        )
        w(f"**Measured local run.** `experiments/yahtzee_duel.py --ray` solved {rc['variant']} "
          f"(`max-max`, with the decision records) on a local Ray {rc['ray']} cluster of "
          f"{rc['workers']} workers in {rc['seconds']:.0f} s; its "
          f"{len(rc['levels_identical'])} levels are "
          f"{'identical, bit for bit, to' if same else 'NOT identical to'} the single-process "
          f"tables (first player {rc['first_player']:.15f}). The single-process run of the "
          f"same levels took {single_s:.0f} s (table above); the difference is Ray's "
          "start-up, each worker loading the compiled kernels, and shipping the next level "
          "to every task, on the same loaded 2 cores. Ray is not a "
          "dependency of the project: it was installed for this run in a throwaway "
          "directory (`pip install --target`), as the arena's Ray backend expects.\n")  # fmt: skip
    w("## Not done\n")
    w(NOT_DONE)
    w(f"![gains and level sizes]({PLOT.name})\n")
    return "\n".join(out) + "\n"


RAY_PLAN = """## A Ray plan for the full game

Levels must run in order (level t needs level t+1), 26 of them for `yahtzee`, 30 for
`yatzy`; inside a level every card pair is independent. Pair (a, b) at level t reads
level t+1 at the pairs (b, s) for the successors s of a (a with one more box filled).

* **Tasks (implemented).** A level is cut into blocks of mover cards (contiguous in
  the level's table, about `duel.BLOCK_VALUES` = 2 million values each); the task is
  the top-level function `duel.solve_rows(RowsTask)`, and `Run.solve(executor=...)`
  maps a level's blocks through any executor with `map` (a process pool, or
  `ray.util.multiprocessing.Pool`), then writes the level atomically. On one machine
  each task receives the whole next level.
* **Partition on a cluster.** Cards of each layer are split into M shards by
  filled-box mask. Machine k computes the blocks whose mover cards are in shard A_k;
  such a block reads, from level t+1, every row but only the columns succ(A_k). So
  machine k holds the columns succ(A_k) of level t+1 (all rows) and writes the rows
  A_k of level t.
* **What moves.** Level t-1 reads level t by column (its other card's successors), but
  level t was written by row: after each level, an all-to-all transpose from row
  shards to column shards. Every value crosses the network about once per level (plus
  the duplication of columns that are successors in several shards), through Ray's
  object store or a shared file system (a block a file, written atomically: a killed
  level restarts from its missing blocks; finished levels are never recomputed).
* **Per machine.** About (level t + level t+1) / M: with 1 TiB machines and float64
  the two largest adjacent `yahtzee` levels (table above) need a few hundred machines;
  float32 halves it (probabilities to 6e-8, no longer exact), and storing only the
  part of a pair's window where the value is strictly between 0 and 1 shrinks it more.
* **Cost.** The machine-hours in the table above are compute only, at this machine's
  measured rate per core (shared with other work, so pessimistic); the transposes move
  about the sum of the level sizes over the network.
"""

NOT_DONE = """* The cluster partition (column shards and the transpose between levels) is a plan,
  not code; the local Ray run ships the whole next level to every task.
* The win-seeking player of `winning.py` is now evaluated exactly on the variants (the
  solver's mode `seek`): [yahtzee_two_player_seek.md](yahtzee_two_player_seek.md).
* Three and four players: [yahtzee_field.md](yahtzee_field.md) (the win-seeking player
  against a field, measured; three players solved exactly on the smallest cards).
* The exact strategy of every solved variant is the arena agent `duel-optimal`, on rules
  that name the variant (`yahtzee:boxes=ones+twos+threes+full_house+yahtzee,bonus=true`;
  games on a reduced card are `duel_play.VariantState`, and `optimal` there is the
  variant's expected-score optimum); the page lists it with the other agents. Arena
  games of it against the ES optimum reproduce the solver's `win-es`/`es-win`
  (tests/games/yahtzee/test_duel_play.py). The Yahtzee page's own board still shows the
  full card.
* Ctrl-C and progress work per block (about 2 million values, one compiled call); a
  killed run loses at most the level in progress (levels are the unit written to disk).
* The existing high-score / target machinery is not used as a check: its tables are
  built for full rule sets; the solitaire check here is the expected-score one above.
* Variants larger than those above (e.g. all six upper boxes with the bonus, about
  514 million values and 3 GiB per run, estimated 2.6 h here) were not run in the time
  available; the solver takes them (`--variant`), within its refusal limits.
"""


def write_report() -> None:
    results = load_results()
    for row in results.values():  # the decisions are read from the cached max/max tables
        v = Variant(str(row["preset"]), tuple(row["boxes"]), bool(row["upper_bonus"]))
        row["top_losses"] = top_losses(Run(v, ("max", "max"), track_loss=True))
    counts = full_counts()
    bench_path = ROOT / "bench.json"
    bench = json.loads(bench_path.read_text()) if bench_path.exists() else None
    DOC.write_text(report(results, counts, bench))
    plot(results, counts)
    record = {"variants": list(results.values()), "full_counts": counts, "benchmark": bench,
              "ray_check": json.loads((ROOT / "ray_check.json").read_text())
              if (ROOT / "ray_check.json").exists() else None}  # fmt: skip
    DOC.with_suffix(".json").write_text(json.dumps(record, indent=1) + "\n")


if __name__ == "__main__":
    sys.exit(main())
