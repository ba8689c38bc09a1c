"""``stratagem scrabble ...``: list moves, self-play, play against the greedy AI, solve endgames.

Every command takes ``--rules`` (the tile set: english, czech; ``--tiles`` is
its old name) and ``--lexicon PATH`` (any
UTF-8 word list, built once then cached); without ``--lexicon`` the built-in
informal wordfreq-derived lexicon of the tile set is used.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Annotated

import numpy as np
import typer
from rich.console import Console

from stratagem.core.errors import StratagemError
from stratagem.core.registry import split_specs
from stratagem.games.scrabble.board import empty_board
from stratagem.games.scrabble.lexicon import Lexicon, get_lexicon
from stratagem.games.scrabble.movegen import MoveGenerator
from stratagem.games.scrabble.position import read_position
from stratagem.games.scrabble.strategies import selfplay
from stratagem.games.scrabble.tiles import TILE_SETS, tile_set

app = typer.Typer(help="Scrabble: move generation, greedy self-play, play.", no_args_is_help=True)
out = Console(highlight=False)
err = Console(stderr=True, highlight=False)

LexiconOpt = Annotated[
    Path | None,
    typer.Option("--lexicon", help="Word list, UTF-8, one word a line (default: built-in)."),
]
RulesOpt = Annotated[
    str, typer.Option("--rules", help=f"Tile set and built-in lexicon: {', '.join(TILE_SETS)}.")
]
TilesOpt = Annotated[str | None, typer.Option("--tiles", hidden=True, help="Old name of --rules.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON.")]


def _fail(exc: StratagemError) -> typer.Exit:
    err.print(f"error: {exc}")
    return typer.Exit(2)


def _lexicon(path: Path | None, rules: str, tiles: str | None, quiet: bool = False) -> Lexicon:
    tiles = tiles if tiles is not None else rules
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        lex = get_lexicon(path, tile_set(tiles))
    for w in caught:
        if not quiet:
            err.print(f"note: {w.message}")
    return lex


@app.command()
def moves(
    position: Annotated[
        Path | None, typer.Option("--position", help="Position file (default: empty board).")
    ] = None,
    rack: Annotated[
        str | None, typer.Option("--rack", help="Rack, ? for a blank (default: the file's).")
    ] = None,
    top: Annotated[int, typer.Option("--top", help="How many moves to list.")] = 10,
    lexicon: LexiconOpt = None,
    rules: RulesOpt = "english",
    tiles: TilesOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """List the best placements for a rack, highest score first."""
    try:
        lex = _lexicon(lexicon, rules, tiles, quiet=as_json)
        if position is not None:
            try:
                text = position.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                raise StratagemError(f"cannot read position file {position}: {exc}") from None
            board = read_position(text, lex)
            board_array = board.board_array
            rack_counts = board.rack_array() if rack is None else lex.tiles.rack_counts(rack)
        else:
            board_array = empty_board()
            if rack is None:
                raise StratagemError("give --rack (or a --position file with racks)")
            rack_counts = lex.tiles.rack_counts(rack)
        if top < 1:
            raise StratagemError(f"--top must be at least 1, got {top}")
    except StratagemError as exc:
        raise _fail(exc) from None
    found = MoveGenerator(lex).moves(board_array, rack_counts)[:top]
    if as_json:
        out.print(json.dumps({"moves": [m.to_json() for m in found]}), soft_wrap=True)
        return
    if not found:
        out.print("no placement: exchange or pass")
    for m in found:
        out.print(f"{m.score:>4}  {m.direction:<6} {m.row:>2},{m.col:<2}  {m}")


@app.command("selfplay")
def selfplay_cmd(
    games: Annotated[int, typer.Option("--games", help="Games to play.")] = 100,
    seed: Annotated[int, typer.Option("--seed", help="Random seed (same seed, same games).")] = 0,
    players: Annotated[
        str, typer.Option("--players", help="Agents per seat: greedy, random (2-4).")
    ] = "greedy,greedy",
    lexicon: LexiconOpt = None,
    rules: RulesOpt = "english",
    tiles: TilesOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Agents play each other: mean scores, bingos, game length, games per second."""
    try:
        lex = _lexicon(lexicon, rules, tiles, quiet=as_json)
        seats = split_specs(players)
        result = selfplay(lex, seats, games, seed)
    except StratagemError as exc:
        raise _fail(exc) from None
    if as_json:
        out.print(json.dumps(result), soft_wrap=True)
        return
    out.print(f"{games} games, seed {seed}, lexicon {lex.source}")
    for i, name in enumerate(seats):
        mean = result["mean_score"][i]  # type: ignore[index]
        wins = result["wins"][i]  # type: ignore[index]
        out.print(f"  seat {i} {name:<8} mean score {mean:>7.2f}  wins {wins:g}")
    out.print(
        f"  bingos per game {result['bingos_per_game']}, "
        f"turns per game {result['turns_per_game']}, "
        f"{result['games_per_second']} games/s"
    )


@app.command()
def play(
    seed: Annotated[int | None, typer.Option("--seed", help="Seed of the bag.")] = None,
    ai_first: Annotated[bool, typer.Option("--ai-first", help="The AI moves first.")] = False,
    lexicon: LexiconOpt = None,
    rules: RulesOpt = "english",
    tiles: TilesOpt = None,
) -> None:
    """Play against the greedy AI in the terminal (type ? for the best moves)."""
    from stratagem.games.scrabble.play import play_terminal

    try:
        lex = _lexicon(lexicon, rules, tiles)
    except StratagemError as exc:
        raise _fail(exc) from None
    play_terminal(lex, np.random.default_rng(seed), human=1 if ai_first else 0)


POSITION_LIMIT = 64 * 1024
"""Largest position file read (bytes); a position is about 400."""


@app.command()
def endgame(
    position: Annotated[Path, typer.Option("--position", help="Position file, bag empty.")],
    time_limit: Annotated[
        float, typer.Option("--time-limit", help="CPU seconds for the search (0-3600).")
    ] = 30.0,
    lexicon: LexiconOpt = None,
    rules: RulesOpt = "english",
    tiles: TilesOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Solve an endgame (bag empty, two players): best move, final spread, line of play."""
    from stratagem.games.scrabble.endgame import solve_endgame

    try:
        if not 0 < time_limit <= 3600:
            raise StratagemError(f"--time-limit must be 0-3600 seconds, got {time_limit}")
        try:
            with position.open("rb") as handle:
                blob = handle.read(POSITION_LIMIT + 1)
        except OSError as exc:
            raise StratagemError(f"cannot read position file {position}: {exc}") from None
        if len(blob) > POSITION_LIMIT:
            raise StratagemError(
                f"position file {position} is over {POSITION_LIMIT // 1024} KB; "
                "a position is 15 board rows and a few key: value lines"
            )
        try:
            text = blob.decode("utf-8")
        except UnicodeDecodeError:
            raise StratagemError(f"position file {position} is not UTF-8 text") from None
        lex = _lexicon(lexicon, rules, tiles, quiet=as_json)
        result = solve_endgame(read_position(text, lex), time_limit=time_limit)
    except StratagemError as exc:
        raise _fail(exc) from None
    if as_json:
        out.print(json.dumps(result.to_json()), soft_wrap=True)
        return
    proof = "exact" if result.exact else f"not proved (deepest search {result.depth} plies)"
    out.print(
        f"best move {result.best_move}: final spread {result.value:+d} for the mover ({proof})"
    )
    out.print("line: " + ", ".join(str(m) for m in result.pv))
    out.print(f"{result.nodes} nodes, {result.seconds:.2f} s")


if __name__ == "__main__":
    app()
