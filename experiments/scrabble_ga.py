"""Scrabble players against greedy and each other, and the GA's fitness curve.

Every match is an arena experiment between two agents on mirrored pairs of
games (the same draws, seats swapped), resumable from its results file under
``runs/scrabble_ga/``. ``report`` turns the GA run directories and whatever
match files exist into docs/results/scrabble_ga.md, scrabble_ga.png and
scrabble_ga.json: win rates with Wilson 95% intervals over games, and the mean
spread per pair with its 95% interval.

Usage::

    python experiments/scrabble_ga.py play --match tuned-greedy --games 20000 --workers 2
    python experiments/scrabble_ga.py report --ga runs/ga_en --ga-leave runs/ga_en_leave
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RUNS = ROOT / "runs" / "scrabble_ga"
DOCS = ROOT / "docs" / "results"

H = "heuristic:endgame=off"
BEST = "heuristic:weights=leave,endgame=off"
EQ = "equity:endgame=off"
SRC = "heuristic:weights=source,endgame=off"
MATCHES: dict[str, tuple[str, str, str, str]] = {
    # name: (rules, agent A, agent B, what it measures); the closing phase is played by
    # each player's own evaluation (endgame=off), as greedy plays it.
    "tuned-greedy": ("english", H, "greedy", "GA-tuned heuristic vs greedy"),
    "equity-greedy": ("english", EQ, "greedy", "equity (score + leave) vs greedy"),
    "best-greedy": ("english", BEST, "greedy", "heuristic + leave term (GA-tuned) vs greedy"),
    "source-greedy": ("english", SRC, "greedy", "the source's weights vs greedy"),
    "tuned-equity": ("english", H, EQ, "tuned heuristic vs equity"),
    "best-equity": ("english", BEST, EQ, "heuristic + leave vs equity"),
    "best-tuned": ("english", BEST, H, "heuristic + leave vs tuned heuristic"),
    "cz-tuned-greedy": ("czech", H, "greedy", "Czech: tuned heuristic vs greedy"),
    "cz-source-greedy": ("czech", SRC, "greedy", "Czech: the source's weights vs greedy"),
    "cz-equity-greedy": ("czech", EQ, "greedy", "Czech: equity vs greedy"),
    "enable-equity-greedy": ("enable", EQ, "greedy", "ENABLE: equity (score + leave) vs greedy"),
    "enable-tuned-greedy": ("enable", H, "greedy", "ENABLE: GA-tuned heuristic vs greedy"),
    "enable-best-greedy": ("enable", BEST, "greedy", "ENABLE: heuristic + leave term vs greedy"),
    # the same equity player with the exact endgame solver in the closing phase, cut at
    # 20,000 nodes a move (a node limit: the same moves on any machine)
    "enable-equity-endgame-greedy": (
        "enable",
        "equity:nodes=20000",
        "greedy",
        "ENABLE: equity + endgame solver (20,000 nodes a move) vs greedy, solver before the "
        "fix of 2026-12-02",
    ),
    # the same after the solver's cross-check fix, with the table kept between moves
    "enable-endgame-greedy": (
        "enable",
        "equity:nodes=20000",
        "greedy",
        "ENABLE: equity + endgame solver (20,000 nodes a move, table kept) vs greedy",
    ),
    # the same with five times the node budget (the solver 1.4x faster per node since)
    "enable-endgame100k-greedy": (
        "enable",
        "equity:nodes=100000",
        "greedy",
        "ENABLE: equity + endgame solver (100,000 nodes a move, table kept) vs greedy",
    ),
    # the same after the solver learned to attempt a search to the end after each
    # iteration (2026-12-02, evening): more endgames proved within the node limit
    "enable-endgame100k-to-end-greedy": (
        "enable",
        "equity:nodes=100000",
        "greedy",
        "ENABLE: equity + endgame solver with attempts to the end (100,000 nodes a move) vs greedy",
    ),
    # the same after the solver's move ordering put the moves that unload the rack first
    # (session 26: 2.24x fewer nodes on the benchmark endgames)
    "enable-endgame100k-order-greedy": (
        "enable",
        "equity:nodes=100000",
        "greedy",
        "ENABLE: equity + endgame solver, moves laying more tiles first (100,000 nodes a move) "
        "vs greedy",
    ),
    # the same after the aspiration windows and the enhanced transposition cutoff (session 28:
    # 1.07x fewer nodes on the benchmark endgames, the same values)
    "enable-endgame100k-asp-greedy": (
        "enable",
        "equity:nodes=100000",
        "greedy",
        "ENABLE: equity + endgame solver with aspiration windows (100,000 nodes a move) vs greedy",
    ),
    "enable-ga6-greedy": (
        "enable",
        "heuristic:weights=runs/scrabble_ga/ga-leave-enable/best_weights.json,endgame=off",
        "greedy",
        "ENABLE: heuristic + leave term (GA on ENABLE from the equity weights) vs greedy",
    ),
    # the six-term player tuned again on ENABLE (session 28): from the equity weights, seed
    # 2029, population 10, 400 games a player, 8 generations (32,000 fitness games)
    "enable-ga6-s28-greedy": (
        "enable",
        "heuristic:weights=runs/scrabble_ga/ga6-enable-s28/best_weights.json,endgame=off",
        "greedy",
        "ENABLE: heuristic + leave term, second GA on ENABLE (32,000 games from the equity "
        "weights) vs greedy",
    ),
    # the five-term player tuned again on ENABLE (session 26): 100,000 fitness games from the
    # shipped weights, population 20, 200 games a player
    "enable-ga5-greedy": (
        "enable",
        "heuristic:weights=runs/scrabble_ga/ga5-enable-s26/best_weights.json,endgame=off",
        "greedy",
        "ENABLE: heuristic, five terms, GA on ENABLE (100,000 games from the shipped weights) "
        "vs greedy",
    ),
    # the five-term player tuned in Czech, the source's language (session 27): 100,000
    # fitness games from the source's weights, population 20, 200 games a player
    "cz-ga5-greedy": (
        "czech",
        "heuristic:weights=runs/scrabble_ga/ga5-czech-s27/best_weights.json,endgame=off",
        "greedy",
        "Czech: heuristic, five terms, GA in Czech (100,000 games from the source's weights) "
        "vs greedy",
    ),
    # the six-term player tuned in Czech (session 28), as on ENABLE: 16,000 fitness games from
    # the equity weights (with the Czech leave table), population 10, 200 games a player
    "cz-ga6-greedy": (
        "czech",
        "heuristic:weights=runs/scrabble_ga/ga6-czech-s28/best_weights.json,endgame=off",
        "greedy",
        "Czech: heuristic + leave term, GA in Czech (16,000 games from the equity weights) "
        "vs greedy",
    ),
    # the best Czech player (the six-term weights tuned in Czech, shipped as
    # weights_leave_czech.json) with the endgame solver at 100,000 nodes a move (session 29),
    # played with the two-round Czech leave table shipped until then and stopped at 2,208
    # pairs; not to be resumed: the shipped table has changed since
    "cz-ga6-endgame100k-r2-greedy": (
        "czech",
        "heuristic:weights=leave,nodes=100000",
        "greedy",
        "Czech: heuristic + leave term (GA in Czech) + endgame solver (100,000 nodes a move), "
        "two-round leave table, partial run, vs greedy",
    ),
    # the source's player as the issue defines it, with the exact endgame solver in the
    # closing phase (session 30): the shipped five-term weights, 20,000 nodes a move
    "enable-tuned-endgame20k-greedy": (
        "enable",
        "heuristic:nodes=20000",
        "greedy",
        "ENABLE: GA-tuned heuristic (five terms) + endgame solver (20,000 nodes a move) vs greedy",
    ),
    # the Czech best player with the pair leave table shipped in session 29: the six-term
    # heuristic tuned in Czech with the endgame solver at 20,000 nodes a move (session 30)
    "cz-ga6-endgame20k-greedy": (
        "czech",
        "heuristic:weights=leave,nodes=20000",
        "greedy",
        "Czech: heuristic + leave term (GA in Czech), pair leave table, + endgame solver "
        "(20,000 nodes a move) vs greedy",
    ),
    # the equity player with a third round of leave learning (session 29): 8,000 self-play
    # games of the equity player with the shipped table, fitted twice from it, without and
    # with the letter-pair terms (the same records)
    "enable-equity-r3-greedy": (
        "enable",
        "equity:leaves=runs/scrabble_leaves/enable-r3/round3.json,endgame=off",
        "greedy",
        "ENABLE: equity, leave table of a third self-play round vs greedy",
    ),
    "enable-equity-r3p-greedy": (
        "enable",
        "equity:leaves=runs/scrabble_leaves/enable-r3p/round3.json,endgame=off",
        "greedy",
        "ENABLE: equity, leave table of a third round with letter-pair terms vs greedy",
    ),
    # a fourth round with the pair terms: 16,000 games of the equity player with the round-3
    # pair table, fitted twice from it
    "enable-equity-r4p-greedy": (
        "enable",
        "equity:leaves=runs/scrabble_leaves/enable-r4p/round4.json,endgame=off",
        "greedy",
        "ENABLE: equity, leave table of a fourth round with letter-pair terms vs greedy",
    ),
    # the shipped players again with the round-4 pair table shipped (session 29): the six-term
    # heuristic (its weights tuned with the table before) and the best player, equity with the
    # endgame solver at 100,000 nodes a move
    "enable-best-pairs-greedy": (
        "enable",
        BEST,
        "greedy",
        "ENABLE: heuristic + leave term (GA-tuned), with the pair leave table, vs greedy",
    ),
    "enable-endgame100k-pairs-greedy": (
        "enable",
        "equity:nodes=100000",
        "greedy",
        "ENABLE: equity with the pair leave table + endgame solver (100,000 nodes a move) vs "
        "greedy",
    ),
    # Czech: a third leave round with the letter-pair terms (session 29): 16,000 games of the
    # equity player with the shipped Czech table, fitted twice from it
    "cz-equity-r3p-greedy": (
        "czech",
        "equity:leaves=runs/scrabble_leaves/czech-r3p/round3.json,endgame=off",
        "greedy",
        "Czech: equity, leave table of a third round with letter-pair terms vs greedy",
    ),
    "cz-equity-r3-greedy": (
        "czech",
        "equity:leaves=runs/scrabble_leaves/czech-r3/round3.json,endgame=off",
        "greedy",
        "Czech: equity, leave table of a third round without pair terms (the same records) "
        "vs greedy",
    ),
    "cz-ga6-r3p-greedy": (
        "czech",
        "heuristic:weights=leave,leaves=runs/scrabble_leaves/czech-r3p/round3.json,endgame=off",
        "greedy",
        "Czech: heuristic + leave term (GA in Czech), with the pair leave table, vs greedy",
    ),
    # each against the others, on ENABLE
    "enable-equity-tuned": ("enable", EQ, H, "ENABLE: equity vs GA-tuned heuristic"),
    "enable-endgame-equity": (
        "enable",
        "equity:nodes=20000",
        EQ,
        "ENABLE: equity + endgame solver vs equity",
    ),
    "enable-endgame-tuned": (
        "enable",
        "equity:nodes=20000",
        H,
        "ENABLE: equity + endgame solver vs GA-tuned heuristic",
    ),
    # the equity player with the closing rule its docstring had always described but the code
    # lacked (session 31): without the solver, going out earns twice the other rack and a move
    # that does not go out costs the tiles it keeps
    "enable-equity-closing-greedy": (
        "enable",
        EQ,
        "greedy",
        "ENABLE: equity with the closing rule (going out, tiles kept) vs greedy",
    ),
    "cz-equity-closing-greedy": (
        "czech",
        EQ,
        "greedy",
        "Czech: equity with the closing rule (going out, tiles kept) vs greedy",
    ),
    # each against the others again with the players shipped since session 29 (the letter-pair
    # leave table): the rows above were played with the two-round table (session 31)
    "enable-pairs-equity-tuned": (
        "enable",
        EQ,
        H,
        "ENABLE: equity vs GA-tuned heuristic (five terms), pair leave table",
    ),
    "enable-pairs-best-equity": (
        "enable",
        BEST,
        EQ,
        "ENABLE: heuristic + leave term vs equity, both with the pair leave table",
    ),
    # stopped at 5,616 pairs (0.35 s a game on one core); resumable
    "enable-pairs-endgame-best": (
        "enable",
        "equity:nodes=20000",
        BEST,
        "ENABLE: equity + endgame solver (20,000 nodes a move) vs heuristic + leave term, "
        "pair leave table",
    ),
    # session 32: the heuristic players with the equity player's closing rule instead of
    # their closing-phase weights (no solver)
    "enable-best-rule-greedy": (
        "enable",
        "heuristic:weights=leave,closing=rule,endgame=off",
        "greedy",
        "ENABLE: heuristic + leave term with the closing rule vs greedy",
    ),
    # session 32: the session-26 five-term run resumed (same options and seed) for about
    # four times as many fitness games; its best player of the last generation
    "enable-ga5-long-greedy": (
        "enable",
        "heuristic:weights=runs/scrabble_ga/ga5-enable-s32/best_weights.json,endgame=off",
        "greedy",
        "ENABLE: heuristic, five terms, the GA of session 26 resumed (436,000 fitness games "
        "in all) vs greedy",
    ),
    "enable-tuned-rule-greedy": (
        "enable",
        "heuristic:closing=rule,endgame=off",
        "greedy",
        "ENABLE: GA-tuned heuristic (five terms) with the closing rule vs greedy",
    ),
}
ENABLE = (ROOT / ".." / "shared" / "lexicons" / "enable1.txt").resolve()
RULES = {"english": "english", "czech": "czech", "enable": f"english:{ENABLE}"}
"""Rules of each label in MATCHES: the built-in lexicons, or ENABLE as a word list."""
SEED = 2026


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def play(name: str, games: int, workers: int) -> None:
    from stratagem.core.arena import make_executor, make_experiment, run

    rules, a, b, _ = MATCHES[name]
    exp = make_experiment("scrabble", RULES[rules], [a, b], SEED, "match")
    RUNS.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    last = [0.0]

    def progress(done: int, total: int) -> None:
        now = time.perf_counter()
        if now - last[0] > 60 or done == total:
            last[0] = now
            log(f"{name}: {done}/{total} games ({now - start:.0f} s)")

    run(exp, games, RUNS / f"{name}.csv", make_executor("local", workers), chunk=16,
        progress=progress)  # fmt: skip


def summarize(name: str) -> dict[str, Any] | None:
    from stratagem.core.arena import read_results
    from stratagem.core.stats import mean_ci, wilson

    path = RUNS / f"{name}.csv"
    if not path.exists():
        return None
    rows = read_results(path)
    if not rows:
        return None
    rules, a, b, what = MATCHES[name]
    by_pair: dict[int, list[dict[str, Any]]] = {}
    for r in rows:
        by_pair.setdefault(r["pair_index"], []).append(r)
    wins = 0.0
    games = 0
    spreads = []
    seconds = 0.0
    for pair in by_pair.values():
        if len(pair) != 2:
            continue  # only whole mirrored pairs count
        margin = 0.0
        for r in pair:
            seats = json.loads(r["seats"])
            ret = json.loads(r["returns"])
            me = seats.index(a)
            d = ret[me] - ret[1 - me]
            margin += d
            wins += 1.0 if d > 0 else 0.5 if d == 0 else 0.0
            games += 1
            seconds += r["seconds"]
        spreads.append(margin / 2)
    if not games:
        return None
    _, lo, hi = wilson(round(wins), games)
    s = mean_ci(spreads)
    return {
        "match": name, "rules": rules, "a": a, "b": b, "what": what,
        "pairs": len(spreads), "games": games, "wins": wins, "win_rate": wins / games,
        "win_lo": lo, "win_hi": hi, "spread": s.mean, "spread_lo": s.lo, "spread_hi": s.hi,
        "seconds_per_game": seconds / games,
    }  # fmt: skip


CURVES: dict[str, tuple[str, str]] = {
    # report option: (the GA run's label in the plot, its colour)
    "ga": ("heuristic (h1-h5)", "#3b6ea8"),
    "ga_leave": ("heuristic + leave (h1-h6)", "#c0392b"),
    "ga_leave_enable": ("heuristic + leave (h1-h6), ENABLE, from the equity weights", "#2e8b57"),
    "ga_enable": ("heuristic (h1-h5), ENABLE, 436,000 games from the shipped weights", "#8e44ad"),
    "ga_czech": ("heuristic (h1-h5), Czech, 100,000 games from the source's weights", "#e67e22"),
    "ga6_czech": ("heuristic + leave (h1-h6), Czech, from the equity weights", "#d63384"),
    "ga6_enable": ("heuristic + leave (h1-h6), ENABLE, second run, 400 games a player", "#555555"),
}


def read_history(directory: Path) -> list[dict[str, float]]:
    path = directory / "history.csv"
    if not path.exists():
        return []
    with open(path, newline="", encoding="utf-8") as handle:
        return [{k: float(v) for k, v in row.items()} for row in csv.DictReader(handle)]


def plot(curves: dict[str, list[dict[str, float]]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 5.5))
    colors = dict(CURVES.values())
    for label, hist in curves.items():
        if not hist:
            continue
        gen = [h["generation"] for h in hist]
        color = colors.get(label, "k")
        ax.plot(gen, [h["best_rate"] for h in hist], "-o", ms=3, color=color,
                label=f"{label}: best of generation")  # fmt: skip
        ax.plot(gen, [h["mean_rate"] for h in hist], "--", color=color,
                label=f"{label}: generation mean")  # fmt: skip
    ax.axhline(0.5, color="grey", lw=0.8)
    ax.set_xlabel("generation")
    ax.set_ylabel("win rate against greedy (fitness games)")
    ax.set_title("Scrabble GA: fitness per generation")
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2)
    fig.tight_layout()
    tmp = path.with_suffix(".tmp.png")
    fig.savefig(tmp, dpi=110, bbox_inches="tight")
    plt.close(fig)
    tmp.replace(path)


def weights_table() -> list[str]:
    from stratagem.core.errors import StratagemError
    from stratagem.games.scrabble.heuristic import PHASES, SOURCE_WEIGHTS, shipped_weights

    sets = {"source": SOURCE_WEIGHTS, "tuned": shipped_weights("tuned")}
    with contextlib.suppress(StratagemError):  # not shipped yet
        sets["tuned + leave"] = shipped_weights("leave")
    lines = ["| weights | phase | " + " | ".join(["expensive", "blank", "identical", "premium",
             "leave"]) + " |", "| --- | --- | ---: | ---: | ---: | ---: | ---: |"]  # fmt: skip
    for label, w in sets.items():
        for i, phase in enumerate(PHASES):
            cells = [f"{w.array[i, j]:.0f}" for j in range(w.array.shape[1])]
            if len(cells) == 4:
                cells.append("-")
            lines.append(f"| {label} | {phase} | " + " | ".join(cells) + " |")
    return lines


def report(
    ga: Path | None,
    ga_leave: Path | None,
    ga_leave_enable: Path | None = None,
    ga_enable: Path | None = None,
    ga_czech: Path | None = None,
    ga6_czech: Path | None = None,
    ga6_enable: Path | None = None,
) -> None:
    results = [s for s in (summarize(n) for n in MATCHES) if s is not None]
    DOCS.mkdir(parents=True, exist_ok=True)
    # Matches and GA curves whose files this checkout lacks are carried over from the JSON
    # of the earlier report, marked with the session they come from.
    old_json = DOCS / "scrabble_ga.json"
    old = json.loads(old_json.read_text()) if old_json.exists() else {}
    curves: dict[str, list[dict[str, float]]] = dict(old.get("ga", {}))
    dirs = (ga, ga_leave, ga_leave_enable, ga_enable, ga_czech, ga6_czech, ga6_enable)
    for (label, _), directory in zip(CURVES.values(), dirs, strict=True):
        if directory:
            curves[label] = read_history(directory)
    # A local file shorter than the row reported earlier (a run dir lost, a match restarted)
    # does not replace that row.
    earlier = {r["match"]: r for r in old.get("matches", [])}
    results = [
        r if r["pairs"] >= earlier.get(r["match"], {}).get("pairs", 0) else earlier[r["match"]]
        for r in results
    ]
    have = {r["match"] for r in results}
    for r in old.get("matches", []):
        if r["match"] not in have:
            results.append(r)
    for r in results:
        if r is earlier.get(r["match"]):
            r.setdefault("session", "earlier")
    ga = {k: v for k, v in curves.items() if v}
    if ga:
        plot(ga, DOCS / "scrabble_ga.png")
    payload = {"matches": results, "ga": ga}
    (DOCS / "scrabble_ga.json").write_text(json.dumps(payload, indent=1) + "\n")
    lines = [
        "| match | rules | pairs | games | win rate of A | 95% interval | mean spread "
        "(A - B) | 95% interval |",
        "| --- | --- | ---: | ---: | ---: | --- | ---: | --- |",
    ]
    for r in results:
        earlier = " (earlier session)" if r.get("session") == "earlier" else ""
        lines.append(
            f"| {r['what']}{earlier} (`{r['a']}` vs `{r['b']}`) | {r['rules']} | {r['pairs']:,} | "
            f"{r['games']:,} | {r['win_rate']:.1%} | {r['win_lo']:.1%}-{r['win_hi']:.1%} | "
            f"{r['spread']:+.1f} | {r['spread_lo']:+.1f} to {r['spread_hi']:+.1f} |"
        )
    text = DOCS / "scrabble_ga.md"
    head = text.read_text(encoding="utf-8") if text.exists() else ""
    marker_a, marker_b = "<!-- matches -->", "<!-- /matches -->"
    table = "\n".join(lines)
    if marker_a in head and marker_b in head:
        before, rest = head.split(marker_a, 1)
        _, after = rest.split(marker_b, 1)
        head = before + marker_a + "\n" + table + "\n" + marker_b + after
        wa, wb = "<!-- weights -->", "<!-- /weights -->"
        if wa in head and wb in head:
            before, rest = head.split(wa, 1)
            _, after = rest.split(wb, 1)
            head = before + wa + "\n" + "\n".join(weights_table()) + "\n" + wb + after
        text.write_text(head, encoding="utf-8")
    else:
        print(table)
        print("\n".join(weights_table()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("play")
    p.add_argument("--match", required=True, choices=sorted(MATCHES))
    p.add_argument("--games", type=int, required=True)
    p.add_argument("--workers", type=int, default=2)
    r = sub.add_parser("report")
    for option in CURVES:
        r.add_argument("--" + option.replace("_", "-"), type=Path)
    args = parser.parse_args()
    if args.cmd == "play":
        play(args.match, args.games, args.workers)
    else:
        report(*(getattr(args, option) for option in CURVES))


if __name__ == "__main__":
    main()
