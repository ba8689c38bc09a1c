"""Spec strings drawn from an agent's own declaration (tests/contract/test_agents.py).

:func:`valid_specs` draws specs whose every value lies in its parameter's declared type and
range; :func:`invalid_specs` draws a spec with one value outside it, with the parameter it
breaks. Text parameters without declared choices or pattern (files, inline weights) take
the values the contract lists for them in ``TEXT_VALUES`` (or are left at their default):
what a file parameter accepts is the game's to check, not the registry's.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from hypothesis import strategies as st

from stratagem.core.registry import AgentInfo, Param

TEXT_VALUES: Mapping[tuple[str, str, str], tuple[str, ...]] = {
    ("scrabble", "heuristic", "weights"): ("tuned", "source", "leave"),
}
"""Known good values of free-text parameters: (game, agent, parameter) -> values."""


def _number(p: Param) -> st.SearchStrategy[str]:
    assert p.low is not None and p.high is not None
    if p.type is int:
        low = int(p.low) + (1 if p.low_open else 0)
        return st.integers(low, int(p.high)).map(str)
    return st.floats(float(p.low), float(p.high), exclude_min=p.low_open, allow_nan=False).map(repr)


def valid_value(
    game: str, agent: AgentInfo, p: Param, known: Mapping[str, tuple[str, ...]]
) -> st.SearchStrategy[str] | None:
    """Values of ``p`` the registry accepts, as text; None if the contract knows none
    (``known``: values of free-text parameters made by the test, e.g. a file it wrote)."""
    if p.type in (int, float):
        return _number(p)
    if p.choices:
        return st.sampled_from(p.choices)
    if p.pattern is not None:
        return st.from_regex(p.pattern, fullmatch=True)
    values = known.get(p.name) or TEXT_VALUES.get((game, agent.name, p.name))
    return st.sampled_from(values) if values else None


def invalid_value(p: Param) -> st.SearchStrategy[str] | None:
    """Values of ``p`` outside its type or range (None for free text: any text may name a
    file)."""
    if p.type in (int, float):
        assert p.low is not None and p.high is not None
        outside = [repr(p.high + 1), repr(p.low - 1), "9" * 40, "abc", "inf", "nan", ""]
        if p.type is int:
            outside += [f"{p.low}.5" if p.low < p.high else "0.5", "1e3"]
        if p.low_open:
            outside.append(repr(p.low))
        return st.sampled_from([v for v in outside if v != "" and not _inside(p, v)])
    if p.choices:
        return st.text(min_size=1, max_size=8).filter(
            lambda v: v.strip() == v and v not in p.choices and "," not in v and "=" not in v
        )
    if p.pattern is not None:
        return st.sampled_from(["", "x" * 3, "0", "-1"]).filter(
            lambda v: v != "" and not __import__("re").fullmatch(p.pattern, v)  # type: ignore[arg-type]
        )
    return None


def _inside(p: Param, text: str) -> bool:
    """Whether ``text`` is, after all, a value of number parameter ``p``."""
    try:
        value = int(text) if p.type is int and text.lstrip("+-").isdigit() else float(text)
    except ValueError:
        return False
    if not math.isfinite(value) or (p.type is int and not float(value).is_integer()):
        return False
    if p.type is int and not text.lstrip("+-").isdigit():
        return False
    assert p.low is not None and p.high is not None
    above = value > p.low if p.low_open else value >= p.low
    return above and value <= p.high


def render(agent: AgentInfo, values: Mapping[str, str]) -> str:
    """``name``, ``name:value`` (the positional parameter alone) or ``name:k=v,...``."""
    if not values:
        return agent.name
    if list(values) == [agent.positional]:
        return f"{agent.name}:{values[agent.positional]}"
    return agent.name + ":" + ",".join(f"{k}={v}" for k, v in values.items())


def valid_specs(
    game: str, agent: AgentInfo, known: Mapping[str, tuple[str, ...]]
) -> st.SearchStrategy[str]:
    """Specs of ``agent`` with every value in range (required parameters always set)."""
    params = {}
    for p in agent.params:
        drawn = valid_value(game, agent, p, known)
        if drawn is not None:
            params[p.name] = drawn
    required = [p.name for p in agent.params if p.required]

    @st.composite
    def draw(data: st.DrawFn) -> str:
        chosen = {}
        for name, values in params.items():
            if name in required or data(st.booleans()):
                chosen[name] = data(values)
        return render(agent, chosen)

    return draw()
