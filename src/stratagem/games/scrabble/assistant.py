"""The Scrabble assistant's reasoning, for any renderer: a position text and a rack read, the
unseen tiles placed, the best moves listed by the coach (or by score), and the endgame search
when the bag is empty; and a move typed in the CLI's notation read without listing every move.

The move generator's table of moves (``info``) is read by its named columns
(:data:`~._kernels.ROW`, ``COL``, ``DOWN``, ``LENGTH``, ``SCORE``); every use of a
lexicon's shared generator holds :func:`~.coach.lexicon_lock`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from stratagem.core.errors import IllegalActionError, InvalidStateError
from stratagem.games.scrabble._kernels import COL, DOWN, LENGTH, ROW, SCORE
from stratagem.games.scrabble.board import RACK_SIZE, Placement, parse_coordinate
from stratagem.games.scrabble.challenge import board_phonies
from stratagem.games.scrabble.coach import lexicon_lock, placement_squares
from stratagem.games.scrabble.heuristic import (
    FEATURE_NAMES,
    SCORE_WEIGHT,
    Candidate,
    make_coach,
    phase_of,
)
from stratagem.games.scrabble.lexicon import Lexicon
from stratagem.games.scrabble.movegen import move_generator
from stratagem.games.scrabble.play import choose_spelling, parse_move, refuse_placement, typed
from stratagem.games.scrabble.position import check_within_set, read_position, tiles_on_board
from stratagem.games.scrabble.sim import SimProgress
from stratagem.games.scrabble.state import Exchange, Pass, ScrabbleState
from stratagem.games.scrabble.tracking import Tracking, parse_unseen, track, track_state

DEFAULT_THINK = 5.0
"""Seconds the AI may think a move, and the assistant a position, unless the player says."""
THINK_RANGE = (0.5, 30.0)
"""The thinking budgets a page may ask for (seconds): a request then runs at most its budget
plus the move generation (well under a second)."""
MAX_POSITION_CHARS = 4000
"""A position text is about 400 characters; anything past this is refused."""


def read_move(text: str, state: ScrabbleState) -> Placement | Exchange | Pass:
    """The CLI's :func:`~stratagem.games.scrabble.play.parse_move`, without listing every move.

    A placement is looked up among the generated moves that start on its square in
    its direction with its length (a rack with a blank has tens of thousands of
    placements; only these few become objects). Anything else, and every error,
    goes through the CLI's parser or its checks, so the messages are the same.
    """
    words = text.split()
    if len(words) != 2 or words[0].lower() in ("x", "exchange"):
        return parse_move(text, state)
    try:
        row, col, across = parse_coordinate(words[0])
    except IllegalActionError:
        return parse_move(text, state)
    typed = words[1]
    info, codes = move_generator(state.lexicon).raw(state.board_array, state.rack_array())
    hits = np.flatnonzero(
        (info[:, ROW] == row) & (info[:, COL] == col) & (info[:, DOWN] == (0 if across else 1))
        & (info[:, LENGTH] == len(typed))
    )  # fmt: skip
    order = hits[np.argsort(-info[hits, SCORE], kind="stable")]
    square = state.tiles.square_text
    found = []
    for k in order:
        word = "".join(square(int(x)) for x in codes[k, : len(typed)])
        if word.upper() == typed.upper():
            found.append(Placement(row, col, across, word, int(info[k, SCORE])))
    chosen = choose_spelling(typed, found)
    if chosen is not None:
        return chosen
    # Not legal: say why, with the CLI parser's checks (without its full move list).
    for ch in typed:
        if state.tiles.letter_index(ch) is None:
            return parse_move(text, state)  # names the foreign letter before listing moves
    refuse_placement(state, words[0], typed)


def top_placements(
    lexicon: Lexicon, board: np.ndarray, rack: np.ndarray, top: int
) -> tuple[list[Placement], int]:
    """The ``top`` best placements (in the order of ``MoveGenerator.moves``) and the count.

    Only the moves listed become :class:`Placement` objects: a rack with a blank has
    tens of thousands of placements on a busy board.
    """
    lex = lexicon
    with lexicon_lock(lex):
        info, words = move_generator(lex).raw(board, rack)
    order = np.argsort(-info[:, SCORE], kind="stable")[:top]
    moves = []
    for k in order:
        row, col = int(info[k, ROW]), int(info[k, COL])
        down, length, score = int(info[k, DOWN]), int(info[k, LENGTH]), int(info[k, SCORE])
        text = "".join(lex.tiles.square_text(int(x)) for x in words[k, :length])
        moves.append(Placement(row, col, not down, text, score))
    return moves, int(info.shape[0])


SCORE_ONLY = np.zeros(len(FEATURE_NAMES))
SCORE_ONLY[FEATURE_NAMES.index("score")] = SCORE_WEIGHT
"""Weights that rank by the score alone (the assistant's ``rank=score``)."""


@dataclass
class Analysis:
    """The assistant's answer: the position with the rack, the moves listed, and the coach."""

    state: ScrabbleState
    rack: np.ndarray
    moves: list[Candidate]
    total: int
    phase: str
    weights: np.ndarray
    best: float
    """The coach's best value, in points (what ``behind`` is measured from)."""
    tracking: Tracking | None = None
    phonies: list[tuple[str, list[tuple[int, int]]]] = field(default_factory=list)
    endgame: Any = None
    """The endgame search's result when the bag is empty (two players)."""
    budget: float = DEFAULT_THINK


def with_unseen(state: ScrabbleState, rack_counts: np.ndarray, unseen: str | None) -> tuple[
        ScrabbleState, Tracking]:  # fmt: skip
    """The position with the player's rack and the unseen tiles placed: on the opponent's rack
    when they fit one (the bag is then empty: the endgame, with the opponent's rack known),
    else 7 of them there and the rest in the bag (the coach looks at the bag's size only).
    ``unseen``, when given, must be what the board and rack leave of the set."""
    tiles = state.tiles
    derived = track(tiles, state.board_array, rack_counts, 0)
    rest = np.array(derived.unseen, dtype=np.int64)
    if unseen is not None:
        given = parse_unseen(tiles, unseen)
        if not np.array_equal(given, rest):
            names = [*tiles.letters, "?"]
            extra = "".join(names[i] * int(n) for i, n in enumerate(given - rest) if n > 0)
            missing = "".join(names[i] * int(n) for i, n in enumerate(rest - given) if n > 0)
            raise InvalidStateError(
                "the unseen tiles given are not what the board and rack leave of the "
                f"{tiles.name} set ({derived.text or 'none'}): "
                + "; ".join(x for x in (f"too many {extra}" if extra else "",
                                        f"missing {missing}" if missing else "") if x)
            )  # fmt: skip
    if state.num_players != 2:
        racks = list(state.racks)
        racks[state.player] = tuple(int(x) for x in rack_counts)
        st = replace(state, racks=tuple(racks))
        return st, track_state(st, st.player)
    opp = np.zeros_like(rest)
    if rest.sum() <= RACK_SIZE:
        opp, bag = rest, np.zeros_like(rest)
    else:
        left = RACK_SIZE
        for i in range(len(rest)):  # any 7: hidden, and the coach does not look at them
            take = min(left, int(rest[i]))
            opp[i] = take
            left -= take
        bag = rest - opp
    racks = [(0,) * (tiles.size + 1)] * 2
    racks[state.player] = tuple(int(x) for x in rack_counts)
    racks[1 - state.player] = tuple(int(x) for x in opp)
    st = replace(state, racks=tuple(racks), bag=tuple(int(x) for x in bag))
    return st, track(tiles, st.board_array, rack_counts, int(opp.sum()))


def read_state(lexicon: Lexicon, position: str, rack: str | None, unseen: str | None,
               scores: list[int] | None) -> tuple[ScrabbleState, np.ndarray, Tracking]:  # fmt: skip
    """The position the assistant analyses: the text read, the rack asked about (default: the
    player to move's) on the player's rack, the unseen tiles placed (:func:`with_unseen`,
    unless the position says where they are) and ``scores`` in place of the position's; with
    the rack's counts and the tracking of the unseen tiles."""
    if len(position) > MAX_POSITION_CHARS:
        raise InvalidStateError(
            f"a position is at most {MAX_POSITION_CHARS} characters, got {len(position)}"
        )
    state = read_position(position, lexicon)
    tiles = state.tiles
    if rack is None:
        rack_counts = state.rack_array()
    else:
        rack_counts = tiles.rack_counts(rack, RACK_SIZE)
        used = rack_counts + tiles_on_board(tiles, state.board_array)
        check_within_set(tiles, used, f"the board and rack {rack!r} hold")
    if scores is not None:
        if len(scores) != state.num_players:
            raise InvalidStateError(f"scores: {len(scores)} given for {state.num_players} players")
        state = replace(state, scores=tuple(scores))
    opponents = [q for q in range(state.num_players) if q != state.player]
    told = _has_bag_line(position) or any(sum(state.racks[q]) for q in opponents)
    if unseen is None and told:
        # the position says where the unseen tiles are (a bag line, the opponents' racks):
        # keep them, with the rack asked about
        racks = list(state.racks)
        racks[state.player] = tuple(int(x) for x in rack_counts)
        state = replace(state, racks=tuple(racks))
        hidden = np.array(state.bag, dtype=np.int64)
        for q in opponents:
            hidden += np.array(state.racks[q], dtype=np.int64)
        tracking = Tracking(tiles, tuple(int(x) for x in hidden),
                            sum(sum(state.racks[q]) for q in opponents))  # fmt: skip
    else:
        state, tracking = with_unseen(state, rack_counts, unseen)
    return state, rack_counts, tracking


def analyse(
    lexicon: Lexicon, position: str, rack: str | None, top: int, rank: str = "value",
    unseen: str | None = None, scores: list[int] | None = None, budget: float = DEFAULT_THINK,
) -> Analysis:  # fmt: skip
    """Read a position and a rack (default: the player to move's); list its ``top`` moves,
    ranked by the coach's value (``rank="value"``: placements, exchanges and the pass) or by
    the score alone (``"score"``: placements only). The unseen tiles are derived from the
    board and rack (or checked against ``unseen``); ``scores`` replace the position's. When
    they fit the opponent's rack the bag is empty, and the endgame search answers too, within
    ``budget`` seconds on the wall clock (the best found by then)."""
    began = time.monotonic()
    if not THINK_RANGE[0] <= budget <= THINK_RANGE[1]:
        raise InvalidStateError(
            f"the budget is {THINK_RANGE[0]:g} to {THINK_RANGE[1]:g} seconds, got {budget}"
        )
    state, rack_counts, tracking = read_state(lexicon, position, rack, unseen, scores)
    phonies = board_phonies(state)
    coach = make_coach(state.tiles.name)
    phase = phase_of(state)
    with lexicon_lock(lexicon):
        table = coach.table(state)  # one move generation for the ranking and the coach
        best, total = coach.ranked(state, top if rank == "value" else 1, table)
        moves = best
        if rank == "score":
            # ordered by score alone, each row valued as the coach values it (with the
            # closing rule's points once the bag is empty)
            plain = table._replace(bonus=np.zeros_like(table.bonus),
                                   xbonus=np.zeros_like(table.xbonus))  # fmt: skip
            by_score, total = coach.evaluator.ranked(state, SCORE_ONLY, top, table=plain)
            moves = [
                c
                for m in by_score
                if isinstance(m.action, Placement)
                and (c := coach.candidate(state, m.action, table)) is not None
            ]
        result = None
        if (state.num_players == 2 and state.bag_size() == 0 and sum(state.racks[0]) > 0
                and sum(state.racks[1]) > 0):  # fmt: skip
            from stratagem.games.scrabble.endgame import solve_endgame

            left = budget - (time.monotonic() - began) - ENDGAME_MARGIN
            result = solve_endgame(state, time_limit=THINK_RANGE[1] * 4,
                                   wall_limit=max(0.1, left))  # fmt: skip
    return Analysis(state, rack_counts, moves, total, phase, coach.weights_for(phase),
                    best[0].value / SCORE_WEIGHT, tracking, phonies, result,
                    budget)  # fmt: skip


def _has_bag_line(position: str) -> bool:
    """Whether a position text gives its bag (``bag:``) rather than leaving it derived."""
    return any(
        line.split("#", 1)[0].strip().lower().replace(" ", "").startswith("bag:")
        for line in position.splitlines()
    )


ENDGAME_MARGIN = 0.3
"""Seconds of an assistant's budget kept back from the endgame search for what follows it
(the line of play, the answer)."""


# --- deep analysis: the simulating player's ranking ---------------------------------------

DEEP_SECONDS = 5.0
"""Seconds a deep analysis simulates unless the player says."""
DEEP_SECONDS_RANGE = (1.0, 60.0)
DEEP_CANDIDATES = 10
"""The static moves a deep analysis simulates unless the player says."""
DEEP_CANDIDATES_RANGE = (2, 30)
DEEP_ITERATIONS = 5_000
"""Most deals a candidate meets (the time budget usually ends the simulation first)."""
DEEP_PRE_NODES = 20_000
"""Node limit of each endgame search of the exact pre-endgame (one tile in the bag)."""


@dataclass
class DeepAnalysis:
    """The simulating player's ranking of a position's top static moves (best first): each
    one's :class:`~.sim.SimStats` (win estimate and mean spread with their standard errors,
    the deals), and how the simulation ended."""

    state: ScrabbleState
    moves: list[Any]
    deals: int
    """Deals simulated (the most any candidate met; pruned candidates met fewer)."""
    seconds: float
    pre_endgame: bool
    """The draws were enumerated (1 tile in the bag), each endgame solved."""
    stopped: str
    """``finished`` (every deal, or one candidate left), ``budget`` or ``cancelled``."""
    candidates: int
    budget: float


def check_deep(candidates: int, seconds: float) -> None:
    """Refuse a deep analysis's candidates or seconds out of range, naming which."""
    low, high = DEEP_CANDIDATES_RANGE
    if isinstance(candidates, bool) or not isinstance(candidates, int) or not (
            low <= candidates <= high):  # fmt: skip
        raise InvalidStateError(f"candidates must be a whole number {low} to {high}, "
                                f"got {candidates!r}")  # fmt: skip
    lo, hi = DEEP_SECONDS_RANGE
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not (
            lo <= seconds <= hi):  # fmt: skip
        raise InvalidStateError(f"seconds must be {lo:g} to {hi:g}, got {seconds!r}")


def deep_analysis(
    lexicon: Lexicon, position: str, rack: str | None = None, *, unseen: str | None = None,
    scores: list[int] | None = None, candidates: int = DEEP_CANDIDATES,
    seconds: float = DEEP_SECONDS, progress: Callable[[SimProgress], None] | None = None,
    cancelled: Callable[[], bool] | None = None, seed: int = 0, workers: int = 1,
) -> DeepAnalysis:  # fmt: skip
    """The simulating player's ranking of the ``candidates`` best static moves of a position
    (read as :func:`analyse` reads it), simulated for ``seconds`` on the wall clock at most:
    two plies over deals of the unseen tiles; with one tile in the bag, every draw enumerated
    and each endgame solved (``pre_endgame=exact``). ``progress`` is told after every deal,
    ``cancelled`` asked between deals (then the ranking so far is returned). The lexicon's
    lock is taken deal by deal. ``workers`` processes play the deals (:mod:`.sim_pool`: the
    same figures as one, more deals within the seconds). Two players and tiles in the bag
    only."""
    check_deep(candidates, seconds)
    from stratagem.games.scrabble.sim import check_workers

    check_workers(workers)
    state = deep_position(lexicon, position, rack, unseen, scores)
    from stratagem.games.scrabble.sim import SimAgent

    agent = SimAgent(make_coach(state.tiles.name), candidates, 2, DEEP_ITERATIONS, seconds,
                     1, False, pre_endgame="exact", pre_nodes=DEEP_PRE_NODES,
                     workers=workers)  # fmt: skip
    agent.progress = progress
    agent.cancelled = cancelled
    agent.guard = lambda: lexicon_lock(lexicon)
    stats = agent.simulate(state, np.random.default_rng(seed))
    enumerated = 1 <= state.bag_size() <= agent.draws
    deals = max((s.n for s in stats), default=0)
    if cancelled is not None and cancelled():
        stopped = "cancelled"
    elif agent.last_seconds >= seconds and not (enumerated and all(s.exact for s in stats)):
        stopped = "budget"
    else:
        stopped = "finished"
    return DeepAnalysis(state, stats, deals, agent.last_seconds, enumerated, stopped,
                        candidates, float(seconds))  # fmt: skip


def deep_rows(d: DeepAnalysis) -> list[dict[str, Any]]:
    """A deep analysis's moves, best first, as the page and the terminal show them: the
    move (``action`` with its score, ``move`` as typed), the coach's static value, the win
    estimate and mean spread with their standard errors, the deals it met, whether it was
    dropped early or every draw was enumerated, the endgames solved and proved, and the
    squares it lays."""
    rows = []
    for s in d.moves:
        a = s.action
        kind = "placement" if isinstance(a, Placement) else (
            "exchange" if isinstance(a, Exchange) else "pass")  # fmt: skip
        rows.append({
            "action": str(a), "move": typed(a), "kind": kind, "static": round(s.static, 2),
            "win": min(max(s.win, 0.0), 1.0), "win_se": s.win_se, "spread": s.mean,
            "spread_se": s.se, "deals": s.n, "pruned": s.pruned, "exact": s.exact,
            "endgames": s.solved, "proved": s.proved,
            "tiles": placement_squares(d.state, a) if isinstance(a, Placement) else [],
        })  # fmt: skip
    return rows


def deep_position(lexicon: Lexicon, position: str, rack: str | None, unseen: str | None,
                  scores: list[int] | None) -> ScrabbleState:  # fmt: skip
    """The position a deep analysis simulates (:func:`read_state`), refused unless it has
    two players and tiles in the bag, the opponent holding a full rack."""
    state, _, _ = read_state(lexicon, position, rack, unseen, scores)
    if state.num_players != 2:
        raise InvalidStateError(
            f"deep analysis simulates two-player games; this position has {state.num_players}"
        )
    if state.bag_size() == 0:
        raise InvalidStateError(
            "the bag is empty: the endgame search of the analysis is exact, deep analysis "
            "simulates the draws of a bag with tiles"
        )
    dealt = _dealt(state)
    if dealt.bag_size() == 0:
        raise InvalidStateError(
            f"the {state.bag_size() + sum(state.racks[1 - state.player])} unseen tiles all fit "
            "the opponent's rack, so the bag is empty: the endgame search is exact here, deep "
            "analysis simulates the draws of a bag with tiles"
        )
    return dealt


def _dealt(state: ScrabbleState) -> ScrabbleState:
    """The position with the opponent holding a full rack (7 of the unseen tiles, or all of
    them) and the rest in the bag: the simulation deals the unseen tiles afresh each time,
    and needs the opponent's rack size right (a position may have told a bag and no rack)."""
    opp = 1 - state.player
    hidden = np.array(state.bag, dtype=np.int64) + np.array(state.racks[opp], dtype=np.int64)
    if sum(state.racks[opp]) == min(RACK_SIZE, int(hidden.sum())):
        return state
    rack = np.zeros_like(hidden)
    left = RACK_SIZE
    for i in range(len(hidden)):
        take = min(left, int(hidden[i]))
        rack[i] = take
        left -= take
    racks = list(state.racks)
    racks[opp] = tuple(int(x) for x in rack)
    return replace(state, racks=tuple(racks), bag=tuple(int(x) for x in hidden - rack))
