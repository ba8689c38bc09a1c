"""The arena: fair seating, common random numbers, executors, resuming, reports."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import stratagem.core.arena as arena
from stratagem.core.arena import (
    ArenaError,
    LocalExecutor,
    make_experiment,
    parse_spec,
    read_results,
    report,
    run,
    schedule,
    split_specs,
)


@pytest.fixture(autouse=True)
def _cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    # solved tables for worker processes too (they inherit the environment)
    monkeypatch.setenv("STRATAGEM_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "cache"))


def key(rows: list[dict[str, Any]]) -> list[tuple[int, str, str]]:
    return sorted((r["game_index"], r["seats"], r["returns"]) for r in rows)


def test_spec_strings_parse_and_print_back() -> None:
    for text in ("optimal", "hold:20", "mcts:c=0.71,sims=2500,rollout=random", "table:a/b.txt"):
        assert str(parse_spec(text)) == text
    assert split_specs("mcts:c=0.71,sims=2500,rollout=random,optimal,hold:20") == [
        "mcts:c=0.71,sims=2500,rollout=random",
        "optimal",
        "hold:20",
    ]


@pytest.mark.parametrize("bad", ["", "a b", "x:", "x:k=", "x:k=1,k=2"])
def test_malformed_specs_are_refused(bad: str) -> None:
    with pytest.raises(ArenaError):
        parse_spec(bad)


@pytest.mark.parametrize(
    ("game", "agents", "message"),
    [
        ("chess", ["x"], "unknown game 'chess'"),
        ("pig", ["greedy", "optimal"], "unknown agent 'greedy'"),
        ("pig", ["keep-pace:speed=2", "optimal"], "has no parameter 'speed'"),
        ("pig", ["random:3", "optimal"], "takes no value"),
        ("pig", ["optimal"], "needs at least 2 players"),
        ("pig", [], "at least one agent"),
    ],
)
def test_bad_experiments_are_refused(game: str, agents: list[str], message: str) -> None:
    with pytest.raises(ArenaError, match=message):
        make_experiment(game, None, agents, 0)


def test_bad_counts_are_refused(tmp_path: Path) -> None:
    exp = make_experiment("pig", "coin-3", ["hold:2", "random"], 0)
    for games in (0, -3):
        with pytest.raises(ArenaError, match="at least 1"):
            run(exp, games, tmp_path / "r.csv")
    with pytest.raises(ArenaError, match="seed"):
        make_experiment("pig", "coin-3", ["hold:2", "random"], -1)
    with pytest.raises(ArenaError, match=r"\.csv or \.parquet"):
        run(exp, 2, tmp_path / "r.txt")


def test_matches_swap_seats_and_share_the_deal() -> None:
    exp = make_experiment("pig", "pig", ["hold:20", "keep-pace"], 5)
    plan = schedule(exp, 6)
    assert [g[3] for g in plan[:2]] == [("hold:20", "keep-pace"), ("keep-pace", "hold:20")]
    assert plan[0][2] == plan[1][2] != plan[2][2]  # one deal per pair


def test_identical_agents_mirror_exactly_across_a_pair(tmp_path: Path) -> None:
    # Common random numbers: each seat gets the same dice in both games of a pair, so
    # two copies of the same deterministic player score the same in either seat.
    exp = make_experiment("yahtzee", "yahtzee-no-bonus", ["optimal", "optimal"], 3, mode="match")
    rows = sorted(run(exp, 8, tmp_path / "m.csv"), key=lambda r: r["game_index"])
    for a, b in zip(rows[::2], rows[1::2]):
        assert a["returns"] == b["returns"]


def test_same_seed_same_games_with_one_or_two_workers(tmp_path: Path) -> None:
    exp = make_experiment("pig", "pig-raab", ["hold:15", "keep-pace", "random"], 11)
    one = run(exp, 48, tmp_path / "one.csv", LocalExecutor(1), chunk=5)
    two = run(exp, 48, tmp_path / "two.csv", LocalExecutor(2), chunk=5)
    assert key(one) == key(two)
    assert len({r["game_index"] for r in one}) == 48


def test_an_interrupted_run_resumes_without_repeats_or_losses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    exp = make_experiment("pig", "pig-raab", ["hold:15", "random"], 2)
    reference = run(exp, 40, tmp_path / "ref.csv", chunk=4)
    calls = {"n": 0}
    real = arena.run_task

    def crashing(task: arena.Task) -> list[dict[str, Any]]:
        calls["n"] += 1
        if calls["n"] == 4:
            raise KeyboardInterrupt  # the user pressed Ctrl-C
        return real(task)

    monkeypatch.setattr(arena, "run_task", crashing)
    out = tmp_path / "r.csv"
    with pytest.raises(KeyboardInterrupt):
        run(exp, 40, out, chunk=4)
    monkeypatch.setattr(arena, "run_task", real)
    assert len(read_results(out)) == 12
    # a torn last line (the process died while writing) is cut off on resume
    with open(out, "a", encoding="utf-8") as handle:
        handle.write(f"{exp.id},pig,pig-raab,match,39,19,12")
    resumed = run(exp, 40, out, chunk=4)
    assert sorted(r["game_index"] for r in resumed) == list(range(40))
    assert key(resumed) == key(reference)


def test_parquet_results_resume_through_a_journal(tmp_path: Path) -> None:
    exp = make_experiment("pig", "coin-3", ["hold:2", "random"], 4)
    out = tmp_path / "r.parquet"
    first = run(exp, 10, out)
    assert out.exists() and not (tmp_path / "r.parquet.journal.csv").exists()
    more = run(exp, 30, out)
    assert len(first) == 10 and sorted(r["game_index"] for r in more) == list(range(30))
    assert key(more) == key(run(exp, 30, tmp_path / "again.csv"))


def test_a_parquet_run_interrupted_before_its_first_game_resumes(tmp_path: Path) -> None:
    exp = make_experiment("pig", "coin-3", ["hold:2", "random"], 4)
    out = tmp_path / "r.parquet"
    (tmp_path / "r.parquet.journal.csv").write_text(",".join(arena.RESULT_COLUMNS) + "\n")
    assert sorted(r["game_index"] for r in run(exp, 6, out)) == list(range(6))


def test_a_file_of_another_experiment_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "r.csv"
    run(make_experiment("pig", "coin-3", ["hold:2", "random"], 4), 4, out)
    before = out.read_bytes()
    with pytest.raises(ArenaError, match="another experiment"):
        run(make_experiment("pig", "coin-3", ["hold:2", "random"], 5), 4, out)
    assert out.read_bytes() == before  # nothing written


def test_a_file_that_is_not_a_results_file_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "r.csv"
    out.write_text("a,b\n1,2\n")
    with pytest.raises(ArenaError, match="not a Stratagem results file"):
        read_results(out)


def test_report_of_a_match_has_wilson_intervals_and_the_paired_difference(
    tmp_path: Path,
) -> None:
    exp = make_experiment("pig", "pig", ["optimal", "random"], 1)
    rows = run(exp, 60, tmp_path / "r.csv")
    s = report(rows)
    best = s["agents"]["optimal"]
    assert best["win_rate"] > 0.9 and best["win_lo"] < best["win_rate"] < best["win_hi"] <= 1
    (paired,) = s["paired"]
    assert paired["pairs"] == 30 and paired["lo"] <= paired["mean_diff"] <= paired["hi"]
    assert s["agents"]["optimal"]["games"] == 60


def test_solitaire_series_compare_agents_on_the_same_deals(tmp_path: Path) -> None:
    exp = make_experiment("yahtzee", "yahtzee-no-bonus", ["optimal", "random"], 2, mode="solitaire")
    rows = run(exp, 20, tmp_path / "s.csv")
    s = report(rows)
    assert s["mode"] == "solitaire" and s["agents"]["optimal"]["games"] == 10
    (paired,) = s["paired"]
    assert paired["a"] == "random" and paired["mean_diff"] < -100  # random play is poor


@pytest.mark.slow
def test_ray_gives_the_same_games(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    from stratagem.core.arena import RayExecutor

    exp = make_experiment("pig", "pig-raab", ["hold:15", "keep-pace"], 11)
    local = run(exp, 32, tmp_path / "l.csv", LocalExecutor(1), chunk=4)
    ray = run(exp, 32, tmp_path / "r.csv", RayExecutor(), chunk=4)
    assert key(local) == key(ray)


def test_an_agent_that_needs_an_opponent_is_refused_for_solitaire_before_it_is_built() -> None:
    """`arena run --game yahtzee --agents win` built the 1 GB tables, then failed at the
    first move for want of an opponent."""
    with pytest.raises(ArenaError, match="agent win needs an opponent"):
        make_experiment("yahtzee", None, ["win"], 0)
    with pytest.raises(ArenaError, match="agent win needs an opponent"):
        make_experiment("yahtzee", None, ["win", "optimal"], 0, "solitaire")
    assert make_experiment("yahtzee", None, ["win", "optimal"], 0).mode == "match"


def test_a_resumed_run_with_fewer_games_reports_the_games_asked_for(tmp_path: Path) -> None:
    """Issue 33: a resume with a smaller --games silently reported more games than asked."""
    exp = make_experiment("pig", "coin-3", ["hold:2", "random"], 4)
    out = tmp_path / "r.csv"
    assert len(run(exp, 20, out, chunk=4)) == 20
    fewer = run(exp, 8, out, chunk=4)
    assert sorted(r["game_index"] for r in fewer) == list(range(8))
    assert arena.games_beyond(out, 8) == 12
    assert len(read_results(out)) == 20  # the longer run's games are kept


def _worker_pids(parent: int) -> list[int]:
    """The pool workers (spawned Python processes) among ``parent``'s children."""
    pids: list[int] = []
    for task in Path(f"/proc/{parent}/task").iterdir():
        children = (task / "children").read_text().split()
        for child in map(int, children):
            try:
                cmd = Path(f"/proc/{child}/cmdline").read_bytes()
            except OSError:
                continue
            if b"spawn_main" in cmd:
                pids.append(child)
    return pids


def _alive(pid: int) -> bool:
    """Running (not gone, not a zombie left for init to reap)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc (Linux)")
def test_workers_end_when_the_arena_run_is_killed(tmp_path: Path) -> None:
    """Issue 33: after `kill -9` of arena run its workers played on for ever."""
    import os
    import signal
    import subprocess
    import sys
    import time

    import stratagem

    env = {**os.environ, "PYTHONPATH": str(Path(stratagem.__file__).parents[1])}
    out = str(tmp_path / "r.csv")
    args = ["arena", "run", "--game", "pig", "--agents", "hold:20,hold:25", "--games",
            "1000000", "--workers", "2", "--chunk", "100000", "--out", out]  # fmt: skip
    proc = subprocess.Popen(
        [sys.executable, "-m", "stratagem", *args], env=env, stderr=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        workers: list[int] = []
        while len(workers) < 2 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.5)
            workers = _worker_pids(proc.pid)
        assert len(workers) == 2, "the run did not start its two workers"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    deadline = time.monotonic() + 10
    while any(map(_alive, workers)) and time.monotonic() < deadline:
        time.sleep(0.2)
    left = [pid for pid in workers if _alive(pid)]
    for pid in left:  # do not leave them behind if the test fails
        os.kill(pid, signal.SIGKILL)
    assert not left, f"workers {left} outlived the killed run"
