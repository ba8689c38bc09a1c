"""The exact best reply to fixed Pig opponents, beside the optimum against the same opponent.

For each variant and opponent: the best reply's chance of winning moving first
and second (:func:`stratagem.games.pig.reply.best_reply`), checked against an
exact evaluation of the pair (reply policy vs opponent, the solver's
:func:`~stratagem.games.pig.solver.evaluate`), and the optimum's chance against
the same opponent, with the margin (reply minus optimum, in points of win
probability). Also a pinned position where the reply and the optimum differ.

Prints the markdown table and, as the last line, one JSON object. With
``--write`` it also replaces the section between the markers
``<!-- best-reply:start -->`` and ``<!-- best-reply:end -->`` of
docs/results/pig.md (written to a temporary file, then renamed).
Usage: ``python experiments/pig_best_reply.py [--write]`` (about 30 s of CPU).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from stratagem.games.pig.reply import best_reply, compare_with_optimum
from stratagem.games.pig.rules import PigRules, preset
from stratagem.games.pig.solver import evaluate, solve
from stratagem.games.pig.strategies import (
    HoldAt,
    KeepPace,
    OptimalAgent,
    RuleAgent,
    agent_policies,
)

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "results" / "pig.md"
START, END = "<!-- best-reply:start -->", "<!-- best-reply:end -->"

VARIANTS: list[tuple[str, PigRules]] = [
    ("`pig` (d6, 1 busts, goal 100)", preset("pig")),
    ("d8, 1 busts, goal 50", preset("pig").with_options(goal=50, faces=8)),
    ("`pig-raab` + catch-up turn", preset("pig-raab").with_options(catch_up_turn=True)),
]
PINNED = (66, 58, 30)  # pig against hold:25; tests/games/pig/test_reply.py pins it too


def signed(points: float) -> str:
    """Points of win probability with a sign, 0 for what is only rounding."""
    return f"{points:+.4f}" if abs(points) >= 5e-5 else "0.0000"


def opponents(rules: PigRules) -> list[RuleAgent | OptimalAgent]:
    return [
        HoldAt(rules, 25),
        HoldAt(rules, 20),
        KeepPace(rules),
        OptimalAgent(solve(rules)),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="update docs/results/pig.md")
    args = parser.parse_args()
    rows: list[dict[str, Any]] = []
    for label, rules in VARIANTS:
        sol = solve(rules)
        for opp in opponents(rules):
            reply = best_reply(rules, opp)
            c = compare_with_optimum(reply, sol, opp)
            pair = evaluate(rules, reply.policies(), agent_policies(opp))
            check = max(abs(reply.p_first - pair.a_first), abs(reply.p_second - pair.b_first))
            rows.append(
                {
                    "variant": label,
                    "opponent": opp.spec,
                    "reply_first": c.reply_first,
                    "reply_second": c.reply_second,
                    "optimal_first": c.optimal_first,
                    "optimal_second": c.optimal_second,
                    "margin_first": c.margin_first,
                    "margin_second": c.margin_second,
                    "margin_coin": c.margin_coin,
                    "vs_evaluate": check,
                    "seconds": reply.seconds,
                }
            )
            print(f"{label} vs {opp.spec}: done in {reply.seconds:.2f} s", file=sys.stderr)

    pig = preset("pig")
    reply = best_reply(pig, HoldAt(pig, 25))
    r_roll, r_hold = reply.action_values(*PINNED)
    o_roll, o_hold = solve(pig).action_values(*PINNED)
    assert r_hold is not None and o_hold is not None
    pinned = {
        "position": PINNED,
        "reply": reply.best_action(*PINNED),
        "reply_roll": r_roll,
        "reply_hold": r_hold,
        "optimum": solve(pig).best_action(*PINNED),
        "optimum_roll": o_roll,
        "optimum_hold": o_hold,
    }

    lines = [
        "Computed by `python experiments/pig_best_reply.py --write` (this section is "
        "rewritten by it). Chances of winning against the opponent, exact; the margin is "
        "the best reply's chance minus the optimum's, in points of win probability "
        "(first / second / coin toss). `keep-pace` keeps its goal-100 parameters "
        "(21, 71, 8) on every variant. Every reply agrees with the exact evaluation of "
        f"the pair (reply policy vs opponent) to {max(r['vs_evaluate'] for r in rows):.1e}.",
        "",
        "| variant | opponent | best reply first | best reply second | optimum first "
        "| optimum second | margin (first / second / coin) |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['variant']} | `{r['opponent']}` | {r['reply_first']:.6f} | "
            f"{r['reply_second']:.6f} | {r['optimal_first']:.6f} | {r['optimal_second']:.6f} | "
            f"{signed(100 * r['margin_first'])} / {signed(100 * r['margin_second'])} / "
            f"{signed(100 * r['margin_coin'])} |"
        )
    me, opp, turn = PINNED
    lines += [
        "",
        f"Where they part (pinned for the page's test): `pig` against `hold:25`, my score {me}, "
        f"the opponent's {opp}, turn total {turn}. The best reply **{pinned['reply']}s** "
        f"(hold {r_hold:.4f}, roll {r_roll:.4f} against `hold:25`): from {opp} a player "
        f"who holds at 25 cannot reach 100 in one turn. The optimum **{pinned['optimum']}s** "
        f"(roll {o_roll:.4f}, hold {o_hold:.4f} against an optimal opponent, who might).",
    ]
    table = "\n".join(lines)
    print(table)
    if args.write:
        text = DOC.read_text(encoding="utf-8")
        if START not in text or END not in text:
            raise SystemExit(f"{DOC} has no {START} ... {END} section to rewrite")
        head, rest = text.split(START, 1)
        _, tail = rest.split(END, 1)
        new = f"{head}{START}\n{table}\n{END}{tail}"
        fd, tmp = tempfile.mkstemp(dir=DOC.parent, prefix=".pig.md.")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(new)
        os.replace(tmp, DOC)
    print(json.dumps({"rows": rows, "pinned": pinned}))


if __name__ == "__main__":
    main()
