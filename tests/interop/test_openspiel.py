"""Our games in OpenSpiel (its own random simulation test, value iteration, MCTS bot), and
OpenSpiel's games in our arena."""

from __future__ import annotations

import sys

import numpy as np
import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="needs the interop extra (pip install 'stratagem[interop]')"
)
openspiel = pytest.importorskip("stratagem.interop.openspiel")

from stratagem.core.arena import load_game, play_game  # noqa: E402
from stratagem.games.pig.rules import preset  # noqa: E402
from stratagem.games.pig.solver import solve  # noqa: E402


@pytest.mark.parametrize(
    "name, sims",
    [("stratagem_pig(goal=30)", 20),
     ("stratagem_pig(rules=pig-raab,catch_up_turn=true)", 5),
     ("stratagem_pig(rules=piglet,bust_scores_one=true)", 20),
     ("stratagem_pig(goal=30,faces=8,bust_faces=1 8)", 10),
     ("stratagem_pig(goal=30,bust_face=6)", 10),
     ("stratagem_scorefour", 5),
     ("stratagem_yahtzee", 1),
     ("stratagem_yahtzee(players=2,rules=yatzy)", 1)],
)  # fmt: skip
def test_openspiel_random_simulation_test_passes(name, sims):
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=sims, serialize=False, verbose=False)


def test_scrabble_passes_the_random_simulation_test_on_a_small_word_list(word_list):
    game = pyspiel.load_game("stratagem_scrabble", {"lexicon": str(word_list)})
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("params", [{"players": 3}, {"players": 4, "rules": "yatzy"}])
def test_yahtzee_for_more_players_passes_the_random_simulation_test(params):
    game = pyspiel.load_game("stratagem_yahtzee", params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


@pytest.mark.slow
def test_scrabble_passes_the_random_simulation_test_on_the_built_in_lexicon():
    game = pyspiel.load_game("stratagem_scrabble", {"players": 3})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_game_types_say_what_each_game_is():
    T = pyspiel.GameType
    pig = pyspiel.load_game("stratagem_pig").get_type()
    assert (pig.chance_mode, pig.information, pig.utility, pig.reward_model) == (
        T.ChanceMode.EXPLICIT_STOCHASTIC, T.Information.PERFECT_INFORMATION,
        T.Utility.ZERO_SUM, T.RewardModel.TERMINAL,
    )  # fmt: skip
    s4 = pyspiel.load_game("stratagem_scorefour").get_type()
    assert s4.chance_mode == T.ChanceMode.DETERMINISTIC
    scrabble = pyspiel.load_game("stratagem_scrabble").get_type()
    assert scrabble.information == T.Information.IMPERFECT_INFORMATION
    assert scrabble.utility == T.Utility.GENERAL_SUM
    yahtzee = pyspiel.load_game("stratagem_yahtzee(players=4)")
    assert yahtzee.num_players() == 4 and yahtzee.max_chance_outcomes() == 462


def test_chance_outcomes_are_our_probabilities():
    state = pyspiel.load_game("stratagem_yahtzee").new_initial_state()
    outcomes = dict(state.chance_outcomes())
    assert len(outcomes) == 252
    assert outcomes[461] == pytest.approx(1 / 7776)  # 6 6 6 6 6
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 461) == "roll 6 6 6 6 6"


def test_scrabble_hides_racks_from_other_players(word_list):
    game = pyspiel.load_game("stratagem_scrabble", {"lexicon": str(word_list)})
    state = game.new_initial_state()
    rng = np.random.default_rng(2)
    while state.is_chance_node():
        ids, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(ids, p=probs)))
    mine = state.information_state_string(0).splitlines()
    theirs = state.information_state_string(1).splitlines()
    assert len(mine) == len(theirs) == 14
    assert mine[:7] != ["draw a tile"] * 7 and mine[7:] == ["draw a tile"] * 7
    assert theirs[:7] == ["draw a tile"] * 7
    obs = np.array(state.observation_tensor(0))
    assert obs.shape == (game.observation_tensor_size(),)
    assert state.observation_string(0) != state.observation_string(1)


def _vi_against_solver(goal: int) -> tuple[int, float]:
    from open_spiel.python.algorithms import value_iteration

    game = pyspiel.load_game("stratagem_pig", {"goal": goal})
    solution = solve(preset("pig").with_options(goal=goal))
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 50_000))  # get_all_states walks the game recursively
    try:
        values = value_iteration.value_iteration(game, -1, 1e-13, cyclic_game=True)
        from open_spiel.python.algorithms.get_all_states import get_all_states

        states = get_all_states(game, -1, True, False, to_string=str, stop_if_encountered=True)
    finally:
        sys.setrecursionlimit(limit)
    worst, shared = 0.0, 0
    for key, state in states.items():
        ours = state.ours
        if state.is_terminal():
            continue
        me, opp = ours.scores[ours.player], ours.scores[1 - ours.player]
        ours_p = solution.p_win(me, opp, ours.turn_total)
        # OpenSpiel's value is player 0's, on the +1 / -1 scale
        theirs_p = (1 + values[key]) / 2 if ours.player == 0 else (1 - values[key]) / 2
        worst = max(worst, abs(ours_p - theirs_p))
        shared += 1
    return shared, worst


def test_openspiel_value_iteration_equals_our_solver_on_a_small_goal():
    shared, worst = _vi_against_solver(8)
    assert shared > 300 and worst < 1e-9


@pytest.mark.slow
def test_openspiel_value_iteration_equals_our_solver_at_goal_20():
    shared, worst = _vi_against_solver(20)
    assert shared > 6000 and worst < 1e-9


def test_openspiel_mcts_bot_plays_our_pig_in_our_arena():
    game = openspiel.with_openspiel_agents(load_game("pig"))
    wins = 0.0
    for seed in range(4):
        seats = (
            ("openspiel-mcts:sims=50", "random")
            if seed % 2 == 0
            else ("random", "openspiel-mcts:sims=50")
        )
        returns, decisions = play_game(game, "coin-3", seats, seed)
        assert decisions > 0 and sorted(returns) == [0.0, 1.0]
        wins += returns[seats.index("openspiel-mcts:sims=50")]
    assert wins >= 2  # random play is weak even at coin-3


@pytest.mark.parametrize("name, rules", [("scorefour", "scorefour"), ("yahtzee", "yatzy")])
def test_openspiel_mcts_bot_plays_our_other_games(name, rules):
    game = openspiel.with_openspiel_agents(load_game(name))
    # a few simulations: each plays a whole random game of Yahtzee through the wrapper
    seats = ("openspiel-mcts:sims=3",) if name == "yahtzee" else ("openspiel-mcts:sims=20",) * 2
    _, decisions = play_game(game, rules, seats, 1)
    assert decisions >= (15 if name == "yahtzee" else 7)


@pytest.mark.parametrize("game", ["pig(winscore=10)", "connect_four", "backgammon"])
def test_our_random_agent_plays_openspiel_games_through_our_protocol(game):
    spec = openspiel.arena_game(f"openspiel:{game}")
    returns, decisions = play_game(spec, "default", ("random", "random"), 3)
    assert decisions > 0 and len(returns) == 2


def test_our_mcts_beats_random_at_openspiel_connect_four():
    spec = openspiel.arena_game("openspiel:connect_four")
    score = 0.0
    for seed in range(4):
        seats = (
            ("mcts:sims=200,c=2", "random") if seed % 2 == 0 else ("random", "mcts:sims=200,c=2")
        )
        returns, _ = play_game(spec, "default", seats, seed)
        score += returns[seats.index("mcts:sims=200,c=2")]
    assert score == 4  # OpenSpiel's returns are +1 / -1: four wins in four games


def test_spiel_state_refuses_an_illegal_action():
    state = openspiel.spiel_state("connect_four")
    with pytest.raises(openspiel.InteropError, match="legal ids are: 0, 1, 2, 3, 4, 5, 6"):
        state.apply(9)
    assert state.apply(3) == state.apply(3) and hash(state.apply(3)) == hash(state.apply(3))


def test_the_arena_runs_an_openspiel_game_by_name(tmp_path):
    from stratagem.core.arena import make_experiment, report, run

    exp = make_experiment("openspiel:connect_four", None, ["mcts:sims=100", "random"], 3, None)
    rows = run(exp, 2, tmp_path / "c4.csv")
    summary = report(rows)
    assert summary["agents"]["mcts:sims=100"]["win_rate"] == 1.0


def test_an_unknown_openspiel_game_is_refused_by_name():
    from stratagem.core.arena import load_game

    with pytest.raises(openspiel.InteropError, match="OpenSpiel cannot load 'no_such_game'"):
        load_game("openspiel:no_such_game")
