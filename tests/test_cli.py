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

