"""What an agent-spec property test allows: an agent, or a StratagemError (CLI: exit 2).

:func:`specs` draws spec strings for one game's registry: any text, and
well-formed ``name``, ``name:value`` and ``name:key=value,...`` specs whose
names and keys are mostly the game's own and whose values are numbers in and
out of range, huge, not finite, empty, odd words and paths (a folder, a
device, a missing file). :func:`agent_or_refusal` builds one through the
registry and fails the test on any exception that is not a StratagemError.
"""

from __future__ import annotations

from hypothesis import strategies as st

from stratagem.core.agent import Agent
from stratagem.core.errors import StratagemError
from stratagem.core.registry import GameSpec

ODD_VALUES = [
    "", " ", "none", "None", "nan", "inf", "-inf", "1e309", "-0", "+3", "0.0", "1e-300",
    "0x10", "1_000", "true", "on", "off", "random", "greedy", "hold20", "hold:7", "tuned",
    "source", "leave", "/", ".", "/dev/null", "/dev/zero", "no/such/file", "a=b", "\x00",
    "9" * 40,
]  # fmt: skip

VALUES = st.one_of(
    st.integers(-10, 10_000).map(str),
    st.integers().map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.sampled_from(ODD_VALUES),
    st.text(max_size=12),
)


def specs(game: GameSpec) -> st.SearchStrategy[str]:
    """Spec strings for ``game``: mostly its own agents and parameters, some not."""
    names = st.sampled_from(sorted(game.agents)) | st.text(max_size=8)

    def keyed(name: str) -> st.SearchStrategy[str]:
        info = game.agents.get(name)
        own = [p.name for p in info.params] if info is not None else []
        keys = (st.sampled_from(own) | st.text(max_size=5)) if own else st.text(max_size=5)
        pairs = st.lists(st.tuples(keys, VALUES), min_size=1, max_size=4)
        return st.one_of(
            st.just(name),
            VALUES.map(lambda v: f"{name}:{v}"),
            pairs.map(lambda kv: f"{name}:" + ",".join(f"{k}={v}" for k, v in kv)),
        )

    return st.text(max_size=40) | names.flatmap(keyed)


def agent_or_refusal(game: GameSpec, rules: object, spec: str) -> Agent | None:
    """The agent ``spec`` names, or ``None`` when the registry refuses it with a
    StratagemError; any other exception propagates and fails the calling test."""
    try:
        agent = game.make_agent(rules, spec)
    except StratagemError as exc:
        assert str(exc), f"{spec!r}: a refusal without a message"
        return None
    assert isinstance(agent, Agent), f"{spec!r} gave {agent!r}, not an agent"
    return agent
