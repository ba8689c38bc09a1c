"""The strategy zoo: exact mean and SD of each fixed strategy's final score.

Each strategy is evaluated exactly by the same backward induction over
turn-start states as the solver (first and second moments of the remaining
score; games/yahtzee/distribution.py), not by simulation. Writes
docs/results/yahtzee_zoo.md. Usage: ``python experiments/yahtzee_zoo.py``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from stratagem.games.yahtzee.distribution import GLENN_FREE_JOKER, POLICIES, policy_moments
from stratagem.games.yahtzee.rules import preset
from stratagem.games.yahtzee.solver import solve

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", default="yahtzee-free-joker,yahtzee,yatzy")
    p.add_argument("--out", type=Path, default=ROOT / "docs/results/yahtzee_zoo.json")
    args = p.parse_args()
    results = []
    for name in args.rules.split(","):
        sol = solve(preset(name))
        for policy in POLICIES:
            start = time.perf_counter()
            mean, sd = policy_moments(sol, policy)
            seconds = time.perf_counter() - start
            results.append({"rules": name, "policy": policy, "mean": mean, "sd": sd,
                            "seconds": seconds})  # fmt: skip
            print(f"{name} {policy}: {mean:.4f} +- {sd:.4f} ({seconds:.1f} s)", file=sys.stderr)
    args.out.write_text(
        json.dumps({"glenn_free_joker": GLENN_FREE_JOKER, "results": results}, indent=1)
    )


if __name__ == "__main__":
    main()
