"""The comeback study: does taking risks when behind win more two-player Yahtzee games?

Two players with their own dice alternate turns for 13 rounds. Base games are
played by two optimal (expected-score) players. At the start of round Y
(after Y - 1 rounds) the player behind by at least X points is singled out, and
the rest of the game is played three times from that position with the same
dice streams:

(a) the player behind keeps playing the optimum;
(b) it becomes the risk-taker with valence 3;
(c) it becomes the risk-taker with valence 1;
(d) it becomes the win-seeking player of games/yahtzee/match.py.

The opponent plays the optimum throughout. For each cell (X, Y) the first
``--games`` base games (in game order, so a uniform sample) that put a player at
least X behind at the start of round Y are used; each cell reports the
probability that the player behind still wins (a tie counts half) for (a) to
(d), and the paired differences from (a), with 95% intervals.

Writes docs/results/yahtzee_comeback.md, yahtzee_comeback.png and
yahtzee_comeback.json. Usage:
``python experiments/yahtzee_comeback.py [--games 10000] [--seed 7]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from stratagem.core.stats import mean_ci, wilson
from stratagem.games.yahtzee.match import Board, Match, player_id, seed_streams
from stratagem.games.yahtzee.rules import preset
from stratagem.games.yahtzee.solver import solve

ROOT = Path(__file__).resolve().parents[1]
XS = list(range(10, 101, 10))
YS = list(range(7, 14))
VARIANTS = {"a": ("optimal", 0), "b": ("risk", 3), "c": ("risk", 1), "d": ("win", 0)}


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def collect(match: Match, per_cell: int, seed: int, batch: int, max_games: int) -> dict[int, Any]:
    """For every Y: the snapshots of the base games some cell (X, Y) uses, and per X
    the indices (into those snapshots) of its first ``per_cell`` games."""
    need = {(x, y): per_cell for x in XS for y in YS}
    chosen: dict[int, dict[str, Any]] = {
        y: {"cards": [], "rng": [], "deficit": [], "cells": {x: [] for x in XS}} for y in YS
    }
    played = 0
    base_seed = seed
    while played < max_games and any(v > 0 for v in need.values()):
        last_y = max(y for (x, y), v in need.items() if v > 0)
        n = min(batch, max_games - played)
        policy = np.zeros((n, 2), dtype=np.int64)
        board = Board.new(policy, seed_streams(base_seed, n))
        base_seed += 1
        for y in YS:
            if y > last_y:
                break
            match.play(board, rounds=(y - 1) - board.round)  # start of round y
            d = board.totals[:, 0] - board.totals[:, 1]
            deficit = np.abs(d)
            hits_by_x = {}
            for x in XS:
                if need[(x, y)] <= 0:
                    continue
                hits = np.flatnonzero(deficit >= x)[: need[(x, y)]]
                need[(x, y)] -= len(hits)
                hits_by_x[x] = hits
            if not hits_by_x:
                continue
            idx = np.unique(np.concatenate(list(hits_by_x.values())))
            if len(idx) == 0:
                continue
            base = sum(len(c) for c in chosen[y]["cards"])
            remap = np.full(n, -1, dtype=np.int64)
            remap[idx] = base + np.arange(len(idx))
            for x, hits in hits_by_x.items():
                chosen[y]["cells"][x].append(remap[hits])
            behind = np.where(d[idx] < 0, 0, 1)  # the seat behind
            chosen[y]["cards"].append(board.cards[idx].copy())
            chosen[y]["rng"].append(board.rng[idx].copy())
            chosen[y]["deficit"].append(np.stack([deficit[idx], behind], axis=1))
        played += n
        left = sum(max(v, 0) for v in need.values())
        log(f"base games {played:,}: {left:,} cell slots still open")
    out: dict[int, Any] = {"base_games": played}
    for y in YS:
        c = chosen[y]
        if not c["cards"]:
            continue
        cells = {}
        for x in XS:
            parts = [p for p in c["cells"][x] if len(p)]
            cells[x] = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
        out[y] = {
            "cards": np.concatenate(c["cards"]),
            "rng": np.concatenate(c["rng"]),
            "deficit": np.concatenate(c["deficit"]),
            "cells": cells,
        }
    return out


def continue_games(match: Match, snap: dict[str, Any], y: int) -> dict[str, np.ndarray]:
    """Play each snapshot to the end under each variant; 1/0.5/0 for the player behind."""
    n = len(snap["cards"])
    behind = snap["deficit"][:, 1]
    results = {}
    for key, (player, valence) in VARIANTS.items():
        policy = np.zeros((n, 2), dtype=np.int64)
        val = np.zeros((n, 2), dtype=np.int64)
        policy[np.arange(n), behind] = player_id(player)
        val[np.arange(n), behind] = valence
        board = Board(snap["cards"].copy(), snap["rng"].copy(), policy, val, round=y - 1)
        match.play(board)
        mine = board.totals[np.arange(n), behind]
        theirs = board.totals[np.arange(n), 1 - behind]
        results[key] = (np.sign(mine - theirs) + 1) / 2
    return results


def heatmaps(table: dict[str, np.ndarray], path: Path, rules: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = [
        ("a", "(a) both optimal", "viridis", 0.0, 0.3),
        ("b", "(b) behind: risk-taker, valence 3", "viridis", 0.0, 0.3),
        ("d", "(d) behind: win-seeking player", "viridis", 0.0, 0.3),
        ("b-a", "(b) - (a)", "RdBu", -0.11, 0.11),
        ("c-a", "(c) - (a)", "RdBu", -0.11, 0.11),
        ("d-a", "(d) win-seeker - (a)", "RdBu", -0.11, 0.11),
    ]
    fig, axes = plt.subplots(2, 3, figsize=(15, 9.5))
    for ax, (key, title, cmap, lo, hi) in zip(axes.flat, panels, strict=False):
        data = table[key]
        im = ax.imshow(data, origin="lower", cmap=cmap, vmin=lo, vmax=hi, aspect="auto")
        ax.set_xticks(range(len(YS)), [str(y) for y in YS])
        ax.set_yticks(range(len(XS)), [str(x) for x in XS])
        ax.set_xlabel("round Y (risk allowed from its start)")
        ax.set_ylabel("behind by at least X points")
        ax.set_title(title)
        for i in range(len(XS)):
            for j in range(len(YS)):
                v = data[i, j]
                if np.isfinite(v):
                    dark = v < 0.15 if key in ("a", "b", "c", "d") else abs(v) > 0.06
                    ax.text(j, i, f"{100 * v:.1f}", ha="center", va="center", fontsize=7,
                            color="w" if dark else "k")  # fmt: skip
        fig.colorbar(im, ax=ax, fraction=0.046)
    fig.suptitle(
        f"P(the player behind still wins), two-player {rules}, in % (10,000+ games a cell)"
    )
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def _fmt(v: list[float]) -> str:
    return f"{100 * v[0]:.1f} ({100 * v[1]:.1f} to {100 * v[2]:.1f})"


def report(data: dict[str, Any], out: Path) -> None:
    """Heatmaps and the Markdown tables from the saved JSON."""
    shape = (len(XS), len(YS))
    table = {k: np.full(shape, np.nan) for k in ("a", "b", "c", "d", "b-a", "c-a", "d-a")}
    cells = {(c["X"], c["Y"]): c for c in data["cells"]}
    for (x, y), c in cells.items():
        for k in table:
            if k in c:
                table[k][XS.index(x), YS.index(y)] = c[k][0]
    heatmaps(table, out / "yahtzee_comeback.png", data["rules"])
    lines = [f"Games per cell: {min(c['games'] for c in data['cells']):,} to "
             f"{max(c['games'] for c in data['cells']):,}; {data['base_games']:,} base games, "
             f"seed {data['seed']}, {data['seconds']:.0f} s.", ""]  # fmt: skip
    for key, title in (("a", "(a) P(win) of the player behind, both optimal"),
                       ("b-a", "(b) - (a): risk-taker (valence 3) minus optimal"),
                       ("c-a", "(c) - (a): risk-taker (valence 1) minus optimal"),
                       ("d-a", "(d) - (a): win-seeking player minus optimal")):  # fmt: skip
        lines += [f"### {title}, % with 95% interval", ""]
        lines.append("| X \\ Y | " + " | ".join(str(y) for y in YS) + " |")
        lines.append("|---|" + "---|" * len(YS))
        for x in XS:
            row = [_fmt(cells[(x, y)][key]) if key in cells.get((x, y), {}) else "-" for y in YS]
            lines.append(f"| {x} | " + " | ".join(row) + " |")
        lines.append("")
    (out / "yahtzee_comeback_tables.md").write_text("\n".join(lines))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", default="yahtzee")
    p.add_argument("--games", type=int, default=10_000, help="games per cell")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--batch", type=int, default=200_000)
    p.add_argument("--max-base-games", type=int, default=6_000_000)
    p.add_argument("--out", type=Path, default=ROOT / "docs/results")
    p.add_argument("--report-only", action="store_true", help="redraw from the saved JSON")
    args = p.parse_args()
    if args.report_only:
        report(json.loads((args.out / "yahtzee_comeback.json").read_text()), args.out)
        return
    start = time.perf_counter()
    sol = solve(preset(args.rules))
    match = Match(sol)
    snaps = collect(match, args.games, args.seed, args.batch, args.max_base_games)
    cells: list[dict[str, Any]] = []
    shape = (len(XS), len(YS))
    table = {k: np.full(shape, np.nan) for k in ("a", "b", "c", "d", "b-a", "c-a", "d-a")}
    for j, y in enumerate(YS):
        if y not in snaps:
            continue
        res = continue_games(match, snaps[y], y)
        log(f"round {y}: {len(snaps[y]['cards']):,} positions continued four ways")
        for i, x in enumerate(XS):
            idx = snaps[y]["cells"][x]
            row: dict[str, Any] = {"X": x, "Y": y, "games": len(idx)}
            if len(idx) < 2:
                cells.append(row)
                continue
            for key in ("a", "b", "c", "d"):
                pts = res[key][idx]
                lo, hi = wilson(round(float(pts.sum())), len(pts))[1:]
                row[key] = [float(pts.mean()), lo, hi]
                table[key][i, j] = float(pts.mean())
            for key in ("b", "c", "d"):
                s = mean_ci(res[key][idx] - res["a"][idx])
                row[f"{key}-a"] = [s.mean, s.lo, s.hi]
                table[f"{key}-a"][i, j] = s.mean
            cells.append(row)
    seconds = time.perf_counter() - start
    args.out.mkdir(parents=True, exist_ok=True)
    meta = {"rules": args.rules, "games_per_cell": args.games, "seed": args.seed,
            "base_games": snaps["base_games"], "seconds": seconds}  # fmt: skip
    data = {**meta, "cells": cells}
    (args.out / "yahtzee_comeback.json").write_text(json.dumps(data, indent=1))
    report(data, args.out)
    log(f"done in {seconds:.0f} s")


if __name__ == "__main__":
    main()
