"""Results files: a file that is not this experiment's is never changed, whatever it holds."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from stratagem.cli import app
from stratagem.core.arena import ArenaError, Experiment, make_experiment, read_results, run
from stratagem.core.errors import StratagemError
from stratagem.core.results import RESULT_COLUMNS, dedupe, report

runner = CliRunner()
HEADER = ",".join(RESULT_COLUMNS) + "\r\n"


@pytest.fixture(scope="module")
def exp() -> Experiment:
    return make_experiment("pig", "coin-3", ["hold:2", "random"], 4)


@pytest.fixture(scope="module")
def other() -> Experiment:
    return make_experiment("pig", "coin-3", ["hold:2", "random"], 5)


def refused_untouched(exp: Experiment, out: Path, match: str = "") -> None:
    before = out.read_bytes()
    with pytest.raises(StratagemError, match=match):
        run(exp, 4, out)
    assert out.read_bytes() == before
    assert sorted(p.name for p in out.parent.iterdir()) == [out.name]  # no journal, no temp


def test_an_unrelated_csv_with_a_torn_last_line_is_left_as_it_was(
    tmp_path: Path, exp: Experiment
) -> None:
    out = tmp_path / "r.csv"
    out.write_bytes(b"name,score\nada,12\nbob,1")
    refused_untouched(exp, out, "not a Stratagem results file")


def test_a_one_line_file_without_a_newline_is_left_as_it_was(
    tmp_path: Path, exp: Experiment
) -> None:
    out = tmp_path / "r.csv"
    out.write_bytes(b"my only copy of something")
    refused_untouched(exp, out, "no complete header line")


def test_a_torn_file_of_another_experiment_is_left_as_it_was(
    tmp_path: Path, exp: Experiment, other: Experiment
) -> None:
    out = tmp_path / "r.csv"
    run(other, 4, out)
    with open(out, "ab") as handle:
        handle.write(f"{other.id},pig,coin-3,match,4,2,9".encode())
    refused_untouched(exp, out, "another experiment")


def test_a_non_utf8_file_is_left_as_it_was(tmp_path: Path, exp: Experiment) -> None:
    out = tmp_path / "r.csv"
    out.write_bytes(HEADER.encode() + b"caf\xe9,1,2\n\xff\xfe torn")
    refused_untouched(exp, out, "not UTF-8")


def test_a_binary_file_is_left_as_it_was(tmp_path: Path, exp: Experiment) -> None:
    out = tmp_path / "r.csv"
    out.write_bytes(bytes(range(256)) * 4)
    refused_untouched(exp, out, "binary")


def test_an_own_file_whose_torn_line_is_not_a_row_of_it_is_left_as_it_was(
    tmp_path: Path, exp: Experiment
) -> None:
    out = tmp_path / "r.csv"
    run(exp, 2, out)
    with open(out, "ab") as handle:
        handle.write(b"a note I typed")
    refused_untouched(exp, out, "incomplete line")


def test_an_own_file_with_a_malformed_row_is_left_as_it_was(
    tmp_path: Path, exp: Experiment
) -> None:
    out = tmp_path / "r.csv"
    run(exp, 2, out)
    text = out.read_text(encoding="utf-8").replace('[""hold:2""', '[""hold:2"", 3', 1)
    out.write_text(text, encoding="utf-8", newline="")
    refused_untouched(exp, out, "line 2 is malformed: seats")


def test_an_own_torn_line_is_cut_and_the_run_resumes(tmp_path: Path, exp: Experiment) -> None:
    out = tmp_path / "r.csv"
    run(exp, 2, out)
    whole = out.read_bytes()
    with open(out, "ab") as handle:
        handle.write(f"{exp.id},pig,coin-3,ma".encode())
    rows = run(exp, 4, out)
    assert sorted(r["game_index"] for r in rows) == [0, 1, 2, 3]
    assert out.read_bytes().startswith(whole)


def test_an_empty_file_becomes_a_results_file(tmp_path: Path, exp: Experiment) -> None:
    out = tmp_path / "r.csv"
    out.touch()
    assert len(run(exp, 2, out)) == 2


def test_a_folder_a_path_under_a_file_and_a_missing_folder_are_errors(
    tmp_path: Path, exp: Experiment
) -> None:
    (tmp_path / "d.csv").mkdir()
    with pytest.raises(StratagemError, match="is a folder"):
        run(exp, 2, tmp_path / "d.csv")
    (tmp_path / "f").write_bytes(b"x")
    with pytest.raises(StratagemError, match="is a file, not a folder"):
        run(exp, 2, tmp_path / "f" / "r.csv")
    assert (tmp_path / "f").read_bytes() == b"x"
    with pytest.raises(StratagemError, match="does not exist; create it first"):
        run(exp, 2, tmp_path / "missing" / "r.csv")
    assert not (tmp_path / "missing").exists()


def test_a_pipe_is_refused(tmp_path: Path, exp: Experiment) -> None:
    out = tmp_path / "p.csv"
    os.mkfifo(out)
    with pytest.raises(StratagemError, match="not a regular file"):
        run(exp, 2, out)


def test_a_parquet_file_or_journal_that_is_not_ours_is_left_as_it_was(
    tmp_path: Path, exp: Experiment, other: Experiment
) -> None:
    out = tmp_path / "r.parquet"
    out.write_bytes(b"PAR1 not really")
    refused_untouched(exp, out, "not a Stratagem results file")
    out.unlink()
    journal = tmp_path / "r.parquet.journal.csv"
    journal.write_bytes(b"\x00\x01garbage")
    refused_untouched(exp, journal, "binary")
    journal.unlink()
    run(other, 2, out)
    before = out.read_bytes()
    with pytest.raises(ArenaError, match="another experiment"):
        run(exp, 2, out)
    assert out.read_bytes() == before and not journal.exists()


def test_the_command_line_refuses_with_exit_2_and_keeps_the_file(tmp_path: Path) -> None:
    out = tmp_path / "r.csv"
    out.write_bytes(b"a,b\n1,2\n3")
    result = runner.invoke(
        app, ["arena", "run", "--game", "pig", "--rules", "coin-3", "--agents",
              "hold:2,random", "--games", "2", "--out", str(out)],
    )  # fmt: skip
    assert isinstance(result.exception, StratagemError)
    assert out.read_bytes() == b"a,b\n1,2\n3"


_ROW = '{id},pig,coin-3,match,{g},{p},7,"[""hold:2"", ""random""]","[1.0, 0.0]",3,0.01\r\n'


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    prefix=st.sampled_from(["", HEADER, HEADER + _ROW.format(id="{id}", g=0, p=0)]),
    junk=st.binary(max_size=60) | st.text(max_size=60).map(lambda t: t.encode()),
)
def test_any_file_is_either_ours_or_left_byte_for_byte(
    tmp_path: Path, exp: Experiment, prefix: str, junk: bytes
) -> None:
    out = tmp_path / "fuzz.csv"
    content = prefix.replace("{id}", exp.id).encode() + junk
    out.write_bytes(content)
    try:
        rows = run(exp, 2, out)
    except StratagemError:
        assert out.read_bytes() == content
    else:
        assert sorted(r["game_index"] for r in rows) == [0, 1]
    finally:
        out.unlink()


# --- reading and reporting ----------------------------------------------------------------


def test_report_refuses_malformed_rows_naming_the_line(tmp_path: Path) -> None:
    out = tmp_path / "r.csv"
    good = _ROW.format(id="0123456789abcdef", g=0, p=0)
    for bad, message in [
        (good.replace("[1.0, 0.0]", "[1.0]"), "2 seats but 1 returns"),
        (good.replace("[1.0, 0.0]", "oops"), "returns is not JSON"),
        (good.replace('"[""hold:2""', '"{""hold:2""'), "seats is not JSON"),
        (good.replace("[1.0, 0.0]", "[NaN, 0]"), "finite numbers"),
        (good.replace("[1.0, 0.0]", f"[{10**400}, 0]"), "finite numbers"),  # overflowed
        (good.replace(",match,", ",duel,"), "mode must be one of"),
        (good.replace(",3,0.01", ",-3,0.01"), "length must be at least 0"),
    ]:
        out.write_text(HEADER + bad, encoding="utf-8", newline="")
        with pytest.raises(ArenaError, match=f"line 2 is malformed: .*{message}"):
            read_results(out)


def test_a_garbage_journal_is_an_error_for_report(tmp_path: Path) -> None:
    (tmp_path / "r.parquet.journal.csv").write_bytes(b"\xff\xfe\x00garbage\n")
    with pytest.raises(ArenaError, match="binary"):
        read_results(tmp_path / "r.parquet")


def test_a_duplicated_row_counts_once_and_a_conflicting_one_is_an_error() -> None:
    rows = [
        {"experiment": "e", "game": "pig", "rules": "pig", "mode": "match", "game_index": 0,
         "pair_index": 0, "deal_seed": 1, "seats": '["a", "b"]', "returns": "[1, 0]",
         "length": 3, "seconds": 0.1},
    ]  # fmt: skip
    assert len(dedupe([*rows, {**rows[0], "seconds": 0.2}])) == 1
    assert report(rows + rows)["games"] == 1
    with pytest.raises(ArenaError, match="appears twice with different results"):
        dedupe([*rows, {**rows[0], "returns": "[0, 1]"}])


def _rows(games: list[tuple[list[str], list[float]]], mode: str = "match") -> list[dict]:  # type: ignore[type-arg]
    # solitaire: Yahtzee (a Pig return is a 1/0 win, and the report refuses 12 in it)
    game, rules = ("yahtzee", "yahtzee") if mode == "solitaire" else ("pig", "pig")
    return [
        {"experiment": "0123456789abcdef", "game": game, "rules": rules, "mode": mode,
         "game_index": i, "pair_index": i // 2, "deal_seed": 7, "seats": json.dumps(seats),
         "returns": json.dumps(returns), "length": 3, "seconds": 0.1}
        for i, (seats, returns) in enumerate(games)
    ]  # fmt: skip


def test_one_game_has_no_spread_and_one_deal_no_paired_interval() -> None:
    s = report(_rows([(["a", "b"], [1, 0]), (["b", "a"], [1, 0])]))
    a = s["agents"]["a"]
    assert a["games"] == 2 and a["win_rate"] == 0.5 and 0 < a["win_lo"] < 0.5 < a["win_hi"] < 1
    (paired,) = s["paired"]
    assert paired["pairs"] == 1 and paired["mean_diff"] == 0.0
    assert paired["lo"] is None and paired["hi"] is None and paired["se"] is None
    one = report(_rows([(["a"], [12.0])], mode="solitaire"))["agents"]["a"]
    assert one["mean"] == 12.0 and one["sd"] is None and one["se"] is None and one["lo"] is None


def test_one_agent_in_both_seats_keeps_the_seats_apart() -> None:
    s = report(_rows([(["optimal", "optimal"], [1, 0]), (["optimal", "optimal"], [1, 0])]))
    assert set(s["agents"]) == {"optimal (seat 1)", "optimal (seat 2)"}
    assert s["agents"]["optimal (seat 1)"]["win_rate"] == 1.0
    assert s["agents"]["optimal (seat 2)"]["win_hi"] < 1.0
    (paired,) = s["paired"]
    assert paired["a"] == "optimal (seat 1)" and paired["mean_diff"] == 1.0


def test_win_rate_intervals_are_wilson_inside_0_1_with_ties() -> None:
    games = [(["a", "b"], [1, 1])] * 3 + [(["a", "b"], [1, 0])]
    for g, row in enumerate(rows := _rows(games)):
        row["game_index"] = g
    a = report(rows)["agents"]["a"]
    assert a["win_rate"] == 0.625 and 0 <= a["win_lo"] < 0.625 < a["win_hi"] <= 1


def test_the_printed_report_says_n_too_small(tmp_path: Path) -> None:
    out = tmp_path / "r.csv"
    result = runner.invoke(
        app, ["arena", "run", "--game", "pig", "--rules", "coin-3", "--agents",
              "hold:2,random", "--games", "1", "--out", str(out)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "n too small" in result.output
    assert "0.0000-0.0000" not in result.output


_CELL = st.sampled_from(
    ["0123456789abcdef", "pig", "match", "solitaire", "0", "1", "-1", "3.5", "nan", "",
     '"[""a"", ""b""]"', '"[1, 0]"', '"[1]"', '"[""a""]"', "[]", '"{}"', "1e999"]
) | st.text(alphabet="0123456789,.\"[]ab-", max_size=8)  # fmt: skip


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.lists(st.lists(_CELL, min_size=9, max_size=12).map(",".join), max_size=5))
def test_report_of_any_rows_is_a_report_or_a_named_error(tmp_path: Path, rows: list[str]) -> None:
    out = tmp_path / "any.csv"
    content = (HEADER + "\r\n".join(rows) + ("\r\n" if rows else "")).encode()
    out.write_bytes(content)
    try:
        summary = report(read_results(out))
    except StratagemError:
        pass
    else:
        for agent in summary["agents"].values():
            assert agent["games"] >= 1
            if "win_rate" in agent:
                assert 0 <= agent["win_lo"] <= agent["win_rate"] <= agent["win_hi"] <= 1
    assert out.read_bytes() == content  # reading never changes a file


def test_the_mean_of_win_returns_keeps_its_interval_inside_0_1() -> None:
    games = [(["a", "b"], [1, 0]), (["b", "a"], [0, 1])] * 2 + [(["a", "b"], [0, 1])] * 2
    rows = _rows(games)
    for g, row in enumerate(rows):
        row["game_index"], row["pair_index"] = g, g // 2
    for agent in report(rows)["agents"].values():  # pig: returns are wins
        assert 0.0 <= agent["lo"] <= agent["mean"] <= agent["hi"] <= 1.0


def test_a_results_file_behind_a_symbolic_link_is_refused(exp: Experiment, tmp_path: Path) -> None:
    """Issue 33: no command writes through a link (the rows would land in the file it names)."""
    target = tmp_path / "notes.csv"
    target.write_text("my own notes\n")
    link = tmp_path / "r.csv"
    link.symlink_to(target)
    with pytest.raises(StratagemError, match="symbolic link"):
        run(exp, 2, link)
    assert target.read_text() == "my own notes\n" and link.is_symlink()
