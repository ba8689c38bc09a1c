"""The ``stratagem`` entry point (stratagem.cli.main) as a user's terminal runs it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import stratagem

SRC = Path(stratagem.__file__).resolve().parents[1]


def run_ascii(args: list[str], cache: Path) -> subprocess.CompletedProcess[str]:
    """``stratagem ARGS`` in a child process whose standard streams are ASCII only (what
    ``PYTHONIOENCODING=ascii`` or a C-locale terminal gives)."""
    env = {**os.environ, "PYTHONIOENCODING": "ascii", "STRATAGEM_CACHE_DIR": str(cache)}
    env["PYTHONPATH"] = os.pathsep.join([str(SRC), env.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-m", "stratagem", *args],
        capture_output=True, text=True, encoding="utf-8", env=env, timeout=300,
    )  # fmt: skip


def test_czech_letters_print_as_escapes_on_an_ascii_terminal(tmp_path: Path) -> None:
    """Printing a Czech move died with a UnicodeEncodeError traceback (exit 1)."""
    words = tmp_path / "slova.txt"
    words.write_text("ŽÁBA\nŽÁBY\n", encoding="utf-8")
    args = ["scrabble", "moves", "--rules", "czech", "--lexicon", str(words), "--rack", "ŽÁBAY"]
    done = run_ascii(args, tmp_path / "cache")
    assert done.returncode == 0, done.stderr
    assert "\\u017d\\xc1BA" in done.stdout and "\\u017d\\xc1BY" in done.stdout  # ŽÁBA, ŽÁBY
    assert "Traceback" not in done.stderr


def test_ctrl_c_while_numba_compiles_prints_one_interrupted_line(tmp_path: Path) -> None:
    """Issue 33: Ctrl-C during a numba compile printed an llvmlite traceback (or nothing,
    or the process crashed) instead of "interrupted" and status 130."""
    import signal
    import time

    env = {
        **os.environ,
        "PYTHONPATH": str(SRC),
        "NUMBA_CACHE_DIR": str(tmp_path / "numba"),  # nothing compiled yet
        "STRATAGEM_CACHE_DIR": str(tmp_path / "cache"),
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "stratagem", "pig", "solve", "--goal", "150", "--faces", "20",
         "--catch-up-turn", "--no-cache"],  # long enough (~20 s) to be busy at the signal
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        # As from a terminal: a test run started in the background inherits SIGINT ignored,
        # and Python then installs no KeyboardInterrupt handler in the child.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    time.sleep(3)  # past the imports, into the first compiles
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 130, stderr
    assert stderr.strip().splitlines()[-1] == "interrupted"
    assert "Traceback" not in stderr and stdout == ""


def test_every_game_group_comes_from_its_spec_where_the_quick_path_looks() -> None:
    """The command line lists no game: each group is the spec's ``cli``, and the quick path
    of ``stratagem <game> ...`` (which does not import the spec) mounts the same app."""
    from stratagem.cli import _quick_group, game_cli_module, game_groups
    from stratagem.core.registry import available_games, load_game

    groups = game_groups()
    assert set(groups) == {g for g in available_games() if load_game(g).cli is not None}
    assert {"pig", "scorefour", "scrabble", "yahtzee"} <= set(groups)
    for name, app in groups.items():
        cli = load_game(name).cli
        assert cli is not None and cli.module == game_cli_module(name)
        assert _quick_group(name) is app


def test_an_unknown_group_is_left_to_typer_to_refuse() -> None:
    from stratagem.cli import _quick_group

    assert _quick_group("chess") is None
