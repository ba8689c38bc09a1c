"""Where Pig's coach starts calling a decision an inaccuracy, a mistake, a blunder.

Plays games of a rule of thumb against the optimum (either seat, alternating starts)
and prices every decision of the rule of thumb that had two options (roll or hold)
with the coach (:mod:`stratagem.games.pig.coach`: against the optimum, the optimum's
chance of winning). Prints how the costs spread: what share of decisions cost
nothing, the median of the others, and the share at or above 1, 3 and 8 percentage
points, the thresholds of the coach's labels. Last line: one JSON object.

    python experiments/pig_coach_thresholds.py [--games 2000] [--seed 2026]
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from stratagem.core.registry import load_game
from stratagem.games.pig.coach import UNIT, PigCoaching
from stratagem.games.pig.rules import preset
from stratagem.games.pig.state import PigAction, PigState


def costs_of(rules_name: str, rule_spec: str, games: int, seed: int) -> tuple[np.ndarray, int]:
    """Costs (in chance of winning) of every two-option decision of ``rule_spec``, and
    the number of games in which it made at least one decision costing 3 points."""
    rules = preset(rules_name)
    game = load_game("pig")
    coach = PigCoaching(rules, ["human", "optimal"])  # the optimum prices every move
    rule = game.make_agent(rules, rule_spec)
    optimal = game.make_agent(rules, "optimal")
    rng = np.random.default_rng(seed)
    costs: list[float] = []
    costly_games = 0
    for g in range(games):
        seat = g % 2  # the rule of thumb starts every other game
        state = PigState.new(rules)
        costly = False
        while not state.is_terminal():
            if state.rolling:
                state = state.apply(int(rng.integers(1, rules.faces + 1)))
                continue
            agent = rule if state.player == seat else optimal
            action = agent.act(state, rng)
            if state.player == seat and len(state.legal_actions()) > 1:
                cost = coach.judge(state, str(action)).cost
                costs.append(cost)
                costly |= cost >= UNIT.thresholds[1]
            state = state.apply(PigAction(action))
        costly_games += costly
    return np.array(costs), costly_games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--rules", default="pig")
    args = parser.parse_args()
    if not 1 <= args.games <= 100_000:
        parser.error("--games must be 1..100000")
    summary = {}
    print(f"{args.rules}: costs of a rule of thumb's decisions against the optimum "
          f"({args.games} games, seed {args.seed})")  # fmt: skip
    print(f"{'player':<12}{'decisions':>10}{'free':>8}{'median>0':>10}"
          f"{'>=1pt':>8}{'>=3pt':>8}{'>=8pt':>8}{'games>=3pt':>12}")  # fmt: skip
    for spec in ("hold:20", "hold:25", "keep-pace"):
        costs, costly_games = costs_of(args.rules, spec, args.games, args.seed)
        positive = costs[costs > 1e-9]
        row = {
            "decisions": int(costs.size),
            "free": float(np.mean(costs <= 1e-9)),
            "median_positive": float(np.median(positive)) if positive.size else 0.0,
            **{f"at_least_{t}": float(np.mean(costs >= t)) for t in UNIT.thresholds},
            "games_with_a_mistake": costly_games / args.games,
        }
        summary[spec] = row
        print(
            f"{spec:<12}{row['decisions']:>10}{100 * row['free']:>7.1f}%"
            f"{100 * row['median_positive']:>9.2f}p"
            + "".join(f"{100 * row[f'at_least_{t}']:>7.2f}%" for t in UNIT.thresholds)
            + f"{100 * row['games_with_a_mistake']:>11.1f}%"
        )
    print(json.dumps({"rules": args.rules, "games": args.games, "seed": args.seed, **summary}))


if __name__ == "__main__":
    main()
