"""MCTS refuses, before it starts, a tree that would not fit in memory (issue 33)."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from stratagem.algorithms.mcts import MCTS, PYTHON_NODE_BYTES, memory_budget
from stratagem.algorithms.mcts_compiled import tree_bytes
from stratagem.core.errors import InvalidAgentError, StratagemError
from stratagem.core.game import CHANCE, sample_chance
from stratagem.core.registry import load_game


def test_ten_million_yahtzee_simulations_are_refused_with_the_estimate(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The issue's `mcts:sims=10000000` grew 20 MB/s to a MemoryError; now it is refused."""
    monkeypatch.setenv("STRATAGEM_MEMORY_LIMIT", "4G")
    with pytest.raises(InvalidAgentError, match=r"about 20\.5 GB .* at most sims=") as caught:
        load_game("yahtzee").make_agent("yahtzee", "mcts:sims=10000000")
    fits = int(str(caught.value).rsplit("sims=", 1)[1].split()[0].replace(",", ""))
    assert (fits + 1) * PYTHON_NODE_BYTES <= 4 << 30 < (fits + 2) * PYTHON_NODE_BYTES


def test_the_compiled_score_four_tree_is_bounded_by_its_arrays(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("STRATAGEM_MEMORY_LIMIT", "1G")
    spec = load_game("scorefour")
    agent = spec.make_agent("scorefour", "mcts:sims=100000")
    assert isinstance(agent, MCTS) and agent.fast is not None
    assert agent.tree_bytes == tree_bytes(agent.fast, 100_000)
    with pytest.raises(InvalidAgentError, match="sims=10,000,000 would grow a search tree"):
        spec.make_agent("scorefour", "mcts:sims=10000000")


def test_a_bad_memory_limit_is_named(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("STRATAGEM_MEMORY_LIMIT", "lots")
    with pytest.raises(StratagemError, match="STRATAGEM_MEMORY_LIMIT must be a positive size"):
        memory_budget()


def test_the_python_tree_estimate_bounds_what_a_search_allocates() -> None:
    """The estimate is an upper bound: Yahtzee's Python tree, traced allocation by allocation."""
    spec = load_game("yahtzee")
    state = spec.new_state("yahtzee", 1)
    rng = np.random.default_rng(3)
    while state.current_player == CHANCE:
        state = state.apply(sample_chance(state, rng))
    agent = spec.make_agent("yahtzee", "mcts:sims=1000")  # compiled playouts, Python tree
    assert isinstance(agent, MCTS) and agent.fast is None
    agent.search(state, np.random.default_rng(1))  # compile the playouts first
    tracemalloc.start()
    try:
        agent.search(state, np.random.default_rng(2))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert 0 < peak <= agent.tree_bytes
