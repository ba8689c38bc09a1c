"""Every Python example in docs/interop.md runs as written (issue 33: some did not)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pyspiel", reason="needs the interop extra")
pytest.importorskip("pettingzoo", reason="needs the interop extra")

DOC = Path(__file__).resolve().parents[2] / "docs" / "interop.md"
BLOCKS = re.findall(r"^```python\n(.*?)^```", DOC.read_text(encoding="utf-8"), re.M | re.S)


def test_the_doc_has_examples() -> None:
    assert len(BLOCKS) >= 5


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_each_python_block_runs_in_a_fresh_interpreter(index: int, tmp_path: Path) -> None:
    """A fresh process, as a reader would run it: nothing imported or set beforehand (the
    default recursion limit included)."""
    script = tmp_path / f"block_{index}.py"
    script.write_text(BLOCKS[index], encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 0, f"block {index}:\n{BLOCKS[index]}\n{done.stderr[-3000:]}"


def test_value_iteration_needs_no_recursion_limit_from_the_caller() -> None:
    """OpenSpiel's own call fails under a low limit; ours sets what it needs in its thread."""
    import pyspiel
    from open_spiel.python.algorithms import value_iteration as openspiel_vi

    from stratagem.interop import InteropError
    from stratagem.interop.openspiel import value_iteration

    game = pyspiel.load_game("stratagem_pig(goal=8)")
    import inspect

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack(0)) + 25)  # Pig to 8 needs about 30 more
    try:
        with pytest.raises(RecursionError):
            openspiel_vi.value_iteration(game, -1, 1e-13, cyclic_game=True)
        values = value_iteration(game)
    finally:
        sys.setrecursionlimit(limit)
    assert sys.getrecursionlimit() == limit and len(values) > 300
    with pytest.raises(InteropError, match="no bound on its states"):
        value_iteration(pyspiel.load_game("stratagem_pig(goal=20,catch_up_turn=true)"))
