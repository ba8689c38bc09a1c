"""The best MCTS for Yahtzee under the report's budget: 2,500 simulations per decision,
no access to the exact solver's table. Writes docs/results/mcts_yahtzee_best.md.

A screening round plays every candidate on the same deals (paired), then the
best candidate plays a longer series for its mean and 95% interval. Runs go
through the arena into ``runs/mcts_yahtzee_best/`` and resume if interrupted.

    .venv/bin/python experiments/mcts_yahtzee_best.py --screen 60 --final 500
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from stratagem.core.arena import LocalExecutor, make_experiment, read_results, run
from stratagem.core.stats import mean_ci, paired_t

RULES = "yahtzee-no-bonus"
CANDIDATES = (
    "mcts:c=0.71,sims=2500,rollout=random",
    "mcts:c=0.71,sims=2500,rollout=random,expand=200",
    "mcts:c=0.71,sims=2500,rollout=greedy",
    "mcts:c=0.35,sims=2500,rollout=greedy,expand=200",
    "mcts:c=0.71,sims=2500,rollout=greedy,expand=200",
    "mcts:c=1.41,sims=2500,rollout=greedy,expand=200",
    "mcts:c=0.71,sims=2500,rollout=greedy,expand=100000",
)


def scores(path: Path) -> dict[int, float]:
    return {r["pair_index"]: json.loads(r["returns"])[0] for r in read_results(path)}


def series(root: Path, name: str, agent: str, games: int, seed: int, workers: int) -> Path:
    exp = make_experiment("yahtzee", RULES, [agent], seed)
    path = root / f"{name}.csv"
    start = time.perf_counter()
    run(exp, games, path, LocalExecutor(workers), chunk=1)
    got = scores(path)
    print(
        f"{agent:<52} {len(got)} games, mean {sum(got.values()) / len(got):.2f} "
        f"({time.perf_counter() - start:.0f} s)",
        flush=True,
    )
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--screen", type=int, default=60, help="games per candidate")
    parser.add_argument("--final", type=int, default=500, help="games of the best candidate")
    parser.add_argument("--seed", type=int, default=77)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--runs", type=Path, default=Path("runs/mcts_yahtzee_best"))
    parser.add_argument("--out", type=Path, default=Path("docs/results/mcts_yahtzee_best.md"))
    args = parser.parse_args()
    args.runs.mkdir(parents=True, exist_ok=True)

    screen = {}
    for i, agent in enumerate(CANDIDATES):
        screen[agent] = scores(
            series(args.runs, f"screen-{i}", agent, args.screen, args.seed, args.workers)
        )
    best = max(screen, key=lambda a: sum(screen[a].values()))
    # the final series uses other deals than the screening (no selection bias)
    final = scores(series(args.runs, "final", best, args.final, args.seed + 1, args.workers))
    summary = mean_ci(list(final.values()))

    # The greedy playout policy played on its own, for comparison (compiled, fast).
    import numpy as np

    from stratagem.games.yahtzee.rollout import rollout
    from stratagem.games.yahtzee.rules import preset
    from stratagem.games.yahtzee.state import YahtzeeState

    start_state = YahtzeeState.new(preset(RULES))
    rng = np.random.default_rng(args.seed)
    greedy = mean_ci([rollout(start_state, "greedy", rng)[0] for _ in range(100_000)])

    baseline = CANDIDATES[0]
    rows = []
    for agent, s in screen.items():
        m = mean_ci(list(s.values()))
        common = sorted(set(s) & set(screen[baseline]))
        diff = ""
        if agent != baseline:
            t = paired_t([s[k] for k in common], [screen[baseline][k] for k in common])
            diff = f"{t.mean_diff:+.1f} ({t.lo:+.1f} to {t.hi:+.1f})"
        rows.append(
            f"| `{agent}` | {m.mean:.1f} | {m.sd:.1f} | {m.lo:.1f} to {m.hi:.1f} | {diff} |"
        )
    text = f"""# The best MCTS for Yahtzee under the report's budget

Rules `{RULES}`; 2,500 simulations per decision; no access to the exact
solver's table. Reproduce: `.venv/bin/python experiments/mcts_yahtzee_best.py
--screen {args.screen} --final {args.final}`.

## Screening ({args.screen} games each, the same deals for every candidate)

| agent | mean | SD | 95% CI | paired difference to the textbook MCTS (95% CI) |
|---|---|---|---|---|
{chr(10).join(rows)}

## The best candidate on {len(final)} fresh deals

`{best}`: mean **{summary.mean:.2f}**, 95% CI **{summary.lo:.2f} to {summary.hi:.2f}**
(SD {summary.sd:.2f}, min {summary.minimum:.0f}, max {summary.maximum:.0f}). The goal
was >= 200.

## What made the difference, and a caveat

- **The rollout policy** is the big step: a compiled greedy playout (each box valued
  by its points minus the points a turn spent chasing it usually scores, with credit
  for staying on pace for the upper bonus; `games/yahtzee/rollout.py`) instead of
  uniformly random play lifts the same search by about 30 points.
- **Delayed expansion** (`expand=200`: a node below the root grows children only
  after 200 visits; below that it is evaluated by rollouts alone) adds about 20
  more with greedy rollouts. Textbook expansion tries each of the ~40 actions of a
  revisited node once before anything else, which spends the budget on actions
  such as "keep four dice" whose few outcomes make them look poor early.
- **More exploration** (c = 1.41 on the min-max normalised scale) helped a little in
  the screening; the differences among the three greedy + expand=200 candidates
  are within their intervals.
- **Caveat:** the greedy playout policy played on its own, without any search,
  averages **{greedy.mean:.2f}** (95% CI {greedy.lo:.2f} to {greedy.hi:.2f}, 100,000
  games). At 2,500 simulations per decision the search does not yet beat its own
  rollout policy: each of ~40 root actions gets ~60 playouts whose final scores
  have an SD near 38, too few to separate actions a few points apart. Common
  random numbers across root actions or a prior from the rollout policy would be
  the next things to try. The optimum for these rules is 245.87.
"""
    args.out.write_text(text, encoding="utf-8")
    print(
        json.dumps(
            {
                "best": best,
                "mean": summary.mean,
                "lo": summary.lo,
                "hi": summary.hi,
                "games": summary.n,
            }
        )
    )


if __name__ == "__main__":
    main()
