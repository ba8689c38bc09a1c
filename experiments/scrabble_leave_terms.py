"""What the equity player's static value might add to its leaves: four measurements.

Issue 37 asks the equity player with full leaves for 68% against greedy without the
endgame solver (65.70% with the complete English table). These runs look for the
missing points in the static value itself, on ENABLE with the shipped complete
superleave table, endgame solver off:

* ``bingo`` -- does a leave's bingo chance (``superleaves.bingo_chances``: the chance
  that the leave and the tiles drawn spell a 7-letter word) explain what the next turn
  brings beyond the leave table? A regression, per leave size, of the learning run's
  residuals (``scrabble_superleaves.py``'s samples: target less the factored value, less
  the stage mean) on the chance. Needs that run's chunks (``train --games N``).
* ``stages`` -- is a leave worth the same near the end? Self-play records, for each move
  with tiles in the bag, the tiles left in the bag after it, the leave's value and the
  game's final spread; per bag left, a regression of (final spread - spread after the
  move) on the leave's value: an intercept (what that bag count is worth) and a slope
  (what the leave is worth there, 1 = as the table says).
* ``defence`` -- what opening a premium square gives the opponent: for each placement,
  the double-letter, triple-letter, double-word and triple-word squares it opens (the
  h4 term's reach rule, :mod:`.heuristic`) and the opponent's next score; a regression
  of the one on the four.
* ``variants`` -- the static players these suggest, each against greedy over the same
  mirrored deals: the leave scaled by the bag left, the stage intercepts added, the
  closing rule's kept-tile cost doubled or dropped, and the ``defence`` term
  (``equity:defence=W``) with the h4 weights or the per-square costs fitted above.

Each writes its figures as JSON under ``runs/scrabble_leave_terms/`` and prints a table.

    python experiments/scrabble_superleaves.py train --games 16000 --workers 2
    python experiments/scrabble_leave_terms.py bingo --games 16000
    python experiments/scrabble_leave_terms.py stages --games 12000 --workers 2
    python experiments/scrabble_leave_terms.py defence --games 3000 --workers 2
    python experiments/scrabble_leave_terms.py variants --pairs 3000 --workers 2
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import sys
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from stratagem.core.errors import StratagemError
from stratagem.core.files import write_json
from stratagem.core.play import Deal, deal_seed, play
from stratagem.games.scrabble._kernels import TILES
from stratagem.games.scrabble.board import LETTER_MULT, WORD_MULT, Placement
from stratagem.games.scrabble.heuristic import FEATURE_NAMES, _placement
from stratagem.games.scrabble.leaves import _recorder, shipped_leaves, table_values
from stratagem.games.scrabble.lexicon import default_lexicon
from stratagem.games.scrabble.state import PASS, Exchange, ScrabbleState
from stratagem.games.scrabble.strategies import GreedyAgent
from stratagem.games.scrabble.superleaves import (
    LearningRun,
    SuperleaveEquityAgent,
    bingo_chances,
    leave_rank,
    leaves_of,
    shipped_superleaves,
)

ROOT = Path(__file__).resolve().parents[1]
RUNS = ROOT / "runs" / "scrabble_leave_terms"
LEARNING = ROOT / "runs" / "scrabble_superleaves" / "enable"
LEARNING_SEED = 2026  # scrabble_superleaves.py's default
MAX_GAMES = 200_000
CHUNK = 25
SCORE, LEAVE, PREMIUM = (FEATURE_NAMES.index(k) for k in ("score", "leave", "premium"))
SQUARES = ("double letter", "triple letter", "double word", "triple word")
MASKS = tuple(
    m.astype(float)
    for m in ((LETTER_MULT == 2) & (WORD_MULT == 1), LETTER_MULT == 3, WORD_MULT == 2,
              WORD_MULT == 3)
)  # fmt: skip
H4 = (1.0, 2.0, 2.0, 3.0)
"""The h4 term's weights per square (the ``defence`` option's)."""


def regress(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Least squares of ``y`` on ``[1, x]``: the coefficients and their standard errors."""
    design = np.column_stack([np.ones(len(y)), x])
    coef = np.linalg.lstsq(design, y, rcond=None)[0]
    resid = y - design @ coef
    cov = resid.var() * np.linalg.inv(design.T @ design)
    return coef, np.sqrt(np.diag(cov))


def in_parallel(job: Callable[[list[int]], list[Any]], seeds: list[int], workers: int,
                label: str) -> list[Any]:  # fmt: skip
    """``job`` over chunks of ``seeds`` in ``workers`` processes, in order, with progress."""
    chunks = [seeds[i : i + CHUNK] for i in range(0, len(seeds), CHUNK)]
    start = time.monotonic()
    out: list[Any] = []
    with ProcessPoolExecutor(workers) as pool:
        for done, rows in enumerate(pool.map(job, chunks), 1):
            out.extend(rows)
            if done % 20 == 0 or done == len(chunks):
                print(f"{label}: {min(done * CHUNK, len(seeds))}/{len(seeds)} "
                      f"({time.monotonic() - start:.0f} s)", flush=True)  # fmt: skip
    return out


def save(name: str, figures: dict[str, Any]) -> None:
    RUNS.mkdir(parents=True, exist_ok=True)
    write_json(RUNS / f"{name}.json", figures, indent=1, what="figures")
    print(f"saved runs/scrabble_leave_terms/{name}.json")


# --- bingo --------------------------------------------------------------------------------


def bingo(args: argparse.Namespace) -> int:
    lexicon = default_lexicon("english")
    tiles = lexicon.tiles
    chance = bingo_chances(lexicon)
    samples, games = LearningRun(LEARNING, "english", None, LEARNING_SEED, 1000).samples(args.games)
    counts = leaves_of(samples.ranks.astype(np.int64), tiles)
    resid = samples.targets - table_values(shipped_leaves(tiles), counts)
    for s in np.unique(samples.stages):
        at = samples.stages == s
        resid[at] -= resid[at].mean()
    size = counts.sum(axis=1)
    x = chance[samples.ranks.astype(np.int64)]
    rows = []
    print(f"{games} games, {len(samples)} samples")
    print("size  samples  mean chance  points per unit of chance (SE)")
    for k in range(1, 7):
        at = size == k
        if at.sum() < 100:
            continue
        coef, se = regress(x[at], resid[at])
        rows.append({"size": k, "samples": int(at.sum()), "mean_chance": float(x[at].mean()),
                     "slope": float(coef[1]), "slope_se": float(se[1])})  # fmt: skip
        print(f"{k:4d} {int(at.sum()):8d} {x[at].mean():12.3f}  {coef[1]:+.2f} ({se[1]:.2f})")
    probes = {t: float(chance[leave_rank(tiles.rack_counts(t), tiles)])
              for t in ("AEINST", "EINRST", "AEIRST", "AEINRS", "EARTSP", "EARTSB", "EINST",
                        "AEINS", "??", "?", "S", "ES", "Q", "GBCMVQ")}  # fmt: skip
    print("bingo chance: " + ", ".join(f"{t} {p:.3f}" for t, p in probes.items()))
    save("bingo", {"games": games, "samples": len(samples), "by_size": rows, "chances": probes})
    return 0


# --- stages -------------------------------------------------------------------------------


def _stage_rows(seeds: list[int]) -> list[tuple[float, ...]]:
    lexicon = default_lexicon("english")
    agent = SuperleaveEquityAgent(shipped_superleaves("english"), endgame=False)
    rows = []
    for seed in seeds:
        steps: list[tuple[Any, int, Any]] = []
        game = play(ScrabbleState.new(lexicon, 2), [agent, agent], Deal(seed),
                    observe=_recorder(steps))  # fmt: skip
        final = game.state.scores
        afters = [s for s, _, _ in steps[1:]] + [game.state]
        for (before, p, action), after in zip(steps, afters, strict=True):
            if p < 0 or before.bag_size() == 0:
                continue
            c = agent.candidate(before, action)
            laid = int(sum(before.racks[p])) - int(sum(after.racks[p]))
            left = max(0, before.bag_size() - laid) if isinstance(action, Placement) else \
                before.bag_size()  # fmt: skip
            spread = before.scores[p] + float(c.features[SCORE]) - before.scores[1 - p]
            rows.append((left, float(c.features[LEAVE]), final[p] - final[1 - p] - spread))
    return rows


def stages(args: argparse.Namespace) -> int:
    seeds = [deal_seed(args.seed, i) for i in range(args.games)]
    data = np.array(in_parallel(_stage_rows, seeds, args.workers, "stages"))
    left, leave, y = data.T
    rows = []
    print("bag left  moves  intercept (SE)  leave slope (SE)")
    for b in range(0, 31):
        at = left == b if b < 30 else left >= 30
        coef, se = regress(leave[at], y[at])
        rows.append({"bag_left": b, "moves": int(at.sum()), "intercept": float(coef[0]),
                     "intercept_se": float(se[0]), "slope": float(coef[1]),
                     "slope_se": float(se[1])})  # fmt: skip
        mark = "+" if b == 30 else ""
        print(f"{b:7d}{mark:1s} {int(at.sum()):6d}  {coef[0]:+7.2f} ({se[0]:.2f})  "
              f"{coef[1]:5.2f} ({se[1]:.2f})")  # fmt: skip
    save("stages", {"games": args.games, "seed": args.seed, "moves": len(y), "by_bag": rows})
    return 0


# --- defence ------------------------------------------------------------------------------


def _defence_rows(seeds: list[int]) -> list[tuple[float, ...]]:
    lexicon = default_lexicon("english")
    table = shipped_superleaves("english")
    agent = SuperleaveEquityAgent(table, endgame=False)
    probe = SuperleaveEquityAgent(table, endgame=False)
    rows = []
    for seed in seeds:
        steps: list[tuple[Any, int, Any]] = []
        play(ScrabbleState.new(lexicon, 2), [agent, agent], Deal(seed), observe=_recorder(steps))
        moves = [(s, a) for s, p, a in steps if p >= 0]
        for (before, action), (_, reply) in itertools.pairwise(moves):
            if before.bag_size() == 0 or not isinstance(action, Placement):
                continue
            opened = []
            for mask in MASKS:  # the h4 term with one kind of square weighted 1
                probe.evaluator.pweight[:] = mask
                opened.append(-float(probe.candidate(before, action).features[PREMIUM]))
            rows.append((*opened, float(reply.score) if isinstance(reply, Placement) else 0.0))
    return rows


def defence(args: argparse.Namespace) -> int:
    seeds = [deal_seed(args.seed, i) for i in range(args.games)]
    data = np.array(in_parallel(_defence_rows, seeds, args.workers, "defence"))
    coef, se = regress(data[:, :4], data[:, 4])
    print(f"{len(data)} placements; the opponent's next score: {coef[0]:.2f} + per square opened:")
    for name, c, e, m in zip(SQUARES, coef[1:], se[1:], data[:, :4].mean(axis=0), strict=True):
        print(f"  {name:14s} {c:+.2f} points (SE {e:.2f}), {m:.2f} opened a move")
    figures = {
        "games": args.games,
        "seed": args.seed,
        "placements": len(data),
        "intercept": float(coef[0]),
        "per_square": {n: float(c) for n, c in zip(SQUARES, coef[1:], strict=True)},
        "se": {n: float(e) for n, e in zip(SQUARES, se[1:], strict=True)},
    }
    save("defence", figures)
    return 0


# --- variants -----------------------------------------------------------------------------


class Variant(SuperleaveEquityAgent):
    """The superleave equity player (endgame off) with the static value changed: the leave
    times ``slope[bag left]`` plus ``intercept[bag left]``, the closing rule's cost of kept
    tiles times ``keep``; ``defence`` and ``squares`` (costs per kind of square) for the
    premium term. A changed value (or ``own_choice``) is chosen here, ties to the first
    found; otherwise the player's own choice plays."""

    def __init__(self, slope: Iterable[float] | None = None,
                 intercept: Iterable[float] | None = None, keep: float = 1.0,
                 defence: float = 0.0, squares: Iterable[float] | None = None,
                 own_choice: bool = False) -> None:  # fmt: skip
        super().__init__(shipped_superleaves("english"), endgame=False, defence=defence)
        self.slope = np.ones(101) if slope is None else np.asarray(list(slope), dtype=float)
        self.intercept = (np.zeros(101) if intercept is None
                          else np.asarray(list(intercept), dtype=float))  # fmt: skip
        self.keep = keep
        self.changed = own_choice or slope is not None or intercept is not None or keep != 1.0
        if squares is not None:
            self.evaluator.pweight[:] = sum(w * m for w, m in zip(squares, MASKS, strict=True))

    def _static_move(self, state: ScrabbleState, phase: str) -> Any:
        if not self.changed:
            return super()._static_move(state, phase)
        closing = phase == "closing"
        info, word, feats, gives, xfeats, bonus, xbonus = self.evaluator.table(state, closing)
        weights = self.weights_for(phase)
        bag = state.bag_size()
        if closing:
            values = feats @ weights / 1000 + np.where(bonus < 0, self.keep * bonus, bonus)
            xvalues = xfeats @ weights / 1000 + np.where(xbonus < 0, self.keep * xbonus, xbonus)
        else:
            left = np.maximum(0, bag - info[:, TILES])
            rest = (feats @ weights) / 1000 - feats[:, LEAVE]
            values = rest + self.slope[left] * feats[:, LEAVE] + self.intercept[left]
            xrest = (xfeats @ weights) / 1000 - xfeats[:, LEAVE]
            xvalues = xrest + self.slope[bag] * xfeats[:, LEAVE] + self.intercept[bag]
        best, choice = -math.inf, PASS
        if len(values):
            k = int(np.argmax(values))
            best, choice = float(values[k]), _placement(info[k], word[k], state)
        j = int(np.argmax(xvalues))
        if xvalues[j] > best:
            choice = PASS if j == 0 else Exchange(self.evaluator.tiles.rack_text(gives[j]))
        return choice


def _match_rows(task: tuple[dict[str, Any], list[int]]) -> list[float]:
    config, seeds = task
    lexicon = default_lexicon("english")
    spreads = []
    for seed in seeds:
        for seat in (0, 1):  # the same deal, seats swapped
            agents: list[Any] = [Variant(**config), GreedyAgent()]
            scores = play(ScrabbleState.new(lexicon, 2), agents[::1 if seat == 0 else -1],
                          Deal(seed)).state.scores  # fmt: skip
            spreads.append(float(scores[seat] - scores[1 - seat]))
    return spreads


def variants(args: argparse.Namespace) -> int:
    configs: dict[str, dict[str, Any]] = {"the equity player (superleaves)": {}}
    # the same values through this script's own choice (ties to the first found, not to the
    # DAWG walk's order): how far two players alike but for ties land apart
    configs["the same, ties to the first found"] = {"keep": 1.0, "own_choice": True}
    configs["leave x min(1, bag left / 7)"] = {"slope": [min(1.0, b / 7) for b in range(101)]}
    configs["leave x 1.1"] = {"slope": [1.1] * 101}
    configs["closing: kept tiles cost twice"] = {"keep": 2.0}
    configs["closing: kept tiles cost nothing"] = {"keep": 0.0}
    fitted = RUNS / "stages.json"
    if fitted.is_file():  # each bag count's intercept against the mean over 7-29 left
        rows = json.loads(fitted.read_text())["by_bag"]
        base = float(np.mean([r["intercept"] for r in rows if 7 <= r["bag_left"] < 30]))
        configs["stage intercepts (fitted)"] = {"intercept": [
            rows[b]["intercept"] - base if b < 7 else 0.0 for b in range(101)]}  # fmt: skip
    configs["defence 1 (h4 weights)"] = {"defence": 1.0}
    fitted = RUNS / "defence.json"
    if fitted.is_file():
        per = json.loads(fitted.read_text())["per_square"]
        configs["defence 1 (fitted costs)"] = {"defence": 1.0, "squares": [per[n] for n in SQUARES]}
    seeds = [deal_seed(args.seed, i) for i in range(args.pairs)]
    results = {}
    print(f"each against greedy on the same {args.pairs} mirrored deals (seed {args.seed})")
    for name, config in configs.items():
        chunks = [(config, seeds[i : i + CHUNK]) for i in range(0, len(seeds), CHUNK)]
        with ProcessPoolExecutor(args.workers) as pool:
            spreads = np.array([x for part in pool.map(_match_rows, chunks) for x in part])
        win = float(np.mean((spreads > 0) + 0.5 * (spreads == 0)))
        half = 1.96 * math.sqrt(win * (1 - win) / len(spreads))
        results[name] = {"config": config, "games": len(spreads), "win": win,
                         "win_half_width": half, "spread": float(spreads.mean())}  # fmt: skip
        print(f"  {name:34s} {100 * win:6.2f}% (+-{100 * half:.2f})  spread "
              f"{spreads.mean():+.2f}", flush=True)  # fmt: skip
    save("variants", {"pairs": args.pairs, "seed": args.seed, "results": results})
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name, games in (("bingo", 16_000), ("stages", 12_000), ("defence", 3_000),
                        ("variants", 0)):  # fmt: skip
        p = sub.add_parser(name)
        if games:
            p.add_argument("--games", type=int, default=games)
        else:
            p.add_argument("--pairs", type=int, default=3_000)
        p.add_argument("--seed", type=int, default={"stages": 99, "defence": 77}.get(name, 37))
        p.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    count = getattr(args, "games", None) or getattr(args, "pairs", 0)
    if not 1 <= count <= MAX_GAMES:
        print(f"error: --games/--pairs must be 1-{MAX_GAMES}, got {count}", file=sys.stderr)
        return 2
    if not 1 <= args.workers <= (os.cpu_count() or 1):
        print(f"error: --workers must be 1-{os.cpu_count()}, got {args.workers}", file=sys.stderr)
        return 2
    if args.seed < 0:
        print(f"error: --seed must be >= 0, got {args.seed}", file=sys.stderr)
        return 2
    try:
        command = {"bingo": bingo, "stages": stages, "defence": defence, "variants": variants}
        return command[args.command](args)
    except (StratagemError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted: nothing saved for this command", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
