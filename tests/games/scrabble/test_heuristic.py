"""The heuristic terms on hand-built positions, phases, weights files and the agents."""

from __future__ import annotations

import doctest
import json
import math

import numpy as np
import pytest

from stratagem.core.arena import ArenaError, load_game, parse_spec
from stratagem.core.files import FileInputError
from stratagem.core.play import play
from stratagem.games.scrabble import heuristic
from stratagem.games.scrabble._kernels import COL, DOWN, LENGTH, ROW, SCORE
from stratagem.games.scrabble.board import empty_board
from stratagem.games.scrabble.heuristic import (
    ENDGAME_NODES,
    ENDGAME_SECONDS,
    FEATURE_NAMES,
    SOURCE_WEIGHTS,
    EquityAgent,
    Evaluator,
    HeuristicAgent,
    Weights,
    WeightsError,
    load_weights,
    parse_weights_text,
    phase_of,
    save_weights,
    weights_from_numbers,
)
from stratagem.games.scrabble.leaves import LeaveTable, shipped_leaves
from stratagem.games.scrabble.lexicon import Lexicon
from stratagem.games.scrabble.movegen import MoveGenerator
from stratagem.games.scrabble.state import PASS, Exchange, ScrabbleState
from stratagem.games.scrabble.strategies import GreedyAgent
from stratagem.games.scrabble.tiles import BLANK_FLAG, tile_set

TS = tile_set("english")
LEX = Lexicon.from_words(["at", "quiz", "cat", "cats", "ta", "act"], TS, "tiny")
F = {name: i for i, name in enumerate(FEATURE_NAMES)}


def features_of(rack: str, board: np.ndarray | None = None) -> dict[str, np.ndarray]:
    ev = Evaluator(TS)
    info, word, feats = ev.placements(
        MoveGenerator(LEX), empty_board() if board is None else board, TS.rack_counts(rack)
    )
    out = {}
    for k in range(info.shape[0]):
        row, col, down, length = (int(info[k, f]) for f in (ROW, COL, DOWN, LENGTH))
        text = "".join(TS.square_text(int(c)) for c in word[k, :length])
        out[f"{row},{col},{'d' if down else 'a'} {text}"] = feats[k].copy()
    return out


def test_h1_counts_face_value_of_expensive_tiles_laid() -> None:
    f = features_of("QUIZ")["7,7,a QUIZ"]
    assert f[F["expensive"]] == 20  # Q 10 + Z 10; U and I are cheap
    assert f[F["score"]] == 44  # (10+1+1+10) x 2 on the centre star


def test_h2_counts_blanks_laid() -> None:
    f = features_of("QU?Z")["7,7,a QUiZ"]
    assert f[F["blank"]] == -1
    assert f[F["expensive"]] == 20
    assert f[F["score"]] == 42


def test_h3_counts_surplus_identical_tiles_kept() -> None:
    moves = features_of("CATTTEE")
    # CAT keeps T T E E: one surplus T and one surplus E
    assert moves["7,7,a CAT"][F["identical"]] == -2
    # AT keeps C T T E E: also 2
    assert moves["7,7,a AT"][F["identical"]] == -2


def test_h4_weights_premium_squares_newly_in_reach() -> None:
    # QUIZ on 8H-8K: in reach afterwards and not before (the board was empty):
    # 8L double letter (1), J6 and J10 triple letters (2 + 2), I7 and I9 double letters (1 + 1)
    assert features_of("QUIZ")["7,7,a QUIZ"][F["premium"]] == -7
    # AT on 8H-8I: I7 and I9 double letters only
    assert features_of("AT")["7,7,a AT"][F["premium"]] == -2


def test_h4_ignores_squares_already_in_reach() -> None:
    board = empty_board()
    board[7, 7], board[7, 8] = TS.index["A"], TS.index["T"]  # AT on 8H
    # CAT from 8G: the new C on 8G brings the double letters G7 and G9 into reach
    # (diagonal to A, so not in reach before)
    assert features_of("C", board)["7,6,a CAT"][F["premium"]] == -2
    board[4, 6] = TS.index["E"]  # an E on G5 already reaches G7 (two squares down)
    assert features_of("C", board)["7,6,a CAT"][F["premium"]] == -1


def test_exchange_and_pass_terms() -> None:
    ev = Evaluator(TS)
    gives, feats = ev.others(TS.rack_counts("EEQ"), True)
    assert gives.shape[0] == 1 + (3 * 2 - 1)  # the pass and 5 distinct exchanges
    by_give = {TS.rack_text(g): f for g, f in zip(gives, feats)}
    assert by_give[""][F["identical"]] == -1  # the pass keeps E E Q
    assert by_give["Q"][F["expensive"]] == 10 and by_give["Q"][F["identical"]] == -1
    assert by_give["EE"][F["identical"]] == 0
    assert all(f[F["score"]] == 0 and f[F["premium"]] == 0 for f in feats)
    gives, _ = ev.others(TS.rack_counts("EEQ"), False)
    assert gives.shape[0] == 1  # only the pass when the bag is too small


def test_phases_follow_turns_and_bag() -> None:
    s = ScrabbleState.new(LEX).apply((0,) * 7).apply((1,) * 7)
    assert phase_of(s) == "opening"
    bag = list(s.bag)
    later = ScrabbleState(LEX, s.board, s.racks, tuple(bag), s.scores, turn=10, bingos=(0, 0))
    assert phase_of(later) == "development"  # 86 tiles in the bag

    def with_bag(n: int) -> ScrabbleState:
        b = [0] * len(bag)
        b[2] = n
        return ScrabbleState(LEX, s.board, s.racks, tuple(b), s.scores, turn=10, bingos=(0, 0))

    assert phase_of(with_bag(44)) == "middle"
    assert phase_of(with_bag(15)) == "middle"
    assert phase_of(with_bag(14)) == "ending"
    assert phase_of(with_bag(1)) == "ending"
    assert phase_of(with_bag(0)) == "closing"


def test_zero_weights_play_like_greedy() -> None:
    zero = Weights(np.zeros((5, 4)))
    agent = HeuristicAgent(TS, zero, endgame=False)
    greedy = GreedyAgent()
    rng = np.random.default_rng(0)
    for seed in range(5):
        s = ScrabbleState.new(LEX).apply((2, 1, 6, 13, 0, 0, 3)).apply((0,) * 7)
        ours, theirs = agent.act(s, rng), greedy.act(s, rng)
        assert getattr(ours, "score", 0) == getattr(theirs, "score", 0), seed


def test_blank_weight_keeps_the_blank_for_a_small_gain() -> None:
    # Rack Q U I Z ?: QUIZ (44) with natural tiles is best either way; with QU?Z and no I,
    # a huge blank weight makes the player exchange rather than spend the blank for 42.
    s = ScrabbleState.new(LEX).apply((24, 9, 25, 26, 0, 0, 0)).apply((0,) * 7)  # QUZ? EEE
    heavy = Weights(np.tile([0.0, 1e6, 0.0, 0.0], (5, 1)))
    action = HeuristicAgent(TS, heavy, endgame=False).act(s, np.random.default_rng(0))
    assert isinstance(action, Exchange | type(PASS)) and "?" not in str(action)
    light = Weights(np.zeros((5, 4)))
    action = HeuristicAgent(TS, light, endgame=False).act(s, np.random.default_rng(0))
    assert getattr(action, "score", 0) == 42


def test_equity_agent_adds_the_leave() -> None:
    table = LeaveTable.zeros(TS)
    table.per_letter[TS.size, 1] = 100.0  # keeping one blank is worth 100 points
    s = ScrabbleState.new(LEX).apply((24, 9, 2, 25, 26, 0, 0)).apply((0,) * 7)  # QUIZ? EE
    agent = EquityAgent(TS, table, endgame=False)
    best = agent.advise(s)[0]
    assert str(best.action).split()[1] == "QUIZ"  # the natural QUIZ keeps the blank
    assert math.isclose(best.value, 44 + 100)  # score + the kept blank (no vowel/consonant)


def test_equity_defence_takes_points_per_premium_square_opened() -> None:
    s = ScrabbleState.new(LEX).apply((24, 9, 2, 25, 26, 0, 0)).apply((0,) * 7)  # QUIZ? EE
    plain = {str(c.action): c for c in EquityAgent(TS, None, endgame=False).candidates(s)}
    for defence in (1.0, 2.5):
        agent = EquityAgent(TS, None, endgame=False, defence=defence)
        for c in agent.candidates(s):
            base = plain[str(c.action)]
            assert math.isclose(c.value, base.value + defence * 1000 * c.features[F["premium"]])
    # QUIZ across the centre opens 7 or 9 units of premium squares; at 10 points a unit,
    # keeping them shut by an exchange is worth more than the 44 points
    assert isinstance(EquityAgent(TS, None, endgame=False).act(s, np.random.default_rng(0)),
                      heuristic.Placement)  # fmt: skip
    strict = EquityAgent(TS, None, endgame=False, defence=10)
    assert isinstance(strict.act(s, np.random.default_rng(0)), Exchange)
    assert "opens premium squares worth 7" in heuristic.explain(
        strict.candidate(s, plain["8E QUIZ 44"].action), strict.weights_for("opening"), "opening")
    for bad in (-0.5, 10.5, math.nan, True, "1"):
        with pytest.raises(WeightsError, match="defence must be a number of points from 0 to 10"):
            EquityAgent(TS, None, defence=bad)  # type: ignore[arg-type]


def test_heuristic_game_is_legal_to_the_end() -> None:
    agents = [HeuristicAgent(TS, SOURCE_WEIGHTS, endgame=False), GreedyAgent()]
    end = play(ScrabbleState.new(LEX), agents, np.random.default_rng(4)).state  # type: ignore[list-item]
    assert end.is_terminal()


# --- weights files ----------------------------------------------------------------------------


def test_weights_file_round_trip(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "w.json"
    save_weights(SOURCE_WEIGHTS, path)
    again = load_weights(path)
    assert np.array_equal(again.array, SOURCE_WEIGHTS.array)
    assert again.terms == SOURCE_WEIGHTS.terms
    assert np.array_equal(parse_weights_text(SOURCE_WEIGHTS.to_text()).array, again.array)


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda d: d["weights"]["middle"].pop("blank"), "must give exactly"),
        (lambda d: d["weights"].pop("closing"), "phases"),
        (lambda d: d["weights"]["middle"].__setitem__("blank", "lots"), "not a number"),
        (lambda d: d["weights"]["middle"].__setitem__("blank", True), "not a number"),
        (lambda d: d.__setitem__("terms", ["a", "b", "c", "d"]), "terms"),
    ],
)
def test_bad_weights_files_raise_named_errors(tmp_path, mutate, message) -> None:  # type: ignore[no-untyped-def]
    data = SOURCE_WEIGHTS.to_json()
    mutate(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    before = path.read_bytes()
    with pytest.raises(WeightsError, match=message):
        load_weights(path)
    assert path.read_bytes() == before


def test_nan_and_text_weights_raise(tmp_path) -> None:  # type: ignore[no-untyped-def]
    data = SOURCE_WEIGHTS.to_json()
    text = json.dumps(data).replace("4957.0", "NaN")
    path = tmp_path / "nan.json"
    path.write_text(text)
    with pytest.raises(WeightsError, match="finite"):
        load_weights(path)
    path.write_text("expensive 59 blank 4957")
    with pytest.raises(WeightsError, match="not JSON"):
        load_weights(path)
    with pytest.raises(WeightsError, match="expected 20"):
        weights_from_numbers([1.0] * 19)
    with pytest.raises(WeightsError, match="not a number"):
        parse_weights_text("1/2/x")
    with pytest.raises(FileInputError, match="cannot read weights file"):
        load_weights(tmp_path / "missing.json")


def test_arena_builds_heuristic_and_equity_agents(tmp_path) -> None:  # type: ignore[no-untyped-def]
    game = load_game("scrabble")
    agent = game.make_agent("english", parse_spec("heuristic:weights=source,endgame=off"))
    assert isinstance(agent, HeuristicAgent)
    assert np.array_equal(agent.weights.array, SOURCE_WEIGHTS.array)
    inline = game.make_agent("english", parse_spec("heuristic:w=" + "/".join(["1"] * 25)))
    assert isinstance(inline, HeuristicAgent) and inline.weights.with_leave
    path = tmp_path / "w.json"
    save_weights(SOURCE_WEIGHTS, path)
    assert isinstance(game.make_agent("english", parse_spec(f"heuristic:weights={path}")),
                      HeuristicAgent)  # fmt: skip
    assert isinstance(game.make_agent("english", parse_spec("equity")), EquityAgent)
    assert game.make_agent("english", parse_spec("equity")).defence == 0.0
    assert game.make_agent("english", parse_spec("equity:leaves=super,defence=1.5")).defence == 1.5
    for bad in ("equity:defence=-1", "equity:defence=11", "equity:defence=much"):
        with pytest.raises(ArenaError, match="defence"):
            game.make_agent("english", parse_spec(bad))
    with pytest.raises(ArenaError, match="endgame"):
        game.make_agent("english", parse_spec("equity:endgame=maybe"))
    # the endgame's node limit: default, chosen, and out of range
    assert game.make_agent("english", parse_spec("equity")).endgame_nodes == ENDGAME_NODES
    for spec in ("equity:nodes=20000", "heuristic:nodes=20000"):
        assert game.make_agent("english", parse_spec(spec)).endgame_nodes == 20_000
    for bad in ("equity:nodes=10", "heuristic:nodes=2000000000", "equity:nodes=lots"):
        with pytest.raises(ArenaError, match="nodes"):
            game.make_agent("english", parse_spec(bad))
    path.write_text("not json")
    with pytest.raises(WeightsError):
        game.make_agent("english", parse_spec(f"heuristic:weights={path}"))


def test_doctest() -> None:
    assert doctest.testmod(heuristic).failed == 0


def test_shipped_weights_load_and_are_the_default() -> None:
    tuned = heuristic.shipped_weights("tuned")
    assert tuned.array.shape == (5, 4) and not tuned.with_leave
    assert np.array_equal(HeuristicAgent(TS).weights.array, tuned.array)
    leave = heuristic.shipped_weights("leave")
    assert leave.with_leave and leave.array.shape == (5, 5)
    with pytest.raises(WeightsError, match="no shipped weights"):
        heuristic.shipped_weights("nonesuch")
    # The leave weights tuned in Czech serve the Czech tiles; other tile sets (and other
    # names without a file of their own) get the general file.
    czech = heuristic.shipped_weights("leave", "czech")
    assert czech.with_leave and not np.array_equal(czech.array, leave.array)
    assert np.array_equal(heuristic.shipped_weights("leave", "english").array, leave.array)
    assert np.array_equal(heuristic.shipped_weights("tuned", "czech").array, tuned.array)
    game = load_game("scrabble")
    for rules, expected in (("czech", czech), ("english", leave)):
        agent = game.make_agent(rules, parse_spec("heuristic:weights=leave"))
        assert np.array_equal(agent.weights.array, expected.array)


def test_the_closing_phase_goes_to_the_endgame_solver(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import sys
    import types

    s = ScrabbleState.new(LEX).apply((2, 1, 6, 13, 0, 0, 3)).apply((0,) * 7)
    closing = ScrabbleState(LEX, s.board, s.racks, (0,) * len(s.bag), s.scores, turn=30,
                            bingos=(0, 0))  # fmt: skip
    calls = []
    walls: list[float | None] = []

    class Result:
        best_move = PASS

    class EndgameSolver:  # one per agent, kept between the moves of an endgame
        def solve(self, state, time_limit, node_limit, wall_limit=None):  # type: ignore[no-untyped-def]
            calls.append((time_limit, node_limit))
            walls.append(wall_limit)
            return Result()

    fake = types.ModuleType("stratagem.games.scrabble.endgame")
    fake.EndgameSolver = EndgameSolver  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "stratagem.games.scrabble.endgame", fake)
    rng = np.random.default_rng(0)
    for agent in (HeuristicAgent(TS, SOURCE_WEIGHTS), EquityAgent(TS)):
        assert agent.act(closing, rng) is PASS
    # the node limit (the same move on any machine) with a time limit behind it
    assert calls == [(ENDGAME_SECONDS, ENDGAME_NODES)] * 2
    assert EquityAgent(TS, endgame_nodes=5000).act(closing, rng) is PASS
    assert calls[-1] == (ENDGAME_SECONDS, 5000)
    calls.pop()
    off = HeuristicAgent(TS, SOURCE_WEIGHTS, endgame=False)
    assert off.act(closing, rng) is not PASS  # its own weights: a placement scores
    assert len(calls) == 2
    # no wall clock in matches; a person waiting sets the player's thinking budget
    assert walls == [None] * 3
    waited = EquityAgent(TS)
    waited.think_seconds = 2.5
    assert waited.act(closing, rng) is PASS and walls[-1] == 2.5
    calls.pop()
    assert HeuristicAgent(TS, SOURCE_WEIGHTS).act(s, rng) is not PASS  # not the closing phase
    assert len(calls) == 2


def test_leave_and_duplicate_terms_match_the_kept_tiles_of_every_move() -> None:
    """The kernel looks the leave up in a table of the rack's sub-multisets; check each
    move's h3 and h6 against the tiles kept, counted here from the move's own squares."""
    words = ["at", "ta", "cat", "act", "cats", "scat", "tacts", "eta", "tea", "ate"]
    lex = Lexicon.from_words(words, TS)
    leaves = shipped_leaves(TS)
    ev = Evaluator(TS, leaves)
    board = empty_board()
    for rack_text in ("CATS?EE", "AATTCS?", "TTTEEA?", "??CATSE"):
        rack = TS.rack_counts(rack_text)
        info, word, feats = ev.placements(MoveGenerator(lex), board, rack)
        assert info.shape[0] > 3
        for k in range(info.shape[0]):
            length = int(info[k, 3])
            kept = rack.astype(np.int64).copy()
            for i in range(length):  # the board is empty: the move lays every letter
                code = int(word[k, i])
                kept[TS.size if code & BLANK_FLAG else code] -= 1
            assert (kept >= 0).all()
            dup = sum(max(0, int(n) - 1) for n in kept[: TS.size])
            assert feats[k, F["identical"]] == -dup
            assert feats[k, F["leave"]] == pytest.approx(leaves.value(kept), abs=1e-9)


def closing_state(rack: str, other: str, words: list[str]) -> ScrabbleState:
    """An empty board with the bag empty: the closing phase, ``rack`` to move."""
    lex = Lexicon.from_words(words, TS, "closing")
    s = ScrabbleState.new(lex)
    racks = tuple(tuple(int(x) for x in TS.rack_counts(r)) for r in (rack, other))
    return ScrabbleState(lex, s.board, racks, (0,) * len(s.bag), (0, 0), turn=30,
                         bingos=(0, 0))  # fmt: skip


def test_the_equity_closing_rule_agrees_with_the_rules_of_the_game() -> None:
    # Every candidate's closing points, checked by playing it: going out earns twice the
    # other rack (the game's end), anything else costs the face value of the tiles kept.
    state = closing_state("CATSX?", "QZ", ["at", "ta", "cat", "cats", "act", "ax", "tax", "axe"])
    agent = EquityAgent(TS, endgame=False)
    cands = agent.candidates(state)
    assert len(cands) > 10 and [c.value for c in cands] == sorted((c.value for c in cands),
                                                                 reverse=True)  # fmt: skip
    values = TS.values_array
    for c in cands:
        after = state.apply(c.action)
        kept = int(np.dot(after.racks[0], values))
        score = c.action.score if hasattr(c.action, "score") else 0
        expected = 2 * 20 if after.is_terminal() else -kept
        assert c.closing == expected, c.action
        assert c.value == pytest.approx(1000 * (score + expected)), c.action
    assert "keeps" in heuristic.explain(cands[-1], agent.weights_for("closing"), "closing")


def test_the_equity_player_goes_out_in_the_closing_phase_without_the_solver() -> None:
    # AX and AXE (the E a blank) both score 18; only AXE empties the rack and ends the game,
    # taking the other player's Q and Z (2 x 20 in spread).
    state = closing_state("AX?", "QZ", ["ax", "axe"])
    agent = EquityAgent(TS, endgame=False)
    move = agent.act(state, np.random.default_rng(0))
    assert state.apply(move).is_terminal() and move.score == 18  # type: ignore[union-attr]
    best = agent.advise(state)[0]
    assert best.action == move and best.value == pytest.approx(18 + 40)
    top = agent.candidates(state)[0]
    assert "goes out (+40)" in heuristic.explain(top, agent.weights_for("closing"), "closing")


def test_the_heuristic_player_can_close_by_the_equity_rule() -> None:
    # closing=rule: the closing phase values each move as the equity player does (score +
    # the rule); the source's weights alone take AX or AXE alike (18 each), the rule AXE.
    state = closing_state("AX?", "QZ", ["ax", "axe"])
    rng = np.random.default_rng(0)
    ruled = HeuristicAgent(TS, SOURCE_WEIGHTS, endgame=False, closing="rule")
    equity = EquityAgent(TS, endgame=False)
    assert [(str(c.action), c.value) for c in ruled.candidates(state)] == [
        (str(c.action), c.value) for c in equity.candidates(state)
    ]
    move = ruled.act(state, rng)
    assert state.apply(move).is_terminal() and move.score == 18  # type: ignore[union-attr]
    plain = HeuristicAgent(TS, SOURCE_WEIGHTS, endgame=False)
    assert all(c.closing == 0 for c in plain.candidates(state))
    # Before the bag is empty the rule changes nothing.
    s = ScrabbleState.new(LEX).apply((2, 1, 6, 13, 0, 0, 3)).apply((0,) * 7)
    both = (HeuristicAgent(TS, SOURCE_WEIGHTS, closing=c) for c in ("rule", "weights"))
    assert len({tuple((str(c.action), c.value) for c in a.candidates(s)) for a in both}) == 1
    with pytest.raises(heuristic.WeightsError, match="closing must be one of"):
        HeuristicAgent(TS, closing="greedy")


def test_ranked_lists_the_same_best_candidates_as_the_whole_list() -> None:
    s = ScrabbleState.new(LEX).apply((2, 1, 6, 13, 0, 0, 3)).apply((0,) * 7)
    for agent in (EquityAgent(TS, endgame=False), HeuristicAgent(TS, SOURCE_WEIGHTS)):
        whole = agent.candidates(s)
        top, placements = agent.ranked(s, 5)
        assert [(str(c.action), c.value) for c in top] == [
            (str(c.action), c.value) for c in whole[:5]
        ]
        assert placements == sum(isinstance(c.action, heuristic.Placement) for c in whole) > 0


@pytest.mark.parametrize("closing", [False, True])
def test_one_actions_candidate_is_its_row_of_the_whole_list(closing: bool) -> None:
    s = ScrabbleState.new(LEX).apply((2, 1, 6, 13, 0, 0, 3)).apply((0,) * 7)
    if closing:
        s = ScrabbleState(LEX, s.board, s.racks, (0,) * len(s.bag), s.scores, turn=30,
                          bingos=(0, 0))  # fmt: skip
    agent = EquityAgent(TS, endgame=False)
    whole = agent.candidates(s)
    assert any(isinstance(c.action, Exchange) for c in whole) is not closing
    for c in whole:
        one = agent.candidate(s, c.action)
        assert one is not None and one.value == pytest.approx(c.value), c.action
        assert one.closing == c.closing
    exchanges = [c for c in whole if isinstance(c.action, Exchange) and len(c.action.tiles) > 1]
    for c in exchanges[:3]:  # the tiles in another order name the same exchange
        again = agent.candidate(s, Exchange(c.action.tiles[::-1]))  # type: ignore[union-attr]
        assert again is not None and again.value == pytest.approx(c.value)
    assert agent.candidate(s, heuristic.Placement(7, 7, True, "ZZZ", 30)) is None


def test_weights_replace_only_a_weights_file(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Issue 33: a save over a file Stratagem did not write (a source file) is refused."""
    from stratagem.core.files import FileInputError

    source = tmp_path / "important.py"
    source.write_text("import os\n")
    with pytest.raises(FileInputError, match="not a weights file Stratagem wrote"):
        save_weights(SOURCE_WEIGHTS, source)
    assert source.read_text() == "import os\n"
    own = tmp_path / "w.json"
    save_weights(SOURCE_WEIGHTS, own)
    save_weights(SOURCE_WEIGHTS, own)  # its own file: replaced
    assert load_weights(own).to_json() == SOURCE_WEIGHTS.to_json()


def test_the_kernels_feature_columns_are_the_feature_names() -> None:
    # The kernels write each term to its named column; F reads them by FEATURE_NAMES.
    from stratagem.games.scrabble import _heuristic_kernels as kern

    named = ("EXPENSIVE", "BLANKS", "IDENTICAL", "PREMIUM", "POINTS", "LEAVE")
    assert [getattr(kern, c) for c in named] == [F[n] for n in FEATURE_NAMES]
    ev = Evaluator(TS)
    info, _, feats = ev.placements(MoveGenerator(LEX), empty_board(), TS.rack_counts("QUIZ"))
    assert info.shape[0] > 0 and (feats[:, kern.POINTS] == info[:, SCORE]).all()
