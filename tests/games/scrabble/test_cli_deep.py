"""``stratagem scrabble deep``: the assistant's deep analysis in the terminal, the same rows
the page shows (``assistant.deep_rows``), its ranges refused by name, Ctrl-C keeping the
ranking so far."""

from __future__ import annotations

import json
import os
import signal

import pytest

from stratagem.games.scrabble import assistant
from stratagem.games.scrabble.lexicon import load_lexicon
from stratagem.games.scrabble.sim_pool import cores
from stratagem.games.scrabble.tiles import tile_set
from tests.cli_outcome import Invoked, invoke

ROWS = ["." * 15] * 7 + [".......CAR....."] + ["." * 15] * 7


def run(args: list[str]) -> Invoked:
    return invoke(["scrabble", "deep", *args])


@pytest.fixture()
def words(small_words_file):  # type: ignore[no-untyped-def]
    return small_words_file


def test_one_tile_in_the_bag_gives_the_assistant_s_exact_rows(words, tmp_path) -> None:  # type: ignore[no-untyped-def]
    text = "racks: AERTIST ENOLUDS\nbag: E\nboard:\n" + "\n".join(ROWS) + "\n"
    pos = tmp_path / "one.txt"
    pos.write_text(text)
    done = run(["--lexicon", str(words), "--position", str(pos), "--candidates", "3",
                "--seconds", "60", "--json"])  # fmt: skip
    assert done.exit_code == 0, done.output
    result = json.loads(done.stdout)["result"]
    assert result["pre_endgame"] is True and result["stopped"] == "finished"
    lex = load_lexicon(words, tile_set("english"))
    expected = assistant.deep_rows(assistant.deep_analysis(lex, text, candidates=3, seconds=60))
    assert result["moves"] == json.loads(json.dumps(expected))  # every draw: deterministic
    assert len(result["moves"]) == 3 and all(m["exact"] for m in result["moves"])
    wins = [m["win"] for m in result["moves"]]
    assert wins == sorted(wins, reverse=True)


@pytest.mark.skipif(cores() < 2, reason="needs two cores")
def test_two_workers_give_the_rows_of_one(words, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(assistant, "DEEP_ITERATIONS", 40)  # the deal limit ends both runs
    pos = tmp_path / "pos.txt"
    pos.write_text("racks: AERTIST ?\nboard:\n" + "\n".join(ROWS) + "\n")
    rows = []
    for workers in ("1", "2"):
        done = run(["--lexicon", str(words), "--position", str(pos), "--seconds", "60",
                    "--candidates", "3", "--workers", workers, "--json"])  # fmt: skip
        assert done.exit_code == 0, done.output
        result = json.loads(done.stdout)["result"]
        assert result["stopped"] == "finished" and result["deals"] == 40
        rows.append(result["moves"])
    assert rows[0] == rows[1]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--candidates", "1"], "--candidates"),
        (["--candidates", "31"], "--candidates"),
        (["--seconds", "0.5"], "seconds must be 1 to 60"),
        (["--seconds", "61"], "seconds must be 1 to 60"),
        (["--seconds", "nan"], "not a finite number"),
        (["--workers", "0"], "workers must be a whole number 1.."),
        (["--workers", str(cores() + 1)], "workers must be a whole number 1.."),
    ],
)
def test_ranges_are_refused_by_name(words, tmp_path, args, message) -> None:  # type: ignore[no-untyped-def]
    pos = tmp_path / "pos.txt"
    pos.write_text("racks: AERTIST ?\nboard:\n" + "\n".join(ROWS) + "\n")
    done = run(["--lexicon", str(words), "--position", str(pos), *args])
    assert done.exit_code == 2 and message in done.output


def test_an_empty_bag_is_refused_with_the_reason(words, tmp_path) -> None:  # type: ignore[no-untyped-def]
    pos = tmp_path / "end.txt"
    pos.write_text("racks: AERTIST ENO\nbag:\nboard:\n" + "\n".join(ROWS) + "\n")
    done = run(["--lexicon", str(words), "--position", str(pos)])
    assert done.exit_code == 2 and "the bag is empty" in " ".join(done.output.split())


def test_unseen_tiles_that_all_fit_the_opponent_s_rack_are_refused(words, tmp_path) -> None:  # type: ignore[no-untyped-def]
    pos = tmp_path / "late.txt"  # one tile in the bag, but the opponent is shown holding 2
    pos.write_text("racks: AERTIST EN\nbag: E\nboard:\n" + "\n".join(ROWS) + "\n")
    done = run(["--lexicon", str(words), "--position", str(pos)])
    assert done.exit_code == 2 and "all fit the opponent's rack" in " ".join(done.output.split())


def test_ctrl_c_stops_at_the_next_deal_and_shows_the_ranking_so_far(  # type: ignore[no-untyped-def]
    words, tmp_path, monkeypatch
) -> None:
    pos = tmp_path / "pos.txt"
    pos.write_text("racks: AERTIST ?\nboard:\n" + "\n".join(ROWS) + "\n")
    real = assistant.deep_analysis

    def interrupted_after_two_deals(*args, **kwargs):  # type: ignore[no-untyped-def]
        told = kwargs["progress"]

        def progress(p):  # type: ignore[no-untyped-def]
            told(p)
            if p.done == 2:
                os.kill(os.getpid(), signal.SIGINT)  # as a person's Ctrl-C

        return real(*args, **{**kwargs, "progress": progress})

    monkeypatch.setattr(assistant, "deep_analysis", interrupted_after_two_deals)
    before = signal.getsignal(signal.SIGINT)
    done = run(["--lexicon", str(words), "--position", str(pos), "--seconds", "60",
                "--candidates", "4", "--json"])  # fmt: skip
    assert done.exit_code == 0, done.output
    result = json.loads(done.stdout)["result"]
    assert result["stopped"] == "cancelled" and result["seconds"] < 60
    assert len(result["moves"]) == 4 and all(1 <= m["deals"] <= 3 for m in result["moves"])
    assert signal.getsignal(signal.SIGINT) is before  # restored
