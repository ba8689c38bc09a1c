"""``stratagem scrabble``: every move of a rack (--top all), GCG records, play's new options."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from stratagem.games.scrabble.board import empty_board
from stratagem.games.scrabble.cli import stream_moves
from stratagem.games.scrabble.movegen import move_generator
from tests.cli_outcome import Invoked, invoke

DATA = Path(__file__).parent / "data"


def run(args: list[str], input: str | None = None) -> Invoked:
    return invoke(["scrabble", *args], input)


@pytest.fixture()
def words(small_words_file):  # type: ignore[no-untyped-def]
    return small_words_file


def test_top_all_lists_every_placement_best_first(words) -> None:  # type: ignore[no-untyped-def]
    every = run(["moves", "--lexicon", str(words), "--rack", "AEST?", "--top", "all", "--json"])
    ten = run(["moves", "--lexicon", str(words), "--rack", "AEST?", "--top", "10", "--json"])
    assert every.exit_code == 0 == ten.exit_code, every.output
    listed = json.loads(every.stdout)["result"]["moves"]
    assert listed[:10] == json.loads(ten.stdout)["result"]["moves"]
    assert len(listed) > 500 and len({json.dumps(m) for m in listed}) == len(listed)
    scores = [m["score"] for m in listed]
    assert scores == sorted(scores, reverse=True)


def test_a_two_blank_rack_streams_every_move_of_ENABLE(enable_lexicon) -> None:  # type: ignore[no-untyped-def]
    rack = enable_lexicon.tiles.rack_counts("AEIST??")
    sink = io.StringIO()
    count = stream_moves(enable_lexicon, empty_board(), rack, False, sink)
    info, _ = move_generator(enable_lexicon).raw(empty_board(), rack)
    lines = sink.getvalue().splitlines()
    assert count == len(lines) == info.shape[0] > 10_000  # past the old cap of --top


@pytest.mark.parametrize(("top", "message"), [("0", "1..10,000 or all"), ("10001", "or all"),
                                              ("many", "a count")])  # fmt: skip
def test_a_bad_top_is_refused(words, top, message) -> None:  # type: ignore[no-untyped-def]
    result = run(["moves", "--lexicon", str(words), "--rack", "AB", "--top", top])
    assert result.exit_code == 2 and message in result.output


def test_gcg_replays_a_record_and_exports_it_again(words, tmp_path) -> None:  # type: ignore[no-untyped-def]
    src = DATA / "selfplay_1.gcg"
    out = tmp_path / "again.gcg"
    result = run(["gcg", str(src), "--lexicon", str(words), "--export", str(out), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)["result"]
    last = {t["player"]: t["total"] for t in data["turns"]}
    assert [last[p] for p in data["players"]] == data["totals"]
    again = run(["gcg", str(out), "--lexicon", str(words), "--json"])
    assert json.loads(again.stdout)["result"]["turns"] == data["turns"]


def test_gcg_at_a_turn_shows_the_recorded_move_beside_the_coach(words) -> None:  # type: ignore[no-untyped-def]
    result = run(["gcg", str(DATA / "selfplay_2.gcg"), "--lexicon", str(words), "--at", "12"])
    assert result.exit_code == 0, result.output
    assert "turn 12:" in result.stdout and "recorded:" in result.stdout
    assert "coach  1." in result.stdout


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\xff\xfe>a: CAT 8H CAT +10 10\n", "UTF-8"),
        (b"#player1 a A\n>a: ACT 8H CAT +10", "cut short"),
        (b"x" * (300 * 1024), "larger than 262144 bytes"),
        (b">a: ACT 8H CAT +10 10\n>b: ABC 16H CAB +10 10\n", "another board"),
    ],
)
def test_a_hostile_record_exits_2_and_is_left_as_it_was(words, tmp_path, content, message) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "game.gcg"
    path.write_bytes(content)
    out = tmp_path / "out.gcg"
    result = run(["gcg", str(path), "--lexicon", str(words), "--export", str(out)])
    assert result.exit_code == 2 and message in result.output
    assert path.read_bytes() == content and not out.exists()


def test_gcg_at_out_of_range_and_export_over_the_input_are_refused(words, tmp_path) -> None:  # type: ignore[no-untyped-def]
    src = tmp_path / "g.gcg"
    shutil.copy(DATA / "selfplay_3.gcg", src)
    before = src.read_bytes()
    assert run(["gcg", str(src), "--lexicon", str(words), "--at", "999"]).exit_code == 2
    same = run(["gcg", str(src), "--lexicon", str(words), "--export", str(src)])
    assert same.exit_code == 2 and "another file" in same.output
    assert src.read_bytes() == before


def test_play_refuses_a_bad_challenge_rule_and_budget(words, tmp_path) -> None:  # type: ignore[no-untyped-def]
    bad = run(["play", "--lexicon", str(words), "--challenge", "triple"])
    assert bad.exit_code == 2 and "single" in bad.output
    slow = run(["play", "--lexicon", str(words), "--think", "0"])
    assert slow.exit_code == 2 and "--think" in slow.output


def test_play_writes_the_games_record(words, tmp_path) -> None:  # type: ignore[no-untyped-def]
    record = tmp_path / "game.gcg"
    result = run(["play", "--lexicon", str(words), "--seed", "3", "--ai", "greedy", "--record",
                  str(record)], input="pass\n" * 200)  # fmt: skip
    assert result.exit_code == 0, result.output
    text = record.read_text()
    assert text.startswith("#character-encoding UTF-8") and ">ai:" in text
    finals = np.array([int(x) for x in result.stdout.split("final score: you ")[1].split(
        "\n")[0].replace("AI ", "").split(", ")])  # fmt: skip
    replay = run(["gcg", str(record), "--lexicon", str(words), "--json"])
    assert json.loads(replay.stdout)["result"]["totals"] == finals.tolist()
