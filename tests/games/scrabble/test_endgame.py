"""The endgame solver against a plain minimax written here over the game protocol."""

from __future__ import annotations

import numpy as np
import pytest

from stratagem.core.errors import StratagemError
from stratagem.games.scrabble import endgame
from stratagem.games.scrabble.board import Placement
from stratagem.games.scrabble.endgame import (
    EndgameAgent,
    EndgameError,
    EndgameSolver,
    solve_endgame,
)
from stratagem.games.scrabble.state import PASS, ScrabbleState
from stratagem.games.scrabble.strategies import GreedyAgent

from .conftest import random_positions


def minimax(state: ScrabbleState) -> int:
    """Final spread (mover minus opponent) under best play: every action, no pruning.

    It knows nothing of the solver: moves come from ``legal_actions`` and the
    rules (going out, rack penalties, six scoreless turns) from ``apply``.
    """
    if state.is_terminal():
        raise AssertionError("minimax is called on positions with a player to move")
    me = state.player
    best = None
    for action in state.legal_actions():
        child = state.apply(action)
        if child.is_terminal():
            value = child.scores[me] - child.scores[1 - me]
        else:
            assert child.player == 1 - me and child.current_player == 1 - me
            value = -minimax(child)
        if best is None or value > best:
            best = value
    assert best is not None
    return best


def endgames(lexicon, seed: int, count: int, sizes: list[tuple[int, int]], blanks: bool = False):  # type: ignore[no-untyped-def]
    """Boards from random play, with small random racks and an empty bag."""
    rng = np.random.default_rng(seed)
    tiles = lexicon.tiles
    boards = [b for i, (b, _) in enumerate(random_positions(lexicon, seed, 8)) if i % 3 == 2]
    pool = [i for i, n in enumerate(tiles.bag_counts) for _ in range(int(n))]
    if not blanks:
        pool = [i for i in pool if i < tiles.size]
    out = []
    for k in range(count):
        board = boards[int(rng.integers(len(boards)))]
        a, b = sizes[k % len(sizes)]
        picks = rng.choice(len(pool), size=a + b, replace=False)
        racks = []
        for part in (picks[:a], picks[a:]):
            rack = [0] * (tiles.size + 1)
            for i in part:
                rack[pool[int(i)]] += 1
            racks.append(tuple(rack))
        scores = (int(rng.integers(0, 200)), int(rng.integers(0, 200)))
        out.append(
            ScrabbleState(
                lexicon,
                board.tobytes(),
                tuple(racks),
                (0,) * (tiles.size + 1),
                scores,
                player=int(rng.integers(2)),
                turn=10,
                scoreless=int(rng.integers(0, 3)),
                bingos=(0, 0),
            )
        )
    return out


def test_solver_matches_plain_minimax_on_small_endgames(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    positions = endgames(small_lexicon, 7, 24, [(1, 1), (1, 2), (2, 1), (2, 2)])
    for state in positions:
        result = solve_endgame(state)
        assert result.exact
        assert result.value == minimax(state), state.board_rows()
        # The move it names reaches that value.
        child = state.apply(result.best_move)
        me = state.player
        reached = (
            child.scores[me] - child.scores[1 - me] if child.is_terminal() else -minimax(child)
        )
        assert reached == result.value


def test_solver_matches_minimax_with_a_blank(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    positions = [
        s for s in endgames(small_lexicon, 11, 30, [(1, 1), (2, 1)], blanks=True)
        if s.racks[0][-1] or s.racks[1][-1]
    ][:4]  # fmt: skip
    assert positions
    for state in positions:
        assert solve_endgame(state).value == minimax(state)


def test_a_placement_tried_after_a_pass_sees_the_checks_it_changed(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    # Found by the kept-table tests (2026-12-02): the search tried the pass first at a
    # node, then a placement, and the next player's moves were generated with the
    # cross-checks and anchors of the board before that placement, missing a move that
    # went out through a square it had opened (the solver said 20 where minimax says 30).
    state = endgames(small_lexicon, 29, 12, [(3, 3), (4, 3), (4, 4)])[10]
    result = solve_endgame(state)
    assert result.exact
    assert result.value == minimax(state)


def test_six_scoreless_turns_end_the_game_as_the_state_says(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    positions = endgames(small_lexicon, 3, 8, [(1, 1), (2, 2)])
    for state in positions:
        for scoreless in (4, 5):
            s = ScrabbleState(
                state.lexicon, state.board, state.racks, state.bag, state.scores,
                player=state.player, turn=state.turn, scoreless=scoreless, bingos=(0, 0),
            )  # fmt: skip
            assert solve_endgame(s).value == minimax(s)


def test_a_stuck_mover_passes_and_the_penalties_apply(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    tiles = small_lexicon.tiles
    board, _ = next(iter(random_positions(small_lexicon, 1, 1)))
    racks = (tuple(tiles.rack_counts("Q")), tuple(tiles.rack_counts("V")))
    state = ScrabbleState(
        small_lexicon, board.tobytes(), racks, (0,) * (tiles.size + 1), (50, 40), player=0,
        turn=5, bingos=(0, 0),
    )  # fmt: skip
    if any(isinstance(a, Placement) for a in state.legal_actions()):
        pytest.skip("this board lets Q play")
    result = solve_endgame(state)
    assert result.exact
    assert result.value == minimax(state)
    if not any(isinstance(a, Placement) for a in state.apply(PASS).legal_actions()):
        # Neither can play: the six scoreless turns end it, each losing their rack.
        assert result.best_move == PASS
        assert result.value == (50 - 10) - (40 - 4)


@pytest.mark.slow
def test_solver_matches_memoised_minimax_on_three_tile_racks(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    # Racks of 3-4 tiles make the searches deep enough for the windows, the
    # table and the iterations to matter (a window not shifted by the move's
    # score once went unnoticed on 2-tile racks).
    memo: dict[tuple[object, ...], int] = {}

    def gain(state: ScrabbleState) -> int:
        key = (state.board, state.racks, state.player, state.scoreless)
        if key not in memo:
            me = state.player
            before = state.scores[me] - state.scores[1 - me]
            best = None
            for action in state.legal_actions():
                child = state.apply(action)
                value = child.scores[me] - child.scores[1 - me] - before
                if not child.is_terminal():
                    value -= gain(child)
                best = value if best is None else max(best, value)
            assert best is not None
            memo[key] = best
        return memo[key]

    for state in endgames(small_lexicon, 2, 8, [(3, 3), (4, 3), (3, 2)]):
        result = solve_endgame(state)
        assert result.exact
        assert result.gain == gain(state)
        assert (
            result.value
            == result.gain + state.scores[state.player] - state.scores[1 - state.player]
        )


def test_a_depth_limit_gives_an_inexact_answer(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    state = endgames(small_lexicon, 5, 1, [(3, 3)])[0]
    shallow = solve_endgame(state, max_depth=1)
    assert shallow.depth == 1
    full = solve_endgame(state)
    assert full.exact
    assert full.depth > 1
    assert not shallow.exact


def test_a_node_limit_stops_the_search_at_the_same_node_every_time(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    state = endgames(small_lexicon, 5, 1, [(5, 5)])[0]
    full = solve_endgame(state)
    # 13,669 nodes (12,916 with 3 points a tile in the ordering, 42,737 before the attempts)
    assert full.exact and full.nodes > 8_192
    cut = [solve_endgame(state, node_limit=4096) for _ in range(2)]
    for result in cut:
        assert not result.exact
        assert result.nodes == 4096  # the kernel checks every 1,024 nodes
        assert 1 <= result.depth < full.depth
    same = ("best_move", "value", "gain", "exact", "depth", "nodes", "pv")
    assert [getattr(cut[0], k) for k in same] == [getattr(cut[1], k) for k in same]
    # a limit above the whole search changes nothing
    roomy = solve_endgame(state, node_limit=10 * full.nodes)
    assert [getattr(roomy, k) for k in same] == [getattr(full, k) for k in same]
    for bad in (0, 1023, -5, 10**13, 2.5, True, "4096"):
        with pytest.raises(StratagemError, match="node_limit"):
            solve_endgame(state, node_limit=bad)  # type: ignore[arg-type]


def test_bad_positions_and_limits_are_refused(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    fresh = ScrabbleState.new(small_lexicon)
    with pytest.raises(EndgameError, match="player is to move"):
        solve_endgame(fresh)
    rng = np.random.default_rng(0)
    s = fresh
    while s.current_player < 0:
        s = s.apply(s.sample_chance(rng))
    with pytest.raises(EndgameError, match="empty bag"):
        solve_endgame(s)
    state = endgames(small_lexicon, 5, 1, [(1, 1)])[0]
    with pytest.raises(StratagemError, match="max_depth"):
        solve_endgame(state, max_depth=0)
    with pytest.raises(StratagemError, match="time_limit"):
        solve_endgame(state, time_limit=float("nan"))


def test_endgame_agent_solves_only_when_the_bag_is_empty(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    agent = EndgameAgent(GreedyAgent())
    rng = np.random.default_rng(0)
    state = endgames(small_lexicon, 9, 1, [(2, 2)])[0]
    move = agent.act(state, rng)
    assert agent.last is not None and agent.last.best_move == move
    s = ScrabbleState.new(small_lexicon)
    while s.current_player < 0:
        s = s.apply(s.sample_chance(rng))
    agent.last = None
    assert agent.act(s, rng) == GreedyAgent().act(s, rng)
    assert agent.last is None


def test_the_line_of_play_is_legal_and_reaches_the_value(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    reached_end = 0
    for state in endgames(small_lexicon, 13, 12, [(2, 2), (3, 2), (2, 3)]):
        result = solve_endgame(state)
        assert result.exact
        assert result.pv[0] == result.best_move
        s = state
        for move in result.pv:
            s = s.apply(move)  # raises on an illegal move
        if s.is_terminal():
            reached_end += 1
            me = state.player
            assert s.scores[me] - s.scores[1 - me] == result.value
    assert reached_end > 0


def _play_out(state: ScrabbleState, solver: EndgameSolver, reply: str):  # type: ignore[no-untyped-def]
    """Play ``state`` to the end: the mover by ``solver`` (checked against a fresh search at
    every decision), the other player by the first legal action or the fresh search's
    move. Returns the kept and the fresh searches' node counts."""
    me = state.player
    kept_nodes = fresh_nodes = 0
    s = state
    while not s.is_terminal():
        if s.player == me:
            kept = solver.solve(s)
            fresh = solve_endgame(s)
            # (the fresh search is checked against minimax on small endgames above)
            assert (kept.value, kept.exact) == (fresh.value, fresh.exact) == (fresh.value, True)
            kept_nodes += kept.nodes
            fresh_nodes += fresh.nodes
            s = s.apply(kept.best_move)
        else:
            s = s.apply(s.legal_actions()[0] if reply == "first" else solve_endgame(s).best_move)
    return kept_nodes, fresh_nodes


def test_a_kept_table_gives_the_values_of_fresh_searches_and_saves_nodes(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    saved = 0
    for k, state in enumerate(endgames(small_lexicon, 21, 8, [(3, 3), (3, 2), (2, 3)])):
        # one solver for the whole endgame, the opponent on and off the solver's line
        kept, fresh = _play_out(state, EndgameSolver(), "first" if k % 2 else "best")
        assert kept <= fresh
        saved += fresh - kept
    assert saved > 0  # the later decisions are answered from the table


def test_a_kept_table_is_not_used_for_another_endgame(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    a, b = endgames(small_lexicon, 23, 2, [(3, 3)])
    solver = EndgameSolver()
    solver.solve(a)
    for state in (b, a.apply(PASS)):  # another board; the other player to move
        got = solver.solve(state)
        want = solve_endgame(state)
        assert (got.value, got.exact, got.nodes) == (want.value, want.exact, want.nodes)


def test_a_kept_table_repeats_exactly_under_a_node_limit(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    state = endgames(small_lexicon, 5, 1, [(5, 5)])[0]
    runs = []
    for _ in range(2):
        solver = EndgameSolver()
        s, line = state, []
        while not s.is_terminal():
            r = solver.solve(s, node_limit=2048)
            line.append((str(r.best_move), r.value, r.exact, r.nodes))
            s = s.apply(r.best_move)
        runs.append(line)
    assert runs[0] == runs[1]
    assert len(runs[0]) >= 2


def test_at_most_a_few_tables_are_kept_per_process(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    state = endgames(small_lexicon, 5, 1, [(2, 2)])[0]
    solvers = [EndgameSolver() for _ in range(endgame.MAX_KEPT_TABLES + 2)]
    for solver in solvers:
        solver.solve(state)
    held = [solver for solver in solvers if solver._search is not None]
    assert held == solvers[-endgame.MAX_KEPT_TABLES :]
    # a solver whose table was dropped builds a new one
    assert solvers[0].solve(state).value == solve_endgame(state).value


def test_after_the_expected_reply_the_kept_table_answers_at_once(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    checked = 0
    for state in endgames(small_lexicon, 29, 12, [(3, 3), (4, 3), (4, 4)]):
        solver = EndgameSolver()
        first = solver.solve(state)
        if len(first.pv) < 3:
            continue
        later = state.apply(first.pv[0]).apply(first.pv[1])  # the line it expects
        kept = solver.solve(later)
        fresh = solve_endgame(later)
        # the same player to move, on the line of best play: the same final spread
        assert (kept.value, kept.exact) == (fresh.value, True) == (first.value, True)
        print(kept.nodes, fresh.nodes)
        if fresh.nodes > 25:
            # The first search proved this position: a few nodes, not a search.
            assert kept.nodes <= 5
            checked += 1
    assert checked >= 2


def test_a_long_search_reports_progress_and_stops_when_the_report_raises(  # type: ignore[no-untyped-def]
    small_lexicon, monkeypatch
) -> None:
    # progress(done, total) is the command line's bar: CPU seconds used of the time limit
    monkeypatch.setattr(endgame, "PROGRESS_EVERY", 0.0)
    state = endgames(small_lexicon, 5, 1, [(6, 6)])[0]
    calls: list[tuple[int, int]] = []
    full = solve_endgame(state, time_limit=20.0, progress=lambda d, t: calls.append((d, t)))
    assert full.exact and calls
    assert all(t == 20 and 0 <= d <= t for d, t in calls)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)

    def interrupt(done: int, total: int) -> None:
        raise KeyboardInterrupt

    solver = EndgameSolver()
    with pytest.raises(KeyboardInterrupt):
        solver.solve(state, time_limit=20.0, progress=interrupt)
    # the stopped search leaves a usable solver, and no report is kept for later calls
    again = solver.solve(state, time_limit=20.0)
    assert (again.value, again.exact) == (full.value, full.exact)


def test_windows_and_enhanced_cutoffs_keep_every_value(small_lexicon, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # The aspiration windows (each search starts 1 point either side of the value before)
    # and the enhanced transposition cutoffs only save nodes: with both off the solver
    # must find the same values and moves. Racks of 3-5 tiles make the searches deep
    # enough for both to act.
    positions = endgames(small_lexicon, 13, 10, [(4, 4), (5, 3), (3, 5), (5, 5)])
    fast = [solve_endgame(s) for s in positions]
    monkeypatch.setattr(endgame, "_ASPIRATION", 0)
    monkeypatch.setattr(endgame, "_ORDERING", [30, 0, 0])
    plain = [solve_endgame(s) for s in positions]
    for a, b in zip(fast, plain, strict=True):
        assert a.exact and b.exact
        assert (a.value, a.gain) == (b.value, b.gain)
    assert sum(r.nodes for r in fast) < sum(r.nodes for r in plain)


def test_a_wrong_guess_still_proves_the_value(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    # A window far above or below the value fails, and the search moves it until the
    # value falls inside: each side of the re-search is taken.
    state = endgames(small_lexicon, 5, 1, [(4, 4)])[0]
    truth = solve_endgame(state)
    assert truth.exact
    for guess in (truth.gain - 60, truth.gain + 60, truth.gain):
        search = endgame._Search(state)
        step = search.aspire(64, state.scoreless, None, 0, guess, proof=True)
        assert step is not None
        gain, exact, best = step
        assert exact and gain == truth.gain
        assert best != 0
    # One search in a window that misses the value returns a bound on the right side,
    # after fewer nodes than the search over the whole range.
    whole = endgame._Search(state)
    assert whole.iteration(64, state.scoreless, None)[0] == truth.gain  # type: ignore[index]
    bounds = []
    for window in ((truth.gain + 5, 10**6), (-(10**6), truth.gain - 5)):
        narrow = endgame._Search(state)
        step = narrow.iteration(64, state.scoreless, None, 0, window)
        assert step is not None
        assert narrow.counters[0] < whole.counters[0]
        bounds.append(step[0])
    assert truth.gain <= bounds[0] <= truth.gain + 5
    assert truth.gain - 5 <= bounds[1] <= truth.gain
