"""Game records in GCG for sessions: a :class:`~stratagem.core.session.Session` of Scrabble
written as GCG, and a GCG record opened as a session.

A GCG record lists each player's rack at each of their turns, so the draws between the
turns are known: the tiles a player holds at their next turn, less those they kept. A
session opened from GCG replays the recorded moves with those draws as its *recorded deal*
(``Session(..., dealt=...)``: the k-th chance event of the line takes the k-th recorded draw
when it can happen there, the seed's otherwise; so a takeback and a different move meet the
seed's tiles once the recorded ones are no longer in the bag). Both seats are people (a GCG
record does not say who played). Every move is checked by the session like a person's:
legal on the board, in the word list, scoring what the record says.

What a session cannot replay is refused with a :class:`GcgError` naming the line: a phony
challenged off (``--``) or a challenge bonus (the session knows no challenge rule yet), a
time penalty, more than two players, and a record whose racks do not follow from the bag.

>>> from pathlib import Path
>>> data = Path(__file__).parents[4] / "tests/games/scrabble/data/selfplay_3.gcg"
>>> if data.exists():
...     s = session_from_gcg(data.read_text())
...     assert turn_lines(session_to_gcg(s)) == turn_lines(data.read_text())
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from stratagem.core.errors import RecordError, StratagemError
from stratagem.core.registry import load_game
from stratagem.core.session import HUMAN, Session
from stratagem.games.scrabble.board import RACK_SIZE
from stratagem.games.scrabble.challenge import ChallengeOutcome, words_formed
from stratagem.games.scrabble.gcg import (
    GCG_LIMIT,
    GameRecord,
    GcgError,
    read_gcg,
    record_of_game,
    write_gcg,
)
from stratagem.games.scrabble.state import PASS, Challenge, Exchange, ScrabbleState

__all__ = ["GcgCodec", "session_from_gcg", "session_to_gcg", "turn_lines"]

_REPLAYED = ("move", "exchange", "pass")
_END = ("out", "rack_left")


def turn_lines(text: str) -> list[str]:
    """The turn lines of a GCG text (``>nick: ...``), spaces normalised: its moves and scores,
    without the pragmas and notes."""
    return [" ".join(line.split()) for line in text.splitlines() if line.startswith(">")]


def session_from_gcg(
    text: str | bytes, rules: str = "english", seats: Sequence[str] = (HUMAN, HUMAN)
) -> Session:
    """A session that replays a GCG record (at most :data:`~.gcg.GCG_LIMIT` bytes, UTF-8)."""
    if isinstance(text, bytes):
        if len(text) > GCG_LIMIT:
            raise GcgError(f"the GCG record is {len(text):,} bytes; at most {GCG_LIMIT:,}")
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise GcgError("the GCG record is not UTF-8 text") from None
    size = len(text.encode("utf-8"))
    if size > GCG_LIMIT:
        raise GcgError(f"the GCG record is {size:,} bytes; at most {GCG_LIMIT:,}")
    if not any(line.startswith(">") for line in text.splitlines()):
        raise GcgError("this is not a GCG game record: it has no turn lines (>nick: ...)")
    spec = load_game("scrabble")
    rules = spec.check_rules(rules)
    lex = spec.rules_object(rules)
    record = read_gcg(text, lex)
    for t in record.turns:
        if t.kind not in _REPLAYED + _END:
            raise GcgError(
                f"turn {t} ({t.kind.replace('_', ' ')}) cannot be replayed as a session: it "
                "plays without a challenge rule; open the record in the assistant instead"
            )
    decisions, dealt = _replay(record, ScrabbleState.new(lex, 2))
    data = {
        "format": "stratagem-game",
        "version": 1,
        "game": "scrabble",
        "rules": rules,
        "seats": [{"kind": "human"} if s == HUMAN else {"kind": "agent", "spec": s}
                  for s in seats],
        "seed": 0,
        "coach": None,
        "decisions": decisions,
        "dealt": dealt,
    }  # fmt: skip
    try:
        session = Session.from_record(data, game="scrabble")
    except StratagemError as exc:
        raise GcgError(f"the GCG record cannot be replayed: {exc}") from None
    state = session.state
    assert isinstance(state, ScrabbleState)
    if record.totals and session.over and list(state.scores) != list(record.totals):
        raise GcgError(
            f"the record's final totals {record.totals} are not the game's, {list(state.scores)}"
        )
    return session


def _replay(record: GameRecord, start: ScrabbleState) -> tuple[list[str], list[str]]:
    """The decisions (action texts) and the draws (chance texts) that replay ``record``."""
    tiles = start.tiles
    moves = [t for t in record.turns if t.kind in _REPLAYED]
    # each player's rack at each of their turns, in order, and at the end
    racks: dict[int, list[np.ndarray | None]] = {0: [], 1: []}
    for t in moves:
        racks[t.player].append(_counts(tiles, t.rack) if t.rack else None)
    final: dict[int, np.ndarray] = {}
    for t in record.turns:
        if t.kind == "rack_left" and t.tiles:
            final[t.player] = _counts(tiles, t.tiles)
        elif t.kind == "out":
            final[t.player] = np.zeros(tiles.size + 1, dtype=np.int64)
            if t.tiles:
                final[1 - t.player] = _counts(tiles, t.tiles)
    seen = {0: 0, 1: 0}  # turns of each player played so far
    state = start
    decisions: list[str] = []
    dealt: list[str] = []
    rng = np.random.default_rng(0)
    k = 0
    while not state.is_terminal():
        if state.current_player < 0:
            p = state.drawer
            upcoming = racks[p][seen[p]] if seen[p] < len(racks[p]) else final.get(p)
            draw = _draw(state, upcoming, rng)
            dealt.append(str(draw))
            state = state.apply(draw)
            continue
        if k == len(moves):
            break  # the record stops here: a game in progress
        t = moves[k]
        if t.player != state.player:
            raise GcgError(f"turn {t}: it is {record.nicks[state.player]}'s turn")
        action: object
        if t.kind == "move":
            assert t.move is not None
            action = t.move
        elif t.kind == "exchange":
            if not t.tiles or t.tiles.isdigit():
                raise GcgError(f"turn {t}: the exchange's tiles are not recorded")
            action = Exchange(t.tiles)
        else:
            action = PASS
        try:
            state = state.apply(action)
        except StratagemError as exc:
            raise GcgError(f"turn {t} is impossible: {exc}") from None
        decisions.append(str(action))
        seen[t.player] += 1
        k += 1
    if k < len(moves):
        raise GcgError(f"the game ended before turn {moves[k]}")
    return decisions, dealt


def _counts(tiles: object, text: str) -> np.ndarray:
    from stratagem.games.scrabble.tiles import TileSet

    assert isinstance(tiles, TileSet)
    return tiles.rack_counts(text, RACK_SIZE).astype(np.int64)


def _draw(state: ScrabbleState, upcoming: np.ndarray | None, rng: np.random.Generator) -> tuple[
        int, ...]:  # fmt: skip
    """The draw that gives the drawer the rack ``upcoming`` (known tiles first; a rack not
    recorded, or recorded in part, is filled from the bag)."""
    need = min(RACK_SIZE - sum(state.racks[state.drawer]), state.bag_size())
    bag = np.array(state.bag, dtype=np.int64)
    drawn = np.zeros_like(bag)
    if upcoming is not None:
        want = np.maximum(upcoming - np.array(state.racks[state.drawer], dtype=np.int64), 0)
        if (want > bag).any() or want.sum() > need:
            names = [*state.tiles.letters, "?"]
            short = "".join(names[i] * int(n) for i, n in enumerate(want - bag) if n > 0)
            raise GcgError(
                f"{state.tiles.rack_text(upcoming)} cannot be the next rack of player "
                f"{state.drawer + 1}: "
                + (f"{short} not in the bag" if short else f"more than {need} tiles drawn")
            )
        drawn = want
    rest = need - int(drawn.sum())
    if rest > 0:
        pool = np.repeat(np.arange(len(bag)), bag - drawn)
        picks = rng.choice(len(pool), size=rest, replace=False)
        np.add.at(drawn, pool[picks], 1)
    return tuple(int(i) for i in np.repeat(np.arange(len(bag)), drawn))


def session_to_gcg(
    session: Session,
    viewer: int | None = None,
    note: str = "",
    nicks: tuple[str, str] = ("p1", "p2"),
) -> str:
    """The session's game as GCG. ``viewer``: the player the record is for; while the game
    goes on, the others' racks are written as the tiles they played only (hidden
    information), and their exchanges as a count. ``None``: every rack (a finished game, or
    a game between people at one table)."""
    if session.game.name != "scrabble":
        raise GcgError(f"GCG records Scrabble games, not {session.game.name}")
    if len(session.seats) != 2:
        raise GcgError(f"GCG records two-player games; this one has {len(session.seats)} players")
    events: list[tuple[int, ScrabbleState, object]] = []
    for j, step in enumerate(session.decision_steps()):
        state = session.state_at(j)
        assert isinstance(state, ScrabbleState)
        action: object = step.action
        if isinstance(action, Challenge):
            action = _challenge_event(state, session.state_at(j + 1))
        events.append((step.player, state, action))
    final = session.state
    assert isinstance(final, ScrabbleState)
    hidden: tuple[int, ...] = ()
    if viewer is not None and not final.is_terminal():
        hidden = tuple(p for p in range(2) if p != viewer)
    names = tuple(str(s) for s in session.seats)
    record = record_of_game(events, final, nicks, (names[0], names[1]),
                            note=note or f"stratagem session, {session.rules}, seed "
                            f"{session.seed}", hidden=hidden)  # fmt: skip
    return write_gcg(record)


@dataclass(frozen=True)
class _ChallengeEvent:
    """A challenge as :func:`~.gcg.record_of_game` takes it: what it decided, whose move."""

    outcome: ChallengeOutcome
    mover: int


def _challenge_event(state: ScrabbleState, after: object) -> _ChallengeEvent:
    """The challenge decided at ``state`` (its window open), ``after`` the position it left."""
    assert state.window is not None and isinstance(after, ScrabbleState)
    before, move = state.window
    words = tuple(words_formed(before, move))
    bad = tuple(w for w in words if w not in state.lexicon)
    lost = before.player if bad else (state.player if state.challenge_rule == "double" else None)
    return _ChallengeEvent(ChallengeOutcome(words, bad, lost, after.verdict), before.player)


class GcgCodec:
    """GCG as a record format of Scrabble sessions (``web/play.py``'s ``RecordCodec``):
    ``GET /api/sessions/{sid}/record?format=gcg`` and ``POST /api/sessions/import`` with
    ``format: "gcg"``. A game in progress against an agent is written for the first person
    seated (the agents' racks as the tiles they played); every problem of a text read is a
    :class:`~stratagem.core.errors.RecordError` naming it."""

    media_type = "text/plain; charset=utf-8"

    def write(self, session: Session) -> str:
        people = [p for p, seat in enumerate(session.seats) if seat.human]
        viewer = people[0] if people and len(people) < len(session.seats) else None
        try:
            return session_to_gcg(session, viewer=viewer)
        except GcgError as exc:
            raise RecordError(str(exc)) from None

    def read(self, text: str) -> Session:
        try:
            return session_from_gcg(text)
        except GcgError as exc:
            raise RecordError(str(exc)) from None
