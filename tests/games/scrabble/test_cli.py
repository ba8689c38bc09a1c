"""The typer CLI: moves (text and JSON), selfplay, errors."""

from __future__ import annotations

import json

import pytest

from tests.cli_outcome import Invoked, invoke

from .conftest import SMALL_WORDS


def run(args: list[str], input: str | None = None) -> Invoked:
    """``stratagem scrabble ARGS`` as the console script runs it."""
    return invoke(["scrabble", *args], input)


@pytest.fixture()
def words(tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("STRATAGEM_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "words.txt"
    path.write_text("\n".join(SMALL_WORDS) + "\nzzzzz\n")
    return path


def test_moves_json(words, tmp_path) -> None:  # type: ignore[no-untyped-def]
    pos = tmp_path / "pos.txt"
    rows = ["." * 15] * 7 + [".......CAR....."] + ["." * 15] * 7
    pos.write_text("racks: E? QZ\nboard:\n" + "\n".join(rows) + "\n")
    result = run(
        ["moves", "--lexicon", str(words), "--position", str(pos), "--top", "500", "--json"]
    )
    assert result.exit_code == 0, result.output
    moves = json.loads(result.stdout)["result"]["moves"]
    assert len(moves) > 3
    assert set(moves[0]) == {"row", "col", "direction", "word", "score"}
    assert moves[0]["score"] >= moves[1]["score"] >= moves[2]["score"]
    care = [m for m in moves if m["word"] == "CARE"]
    assert care == [{"row": 7, "col": 7, "direction": "across", "word": "CARE", "score": 6}]


def test_moves_text_with_rack_option(words) -> None:  # type: ignore[no-untyped-def]
    result = run(["moves", "--lexicon", str(words), "--rack", "QUIZ", "--top", "1"])
    assert result.exit_code == 0, result.output
    assert "QUIZ 44" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rack", "ABCDEFGH"], "8 tiles"),
        (["--rack", "AB1"], "'1'"),
        (["--rack", "AB", "--top", "0"], "--top"),
        (["--rack", "AB", "--rules", "elvish"], "unknown rules 'elvish' for scrabble"),
        (["--rack", "AB", "--tiles", "elvish"], "unknown rules 'elvish' for scrabble"),
        (["--rack", "AB", "--position", "/nonexistent/pos.txt"], "cannot read position"),
    ],
)
def test_moves_errors(words, args, message) -> None:  # type: ignore[no-untyped-def]
    result = run(["moves", "--lexicon", str(words), *args])
    assert result.exit_code == 2
    assert message in result.output


def test_bad_lexicon_path(words, tmp_path) -> None:  # type: ignore[no-untyped-def]
    result = run(["moves", "--lexicon", str(tmp_path / "none.txt"), "--rack", "A"])
    assert result.exit_code == 2 and "cannot read lexicon" in result.output


def test_skipped_words_are_reported(words) -> None:  # type: ignore[no-untyped-def]
    result = run(["moves", "--lexicon", str(words), "--rack", "CAT"])
    assert result.exit_code == 0
    assert "skipped 1 words" in result.output and "ZZZZZ" in result.output


def test_selfplay_json_is_reproducible(words) -> None:  # type: ignore[no-untyped-def]
    args = ["selfplay", "--lexicon", str(words), "--games", "2", "--seed", "7", "--json"]
    first = json.loads(run(args).stdout)["result"]
    second = json.loads(run(args).stdout)["result"]
    assert first["mean_score"] == second["mean_score"]
    assert first["players"] == ["greedy", "greedy"]
    assert {"bingos_per_game", "turns_per_game", "games_per_second"} <= set(first)


def test_selfplay_text_and_bad_agent(words) -> None:  # type: ignore[no-untyped-def]
    ok = run(["selfplay", "--lexicon", str(words), "--games", "1", "--players", "greedy,random"])
    assert ok.exit_code == 0 and "games/s" in ok.stdout
    bad = run(["selfplay", "--lexicon", str(words), "--players", "greedy,wizard"])
    assert bad.exit_code == 2 and "unknown agent 'wizard' for scrabble" in bad.output


def test_endgame_json_names_the_move_and_the_final_spread(words, tmp_path) -> None:  # type: ignore[no-untyped-def]
    words.write_text("cat\ncats\nat\nta\n")
    pos = tmp_path / "end.txt"
    rows = ["." * 15] * 7 + [".......CAT....."] + ["." * 15] * 7
    # The mover goes out with CATS (6) and gains the A and T (2 x 2): 10 - 20 + 10 = 0.
    pos.write_text("racks: S AT\nscores: 10 20\nbag:\nboard:\n" + "\n".join(rows) + "\n")
    result = run(["endgame", "--lexicon", str(words), "--position", str(pos), "--json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)["result"]
    assert answer["best_move"] == "8H CATS 6"
    assert answer["value"] == 0 and answer["gain"] == 10 and answer["exact"] is True
    capped = run(["endgame", "--lexicon", str(words), "--position", str(pos), "--json",
                  "--nodes", "1024"])  # fmt: skip
    assert capped.exit_code == 0 and json.loads(capped.stdout)["result"]["best_move"] == "8H CATS 6"


def test_endgame_refuses_a_bag_with_tiles_and_bad_limits(words, tmp_path) -> None:  # type: ignore[no-untyped-def]
    pos = tmp_path / "mid.txt"
    pos.write_text("racks: S AT\nboard:\n" + "\n".join(["." * 15] * 15) + "\n")
    result = run(["endgame", "--lexicon", str(words), "--position", str(pos)])
    assert result.exit_code == 2
    assert "empty bag" in " ".join(result.output.split())
    for name in ("--seconds", "--time-limit"):  # the shared option, and its old name
        result = run(["endgame", "--lexicon", str(words), "--position", str(pos), name, "0"])
        assert result.exit_code == 2
        assert "out of range" in result.output and "at most 3600" in result.output
    for nodes in ("5", "1000000000000000"):
        result = run(["endgame", "--lexicon", str(words), "--position", str(pos), "--nodes", nodes])
        assert result.exit_code == 2
        assert "--nodes must be 1,024 to" in " ".join(result.output.split())
    big = tmp_path / "big.txt"
    big.write_bytes(b"#" * (70 * 1024))
    result = run(["endgame", "--lexicon", str(words), "--position", str(big)])
    assert result.exit_code == 2 and "larger than 65536 bytes" in " ".join(result.output.split())
    assert big.read_bytes() == b"#" * (70 * 1024)


def test_selfplay_reports_progress_on_stderr(words) -> None:  # type: ignore[no-untyped-def]
    result = run(["selfplay", "--lexicon", str(words), "--games", "3"])
    assert result.exit_code == 0
    assert "self-play: 1/3 games" in result.stderr and "self-play: 3/3 games" in result.stderr
    quiet = run(["selfplay", "--lexicon", str(words), "--games", "3", "--json"])
    assert "self-play" not in quiet.stderr


def test_learn_leaves_writes_a_table_and_reports_progress_like_selfplay(  # type: ignore[no-untyped-def]
    words, tmp_path
) -> None:
    from stratagem.games.scrabble.leaves import load_leaves
    from stratagem.games.scrabble.tiles import tile_set

    out = tmp_path / "leaves.json"
    args = ["learn-leaves", "--lexicon", str(words), "--games", "2", "--iterations", "2"]
    result = run([*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "self-play: 4/4 games" in result.stderr  # two rounds of two games, one count
    assert load_leaves(out, tile_set("english")).note
    assert not load_leaves(out, tile_set("english")).pairs.any()  # no pair terms unless asked
    paired = tmp_path / "pairs.json"
    result = run([*args, "--pairs", "--out", str(paired)])
    assert result.exit_code == 0, result.output
    table = load_leaves(paired, tile_set("english"))
    assert table.pairs.any() and "letter-pair" in table.note


def test_selfplay_stops_on_ctrl_c_without_a_traceback(words, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from stratagem.games.scrabble import strategies

    real = strategies.play
    calls = {"n": 0}

    def interrupted(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        if calls["n"] == 2:
            raise KeyboardInterrupt  # the user pressed Ctrl-C in the second game
        return real(*args, **kwargs)

    monkeypatch.setattr(strategies, "play", interrupted)
    result = run(["selfplay", "--lexicon", str(words), "--games", "5"])
    assert result.exit_code == 130 and calls["n"] == 2
    assert "Traceback" not in result.output and result.stdout == ""


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["learn-leaves", "--games", "1", "--seed", "-1"], "--seed"),
        (["tune", "--workers", "0"], "--workers"),
        (["tune", "--seed", "-3"], "--seed"),
    ],
)
def test_tuning_commands_check_their_numbers_before_work(tmp_path, args, option) -> None:  # type: ignore[no-untyped-def]
    """A negative seed crashed learn-leaves in numpy; --workers 0 started a tuning run."""
    out = tmp_path / "out"
    result = run([args[0], "--out", str(out), *args[1:]])
    assert result.exit_code == 2 and option in result.output
    assert not out.exists()


@pytest.mark.parametrize(
    "args",
    [
        ["tune", "--generations", "0"],
        ["tune", "--generations", "100000000"],
        ["tune", "--backend", "carrier-pigeon"],
        ["tune", "--rules", "klingon"],
    ],
)
def test_tune_refuses_bad_options_before_making_its_folder(tmp_path, args) -> None:  # type: ignore[no-untyped-def]
    """These were refused only after the run folder was made (an empty folder left behind)."""
    out = tmp_path / "run"
    result = run([args[0], "--out", str(out), *args[1:], "--workers", "1"])
    assert result.exit_code == 2 and "error:" in result.output, result.output
    assert "Traceback" not in result.output
    assert not out.exists()


TINY_TUNE = ["--games", "2", "--generations", "1", "--population", "2", "--workers", "1"]


@pytest.mark.parametrize("names", [["history.csv"], ["best_weights.json"],
                                   ["history.csv", "best_weights.json"]])  # fmt: skip
def test_tune_refuses_a_folder_with_run_files_but_no_checkpoint(  # type: ignore[no-untyped-def]
    tmp_path, monkeypatch, names
) -> None:
    """A folder holding a history or best weights but no checkpoint was used for a new run,
    which overwrote them after its first generation; now refused before any game."""
    import stratagem.games.scrabble.tuning as tuning

    def no_games(*args: object, **kwargs: object) -> None:
        raise AssertionError("the run started before its folder was checked")

    monkeypatch.setattr(tuning, "make_fitness", no_games)
    out = tmp_path / "run"
    out.mkdir()
    for name in names:
        (out / name).write_bytes(b"saved by an earlier run\n")
    result = run(["tune", "--out", str(out), *TINY_TUNE])
    assert result.exit_code == 2, result.output
    assert (
        f"error: run folder {out} holds {' and '.join(names)} but no checkpoint.json to resume "
        "from; a new run would overwrite them"
    ) in result.stderr
    assert sorted(p.name for p in out.iterdir()) == sorted(names)
    assert all((out / name).read_bytes() == b"saved by an earlier run\n" for name in names)


def test_tune_starts_in_an_empty_folder_and_resumes_from_a_checkpoint(  # type: ignore[no-untyped-def]
    tmp_path, monkeypatch
) -> None:
    """The refusal above leaves these alone: an empty folder starts a run, and a folder
    with a checkpoint (and its history) resumes it (no game played: the run is complete)."""
    import numpy as np

    import stratagem.games.scrabble.tuning as tuning

    monkeypatch.setattr(tuning, "make_fitness", lambda *a, **k: lambda pop, gen: np.ones(2))
    out = tmp_path / "run"
    out.mkdir()
    first = run(["tune", "--out", str(out), *TINY_TUNE])
    assert first.exit_code == 0, first.output
    assert sorted(p.name for p in out.iterdir()) == [
        "best_weights.json", "checkpoint.json", "history.csv"
    ]  # fmt: skip
    again = run(["tune", "--out", str(out), *TINY_TUNE])
    assert again.exit_code == 0, again.output
    assert "1 generations in" in again.stdout


@pytest.mark.parametrize(
    ("command", "target", "message"),
    [
        ("tune", "a file", "is not a folder"),
        ("tune", "in a file", "Not a directory"),
        ("learn-leaves", "a folder", "is a folder; name a file"),
        ("learn-leaves", "in a file", "is a file, not a folder"),
        ("learn-leaves", "missing parent", "does not exist; create it first"),
    ],
)
def test_output_paths_that_cannot_be_written_are_refused_before_work(  # type: ignore[no-untyped-def]
    tmp_path, command, target, message
) -> None:
    """`tune --out FILE` and `learn-leaves --out FOLDER` crashed with a traceback (the
    second after all its self-play); now a named error, exit 2, the file untouched."""
    existing = tmp_path / "notes.txt"
    existing.write_bytes(b"keep me\n")
    folder = tmp_path / "folder"
    folder.mkdir()
    out = {
        "a file": existing,
        "in a file": existing / "x.json",
        "missing parent": tmp_path / "no" / "such" / "x.json",
        "a folder": folder,
    }[target]
    extra = ["--games", "2", "--generations", "1", "--population", "2", "--workers", "1"]
    if command == "learn-leaves":
        extra = ["--games", "1", "--iterations", "1"]
    result = run([command, "--out", str(out), *extra])
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output
    assert existing.read_bytes() == b"keep me\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder", "notes.txt"]
    assert not any(folder.iterdir())


def test_learn_leaves_will_not_overwrite_its_own_word_list(words, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """`--out` naming the `--lexicon` file replaced the word list with a leave table."""
    before = words.read_bytes()
    link = tmp_path / "words-link.txt"
    link.symlink_to(words)
    for out in (words, link):
        result = run(["learn-leaves", "--lexicon", str(words), "--games", "1", "--out", str(out)])
        assert result.exit_code == 2
        assert "not a leave file Stratagem wrote" in result.output or "symbolic link" in (
            result.output
        )
        assert words.read_bytes() == before
    assert link.is_symlink()


def test_learn_leaves_refuses_a_link_and_a_foreign_file(words, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Issue 33: --out important.py was replaced with JSON, and a link's target too."""
    source = tmp_path / "important.py"
    source.write_text("print('keep me')\n")
    link = tmp_path / "current.json"
    link.symlink_to(source)
    args = ["learn-leaves", "--lexicon", str(words), "--games", "1", "--iterations", "1"]
    for out, why in ((source, "not a leave file Stratagem wrote"), (link, "symbolic link")):
        result = run([*args, "--out", str(out)])
        assert result.exit_code == 2 and why in result.output, result.output
    assert source.read_text() == "print('keep me')\n" and link.is_symlink()


def test_learn_leaves_replaces_its_own_table(words, tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "leaves.json"
    args = ["learn-leaves", "--lexicon", str(words), "--games", "1", "--iterations", "1"]
    for _ in range(2):
        result = run([*args, "--out", str(out)])
        assert result.exit_code == 0, result.output
    assert out.read_text().startswith("{")
