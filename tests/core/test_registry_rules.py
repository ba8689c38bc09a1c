"""Rules specs, ``preset[:key=value,...]``: read and checked in one place (the registry)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.cli_outcome import outcome

from stratagem.core.errors import ArenaError, InvalidRulesError, StratagemError
from stratagem.core.registry import MAX_SPEC_CHARS, load_game
from stratagem.games.pig.rules import PigRules

PIG = load_game("pig")


def test_a_pig_variant_is_built_from_its_spec() -> None:
    rules = PIG.rules_object("pig:goal=50,faces=8,catch_up_turn=true")
    assert isinstance(rules, PigRules)
    assert (rules.goal, rules.faces, rules.bust_faces, rules.catch_up_turn) == (50, 8, (1,), True)


def test_a_bare_preset_is_the_preset() -> None:
    assert PIG.rules_object("pig-raab") == PIG.rules("pig-raab")
    assert PIG.check_rules("pig-raab") == "pig-raab"


def test_the_canonical_spelling_follows_the_declared_order() -> None:
    assert PIG.check_rules("pig: faces=8 ,goal=50,bust_scores_one=YES") == (
        "pig:goal=50,faces=8,bust_scores_one=true"
    )


def test_bust_faces_are_joined_by_slashes() -> None:
    assert PIG.rules_object("pig:faces=8,bust_faces=1/8").bust_faces == (1, 8)


@pytest.mark.parametrize(
    ("spec", "kind", "message"),
    [
        ("pig:colour=red", InvalidRulesError, "rules pig has no parameter 'colour'; its"),
        ("pig:goal=fifty", InvalidRulesError, "rules pig: goal must be a whole number 1..400"),
        ("pig:goal=2.5", InvalidRulesError, "goal must be a whole number 1..400, got '2.5'"),
        ("pig:catch_up_turn=2", InvalidRulesError, "catch_up_turn must be true or false, got '2'"),
        ("pig:goal=0", InvalidRulesError, "goal must be a whole number 1..400, got '0'"),
        ("pig:faces=101", InvalidRulesError, "faces must be a whole number 2..100, got '101'"),
        ("pig:goal=10,goal=20", InvalidRulesError, "sets the parameter 'goal' twice"),
        ("pig:goal=" + "9" * 4000, InvalidRulesError, "(4000 characters)"),
        ("pig:goal=" + "9" * 30, InvalidRulesError, "goal must be a whole number 1..400"),
        ("pig:faces=3,bust_faces=4", InvalidRulesError, "bust face 4 is not on a 3-faced die"),
        ("pig:faces=4,bust_faces=1/x", InvalidRulesError, "bust_faces must be faces joined by /"),
        ("pig-raab:faces=4", InvalidRulesError, "bust face(s) [6] are not on a 4-faced die"),
        ("pig:50", InvalidRulesError, "rules pig takes no value after ':'"),
        ("pig:", InvalidRulesError, "has nothing after ':'"),
        ("hog:goal=50", ArenaError, "unknown rules 'hog' for pig; the presets are: pig,"),
    ],
)  # fmt: skip
def test_a_hostile_rules_spec_gets_one_named_message(
    spec: str, kind: type[StratagemError], message: str
) -> None:
    with pytest.raises(kind) as caught:
        PIG.check_rules(spec)
    assert message in str(caught.value)
    assert len(str(caught.value)) < 300  # a huge value is not echoed whole


def test_an_overlong_spec_is_refused_before_it_is_read() -> None:
    with pytest.raises(InvalidRulesError, match=f"at most {MAX_SPEC_CHARS}"):
        PIG.check_rules("pig:" + "goal=1," * 1000)


def test_games_without_rule_parameters_refuse_any() -> None:
    with pytest.raises(InvalidRulesError, match="rules scorefour has no parameter 'size'"):
        load_game("scorefour").check_rules("scorefour:size=5")


def test_scrabble_takes_its_word_list_by_name_or_position(tmp_path: Path) -> None:
    words = tmp_path / "w.txt"
    words.write_text("QUIZ\nCAT\n", encoding="utf-8")
    game = load_game("scrabble")
    assert game.check_rules(f"english:lexicon={words}") == f"english:{words}"
    assert game.check_rules(f"english:{words}") == f"english:{words}"


def test_the_rule_parameters_are_listed_for_the_page_and_the_cli() -> None:
    listed = PIG.to_json()["rule_params"]
    assert [p["name"] for p in listed] == [
        "goal", "faces", "bust_faces", "bust_scores_one", "catch_up_turn"
    ]  # fmt: skip
    assert listed[3]["type"] == "bool"


def test_the_arena_runs_a_pig_variant(tmp_path: Path) -> None:
    out = tmp_path / "r.csv"
    code, output = outcome(
        ["arena", "run", "--game", "pig", "--rules", "pig:goal=50,faces=8",
         "--agents", "hold:20,hold:25", "--games", "4", "--workers", "1", "--out", str(out)]
    )  # fmt: skip
    assert code == 0, output
    assert "pig (pig:goal=50,faces=8)" in output


@pytest.mark.parametrize(
    "args",
    [
        ["arena", "run", "--game", "pig", "--agents", "hold:20,hold:25", "--out", "{out}"],
        ["pig", "simulate", "--games", "2"],
    ],
)
def test_the_cli_and_the_arena_refuse_an_out_of_range_variant_with_the_library_message(
    tmp_path: Path, args: list[str]
) -> None:
    spec = "pig:goal=500,faces=8"
    with pytest.raises(InvalidRulesError) as caught:
        PIG.check_rules(spec)
    argv = [a.replace("{out}", str(tmp_path / "r.csv")) for a in args] + ["--rules", spec]
    code, output = outcome(argv)
    assert code == 2 and str(caught.value) in output
    assert not (tmp_path / "r.csv").exists()


def test_the_pig_cli_reads_a_variant_as_its_old_flags_made_it() -> None:
    import json

    base = ["pig", "value", "--me", "3", "--opp", "5", "--json"]
    spec = outcome([*base, "--rules", "pig:goal=20,faces=4,bust_faces=1/4"])
    flags = outcome([*base, "--rules", "pig", "--goal", "20", "--faces", "4", "--bust", "1,4"])
    assert spec[0] == flags[0] == 0, spec[1] + flags[1]
    a, b = json.loads(spec[1])["result"], json.loads(flags[1])["result"]
    assert a == b and 0 < a["p_win"] < 1


def test_a_play_session_takes_a_variant_and_refuses_a_bad_one_with_the_same_message() -> None:
    """The page's sessions read rules through the same registry call as the CLI and arena."""
    from stratagem.core.session import Seat, Session

    session = Session(PIG, "pig:goal=20,faces=4", (Seat(), Seat("hold:5")), seed=1)
    assert session.rules == "pig:goal=20,faces=4"
    with pytest.raises(InvalidRulesError) as expected:
        PIG.check_rules("pig:goal=500")
    with pytest.raises(InvalidRulesError) as got:
        Session(PIG, "pig:goal=500", (Seat(), Seat("hold:5")), seed=1)
    assert str(got.value) == str(expected.value)
