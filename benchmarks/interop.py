"""Episodes per second through the adapters against stepping our states directly, in one run.

For each game, uniformly random play (every legal action equally likely,
chance drawn from its distribution), timed the same way along three or four
paths:

* **direct**: our state protocol: ``state.legal_actions()``, pick one,
  ``state.apply(action)``; chance by :func:`stratagem.core.game.sample_chance`;
* **PettingZoo**: the AEC environment of :mod:`stratagem.interop.pettingzoo`:
  ``env.last()`` (observation vector and action mask), pick a legal id from
  the mask, ``env.step(id)``;
* **Gymnasium** (solitaire Yahtzee): ``env.step(id)`` with an id picked from
  the observation's mask;
* **OpenSpiel**: our registered game through ``pyspiel``: ``legal_actions()``,
  ``apply_action``; chance from ``chance_outcomes()`` (reported, no goal).

The paths take turns in rounds so that a change in the machine's load hits
each alike; each side of a round runs for ``--seconds``. The goal (issue 15):
PettingZoo and Gymnasium at least half the episodes per second of direct
stepping. Scrabble plays on the built-in English lexicon, with fewer games
(a random game takes seconds: thousands of legal placements per position).

It prints a table and, as its last line, one JSON object with the ratios.

    .venv/bin/pip install -e '.[interop]'
    .venv/bin/python benchmarks/interop.py [--seconds 3] [--rounds 2] [--seed 1]
        [--markdown docs/results/interop_bench.md]
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from stratagem.core.game import CHANCE, sample_chance
from stratagem.core.registry import load_game
from stratagem.interop.codecs import Codec, codec, codec_source


def direct(make: Callable[[], Any], rng: np.random.Generator) -> int:
    """One random game through our protocol; returns the decisions made."""
    state = make()
    steps = 0
    while not state.is_terminal():
        if state.current_player == CHANCE:
            state = state.apply(sample_chance(state, rng))
        else:
            actions = state.legal_actions()
            state = state.apply(actions[int(rng.integers(len(actions)))])
            steps += 1
    return steps


def through_pettingzoo(env: Any, rng: np.random.Generator, seed: int) -> int:
    env.reset(seed=seed)
    steps = 0
    for _ in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
        steps += 1
    return steps


def through_gymnasium(env: Any, rng: np.random.Generator, seed: int) -> int:
    obs, _ = env.reset(seed=seed)
    steps, done = 0, False
    while not done:
        legal = np.flatnonzero(obs["action_mask"])
        obs, _, done, _, _ = env.step(int(legal[rng.integers(len(legal))]))
        steps += 1
    return steps


def through_openspiel(game: Any, rng: np.random.Generator) -> int:
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            u, acc = rng.random(), 0.0
            pick = outcomes[-1][0]
            for action, p in outcomes:
                acc += p
                if u < acc:
                    pick = action
                    break
            state.apply_action(pick)
        else:
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
            steps += 1
    return steps


def timed(run: Callable[[int], int], seconds: float, max_games: int) -> tuple[int, int, float]:
    """Play games until ``seconds`` pass (at least one); (games, decisions, seconds)."""
    games = steps = 0
    start = time.perf_counter()
    while True:
        steps += run(games)
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds or games >= max_games:
            return games, steps, elapsed


def paths_of(name: str, c: Codec[Any], players: int, rules: str | None) -> dict[str, Any]:
    """The run functions of one game: ``{path: run(game_index) -> decisions}``."""
    import pyspiel

    from stratagem.interop import openspiel as spiel_adapter
    from stratagem.interop.gymnasium import YahtzeeEnv
    from stratagem.interop.pettingzoo import StratagemAEC

    rng_direct = np.random.default_rng(1)
    rng_pz = np.random.default_rng(2)
    rng_os = np.random.default_rng(3)
    paths: dict[str, Callable[[int], int]] = {
        "direct": lambda i: direct(c.new_state, rng_direct),
    }
    if players == 1:
        env = YahtzeeEnv(rules or "yahtzee")
        env.codec = c  # share the codec (and its tables) with the other paths
        rng_gym = np.random.default_rng(4)
        paths["gymnasium"] = lambda i: through_gymnasium(env, rng_gym, i)
    else:
        aec = StratagemAEC(c)
        paths["pettingzoo"] = lambda i: through_pettingzoo(aec, rng_pz, i)
    game_class = spiel_adapter.GAME_CLASSES[f"stratagem_{c.name}"]
    params: dict[str, Any] = {}
    spec = load_game(c.name)
    known = codec_source(spec).parameters(spec)  # the game's parameters, from its spec
    if "players" in known:
        params["players"] = players
    if c.name == "yahtzee":  # the rules this row times (Scrabble's codec brings its own lexicon)
        params["rules"] = rules
    game = game_class(params)
    game.codec = c
    paths["openspiel"] = lambda i: through_openspiel(game, rng_os)
    _ = pyspiel
    return paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per path per round (3)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of alternation (2)")
    parser.add_argument("--scrabble-games", type=int, default=3, help="Scrabble games per path")
    parser.add_argument("--markdown", type=Path, help="also write the table here")
    args = parser.parse_args(argv)
    if not 0 < args.seconds <= 600 or not 1 <= args.rounds <= 100:
        parser.error("--seconds must be in (0, 600] and --rounds in 1..100")
    if not 1 <= args.scrabble_games <= 1000:
        parser.error("--scrabble-games must be 1..1000")
    try:
        import gymnasium  # noqa: F401
        import pettingzoo  # noqa: F401
        import pyspiel  # noqa: F401
    except ImportError as exc:
        print(f"error: needs the interop extra ({exc}): pip install -e '.[interop]'")
        return 2

    configs = [
        ("pig", "pig", 2, codec("pig", "pig"), 10**9),
        ("scorefour", None, 2, codec("scorefour"), 10**9),
        ("yahtzee, 2 players", "yahtzee", 2, codec("yahtzee", "yahtzee", 2), 10**9),
        ("yahtzee solitaire", "yahtzee", 1, codec("yahtzee", "yahtzee", 1), 10**9),
        ("yatzy solitaire", "yatzy", 1, codec("yahtzee", "yatzy", 1), 10**9),
        ("scrabble (English)", "english", 2, codec("scrabble", "english", 2),
         args.scrabble_games),
    ]  # fmt: skip
    rows = []
    summary: dict[str, Any] = {}
    for label, rules, players, game_codec, max_games in configs:
        paths = paths_of(label, game_codec, players, rules)
        for run in paths.values():  # warm up: numba kernels, caches
            run(0)
        totals = {p: [0, 0, 0.0] for p in paths}
        for _ in range(args.rounds):
            for path, run in paths.items():
                games, steps, secs = timed(run, args.seconds, max_games)
                totals[path][0] += games
                totals[path][1] += steps
                totals[path][2] += secs
        base = totals["direct"][0] / totals["direct"][2]
        for path, (games, steps, secs) in totals.items():
            rate = games / secs
            rows.append((label, path, games, steps / games, rate, steps / secs, rate / base))
            if path != "direct":
                summary[f"{label}: {path}"] = round(rate / base, 3)
        print(f"done {label}", file=sys.stderr)

    head = "| game | path | games | decisions/game | episodes/s | decisions/s | vs direct |"
    lines = [head, "|---|---|---:|---:|---:|---:|---:|"]
    for label, path, games, per, rate, dps, ratio in rows:
        lines.append(
            f"| {label} | {path} | {games} | {per:.1f} | {rate:,.1f} | {dps:,.0f} | {ratio:.2f} |"
        )
    wrapped = {k: v for k, v in summary.items() if "openspiel" not in k}
    worst = min(wrapped.values())
    verdict = "met" if worst >= 0.5 else "NOT met"
    table = "\n".join(lines)
    print(table)
    print()
    print(f"goal: PettingZoo and Gymnasium >= 0.5x direct: {verdict} (worst {worst:.2f})")
    if args.markdown:
        text = (
            "# Adapter overhead: episodes per second through the wrappers\n\n"
            "Uniformly random play, `benchmarks/interop.py "
            f"--seconds {args.seconds:g} --rounds {args.rounds} "
            f"--scrabble-games {args.scrabble_games}` "
            f"(Python {platform.python_version()}, {platform.machine()}, a shared 2-core "
            "machine). *direct* steps our states through the game protocol; the other "
            "paths go through the adapters of `stratagem.interop` (observation vector and "
            "action mask on every step for PettingZoo and Gymnasium). The paths take turns "
            "in rounds. *vs direct* is episodes per second over direct's.\n\n"
            + table
            + f"\n\nGoal (PettingZoo and Gymnasium at least 0.5x direct): **{verdict}** "
            f"(worst {worst:.2f}). OpenSpiel is shown for information (no goal).\n"
        )
        tmp = args.markdown.with_name(args.markdown.name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(args.markdown)
    print(json.dumps({"goal_met": worst >= 0.5, "worst_ratio": worst, "ratios": summary}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
