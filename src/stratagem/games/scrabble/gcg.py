"""Game records in GCG, the text format in which Scrabble games are kept and shared.

A GCG file names the players (``#player1 nick Full Name``) and lists the
turns, one a line, each with the mover's rack before it and the running total::

    #player1 ann Ann
    #player2 bob Bob
    >ann: AEINRST 8D RETAINS +64 64
    >bob: ABCDEFG H4 ABE.D +18 18        (a dot: a tile already on the board)
    >ann: EEIOUUV -UUV +0 64             (an exchange; "-" alone is a pass)
    >bob: ...  -- -18 0                  (a phony challenged off: the last move taken back)
    >ann: (EQ) +22 86                    (going out: the others' tiles)
    >bob: EQ (EQ) -11 7                  (the tiles left at the end)

:func:`read_gcg` replays a record on the 15x15 board with this tile set:
every move is laid and scored by the board's rules and must score what the
record says, and every running total must add up; the words are *not*
checked against the lexicon (a tournament's word list is not ours, and a
phony may have stood). Each turn keeps the position it was played from, so
any move can be opened in the assistant. :func:`write_gcg` writes a record
back (of a read game, or of a game played here). Every problem is refused
with a :class:`GcgError` naming the line.

>>> from stratagem.games.scrabble.lexicon import Lexicon
>>> from stratagem.games.scrabble.tiles import tile_set
>>> lex = Lexicon.from_words(["cat", "cats", "at"], tile_set("english"))
>>> game = read_gcg(">a: ACTXYZQ 8H CAT +10 10\\n>b: SEEEEEE 8H ...S +6 6\\n", lex)
>>> [str(t) for t in game.turns]
['a: 8H CAT +10 10', 'b: 8H CATS +6 6']
>>> read_gcg(write_gcg(game), lex).totals == game.totals
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from stratagem.core.errors import StratagemError
from stratagem.games.scrabble.board import (
    RACK_SIZE,
    SIZE,
    Placement,
    coordinate,
    new_tiles,
    parse_coordinate,
    score_tiles,
)
from stratagem.games.scrabble.lexicon import Lexicon
from stratagem.games.scrabble.state import ScrabbleState
from stratagem.games.scrabble.tiles import BLANK_FLAG

GCG_LIMIT = 256 * 1024
"""Largest GCG record read, in bytes (a long game with notes is about 5 KB)."""
MAX_TURNS = 500
"""Most turn lines a record may hold (six scoreless turns end a game: no game nears this)."""


class GcgError(StratagemError, ValueError):
    """A game record that cannot be read or replayed; the message names the line."""


KINDS = ("move", "exchange", "pass", "withdrawn", "challenge_bonus", "out", "rack_left", "time")


@dataclass(frozen=True)
class Turn:
    """One line of a record: who, their rack, what, the points and the running total.

    ``state`` is the position the turn was played from (the mover to move, with the
    recorded rack; the opponent holds the unseen tiles when they fit a rack, else the
    bag does), for the assistant."""

    player: int
    nick: str
    rack: str
    kind: str
    points: int
    total: int
    move: Placement | None = None
    tiles: str = ""
    """An exchange's tiles (or their count), the end rack of ``out``/``rack_left``."""
    note: str = ""
    state: ScrabbleState | None = field(default=None, compare=False, repr=False)

    @property
    def text(self) -> str:
        """The turn in the CLI's notation (``8H WORD``, ``x ABC``, ``pass``...)."""
        if self.move is not None:
            return f"{coordinate(self.move.row, self.move.col, self.move.across)} {self.move.word}"
        return {
            "exchange": f"x {self.tiles}",
            "pass": "pass",
            "withdrawn": "phony taken back",
            "challenge_bonus": "challenge bonus",
            "out": f"went out: {self.tiles}",
            "rack_left": f"tiles left {self.tiles}",
            "time": "time penalty",
        }[self.kind]

    def __str__(self) -> str:
        return f"{self.nick}: {self.text} {self.points:+d} {self.total}"


@dataclass
class GameRecord:
    """A replayed record: the two players, the turns in order, the final board and totals."""

    nicks: list[str]
    names: list[str]
    turns: list[Turn]
    board: np.ndarray
    totals: list[int]
    lexicon: Lexicon
    pragmas: list[str] = field(default_factory=list)

    def position_at(self, index: int) -> ScrabbleState:
        """The position turn ``index`` (0-based) was played from."""
        if not 0 <= index < len(self.turns):
            raise GcgError(f"the record has turns 1-{len(self.turns)}; no turn {index + 1}")
        state = self.turns[index].state
        if state is None:
            raise GcgError(f"turn {index + 1} is not a move from a position")
        return state


_TURN = re.compile(r"^>\s*([^:\s]+)\s*:\s*(.*)$")
_SIGNED = re.compile(r"^[+-]\d{1,5}$")
_TOTAL = re.compile(r"^-?\d{1,6}$")


def _fail(number: int, message: str) -> GcgError:
    return GcgError(f"GCG line {number}: {message}")


def _rack(tiles_text: str, record: Lexicon, number: int) -> np.ndarray:
    tiles = record.tiles
    try:
        return tiles.rack_counts(tiles_text, RACK_SIZE)
    except StratagemError as exc:
        raise _fail(number, str(exc)) from None


def _position(
    lex: Lexicon, board: np.ndarray, rack: np.ndarray, mover: int, totals: list[int], turn: int
) -> ScrabbleState | None:
    """The position a move was played from: the mover's rack as recorded, the unseen tiles on
    the opponent's rack when they fit one (bag empty: the endgame), else in the bag."""
    tiles = lex.tiles
    used = np.zeros(tiles.size + 1, dtype=np.int64)
    codes = board[board >= 0].astype(np.int64)
    blank = (codes & BLANK_FLAG) != 0
    np.add.at(used, codes[~blank], 1)
    used[tiles.size] += int(blank.sum())
    rest = tiles.bag_counts.astype(np.int64) - used - rack
    if (rest < 0).any():
        return None
    racks: list[tuple[int, ...]] = [(0,) * (tiles.size + 1)] * 2
    racks[mover] = tuple(int(x) for x in rack)
    if rest.sum() <= RACK_SIZE:
        racks[1 - mover] = tuple(int(x) for x in rest)
        bag = (0,) * (tiles.size + 1)
    else:
        bag = tuple(int(x) for x in rest)
    return ScrabbleState(
        lex, board.tobytes(), tuple(racks), bag, (max(0, totals[0]), max(0, totals[1])),
        player=mover, turn=max(1, turn), bingos=(0, 0),
    )  # fmt: skip


def read_gcg(text: str, lexicon: Lexicon) -> GameRecord:
    """Replay a GCG record (see the module doc); :class:`GcgError` names what is wrong."""
    tiles = lexicon.tiles
    nicks: list[str] = []
    names: list[str] = []
    pragmas: list[str] = []
    turns: list[Turn] = []
    board = np.full((SIZE, SIZE), -1, dtype=np.int8)
    totals = [0, 0]
    last_move: dict[int, tuple[int, list[tuple[int, int, int]]]] = {}  # player -> (pts, laid)
    lines = text.splitlines()
    seen_turn = False
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            key, _, value = line[1:].partition(" ")
            key = key.lower()
            if key in ("player1", "player2"):
                if seen_turn:
                    raise _fail(number, f"#{key} comes after the first turn")
                nick, _, name = value.strip().partition(" ")
                if not nick:
                    raise _fail(number, f"#{key} needs a nickname")
                want = 0 if key == "player1" else 1
                if len(nicks) != want:
                    raise _fail(number, "#player1 comes first, then #player2")
                nicks.append(nick)
                names.append(name.strip() or nick)
            elif key == "tile-distribution" or key == "tile-set":
                wanted = value.strip().lower()
                if wanted not in (tiles.name, f"{tiles.name}_scrabble", f"{tiles.name[:2]}"):
                    raise _fail(
                        number,
                        f"the record is for the {value.strip()} tiles; these are {tiles.name}",
                    )
            elif key in ("board-layout", "board"):
                layout = value.strip().lower()
                if layout not in ("", "crosswordgame", "standard15", "standard"):
                    raise _fail(
                        number,
                        f"the record is for the board {value.strip()!r}; only the standard "
                        "15x15 board is played here",
                    )
            elif key in ("note", "title", "description", "id", "lexicon", "character-encoding",
                         "incomplete", "rack1", "rack2", "game-type", "tournament-name",
                         "round", "division"):  # fmt: skip
                pragmas.append(line)
                if key == "character-encoding" and value.strip().upper() not in ("UTF-8", "UTF8"):
                    raise _fail(number, f"the record says it is {value.strip()}; read as UTF-8")
            else:
                pragmas.append(line)  # an unknown pragma is kept, as the format allows
            continue
        match = _TURN.match(line)
        if match is None:
            raise _fail(number, f"cannot read {raw.strip()[:60]!r}: a turn is "
                        ">nick: RACK POSITION WORD +SCORE TOTAL")  # fmt: skip
        seen_turn = True
        if len(turns) >= MAX_TURNS:
            raise _fail(number, f"more than {MAX_TURNS} turns; no game is that long")
        nick, rest = match.group(1), match.group(2).split()
        if len(nicks) < 2 and nick not in nicks:
            nicks.append(nick)
            names.append(nick)
        if nick not in nicks:
            raise _fail(number, f"{nick!r} is not a player of this game ({', '.join(nicks)})")
        player = nicks.index(nick)
        if len(rest) < 2 or not _SIGNED.match(rest[-2]) or not _TOTAL.match(rest[-1]):
            raise _fail(number, "the line ends without its score and total (cut short?)")
        points, total = int(rest[-2]), int(rest[-1])
        body = rest[:-2]
        turn = _turn(number, lexicon, board, player, nick, body, points, totals, last_move,
                     len(turns))  # fmt: skip
        if totals[player] + points != total:
            raise _fail(
                number,
                f"{nick}'s total {total} is not {totals[player]} {points:+d} = "
                f"{totals[player] + points}",
            )
        totals[player] = total
        turns.append(turn)
    if not turns:
        raise GcgError("the GCG record holds no turn (lines starting with '>')")
    while len(nicks) < 2:
        nicks.append(f"player{len(nicks) + 1}")
        names.append(nicks[-1])
    return GameRecord(nicks, names, turns, board, totals, lexicon, pragmas)


def _turn(
    number: int,
    lex: Lexicon,
    board: np.ndarray,
    player: int,
    nick: str,
    body: list[str],
    points: int,
    totals: list[int],
    last_move: dict[int, tuple[int, list[tuple[int, int, int]]]],
    index: int,
) -> Turn:
    """Read and replay one turn's words (between the nick and the score) onto ``board``."""
    tiles = lex.tiles
    if len(body) == 1 and body[0].startswith("(") and body[0].endswith(")"):
        inner = body[0][1:-1]
        if inner.lower() == "challenge":
            return Turn(player, nick, "", "challenge_bonus", points, totals[player] + points)
        if inner.lower() == "time":
            return Turn(player, nick, "", "time", points, totals[player] + points)
        counts = _rack(inner, lex, number)
        value = int(np.dot(counts, tiles.values_array))
        if points not in (value, 2 * value):
            raise _fail(number, f"going out against {inner} is worth {value} (or {2 * value} "
                        f"doubled), not {points:+d}")  # fmt: skip
        return Turn(player, nick, "", "out", points, totals[player] + points, tiles=inner)
    if not body:
        raise _fail(number, "the turn names no rack")
    rack_text = body[0]
    if rack_text.startswith("("):
        raise _fail(number, f"cannot read {' '.join(body)!r}")
    rack = _rack(rack_text, lex, number)
    moves = body[1:]
    if len(moves) == 1 and moves[0].lower() in ("(challenge)", "(time)"):
        kind = "challenge_bonus" if moves[0].lower() == "(challenge)" else "time"
        return Turn(player, nick, rack_text, kind, points, totals[player] + points)
    if moves == ["--"]:
        if player not in last_move:
            raise _fail(number, f"{nick} has no move to take back")
        gained, laid = last_move.pop(player)
        if points != -gained:
            raise _fail(number, f"taking back a move of {gained} points is {-gained:+d}, "
                        f"not {points:+d}")  # fmt: skip
        for r, c, _ in laid:
            board[r, c] = -1
        back = _position(lex, board, rack, player, totals, index + 1)
        return Turn(player, nick, rack_text, "withdrawn", points, totals[player] + points,
                    state=back)  # fmt: skip
    state = _position(lex, board, rack, player, totals, index + 1)
    if state is None:
        raise _fail(number, f"the rack {rack_text} and the board hold more tiles of a kind than "
                    f"the {tiles.name} set has")  # fmt: skip
    if len(moves) == 1 and moves[0].startswith("(") and moves[0].endswith(")"):
        left = moves[0][1:-1]
        if _rack(left, lex, number).tolist() != rack.tolist():
            raise _fail(number, f"the tiles left {left} are not the rack {rack_text}")
        value = int(np.dot(rack, tiles.values_array))
        if points not in (-value, 0):
            raise _fail(number, f"the tiles left {left} cost {value}, not {points:+d}")
        return Turn(player, nick, rack_text, "rack_left", points, totals[player] + points,
                    tiles=left, state=state)  # fmt: skip
    if moves == ["-"] or not moves:
        if points != 0:
            raise _fail(number, f"a pass scores 0, not {points:+d}")
        last_move.pop(player, None)
        return Turn(player, nick, rack_text, "pass", 0, totals[player], state=state)
    if len(moves) == 1 and moves[0].startswith("-"):
        give = moves[0][1:]
        if points != 0:
            raise _fail(number, f"an exchange scores 0, not {points:+d}")
        if give.isdigit():
            if not 1 <= int(give) <= RACK_SIZE:
                raise _fail(number, f"an exchange gives back 1-{RACK_SIZE} tiles, not {give}")
        else:
            counts = _rack(give, lex, number)
            if (counts > rack).any():
                raise _fail(number, f"cannot exchange {give}: the rack is {rack_text}")
        last_move.pop(player, None)
        return Turn(player, nick, rack_text, "exchange", 0, totals[player], tiles=give,
                    state=state)  # fmt: skip
    if len(moves) != 2:
        raise _fail(number, f"cannot read the move {' '.join(moves)!r}: write POSITION WORD")
    where, word = moves
    if not re.fullmatch(r"[A-Za-z]{1,3}\d{0,3}|\d{1,3}[A-Za-z]{1,3}", where):
        raise _fail(number, f"cannot read the square {where!r}")
    digits = int(re.sub(r"\D", "", where) or 0)
    letters = re.sub(r"\d", "", where).upper()
    if digits > SIZE or len(letters) != 1 or letters > "O":
        raise _fail(number, f"the square {where} is off the 15x15 board (rows 1-15, columns "
                    "A-O): the record is for another board")  # fmt: skip
    try:
        row, col, across = parse_coordinate(where)
    except StratagemError as exc:
        raise _fail(number, str(exc)) from None
    dr, dc = (0, 1) if across else (1, 0)
    full = []
    for i, ch in enumerate(word):
        r, c = row + i * dr, col + i * dc
        if not (0 <= r < SIZE and 0 <= c < SIZE):
            raise _fail(number, f"{word} at {where} runs off the board")
        if ch == ".":
            if board[r, c] < 0:
                raise _fail(number, f"{word} at {where}: '.' stands for a tile on the board, but "
                            f"{coordinate(r, c, True)} is empty")  # fmt: skip
            full.append(tiles.square_text(int(board[r, c])))
        elif tiles.letter_index(ch) is None:
            raise _fail(number, f"{ch!r} in {word} is not a letter of the {tiles.name} tiles")
        else:
            full.append(ch)
    text = "".join(full)
    try:
        laid = new_tiles(board, Placement(row, col, across, text, 0), tiles)
        score, _ = score_tiles(board, laid, tiles, None)
    except StratagemError as exc:
        raise _fail(number, f"{word} at {where} is not a legal placement: {exc}") from None
    need = np.zeros(tiles.size + 1, dtype=np.int64)
    for _, _, code in laid:
        need[tiles.size if code & BLANK_FLAG else code] += 1
    if (need > rack).any():
        i = int(np.flatnonzero(need > rack)[0])
        what = "a blank" if i == tiles.size else tiles.letters[i]
        raise _fail(number, f"{word} at {where} needs {what} that the rack {rack_text} lacks")
    if score != points:
        raise _fail(number, f"{word} at {where} scores {score}, not {points:+d}")
    move = Placement(row, col, across, text, score)
    for r, c, code in laid:
        board[r, c] = code
    last_move[player] = (score, laid)
    return Turn(player, nick, rack_text, "move", points, totals[player] + points, move=move,
                state=state)  # fmt: skip


def gcg_word(board_before: np.ndarray, move: Placement) -> str:
    """The GCG spelling of a move: a dot for each tile that was already on the board."""
    out = []
    for (r, c), ch in zip(move.squares(), move.word):
        out.append("." if board_before[r, c] >= 0 else ch)
    return "".join(out)


def write_gcg(record: GameRecord) -> str:
    """The GCG text of a record (what :func:`read_gcg` reads back to the same turns)."""
    lines = ["#character-encoding UTF-8"]
    for i, (nick, name) in enumerate(zip(record.nicks, record.names), 1):
        lines.append(f"#player{i} {nick} {name}")
    lines.extend(p for p in record.pragmas if not p.lower().startswith("#character-encoding"))
    for t in record.turns:
        lines.append(turn_line(t))
    return "\n".join(lines) + "\n"


def turn_line(t: Turn) -> str:
    """One turn as a GCG line."""
    head = f">{t.nick}:"
    tail = f"{t.points:+d} {t.total}"
    if t.kind == "move":
        assert t.move is not None and t.state is not None
        where = coordinate(t.move.row, t.move.col, t.move.across)
        return f"{head} {t.rack} {where} {gcg_word(t.state.board_array, t.move)} {tail}"
    body = {
        "exchange": f"{t.rack} -{t.tiles}",
        "pass": f"{t.rack} -",
        "withdrawn": f"{t.rack} --",
        "challenge_bonus": f"{t.rack} (challenge)".strip(),
        "time": f"{t.rack} (time)".strip(),
        "out": f"({t.tiles})",
        "rack_left": f"{t.rack} ({t.tiles})",
    }[t.kind]
    return f"{head} {body} {tail}"


def record_of_game(
    events: list[tuple[int, ScrabbleState, object]],
    final: ScrabbleState,
    nicks: tuple[str, str] = ("player1", "player2"),
    names: tuple[str, str] | None = None,
    note: str = "",
    hidden: tuple[int, ...] = (),
) -> GameRecord:
    """The record of a game played here: ``events`` are ``(player, position played from,
    action)`` for each move (placements, exchanges, passes; a challenge as an object with
    ``outcome`` and ``mover``), ``final`` the end; the end adjustments are added from it.
    The racks of the ``hidden`` players (an opponent whose tiles a player may not see yet) are
    written as the tiles played only, and their exchanges as a count."""
    from stratagem.games.scrabble.state import Exchange

    lex = final.lexicon
    totals = [0, 0]
    turns: list[Turn] = []
    last_turn: dict[int, int] = {}
    for player, state, action in events:
        rack = state.rack_text(player) if state.current_player == player else ""
        if player in hidden:
            rack = ""
            if isinstance(action, Placement):
                laid = new_tiles(state.board_array, action, state.tiles)
                counts = np.zeros(state.tiles.size + 1, dtype=np.int64)
                for _, _, code in laid:
                    counts[state.tiles.size if code & BLANK_FLAG else code] += 1
                rack = state.tiles.rack_text(counts)
            elif isinstance(action, Exchange):
                action = Exchange(str(len(action.tiles)))
        if isinstance(action, Placement):
            totals[player] += action.score
            last_turn[player] = len(turns)
            turns.append(Turn(player, nicks[player], rack, "move", action.score,
                              totals[player], move=action, state=state))  # fmt: skip
        elif isinstance(action, Exchange):
            turns.append(Turn(player, nicks[player], rack, "exchange", 0, totals[player],
                              tiles=action.tiles, state=state))  # fmt: skip
        elif hasattr(action, "outcome"):
            outcome, mover = action.outcome, action.mover  # type: ignore[attr-defined]
            if outcome.phony:
                taken = turns[last_turn[mover]]
                totals[mover] -= taken.points
                turns.append(Turn(mover, nicks[mover], taken.rack, "withdrawn", -taken.points,
                                  totals[mover], state=taken.state))  # fmt: skip
            elif outcome.lost_turn is not None:
                loser = outcome.lost_turn
                turns.append(Turn(loser, nicks[loser], state.rack_text(loser), "pass", 0,
                                  totals[loser], note="lost challenge"))  # fmt: skip
        else:
            turns.append(Turn(player, nicks[player], rack, "pass", 0, totals[player],
                              state=state))  # fmt: skip
    if final.is_terminal():
        for p in range(2):
            delta = final.scores[p] - totals[p]
            if not delta:
                continue
            left = final.rack_text(p)
            totals[p] += delta
            if left:
                turns.append(Turn(p, nicks[p], left, "rack_left", delta, totals[p], tiles=left))
            else:
                other = final.rack_text(1 - p)
                turns.append(Turn(p, nicks[p], "", "out", delta, totals[p], tiles=other))
    board = final.board_array.copy()
    pragmas = [f"#note {note}"] if note else []
    return GameRecord(list(nicks), list(names or nicks), turns, board, totals, lex, pragmas)
