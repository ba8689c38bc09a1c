"""Scrabble move generation: the numba generator against a plain Python one, in one run.

It measures, on ENABLE (``--lexicon``, default ``../shared/lexicons/enable1.txt``):

* the lexicon: build time from the word list into a fresh cache (DAWG build
  and atomic save), the cache file's size, and the load time on a cache hit
  (in a fresh child process, imports timed apart);
* move generations per second over a fixed set of positions (every decision
  of greedy self-play games with ``--seed``): all moves (``MoveGenerator.raw``)
  and the best move only (what the greedy agent calls), for the GADDAG walk
  (the default) and the DAWG walk it replaced, in the same run, after checking
  that both give the same moves in the same order; and the same positions with
  a blank in the rack (the first tile swapped for one), the racks that cost the
  heuristic player most;
* greedy self-play games per second on one core, through the game protocol
  (``strategies.selfplay``);
* the same-script peer: a straightforward Appel & Jacobson (1988) generator in
  plain Python written below (a dict trie, cross-check sets, LeftPart /
  ExtendRight recursion), timed on a subset of the same positions and on a few
  greedy games; before timing, its moves are checked to be exactly the numba
  generator's on that subset.

It prints a table and, as its last line, one JSON object with the figures.

    .venv/bin/python benchmarks/scrabble_movegen.py [--quick] [--positions-games 20]
        [--games 300] [--peer-positions 60] [--peer-games 3] [--seed 2026]
        [--markdown docs/results/scrabble_bench.md]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np

from stratagem.core.game import CHANCE
from stratagem.core.play import play
from stratagem.core.tables import TableCache
from stratagem.games.scrabble.board import (
    BINGO,
    CENTER,
    LETTER_MULT,
    SIZE,
    WORD_MULT,
    Placement,
)
from stratagem.games.scrabble.lexicon import KIND, Lexicon, load_lexicon
from stratagem.games.scrabble.movegen import MoveGenerator
from stratagem.games.scrabble.state import PASS, Exchange, ScrabbleState
from stratagem.games.scrabble.strategies import GreedyAgent, selfplay
from stratagem.games.scrabble.tiles import BLANK_FLAG

REPO = Path(__file__).resolve().parents[1]
DEFAULT_LEXICON = (REPO / ".." / "shared" / "lexicons" / "enable1.txt").resolve()
GOAL_GAMES_PER_SECOND = 30.0
GOAL_BUILD_SECONDS = 30.0
GOAL_SIZE_MB = 50.0
GOAL_LOAD_SECONDS = 1.0


NOTES = """\
How it is measured: the positions are every decision of greedy self-play
games (seeded), so they are realistic mid-game boards with the racks the
greedy player held; "all moves" is the full list with scores, "best move
only" keeps the top move in the kernel (what the greedy agent calls). The
two walks are timed in turn on each position, each position's time the
fastest of 5 calls, so that a change of machine speed during the run hits
both alike (the rates before 2026-12-02 were timed as whole passes over the
positions). Greedy
games/s plays whole games through the game protocol (state objects, bag draws
as chance events, each placement re-checked by the plain scorer), on one
core. The peer is this script's own straightforward Appel & Jacobson (1988)
generator in plain Python over a dict trie; before it is timed, its move set
(squares, word, blanks, score) is checked to equal the numba generator's on
every peer position. The lexicon is ENABLE (the words of 2-15 letters that
the English tiles can spell). The machine is shared with other work, so
rates vary by tens of percent between runs; the ratios come from one run.

Two walks: the first generator walked the DAWG from every square where a
word can start (`_kernels.py`, unchanged: the yardstick of the 2x goal); the
default now walks the GADDAG outwards from the tiles on the board
(`_gaddag_kernels.py`) and sorts its moves into the DAWG walk's order, so
every player makes the same choices with either. Its nodes are numbered
breadth-first from the root. Until 2026-12-02 the GADDAG walk was only
1.20x the DAWG walk (all moves; 1.39x best move only). Two changes made it
2.2-2.5x faster, measured in one process on these 493 positions, each
position timed for the three versions in turn (fastest of 5):
- it picks the next tile to lay from a bit set of the letters on the rack,
  kept up to date as tiles are laid and taken back, where it looped over the
  rack's distinct letters and tested each: 1.74x (all moves) and 2.00x (best
  move only);
- it reads the automaton packed: one int64 per edge holding the record of
  the node the edge leads to (the symbols leaving it, its end-of-word bit and
  the row where its own edges start; a node's edges are found by counting
  set bits). That is 6.7 MB for ENABLE against the 43 MB child table plus the
  node masks read before, and one read a step instead of two: 1.27x and 1.24x
  more.
Storing packed edges without the target's record in them, and not pushing
frames that cannot move on, had not helped earlier. On this machine every
rate is about 2.5 times lower than in the first runs of this script (greedy
self-play 38 games/s against 96 then, with nothing else running), so compare ratios, not rates.
"""


# --- the peer: plain Python Appel & Jacobson -----------------------------------------------


class PyAppelJacobson:
    """Appel & Jacobson's generator over a dict trie, in plain Python (the peer).

    Moves are ``(row, col, down, codes, score)`` with ``(row, col)`` the first
    square of the main word, like the numba generator's records.
    """

    END = -1  # key of the terminal flag in a trie node

    def __init__(self, words: list[str], lexicon: Lexicon) -> None:
        self.tiles = lexicon.tiles
        self.n = lexicon.tiles.size
        self.values = [int(v) for v in lexicon.tiles.values_array]
        self.root: dict[int, Any] = {}
        index = self.tiles.index
        for word in words:
            node = self.root
            for ch in word:
                node = node.setdefault(index[ch], {})
            node[self.END] = True

    def moves(self, board: np.ndarray, rack_counts: np.ndarray) -> list[tuple[Any, ...]]:
        grid = board.tolist()
        rack = [int(x) for x in rack_counts]
        out: list[tuple[Any, ...]] = []
        self._direction(grid, rack, False, out)
        self._direction([list(col) for col in zip(*grid)], rack, True, out)
        return out

    def _cross(self, grid: list[list[int]]) -> tuple[dict[Any, Any], dict[Any, int]]:
        """Per empty square with a tile above or below: allowed letters and the column sum."""
        allowed: dict[tuple[int, int], set[int]] = {}
        sums: dict[tuple[int, int], int] = {}
        for r in range(SIZE):
            for c in range(SIZE):
                if grid[r][c] >= 0:
                    continue
                up = r
                while up > 0 and grid[up - 1][c] >= 0:
                    up -= 1
                down = r
                while down < SIZE - 1 and grid[down + 1][c] >= 0:
                    down += 1
                if up == r and down == r:
                    continue
                above = [grid[i][c] for i in range(up, r)]
                below = [grid[i][c] for i in range(r + 1, down + 1)]
                sums[(r, c)] = sum(self.values[x] for x in above + below if x < BLANK_FLAG)
                ok = set()
                for letter in range(self.n):
                    node: dict[int, Any] | None = self.root
                    for x in [*above, letter, *below]:
                        node = node.get(x & (BLANK_FLAG - 1)) if node is not None else None
                    if node is not None and node.get(self.END):
                        ok.add(letter)
                allowed[(r, c)] = ok
        return allowed, sums

    def _direction(
        self, grid: list[list[int]], rack: list[int], down: bool, out: list[tuple[Any, ...]]
    ) -> None:
        allowed, sums = self._cross(grid)
        empty_board = all(x < 0 for row in grid for x in row)

        def is_anchor(r: int, c: int) -> bool:
            if grid[r][c] >= 0:
                return False
            if empty_board:
                return (r, c) == CENTER
            return any(
                0 <= r + a < SIZE and 0 <= c + b < SIZE and grid[r + a][c + b] >= 0
                for a, b in ((1, 0), (-1, 0), (0, 1), (0, -1))
            )

        def record(r: int, end: int, word: list[int]) -> None:
            start = end - len(word)
            main, mult, cross, laid = 0, 1, 0, 0
            for i, code in enumerate(word):
                c = start + i
                value = 0 if code & BLANK_FLAG else self.values[code]
                if grid[r][c] >= 0:
                    main += value
                    continue
                laid += 1
                value *= int(LETTER_MULT[r, c])
                main += value
                mult *= int(WORD_MULT[r, c])
                if (r, c) in sums:
                    cross += (sums[(r, c)] + value) * int(WORD_MULT[r, c])
            if down and laid == 1:
                c = next(start + i for i in range(len(word)) if grid[r][start + i] < 0)
                if (r, c) in sums:
                    return  # a single tile with an across word: counted across
            score = main * mult + cross + (BINGO if laid == 7 else 0)
            row, col = (start, r) if down else (r, start)
            out.append((row, col, down, tuple(word), score))

        def extend_right(
            r: int, c: int, node: dict[int, Any], word: list[int], anchor: int
        ) -> None:
            if c == SIZE or grid[r][c] < 0:
                if c > anchor and node.get(self.END) and len(word) >= 2:
                    record(r, c, word)
                if c == SIZE:
                    return
            if grid[r][c] >= 0:
                nxt = node.get(grid[r][c] & (BLANK_FLAG - 1))
                if nxt is not None:
                    extend_right(r, c + 1, nxt, [*word, grid[r][c]], anchor)
                return
            ok = allowed.get((r, c))
            for letter, nxt in node.items():
                if letter == self.END or (ok is not None and letter not in ok):
                    continue
                for slot, code in ((letter, letter), (self.n, letter + BLANK_FLAG)):
                    if rack[slot] > 0:
                        rack[slot] -= 1
                        extend_right(r, c + 1, nxt, [*word, code], anchor)
                        rack[slot] += 1

        def left_part(
            r: int, node: dict[int, Any], word: list[int], limit: int, anchor: int
        ) -> None:
            extend_right(r, anchor, node, word, anchor)
            if limit == 0:
                return
            for letter, nxt in node.items():
                if letter == self.END:
                    continue
                for slot, code in ((letter, letter), (self.n, letter + BLANK_FLAG)):
                    if rack[slot] > 0:
                        rack[slot] -= 1
                        left_part(r, nxt, [*word, code], limit - 1, anchor)
                        rack[slot] += 1

        for r in range(SIZE):
            for a in range(SIZE):
                if not is_anchor(r, a):
                    continue
                if a > 0 and grid[r][a - 1] >= 0:
                    start = a - 1
                    while start > 0 and grid[r][start - 1] >= 0:
                        start -= 1
                    node: dict[int, Any] | None = self.root
                    for c in range(start, a):
                        node = node.get(grid[r][c] & (BLANK_FLAG - 1)) if node else None
                    if node is not None:
                        extend_right(r, a, node, [grid[r][c] for c in range(start, a)], a)
                else:
                    limit = 0
                    while (
                        limit < a and grid[r][a - limit - 1] < 0 and not is_anchor(r, a - limit - 1)
                    ):
                        limit += 1
                    left_part(r, self.root, [], min(limit, sum(rack) - 1), a)


class PyGreedy:
    """The greedy agent on the plain Python generator (highest score, first among equals)."""

    def __init__(self, peer: PyAppelJacobson) -> None:
        self.peer = peer

    def act(self, state: ScrabbleState, rng: np.random.Generator) -> object:
        moves = self.peer.moves(state.board_array, state.rack_array())
        if not moves:
            if state.bag_size() >= 7:
                return Exchange(state.rack_text())
            return PASS
        row, col, down, codes, score = max(moves, key=lambda m: m[4])
        word = "".join(state.tiles.square_text(int(x)) for x in codes)
        return Placement(row, col, not down, word, score)


# --- measurements --------------------------------------------------------------------------


def positions(lexicon: Lexicon, games: int, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Every decision's (board, rack) in greedy self-play games."""
    out = []
    agent = GreedyAgent()

    def record(state: ScrabbleState, player: int, action: object) -> None:
        if player != CHANCE:
            out.append((state.board_array, state.rack_array()))

    for i in range(games):
        play(ScrabbleState.new(lexicon), [agent, agent], np.random.default_rng([seed, i]), record)  # type: ignore[arg-type]
    return out


def rate(fn: Any, items: list[Any], min_seconds: float) -> tuple[float, int]:
    """Calls per second of ``fn`` over ``items``, repeating the list for ``min_seconds``."""
    calls = 0
    start = time.perf_counter()
    while True:
        for item in items:
            fn(*item)
        calls += len(items)
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            return calls / elapsed, calls


def paired_rates(fa: Any, fb: Any, items: list[Any], reps: int = 5) -> tuple[float, float]:
    """Calls per second of ``fa`` and ``fb`` over ``items``, the two timed in turn on each
    item and each item's time the fastest of ``reps`` calls: a shared machine whose speed
    drifts during the run then slows both alike, and the ratio stays fair."""
    total = [0.0, 0.0]
    for item in items:
        for k, fn in enumerate((fa, fb)):
            fastest = float("inf")
            for _ in range(reps):
                start = time.perf_counter()
                fn(*item)
                fastest = min(fastest, time.perf_counter() - start)
            total[k] += fastest
    return len(items) / total[0], len(items) / total[1]


def load_in_child(path: Path, cache_dir: Path) -> float:
    code = (
        "import time, warnings;"
        "from stratagem.core.tables import TableCache;"
        "from stratagem.games.scrabble.lexicon import load_lexicon;"
        "t = time.perf_counter();"
        f"lex = load_lexicon({str(path)!r}, 'english', TableCache({str(cache_dir)!r}));"
        "print(time.perf_counter() - t)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=os.environ
    )
    return float(done.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicon", type=Path, default=DEFAULT_LEXICON)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--positions-games", type=int, default=20)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--peer-positions", type=int, default=60)
    parser.add_argument("--peer-games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--markdown", type=Path)
    args = parser.parse_args()
    if args.quick:
        args.positions_games, args.games, args.peer_positions, args.peer_games = 5, 60, 20, 1
    if not args.lexicon.exists():
        print(f"lexicon {args.lexicon} not found; pass --lexicon PATH to ENABLE", file=sys.stderr)
        return 2
    min_seconds = 1.0 if args.quick else 3.0

    # Lexicon: a cold build into a fresh cache, then a cache hit in a fresh process.
    with tempfile.TemporaryDirectory() as tmp:
        cache = TableCache(Path(tmp))
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            lexicon = load_lexicon(args.lexicon, "english", cache)
        build_seconds = time.perf_counter() - start
        files = list(Path(tmp).glob(f"{KIND}-*.tbl"))
        size_mb = sum(f.stat().st_size for f in files) / 1e6
        load_seconds = min(load_in_child(args.lexicon, Path(tmp)) for _ in range(3))

    gen = MoveGenerator(lexicon)
    gen.best(*positions(lexicon, 1, 0)[0])  # compile (or load) the kernels
    fixed = positions(lexicon, args.positions_games, args.seed)
    dawg = MoveGenerator(lexicon, walk="dawg")
    blanks = []
    for board, rack in fixed:
        if rack[:-1].sum() > 0:
            more = rack.copy()
            more[int(np.flatnonzero(more[:-1])[0])] -= 1
            more[-1] += 1
            blanks.append((board, more))
    for board, rack in fixed + blanks:  # the same moves, in the same order
        (gi, gw), (di, dw) = gen.raw(board, rack), dawg.raw(board, rack)
        inside = np.arange(gw.shape[1]) < gi[:, 3:4]  # the squares of each word
        if not (np.array_equal(gi, di) and np.array_equal(gw[inside], dw[inside])):
            print("the GADDAG and DAWG walks disagree on a position", file=sys.stderr)
            return 1
    reps = 3 if args.quick else 5
    all_rate, dawg_all_rate = paired_rates(gen.raw, dawg.raw, fixed, reps)
    best_rate, dawg_best_rate = paired_rates(gen.best, dawg.best, fixed, reps)
    blank_rate, dawg_blank_rate = paired_rates(gen.raw, dawg.raw, blanks, reps)
    moves_per_position = float(np.mean([len(gen.raw(b, r)[0]) for b, r in fixed]))
    blank_moves = float(np.mean([len(gen.raw(b, r)[0]) for b, r in blanks]))

    sp = selfplay(lexicon, ["greedy", "greedy"], args.games, args.seed)
    games_per_second = float(sp["games_per_second"])  # type: ignore[arg-type]

    # The peer: same moves first, then its speed.
    words = [w.strip().upper() for w in args.lexicon.read_text().split()]
    words = [w for w in words if w in lexicon]
    peer = PyAppelJacobson(words, lexicon)
    subset = fixed[:: max(1, len(fixed) // args.peer_positions)][: args.peer_positions]
    for board, rack in subset:
        info, codes = gen.raw(board, rack)
        ours = {
            (int(i[0]), int(i[1]), int(i[2]), tuple(int(x) for x in codes[k, : i[3]]), int(i[4]))
            for k, i in enumerate(info)
        }
        theirs = {(m[0], m[1], int(m[2]), m[3], m[4]) for m in peer.moves(board, rack)}
        if ours != theirs:
            print("the peer and the numba generator disagree on a position", file=sys.stderr)
            return 1
    peer_rate, _ = rate(peer.moves, subset, min_seconds)
    ours_subset_rate, _ = rate(gen.raw, subset, min_seconds)
    py_agent = PyGreedy(peer)
    start = time.perf_counter()
    peer_scores = []
    for i in range(args.peer_games):
        rng = np.random.default_rng([args.seed, i])
        end = play(ScrabbleState.new(lexicon), [py_agent, py_agent], rng).state  # type: ignore[list-item]
        peer_scores.append(end.scores)  # type: ignore[attr-defined]
    peer_games_per_second = args.peer_games / (time.perf_counter() - start)

    figures = {
        "lexicon_words": lexicon.word_count,
        "dawg_nodes": lexicon.node_count,
        "build_seconds": round(build_seconds, 2),
        "cache_mb": round(size_mb, 2),
        "load_seconds": round(load_seconds, 3),
        "positions": len(fixed),
        "moves_per_position": round(moves_per_position, 1),
        "movegen_all_per_s": round(all_rate, 1),
        "movegen_best_per_s": round(best_rate, 1),
        "gaddag_nodes": int(lexicon.gaddag[0].shape[0]),  # type: ignore[index]
        "dawg_walk_all_per_s": round(dawg_all_rate, 1),
        "dawg_walk_best_per_s": round(dawg_best_rate, 1),
        "gaddag_over_dawg_all": round(all_rate / dawg_all_rate, 2),
        "gaddag_over_dawg_best": round(best_rate / dawg_best_rate, 2),
        "blank_positions": len(blanks),
        "blank_moves_per_position": round(blank_moves, 1),
        "blank_all_per_s": round(blank_rate, 1),
        "dawg_walk_blank_all_per_s": round(dawg_blank_rate, 1),
        "gaddag_over_dawg_blank": round(blank_rate / dawg_blank_rate, 2),
        "greedy_games_per_s": round(games_per_second, 2),
        "greedy_mean_scores": sp["mean_score"],
        "bingos_per_game": sp["bingos_per_game"],
        "peer_positions": len(subset),
        "peer_movegen_per_s": round(peer_rate, 2),
        "ours_on_peer_positions_per_s": round(ours_subset_rate, 1),
        "movegen_speedup": round(ours_subset_rate / peer_rate, 1),
        "peer_greedy_games_per_s": round(peer_games_per_second, 3),
        "games_speedup": round(games_per_second / peer_games_per_second, 1),
        "python": platform.python_version(),
        "machine": platform.processor() or platform.machine(),
    }
    rows = [
        (
            "lexicon build (ENABLE -> DAWG and GADDAG, saved)",
            f"{build_seconds:.2f} s",
            f"< {GOAL_BUILD_SECONDS:g} s",
        ),
        ("lexicon cache file", f"{size_mb:.1f} MB", f"< {GOAL_SIZE_MB:g} MB"),
        (
            "lexicon load (cache hit, fresh process)",
            f"{load_seconds:.3f} s",
            f"< {GOAL_LOAD_SECONDS:g} s",
        ),
        (
            f"move generations/s, all moves ({len(fixed)} positions, "
            f"{moves_per_position:.0f} moves each on average)",
            f"{all_rate:,.0f}",
            "",
        ),
        ("move generations/s, best move only", f"{best_rate:,.0f}", ""),
        ("DAWG walk (the generator before), all moves", f"{dawg_all_rate:,.0f}", ""),
        ("DAWG walk, best move only", f"{dawg_best_rate:,.0f}", ""),
        ("  ratio GADDAG / DAWG, all moves", f"{all_rate / dawg_all_rate:.2f}x", ">= 2x"),
        ("  ratio GADDAG / DAWG, best move only", f"{best_rate / dawg_best_rate:.2f}x", ""),
        (
            f"racks with a blank: move generations/s, all moves ({len(blanks)} positions, "
            f"{blank_moves:.0f} moves each)",
            f"{blank_rate:,.0f}",
            "",
        ),
        ("DAWG walk, racks with a blank", f"{dawg_blank_rate:,.0f}", ""),
        ("  ratio GADDAG / DAWG, racks with a blank", f"{blank_rate / dawg_blank_rate:.2f}x", ""),
        (
            f"greedy self-play games/s, one core ({args.games} games)",
            f"{games_per_second:.1f}",
            f">= {GOAL_GAMES_PER_SECOND:g}",
        ),
        (
            f"plain Python Appel-Jacobson: move generations/s ({len(subset)} positions)",
            f"{peer_rate:.2f}",
            "",
        ),
        ("numba on the same positions: move generations/s", f"{ours_subset_rate:,.0f}", ""),
        ("  ratio numba / Python (move generation)", f"{ours_subset_rate / peer_rate:.0f}x", ""),
        (
            f"plain Python greedy games/s ({args.peer_games} games)",
            f"{peer_games_per_second:.3f}",
            "",
        ),
        (
            "  ratio numba / Python (greedy games)",
            f"{games_per_second / peer_games_per_second:.0f}x",
            "",
        ),
    ]
    width = max(len(r[0]) for r in rows)
    lines = [f"{'measure':<{width}}  {'result':>12}  goal", "-" * (width + 22)]
    lines += [f"{a:<{width}}  {b:>12}  {c}" for a, b, c in rows]
    table = "\n".join(lines)
    print(table)
    if args.markdown:
        md = ["| measure | result | goal |", "| --- | ---: | --- |"]
        md += [f"| {a.strip()} | {b} | {c} |" for a, b, c in rows]
        args.markdown.write_text(
            "# Scrabble move generation benchmark\n\n"
            "`.venv/bin/python benchmarks/scrabble_movegen.py --markdown "
            "docs/results/scrabble_bench.md`\n\n" + "\n".join(md) + "\n\n" + NOTES
            + "\n```json\n" + json.dumps(figures, indent=1) + "\n```\n"
        )  # fmt: skip
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
