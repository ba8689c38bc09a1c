"""``stratagem scrabble ...``: list moves, self-play, play against the greedy AI, solve endgames.

Every command takes ``--rules`` (the tile set: english, czech; ``--tiles`` is
its old name) and ``--lexicon PATH`` (any
UTF-8 word list, built once then cached); without ``--lexicon`` the built-in
list of the tile set is used: ENABLE for English, the informal wordfreq-derived
list for Czech.
"""

from __future__ import annotations

import json
import sys
import warnings
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Annotated, Any, TextIO

import numpy as np
import typer
from rich.console import Console

from stratagem.cli_options import (
    AiOpt,
    JsonOpt,
    OptionalSeedOpt,
    RulesOpt,
    SecondsOpt,
    SeedOpt,
    emit_json,
    envelope,
    option_group,
    parse_seconds,
)
from stratagem.cli_progress import progress_reporter
from stratagem.core.errors import InvalidRulesError, StratagemError
from stratagem.core.files import read_user_text
from stratagem.core.registry import split_specs
from stratagem.games.scrabble.board import empty_board
from stratagem.games.scrabble.leaves import MAX_ROUNDS, MAX_SELF_PLAY_GAMES
from stratagem.games.scrabble.lexicon import Lexicon, get_lexicon
from stratagem.games.scrabble.movegen import move_generator
from stratagem.games.scrabble.play import DEFAULT_AI, DEFAULT_THINK
from stratagem.games.scrabble.position import POSITION_LIMIT, read_position
from stratagem.games.scrabble.state import ScrabbleState
from stratagem.games.scrabble.strategies import selfplay
from stratagem.games.scrabble.tiles import tile_set

app = typer.Typer(
    help="Scrabble: move generation, self-play, play, weight tuning, leave values.",
    no_args_is_help=True,
)
out = Console(highlight=False, emoji=False)
err = Console(stderr=True, highlight=False, emoji=False)

LexiconOpt = Annotated[
    Path | None,
    typer.Option(
        "--lexicon",
        help="Word list, UTF-8, one word a line (default: ENABLE for english, an informal"
        " wordfreq list for czech).",
    ),
]
TilesOpt = Annotated[str | None, typer.Option("--tiles", hidden=True, help="Old name of --rules.")]


@dataclass(frozen=True)
class WordChoice:
    """The word list a command was asked for: ``--lexicon FILE``, ``--rules`` (a tile set,
    or ``TILES:lexicon=FILE`` read by the registry as the arena reads it) and ``--tiles``
    (the old name of ``--rules``). It is read by :meth:`load`, when the command has checked
    its other inputs: building a word list can take seconds."""

    lexicon: Path | None
    rules: str
    tiles: str | None

    @property
    def spec(self) -> str:
        """The rules as given (``--tiles`` when the old name was used)."""
        return self.tiles if self.tiles is not None else self.rules

    def load(self, quiet: bool = False) -> Lexicon:
        """The lexicon of ``--rules``, or of ``--lexicon FILE`` with the ``--rules`` tile set;
        its notes (a word list built for the first time) go to standard error unless
        ``quiet``."""
        from stratagem.games.scrabble.spec import GAME

        tiles, values = GAME.parse_rules(self.spec)
        path = self.lexicon
        if "lexicon" in values:
            if path is not None:
                raise InvalidRulesError(
                    "two word lists: give it once, --lexicon FILE or --rules TILES:lexicon=FILE"
                )
            path = Path(values["lexicon"])
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            lex = get_lexicon(path, tile_set(tiles))
        for w in caught:
            if not quiet:
                err.print(f"note: {w.message}")
        return lex


word_options = option_group(
    "words",
    [("lexicon", LexiconOpt, None), ("rules", RulesOpt, "english"), ("tiles", TilesOpt, None)],
    WordChoice,
)
"""``--lexicon``, ``--rules`` and ``--tiles`` where a command declares ``words: WordChoice``."""


@app.command()
@word_options
def moves(
    *,
    position: Annotated[
        Path | None, typer.Option("--position", help="Position file (default: empty board).")
    ] = None,
    rack: Annotated[
        str | None, typer.Option("--rack", help="Rack, ? for a blank (default: the file's).")
    ] = None,
    top: Annotated[
        str,
        typer.Option(
            "--top",
            help="How many moves to list, 1..10000, or all (every placement, streamed).",
        ),
    ] = "10",
    words: WordChoice,
    as_json: JsonOpt = False,
    explain: Annotated[
        bool,
        typer.Option(
            "--explain",
            help="Rank by the heuristic player (or --player) and show each term per move.",
        ),
    ] = False,
    player: Annotated[
        str | None,
        typer.Option(
            "--player",
            help="With --explain: heuristic[:weights=FILE|source] (the default) or equity.",
        ),
    ] = None,
) -> None:
    """List the best placements for a rack, highest score first (--explain: by the player)."""
    if player is not None and not explain:
        raise StratagemError(
            "--player ranks the moves with --explain; without it moves are listed by score "
            "(add --explain, or leave out --player)"
        )
    count = parse_top(top)
    if count is None and explain:
        raise StratagemError("--top all lists placements by score; with --explain give 1..10000")
    lex = words.load(quiet=as_json)
    if position is not None:
        text = read_user_text(position, limit=POSITION_LIMIT, what="position file")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            board = read_position(text, lex)
        for w in caught:
            err.print(f"note: {w.message}")
        board_array = board.board_array
        rack_counts = board.rack_array() if rack is None else lex.tiles.rack_counts(rack)
    else:
        board_array = empty_board()
        if rack is None:
            raise StratagemError("give --rack (or a --position file with racks)")
        rack_counts = lex.tiles.rack_counts(rack)
    inputs = {
        "rules": lex.tiles.name, "lexicon": lex.source,
        "position": None if position is None else str(position),
        "rack": lex.tiles.rack_text(rack_counts),
        "top": "all" if count is None else count,
    }  # fmt: skip
    if explain:
        assert count is not None
        state = board if position is not None else None
        inputs["player"] = player or "heuristic"
        _explain(lex, state, board_array, rack_counts, player or "heuristic", count,
                 inputs if as_json else None)  # fmt: skip
        return
    if count is None:
        stream_moves(lex, board_array, rack_counts, as_json, sys.stdout, inputs=inputs)
        return
    found = move_generator(lex).moves(board_array, rack_counts)[:count]
    if as_json:
        emit_json("scrabble moves", inputs, {"moves": [m.to_json() for m in found]})
        return
    if not found:
        out.print("no placement: exchange or pass")
    for m in found:
        out.print(f"{m.score:>4}  {m.direction:<6} {m.row:>2},{m.col:<2}  {m}")


MAX_TOP = 10_000
"""Most moves ``--top N`` lists as rich output; ``--top all`` streams every one."""
STREAM_CHUNK = 4096
"""Lines written at once when streaming every placement."""


def parse_top(text: str) -> int | None:
    """``--top``: a count 1..:data:`MAX_TOP`, or ``all`` (``None``)."""
    if text.strip().lower() == "all":
        return None
    try:
        value = int(text)
    except ValueError:
        raise StratagemError(f"--top takes a count 1..{MAX_TOP:,} or all, got {text!r}") from None
    if not 1 <= value <= MAX_TOP:
        raise StratagemError(f"--top must be 1..{MAX_TOP:,} or all, got {value}")
    return value


def stream_moves(
    lex: Lexicon,
    board: np.ndarray,
    rack: np.ndarray,
    as_json: bool,
    sink: TextIO,
    *,
    inputs: dict[str, Any] | None = None,
) -> int:
    """Write every placement, highest score first, a chunk of lines at a time (a two-blank
    rack has up to ~100,000: only a chunk of them is ever text at once); returns the count.

    With ``as_json`` the moves stream inside the one ``--json`` envelope (``inputs`` its
    inputs), as ``{..., "result": {"moves": [...]}}``."""
    from stratagem.games.scrabble.board import Placement

    info, words = move_generator(lex).raw(board, rack)
    order = np.argsort(-info[:, 4], kind="stable")
    square = lex.tiles.square_text
    close = "]}}"
    if as_json:
        opened = json.dumps(envelope("scrabble moves", inputs or {}, {"moves": []}))
        assert opened.endswith("[" + close)
        sink.write(opened[: -len(close)])
    elif not len(order):
        sink.write("no placement: exchange or pass\n")
    for start in range(0, len(order), STREAM_CHUNK):
        lines = []
        for i, k in enumerate(order[start : start + STREAM_CHUNK], start):
            row, col, down, length, score, _ = (int(x) for x in info[k])
            word = "".join(square(int(x)) for x in words[k, :length])
            m = Placement(row, col, not down, word, score)
            if as_json:
                lines.append(("," if i else "") + json.dumps(m.to_json()))
            else:
                lines.append(f"{m.score:>4}  {m.direction:<6} {m.row:>2},{m.col:<2}  {m}\n")
        sink.write("".join(lines))
        sink.flush()
    if as_json:
        sink.write(close + "\n")
    return len(order)


def _explain(
    lex: Lexicon,
    state: ScrabbleState | None,
    board_array: np.ndarray,
    rack_counts: np.ndarray,
    player: str,
    top: int,
    json_inputs: dict[str, Any] | None,
) -> None:
    """Rank by a heuristic or equity player and show each term; ``json_inputs``: print the
    ``--json`` envelope with these inputs instead of a table."""
    from stratagem.core.arena import parse_spec
    from stratagem.games.scrabble.heuristic import (
        FEATURE_NAMES,
        PHASES,
        explain,
        phase_of,
        term_table,
    )

    spec = parse_spec(player)
    if spec.name not in ("heuristic", "equity"):
        raise StratagemError(f"--player takes heuristic[:...] or equity[:...], got {player!r}")
    from stratagem.games.scrabble import spec as scrabble_spec

    agent = scrabble_spec.GAME.make_agent(lex, spec)
    racks = [tuple(int(x) for x in rack_counts), (0,) * (lex.tiles.size + 1)]
    if state is None:
        bag = tuple(int(x) for x in lex.tiles.bag_counts - rack_counts)
        state = ScrabbleState(lex, board_array.tobytes(), tuple(racks), bag, (0, 0),
                              bingos=(0, 0))  # fmt: skip
    else:
        rest = list(state.racks)
        rest[state.player] = racks[0]
        state = replace(state, racks=tuple(rest))
    phase = phase_of(state)
    weights = agent.weights_for(phase)  # type: ignore[attr-defined]
    cands = agent.ranked(state, top)[0]  # type: ignore[attr-defined]
    if json_inputs is not None:
        rows = [
            {"action": str(c.action), "value": c.value / 1000.0, "terms": term_table(c, weights),
             "explanation": explain(c, weights, phase)}
            for c in cands
        ]  # fmt: skip
        emit_json("scrabble moves", json_inputs, {"phase": phase, "player": player, "moves": rows})
        return
    out.print(f"phase: {phase} (of {', '.join(PHASES)}); player {player}")
    header = "  ".join(f"{n:>10}" for n in FEATURE_NAMES)
    out.print(f"{'value':>8}  {header}  move")
    out.print(f"{'weight':>8}  " + "  ".join(f"{w:>10.6g}" for w in weights))
    for c in cands:
        terms = "  ".join(f"{x:>10.4g}" for x in c.features)
        out.print(f"{c.value / 1000.0:>8.2f}  {terms}  {c.action}")
        out.print(f"{'':>8}  {explain(c, weights, phase)}")


@app.command("selfplay")
@word_options
def selfplay_cmd(
    *,
    games: Annotated[
        int, typer.Option("--games", min=1, max=1_000_000, help="Games to play, 1..10**6.")
    ] = 100,
    seed: SeedOpt = 0,
    agents: Annotated[
        str,
        typer.Option("--agents", help="Agent specs, one per seat (2-4), as arena run takes them."),
    ] = "greedy,greedy",
    players: Annotated[
        str | None, typer.Option("--players", hidden=True, help="Old name of --agents.")
    ] = None,
    words: WordChoice,
    as_json: JsonOpt = False,
) -> None:
    """Agents play each other: mean scores, bingos, game length, games per second."""
    lex = words.load(quiet=as_json)
    seats = split_specs(agents if players is None else players)
    with progress_reporter("self-play", "games", as_json, console=err) as progress:
        result = selfplay(lex, seats, games, seed, progress)
    if as_json:
        inputs = {"rules": lex.tiles.name, "lexicon": lex.source, "games": games, "seed": seed,
                  "agents": seats}  # fmt: skip
        emit_json("scrabble selfplay", inputs, result)
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
@word_options
def play(
    *,
    seed: OptionalSeedOpt = None,
    ai_first: Annotated[bool, typer.Option("--ai-first", help="The AI moves first.")] = False,
    ai: AiOpt = DEFAULT_AI,
    words: WordChoice,
    challenge: Annotated[
        str,
        typer.Option(
            "--challenge",
            help="Challenge rule: none (invalid words refused), single (a phony stands unless "
            "challenged; c challenges), double (a wrong challenge loses a turn).",
        ),
    ] = "none",
    think: Annotated[
        float,
        typer.Option("--think", help="Seconds the AI may think a move (0.1..600; the endgame)."),
    ] = DEFAULT_THINK,
    record: Annotated[
        Path | None,
        typer.Option("--record", help="Write the game's record here as GCG when it ends."),
    ] = None,
) -> None:
    """Play against the AI in the terminal (type ? for the coach's best moves)."""
    from stratagem.core.files import check_writable_target
    from stratagem.games.scrabble.challenge import check_rule

    check_rule(challenge)
    if not 0.1 <= think <= 600:
        raise StratagemError(f"--think takes 0.1 to 600 seconds, got {think}")
    if record is not None:
        check_writable_target(record, "record file")
    _play_session(seed, ai_first, ai, words, think, record, challenge)


def _play_session(seed: int | None, ai_first: bool, ai: str, words: WordChoice, think: float,
                  record: Path | None, challenge: str = "none") -> None:  # fmt: skip
    """``scrabble play``: a :class:`~stratagem.core.session.Session` rendered by
    :func:`~.play.play_session` (``--challenge`` or the rules' ``challenge=`` sets the
    challenge rule); ``--record`` writes it as GCG."""
    import secrets

    from stratagem.core.files import write_atomic
    from stratagem.core.session import Session
    from stratagem.games.scrabble.gcg_session import session_to_gcg
    from stratagem.games.scrabble.play import play_session
    from stratagem.games.scrabble.spec import GAME, lexicon_rules

    preset, values = GAME.parse_rules(words.spec)
    if words.lexicon is not None and "lexicon" in values:
        raise InvalidRulesError(
            "two word lists: give it once, --lexicon FILE or --rules TILES:lexicon=FILE"
        )
    path = words.lexicon if words.lexicon is not None else values.get("lexicon")
    spec_rules = preset if path is None else lexicon_rules(path, preset)
    if challenge != "none" and values.get("challenge", challenge) != challenge:
        raise InvalidRulesError(
            f"two challenge rules: --challenge {challenge} and the rules' "
            f"challenge={values['challenge']}; give it once"
        )
    rule = values.get("challenge", challenge)
    if rule != "none":
        named = {"challenge": rule} if path is None else {
            "lexicon": spec_rules.partition(":")[2], "challenge": rule}  # fmt: skip
        spec_rules = GAME.check_rules(GAME.rules_spec(preset, named))
    name = ai.split(":", 1)[0]
    takes_think = name in GAME.agents and any(p.name == "think" for p in GAME.agents[name].params)
    if takes_think and "think=" not in ai:
        ai = f"{ai}{',' if ':' in ai else ':'}think={think:g}"
    seats = [ai, "human"] if ai_first else ["human", ai]
    session = Session.new(GAME, spec_rules, seats,
                          seed=seed if seed is not None else secrets.randbelow(2**63))  # fmt: skip
    words.load()  # the word list's notes, once
    play_session(session)
    if record is not None and session.decisions():
        viewer = 1 if ai_first else 0
        nicks = ("ai", "you") if ai_first else ("you", "ai")
        text = session_to_gcg(session, viewer=viewer, nicks=nicks,
                              note=f"stratagem, {session.rules}, seed {session.seed}")  # fmt: skip
        write_atomic(record, text.encode())
        out.print(f"wrote the game's record to {record}")


@app.command("gcg")
@word_options
def gcg_cmd(
    *,
    path: Annotated[Path, typer.Argument(help="A GCG game record (UTF-8, at most 256 KiB).")],
    at: Annotated[
        int | None,
        typer.Option(
            "--at",
            help="Open the game at this turn (1..): the recorded move beside the coach's best.",
        ),
    ] = None,
    export: Annotated[
        Path | None, typer.Option("--export", help="Write the record back out as GCG here.")
    ] = None,
    words: WordChoice,
    as_json: JsonOpt = False,
) -> None:
    """Replay a GCG game record: every move laid and scored, the totals checked; --at N shows
    turn N with the coach's best moves beside the recorded one."""
    from stratagem.core.files import check_writable_target, write_atomic
    from stratagem.games.scrabble.gcg import GCG_LIMIT, read_gcg, write_gcg

    if export is not None:
        check_writable_target(export, "GCG file")
        if export.resolve() == path.resolve():
            raise StratagemError(f"--export {export} is the record read; name another file")
    text = read_user_text(path, limit=GCG_LIMIT, what="GCG file")
    lex = words.load(quiet=as_json)
    game = read_gcg(text, lex)
    if at is not None and not 1 <= at <= len(game.turns):
        raise StratagemError(f"--at takes a turn 1..{len(game.turns)}, got {at}")
    if export is not None:
        write_atomic(export, write_gcg(game).encode())
    rows = review_turn(game, at - 1) if at is not None else None
    if as_json:
        payload: dict[str, object] = {
            "players": game.nicks,
            "totals": game.totals,
            "turns": [
                {
                    "player": t.nick,
                    "move": t.text,
                    "points": t.points,
                    "total": t.total,
                    "rack": t.rack,
                }
                for t in game.turns
            ],
        }
        if rows is not None:
            payload["review"] = rows
        inputs = {"rules": lex.tiles.name, "lexicon": lex.source, "record": str(path), "at": at,
                  "export": None if export is None else str(export)}  # fmt: skip
        emit_json("scrabble gcg", inputs, payload)
        return
    for i, t in enumerate(game.turns, 1):
        out.print(f"{i:>3}. {t.nick:<10} {t.rack:<8} {t.text:<24} {t.points:>+5d} {t.total:>5}")
    out.print(f"final: {game.nicks[0]} {game.totals[0]}, {game.nicks[1]} {game.totals[1]}")
    if rows is not None:
        assert at is not None
        t = game.turns[at - 1]
        out.print(f"turn {at}: {t.nick} with {t.rack} played {t.text} ({t.points:+d})")
        out.print(f"  recorded: {rows['recorded']}")
        best: list[dict[str, object]] = rows["best"]  # type: ignore[assignment]
        for i, m in enumerate(best, 1):
            out.print(f"  coach {i:>2}. {m['move']:<24} score {m['score']:>3}  "
                      f"value {m['value']:6.1f}")  # fmt: skip
    if export is not None:
        out.print(f"wrote {export}")


def review_turn(game: object, index: int, top: int = 5) -> dict[str, object]:
    """Turn ``index`` of a read record beside the coach's ``top`` best moves (values in
    points): ``{"recorded": text (value, behind), "best": [...]}``."""
    from stratagem.games.scrabble.gcg import GameRecord
    from stratagem.games.scrabble.heuristic import SCORE_WEIGHT, make_coach, phase_of
    from stratagem.games.scrabble.play import typed

    assert isinstance(game, GameRecord)
    state = game.position_at(index)
    turn = game.turns[index]
    coach = make_coach(state.tiles.name)
    table = coach.table(state)
    cands, _ = coach.ranked(state, top, table)
    weights = coach.weights_for(phase_of(state))
    best = cands[0].value / SCORE_WEIGHT if cands else 0.0
    rows = []
    for c in cands:
        value = float(c.features @ weights) / SCORE_WEIGHT + c.closing
        score = c.action.score if hasattr(c.action, "score") else 0
        rows.append({"move": typed(c.action), "score": score, "value": round(value, 2)})
    recorded = turn.text
    if turn.move is not None:
        mine = coach.candidate(state, turn.move, table)
        if mine is None:
            recorded += " (not in the word list: a phony, or another dictionary's word)"
        else:
            value = float(mine.features @ weights) / SCORE_WEIGHT + mine.closing
            recorded += (
                f" score {turn.move.score}, value {value:.1f}, {best - value:.1f} "
                "behind the coach's best"
            )
    return {"recorded": recorded, "best": rows}


@app.command("learn-leaves")
@word_options
def learn_leaves_cmd(
    *,
    out_file: Annotated[Path, typer.Option("--out", help="Leave-value file to write (JSON).")],
    games: Annotated[
        int,
        typer.Option("--games", min=1, max=MAX_SELF_PLAY_GAMES, help="Self-play games per round."),
    ] = 2000,
    iterations: Annotated[
        int, typer.Option("--iterations", min=1, max=MAX_ROUNDS, help="Rounds.")
    ] = 2,
    seed: SeedOpt = 0,
    pairs: Annotated[
        bool,
        typer.Option(
            "--pairs",
            help="Fit a term for each two letters kept together too (QU, ER, S with the "
            "blank); worth it with about 10,000 games a round or more.",
        ),
    ] = False,
    words: WordChoice,
) -> None:
    """Learn leave values by self-play (see stratagem.games.scrabble.leaves)."""
    from stratagem.core.files import check_writable_target, json_format_of
    from stratagem.games.scrabble.leaves import FORMAT, learn_leaves, save_leaves

    # before the self-play: a link, a device or a file that is not a leave table is refused
    target = check_writable_target(out_file, "leave file", json_format_of(FORMAT))
    if words.lexicon is not None and target.resolve() == words.lexicon.resolve():
        raise StratagemError(
            f"--out {out_file} is the word list --lexicon reads; name another file"
        )
    lex = words.load()
    with progress_reporter("self-play", "games", console=err) as report:
        assert report is not None

        def tick(it: int, done: int, total: int) -> None:
            report(it * total + done, iterations * total)

        table = learn_leaves(lex, games, iterations, seed, progress=tick, pairs=pairs)
    save_leaves(table, out_file)
    out.print(f"wrote {out_file}: {table.note}")


@app.command("tune")
def tune_cmd(
    *,  # options only, named by the command line (no function of 12+ positional arguments)
    out_dir: Annotated[Path, typer.Option("--out", help="Run directory (checkpoint, history).")],
    generations: Annotated[int, typer.Option("--generations", help="Generations in all.")] = 20,
    population: Annotated[int, typer.Option("--population", help="Players per generation.")] = 20,
    games: Annotated[
        int, typer.Option("--games", help="Games per player per generation (even: paired).")
    ] = 100,
    workers: Annotated[
        int | None, typer.Option("--workers", min=1, max=256, help="Processes (all cores).")
    ] = None,
    backend: Annotated[str, typer.Option("--backend", help="local or ray.")] = "local",
    seed: SeedOpt = 0,
    rules: RulesOpt = "english",
    leave: Annotated[bool, typer.Option("--leave", help="Tune the leave as a sixth term.")] = False,
    roulette: Annotated[
        float, typer.Option("--roulette", help="P(phase from a fitness-proportional pick).")
    ] = 0.2,
    elite: Annotated[float, typer.Option("--elite", help="Best fraction picked from.")] = 0.1,
    mutation_rate: Annotated[
        float, typer.Option("--mutation-rate", help="P(a taken phase is mutated).")
    ] = 0.08,
    mutation_size: Annotated[
        float, typer.Option("--mutation-size", help="SD of the log factor of a mutation.")
    ] = 0.5,
    init_spread: Annotated[
        float, typer.Option("--init-spread", help="SD of the log factor of the first players.")
    ] = 1.0,
    start: Annotated[
        Path | None, typer.Option("--start", help="Weights file to start from (default: source).")
    ] = None,
    endgame: Annotated[
        bool, typer.Option("--endgame/--no-endgame", help="Exact endgame when the bag is empty.")
    ] = True,
) -> None:
    """Tune the heuristic player's weights by a GA against greedy (resumable)."""
    import time

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from stratagem.core.arena import make_executor
    from stratagem.games.scrabble.heuristic import load_weights
    from stratagem.games.scrabble.tuning import tune, tune_config

    base = load_weights(start) if start is not None else None
    config = tune_config(population, games, seed, rules, leave, roulette, elite,
                         mutation_rate, mutation_size, init_spread, base)  # fmt: skip
    executor = make_executor(backend, workers)  # tune checks the rest before any game
    extra = "" if endgame else "endgame=off"
    t0 = time.perf_counter()
    with Progress(
        TextColumn("GA gen {task.fields[gen]}"), BarColumn(), MofNCompleteColumn(),
        TextColumn("best {task.fields[best]}"), TextColumn("{task.fields[rate]}"),
        console=err, disable=not err.is_terminal,
    ) as bar:  # fmt: skip
        per_gen = population * games
        task = bar.add_task("games", total=generations * per_gen, gen=0, best="-", rate="")
        played = [0]

        def on_games(n: int) -> None:
            played[0] += n
            rate = played[0] / max(time.perf_counter() - t0, 1e-9)
            bar.update(task, advance=n, rate=f"{rate:.1f} games/s")

        def on_generation(result: object) -> None:
            hist = result.history  # type: ignore[attr-defined]
            best = max(h["best"] for h in hist) / games
            bar.update(task, completed=len(hist) * per_gen, gen=len(hist),
                       best=f"{best:.1%}")  # fmt: skip
            err.print(
                f"generation {hist[-1]['generation']}: best {hist[-1]['best'] / games:.1%}, "
                f"mean {hist[-1]['mean'] / games:.1%} ({played[0]} games, "
                f"{time.perf_counter() - t0:.0f} s)"
            )

        result = tune(out_dir, generations, config, games, executor, rules, extra,
                      on_games, on_generation)  # fmt: skip
    h = result.history[-1] if result.history else None
    if h is not None:
        out.print(f"{result.generation} generations in {out_dir}; last best {h['best']:g} of "
                  f"{games} games; weights in {out_dir / 'best_weights.json'}")  # fmt: skip


@app.command()
@word_options
def endgame(
    *,
    position: Annotated[Path, typer.Option("--position", help="Position file, bag empty.")],
    seconds: SecondsOpt = 30.0,
    time_limit: Annotated[
        float | None,
        typer.Option(
            "--time-limit", parser=parse_seconds, hidden=True, help="Deprecated: --seconds says it."
        ),
    ] = None,
    nodes: Annotated[
        int | None,
        typer.Option(
            "--nodes",
            help="Stop after this many search nodes (1024 to 10^12): the same answer on "
            "any machine.",
        ),
    ] = None,
    words: WordChoice,
    as_json: JsonOpt = False,
) -> None:
    """Solve an endgame (bag empty, two players): best move, final spread, line of play."""
    from stratagem.games.scrabble.endgame import NODE_LIMITS, solve_endgame

    if time_limit is not None:  # the old name of --seconds
        seconds = time_limit
    if nodes is not None and not NODE_LIMITS[0] <= nodes <= NODE_LIMITS[1]:
        raise StratagemError(
            f"--nodes must be {NODE_LIMITS[0]:,} to {NODE_LIMITS[1]:,} nodes, got {nodes:,}"
        )
    text = read_user_text(position, limit=POSITION_LIMIT, what="position file")
    lex = words.load(quiet=as_json)
    state = read_position(text, lex)
    with progress_reporter("endgame search", "CPU seconds", as_json, console=err) as report:
        result = solve_endgame(state, time_limit=seconds, node_limit=nodes, progress=report)
    if as_json:
        inputs = {"rules": lex.tiles.name, "lexicon": lex.source, "position": str(position),
                  "seconds": seconds, "nodes": nodes}  # fmt: skip
        emit_json("scrabble endgame", inputs, result.to_json())
        return
    proof = "exact" if result.exact else f"not proved (deepest search {result.depth} plies)"
    out.print(
        f"best move {result.best_move}: final spread {result.value:+d} for the mover ({proof})"
    )
    out.print("line: " + ", ".join(str(m) for m in result.pv))
    out.print(f"{result.nodes} nodes, {result.seconds:.2f} s")


@app.command()
@word_options
def deep(
    *,
    position: Annotated[
        Path, typer.Option("--position", help="Position file (board, racks; tiles in the bag).")
    ],
    rack: Annotated[
        str | None, typer.Option("--rack", help="Rack, ? for a blank (default: the file's).")
    ] = None,
    unseen: Annotated[
        str | None,
        typer.Option("--unseen", help="The unseen tiles (bag and opponent's rack), if known."),
    ] = None,
    candidates: Annotated[
        int,
        typer.Option("--candidates", min=2, max=30, help="The coach's top moves simulated."),
    ] = 10,
    seconds: SecondsOpt = 5.0,  # the shared option; a deep analysis takes 1-60 (check_deep)
    workers: Annotated[
        int | None,
        typer.Option("--workers", help="Processes playing the deals, 1 to the cores "
                     "(default: every core); the same figures as one, more deals a second."),
    ] = None,
    seed: SeedOpt = 0,
    words: WordChoice,
    as_json: JsonOpt = False,
) -> None:
    """Deep analysis: the coach's top moves simulated over deals of the unseen tiles, ranked
    by the chance of winning (with one tile in the bag, every draw and endgame solved);
    --seconds 1-60 of wall clock, and Ctrl-C stops it early with the ranking so far."""
    import signal

    from stratagem.games.scrabble.assistant import check_deep, deep_analysis, deep_rows
    from stratagem.games.scrabble.sim import SimProgress, check_workers
    from stratagem.games.scrabble.sim_pool import cores

    check_deep(candidates, seconds)
    if workers is None:
        workers = cores()
    check_workers(workers)
    text = read_user_text(position, limit=POSITION_LIMIT, what="position file")
    lex = words.load(quiet=as_json)
    stop: list[bool] = []

    def interrupted(_sig: int, _frame: object) -> None:
        # the first Ctrl-C ends the simulation at its next deal and shows the ranking so
        # far (as the page's Cancel); a second one quits
        stop.append(True)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        err.print("stopping: the ranking so far follows (Ctrl-C again to quit)")

    previous = signal.signal(signal.SIGINT, interrupted)
    try:
        with progress_reporter("deep analysis", "% of the budget", as_json, console=err,
                               every=2.0) as report:  # fmt: skip

            def progress(p: SimProgress) -> None:
                if report is not None:
                    report(round(100 * p.fraction), 100)

            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                result = deep_analysis(
                    lex, text, rack, unseen=unseen, candidates=candidates, seconds=seconds,
                    progress=progress, cancelled=lambda: bool(stop), seed=seed,
                    workers=workers,
                )  # fmt: skip
    finally:
        signal.signal(signal.SIGINT, previous)
    rows = deep_rows(result)
    if as_json:
        inputs = {"rules": lex.tiles.name, "lexicon": lex.source, "position": str(position),
                  "rack": rack, "unseen": unseen, "candidates": candidates, "seconds": seconds,
                  "seed": seed, "workers": workers}  # fmt: skip
        summary = {"deals": result.deals, "seconds": result.seconds,
                   "pre_endgame": result.pre_endgame, "stopped": result.stopped}  # fmt: skip
        emit_json("scrabble deep", inputs, {**summary, "moves": rows})
        return
    for w in caught:
        err.print(f"note: {w.message}")
    from rich.table import Table

    how = ("every draw of the one tile in the bag, each endgame solved"
           if result.pre_endgame else f"{result.deals:,} deals of the unseen tiles")  # fmt: skip
    table = Table(title=f"Deep analysis: {how}, {result.seconds:.1f} s ({result.stopped})")
    for name in ("#", "move", "static", "win %", "spread", "deals", "note"):
        table.add_column(name, justify="left" if name in ("move", "note") else "right")
    for i, r in enumerate(rows, 1):
        note = "dropped: clearly behind" if r["pruned"] else (
            f"{r['proved']}/{r['endgames']} endgames proved" if r["exact"] else "")  # fmt: skip
        win = f"{100 * r['win']:.1f}" + (f" ± {100 * r['win_se']:.1f}" if r["win_se"] else "")
        spread = f"{r['spread']:+.1f}" + (f" ± {r['spread_se']:.1f}" if r["spread_se"] else "")
        table.add_row(str(i), r["action"], f"{r['static']:.1f}", win, spread,
                      f"{r['deals']:,}", note)  # fmt: skip
    out.print(table)
