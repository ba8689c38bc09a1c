"""``stratagem scorefour ...``: count, evaluate, best, play.

A board is given as levels bottom to top separated by ``/``, each level 16
cells ``x``, ``o`` or ``.`` for pegs a1 b1 c1 d1 a2 ... d4; levels left out are
empty (``--board xxx.ooo.........``).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Sequence
from math import comb
from typing import Annotated, Any

import numpy as np
import typer
from rich.console import Console

from stratagem.cli_options import AiOpt, JsonOpt, OptionalSecondsOpt, OptionalSeedOpt, emit_json
from stratagem.core.errors import InvalidRulesError
from stratagem.games.scorefour import _kernels
from stratagem.games.scorefour.board import peg_name
from stratagem.games.scorefour.evaluation import evaluate
from stratagem.games.scorefour.players import DEPTH_TIME_LIMIT
from stratagem.games.scorefour.search import MAX_DEPTH, Minimax, value_text
from stratagem.games.scorefour.state import RULES, ScoreFourState, render

app = typer.Typer(
    help="Score Four (4x4x4 with gravity): search, evaluation, play.", no_args_is_help=True
)
out = Console(highlight=False, emoji=False)

MAX_COUNT = 10**10
"""Most move sequences count visits (about a minute at 2e8 a second)."""
BoardOpt = Annotated[
    str, typer.Option("--board", help="Levels bottom to top, '/'-separated, 16 of x o . each.")
]


def _depth_option(depth_help: str) -> Any:
    """The ``--depth`` option of a minimax search (range checked); ``--seconds`` is the
    shared option of :mod:`stratagem.cli_options`."""
    return typer.Option("--depth", min=1, max=MAX_DEPTH, help=depth_help)


_BEST_DEPTH = _depth_option(
    "Plies to search, 1..64 (without it: --seconds of iterative deepening, default 1; with "
    f"it the search also stops after {DEPTH_TIME_LIMIT:g} s)."
)


def move_sequences(heights: Sequence[int], depth: int) -> list[int]:
    """The number of move sequences of 1, 2, ..., ``depth`` plies from pegs of these
    ``heights`` if no line of four ended the game: the orders in which the pegs' free
    places can be taken (a peg takes at most four beads). With wins, perft counts fewer.

    >>> move_sequences([0] * 16, 6)[-1] == 16**6 - 16 * 91  # a peg may not take 5 or 6
    True
    >>> move_sequences([4] * 14 + [3, 2], 5)  # three places left: no 4- or 5-ply sequence
    [2, 3, 3, 0, 0]
    """
    ways = [1] + [0] * depth  # ways[j]: sequences of j plies on the pegs seen so far
    for height in heights:
        room = 4 - height
        ways = [
            sum(comb(j, k) * ways[j - k] for k in range(min(room, j) + 1)) for j in range(depth + 1)
        ]
    return ways[1:]


@app.command("count")
def count_command(
    depth: Annotated[int, typer.Option("--depth", help="Plies from the position.")],
    board: BoardOpt = "",
    as_json: JsonOpt = False,
) -> None:
    """Count move sequences of exactly DEPTH plies (perft); a won game is not extended."""
    if not 0 <= depth <= 64:
        raise InvalidRulesError(f"--depth must be 0..64, got {depth}")
    state = ScoreFourState.from_string(board)
    bound = sum(move_sequences(state.heights(), depth))
    if bound > MAX_COUNT:
        open_pegs = sum(1 for h in state.heights() if h < 4)
        raise InvalidRulesError(
            f"--depth {depth} from this position means up to {bound:.3g} move sequences of "
            f"1..{depth} plies to visit (the orders in which its {open_pegs} open pegs can "
            f"fill; wins cut some short); at most {MAX_COUNT:.0e} are counted (a smaller "
            "--depth, or a fuller board)"
        )
    beads = np.array(state.beads, dtype=np.uint64)
    heights = np.array(state.heights(), dtype=np.int64)
    start = time.perf_counter()
    leaves = (
        0
        if state.is_terminal() and depth > 0
        else int(_kernels.perft(beads, heights, state.player, depth))
    )
    seconds = time.perf_counter() - start
    if as_json:
        emit_json("scorefour count", {"board": state.to_string(), "depth": depth},
                  {"depth": depth, "leaves": leaves})  # fmt: skip
        return
    out.print(f"depth {depth}: {leaves:,} move sequences ({seconds:.2f} s)")


@app.command("evaluate")
def evaluate_command(board: BoardOpt = "", as_json: JsonOpt = False) -> None:
    """The paper's static evaluation U of a position, for each side."""
    state = ScoreFourState.from_string(board)
    values = {"x": evaluate(state, 0), "o": evaluate(state, 1)}
    if as_json:
        result = {"board": state.to_string(), "to_move": "xo"[state.player], **values}
        emit_json("scorefour evaluate", {"board": state.to_string()}, result)
        return
    out.print(render(state))
    out.print(
        f"U for X: {values['x']:+.0f}   U for O: {values['o']:+.0f}   ({state.result_text()})"
    )


@app.command("best")
def best_command(
    board: BoardOpt = "",
    depth: Annotated[int | None, _BEST_DEPTH] = None,
    seconds: OptionalSecondsOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The minimax move of a position (default: 1 second of iterative deepening)."""
    state = ScoreFourState.from_string(board)
    if seconds is None:
        seconds = 1.0 if depth is None else DEPTH_TIME_LIMIT
    result = Minimax().search(state, depth, seconds)
    data = {
        "move": peg_name(result.move), "value": result.value, "result": value_text(result.value),
        "depth": result.depth,
        "nodes": result.nodes, "seconds": result.seconds,
        "nodes_per_second": result.nodes_per_second,
    }  # fmt: skip
    if as_json:
        inputs = {"board": state.to_string(), "depth": depth, "seconds": seconds}
        emit_json("scorefour best", inputs, data)
        return
    out.print(
        f"best move {data['move']} ({value_text(result.value)}), depth {result.depth}, "
        f"{result.nodes:,} nodes in {result.seconds:.2f} s ({result.nodes_per_second:,.0f}/s)"
    )


@app.command("play")
def play_command(
    ai: AiOpt = "decision-analysis",
    ai_first: Annotated[bool, typer.Option("--ai-first", help="Let the AI start.")] = False,
    second: Annotated[bool, typer.Option("--second", hidden=True, help="Old --ai-first.")] = False,
    seed: OptionalSeedOpt = None,
) -> None:
    """Play against the AI (any agent spec of the registry: minimax:depth=6,
    decision-analysis:beta=0.1, mcts:sims=20000), with the coach's verdict on each move,
    hints (h) and takeback (u)."""
    from stratagem.core.session import HUMAN, Session
    from stratagem.games.scorefour.play import play_session, typed_ahead

    seats = [ai, HUMAN] if ai_first or second else [HUMAN, ai]
    if seed is None:
        seed = secrets.randbelow(2**63)
    session = Session.new("scorefour", RULES, seats, seed=seed)  # checks the spec first
    play_session(session, pending=typed_ahead)
