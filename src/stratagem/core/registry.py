"""Games and their agents, found by name; the one grammar of agent specs.

Each game declares itself in ``games/<game>/spec.py`` as ``GAME``, a
:class:`GameSpec`: its rule presets, how to start a game, and its agents, each
an :class:`AgentInfo` whose parameters are :class:`Param` records (name, type,
default, range, help). The command line, the arena and the web page all build
agents here, from a spec string::

    name                      optimal
    name:value                hold:20       (the agent's positional parameter)
    name:key=value,...        mcts:c=0.71,sims=2500

Every value is read and range-checked before an agent is made; a bad one
raises :class:`~stratagem.core.errors.InvalidAgentError` naming the parameter,
its type and its range.

A game's rules are read in the same grammar, a preset and the parameters the
game declares (:attr:`GameSpec.rule_params`), checked here in one place for the
command line, the arena and the web page alike::

    preset                    pig
    preset:value              english:/data/enable1.txt   (the positional parameter)
    preset:key=value,...      pig:goal=50,faces=8,catch_up_turn=true

A bad rules spec raises :class:`~stratagem.core.errors.InvalidRulesError` (an
unknown preset :class:`~stratagem.core.errors.ArenaError`) naming the problem.

Each call of :func:`make_agent` returns a fresh agent (agents may learn during a
game); expensive tables are cached by the game's factories, not by sharing agents.

>>> parse_spec("mcts:c=0.71,sims=2500").params
(('c', '0.71'), ('sims', '2500'))
>>> split_specs("mcts:c=1,sims=50,hold:20,optimal")
['mcts:c=1,sims=50', 'hold:20', 'optimal']
>>> Param("sims", int, 2500, "simulations per decision", low=1, high=10**7).describe()
'whole number 1..10000000 (default 2500)'
"""

from __future__ import annotations

import importlib
import importlib.util
import math
import pkgutil
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from stratagem.core.agent import Agent
from stratagem.core.errors import ArenaError, InvalidAgentError, InvalidRulesError
from stratagem.core.game import State

if TYPE_CHECKING:
    from stratagem.core.coaching import Coaching
    from stratagem.core.series import FastSeries

__all__ = [
    "MAX_SPEC_CHARS",
    "AgentInfo",
    "AgentSpec",
    "GameSpec",
    "Lazy",
    "Param",
    "WebExtras",
    "agent_table",
    "available_games",
    "load_game",
    "make_agent",
    "parse_spec",
    "register_game_source",
    "split_specs",
]

ParamType = type[int] | type[float] | type[str] | type[bool]

MAX_SPEC_CHARS = 4096
"""Longest agent or rules spec read (a path may be long; nothing sensible is longer)."""

Owner = Literal["agent", "rules"]
"""Whose spec is read: an agent's (errors are :class:`InvalidAgentError`) or a game's rules
(:class:`InvalidRulesError`)."""


def _error(of: Owner, message: str) -> InvalidAgentError | InvalidRulesError:
    return InvalidAgentError(message) if of == "agent" else InvalidRulesError(message)


def _shown(text: str) -> str:
    """``text`` as quoted in a message, cut short if it is huge (a 5000-digit number)."""
    if len(text) <= 60:
        return text
    quoted = text[0] == text[-1] and text[0] in "'\""
    return text[:40] + f"...' ({len(text) - 2 * quoted} characters)"


# --- spec strings -------------------------------------------------------------------------


@dataclass(frozen=True)
class AgentSpec:
    """``name``, ``name:value`` or ``name:key=value,...`` read but not yet checked.

    ``positional`` holds the single value of ``hold:20`` or ``table:FILE``.
    ``str()`` gives the spec back in one canonical spelling (used as the agent's
    name in results files).
    """

    name: str
    positional: str | None = None
    params: tuple[tuple[str, str], ...] = ()

    def __str__(self) -> str:
        if self.positional is not None:
            return f"{self.name}:{self.positional}"
        if self.params:
            return self.name + ":" + ",".join(f"{k}={v}" for k, v in self.params)
        return self.name


_NAME = re.compile(r"[A-Za-z0-9_-]+")


def parse_spec(text: str, of: Owner = "agent") -> AgentSpec:
    """Read an agent spec string (``of="rules"``: a rules spec, ``preset[:key=value,...]``);
    a malformed one raises :class:`InvalidAgentError` (:class:`InvalidRulesError`)."""
    what = "agent spec" if of == "agent" else "rules spec"
    if len(text) > MAX_SPEC_CHARS:
        raise _error(of, f"the {what} is {len(text)} characters long; at most {MAX_SPEC_CHARS}")
    text = text.strip()
    name, colon, rest = text.partition(":")
    if not _NAME.fullmatch(name):
        form = "name" if of == "agent" else "preset"
        raise _error(
            of,
            f"cannot read {what} {_shown(repr(text))}: write {form}, {form}:value or "
            f"{form}:key=value,...",
        )
    if not colon:
        return AgentSpec(name)
    if not rest:
        raise _error(of, f"{what} {text!r} has nothing after ':'")
    if "=" not in rest:
        return AgentSpec(name, positional=rest)
    params = []
    for part in rest.split(","):
        key, eq, value = part.partition("=")
        if not eq or not key.strip() or not value.strip():
            raise _error(of, f"cannot read {_shown(repr(part))} in {what} {_shown(repr(text))}: "
                         "write key=value")  # fmt: skip
        params.append((key.strip(), value.strip()))
    keys = [k for k, _ in params]
    for k in keys:
        if keys.count(k) > 1:
            raise _error(of, f"{what} {_shown(repr(text))} sets the parameter {k!r} twice")
    return AgentSpec(name, params=tuple(params))


def split_specs(text: str) -> list[str]:
    """Split ``A,B,...`` where a spec's own ``key=value`` list also uses commas."""
    out: list[str] = []
    for piece in (p.strip() for p in text.split(",")):
        if not piece:
            continue
        if out and "=" in piece and ":" not in piece:
            out[-1] += "," + piece  # a further key=value of the previous spec
        else:
            out.append(piece)
    return out


# --- parameters ---------------------------------------------------------------------------


_TYPE_WORDS = {int: "whole number", float: "number", str: "text", bool: "true or false"}
_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


def _article(kind: str) -> str:
    return f"a {kind}" if kind.startswith(("whole number", "number", "text", "file")) else kind


def _values(
    params: tuple[Param, ...], positional: str | None, spec: AgentSpec, of: Owner
) -> dict[str, Any]:
    """Every parameter's value for ``spec`` (defaults filled in), each checked: the one
    reading of agent and rules specs."""
    owner = f"{of} {spec.name}" if of == "agent" else f"rules {spec.name}"
    given = dict(spec.params)
    if spec.positional is not None:
        if positional is None:
            raise _error(
                of,
                f"{owner} takes no value after ':' (got {_shown(str(spec))}); "
                + (
                    "its parameters are written key=value: " + ", ".join(p.name for p in params)
                    if params
                    else "it has no parameters"
                ),
            )
        given[positional] = spec.positional
    known = {p.name for p in params}
    for key in given:
        if key not in known:
            raise _error(
                of,
                f"{owner} has no parameter {_shown(repr(key))}; its parameters are: "
                f"{', '.join(sorted(known)) or 'none'}",
            )
    out: dict[str, Any] = {}
    for p in params:
        if p.name in given:
            out[p.name] = p.parse(given[p.name], spec.name, of=of)
        elif p.required:
            raise _error(of, f"{owner} needs {p.name}=... ({p.describe()}: {p.help})")
        else:
            out[p.name] = p.default
    return out


@dataclass(frozen=True)
class Param:
    """One parameter of an agent: its type, default, allowed values and meaning.

    ``default=None`` with ``required=False`` means "unset" (the factory gets
    ``None``). Numbers must lie in ``low..high`` (both required, so that no
    value overflows a compiled kernel); ``low_open`` excludes
    ``low`` itself. Text must be one of ``choices`` or match ``pattern`` (a
    regular expression; ``accepts`` says in words what it allows).
    """

    name: str
    type: ParamType
    default: int | float | str | None
    help: str
    low: int | float | None = None
    high: int | float | None = None
    low_open: bool = False
    choices: tuple[str, ...] = ()
    pattern: str | None = None
    accepts: str | None = None
    required: bool = False
    normalise: Callable[[str], str] | None = None
    """Text in one canonical spelling after the checks (a path made absolute, so that a
    results file names the same file from any folder)."""
    file: bool = False
    """The value names a file on the machine that reads the spec (a word list, a leave
    table), unless it is one of :attr:`named`; a server refuses such values from its
    clients (:func:`names_file`)."""
    named: tuple[str, ...] = ()
    """Values of a :attr:`file` parameter that name no file (``weights=tuned``)."""

    def __post_init__(self) -> None:
        if self.type in (int, float) and (self.low is None or self.high is None):
            raise ValueError(f"parameter {self.name}: a number needs a range (low and high)")

    def describe(self) -> str:
        """Type and range in a few words, e.g. ``whole number 1..10000000 (default 2500)``."""
        kind = self.kind()
        if self.required:
            return kind + " (required)"
        if self.default is None:
            return kind + " (optional)"
        return f"{kind} (default {self.default})"

    def kind(self) -> str:
        """Type and range, e.g. ``whole number 1..10000000``."""
        if self.choices:
            kind = "one of " + ", ".join(self.choices)
        elif self.accepts:
            kind = self.accepts
        else:
            kind = _TYPE_WORDS[self.type]
            lo, hi = self.low, self.high
            if lo is not None and hi is not None and not self.low_open:
                kind += f" {lo}..{hi}"
            else:
                if lo is not None:
                    kind += f" {'>' if self.low_open else '>='} {lo}"
                if hi is not None:
                    kind += f"{' and' if lo is not None else ''} <= {hi}"
        return kind

    def parse(self, text: str, agent: str, *, of: Owner = "agent") -> int | float | str | None:
        """The value of ``text``, checked; else :class:`InvalidAgentError` naming the range
        (``of="rules"``: :class:`InvalidRulesError`, ``agent`` then names the preset)."""
        if self.default is None and not self.required and text.lower() == "none":
            return None
        try:
            value: int | float | str
            if self.type is bool:
                if text.lower() not in _TRUE + _FALSE:
                    raise ValueError
                value = text.lower() in _TRUE
            elif self.type is int:
                if not re.fullmatch(r"[+-]?\d+", text):
                    raise ValueError
                value = int(text)
            elif self.type is float:
                value = float(text)
            else:
                value = text
        except ValueError:
            raise self.error(_shown(repr(text)), agent, of=of) from None
        return self.check(value, agent, text, of=of)

    def check(
        self, value: Any, agent: str, shown: str | None = None, *, of: Owner = "agent"
    ) -> int | float | str | None:
        """``value`` if it has this parameter's type and lies in its range."""
        shown = _shown(repr(value) if shown is None else repr(shown))
        if value is None and self.default is None and not self.required:
            return None
        if self.type is bool:
            if not isinstance(value, bool):
                raise self.error(shown, agent, of=of)
            return value
        if self.type is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise self.error(shown, agent, of=of)
        elif self.type is float:
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise self.error(shown, agent, of=of)
            value = float(value)
            if not math.isfinite(value):
                raise self.error(shown, agent, of=of)
        elif not isinstance(value, str) or not value:
            raise self.error(shown, agent, of=of)
        if isinstance(value, int | float):
            if self.low is not None and (value <= self.low if self.low_open else value < self.low):
                raise self.error(shown, agent, of=of)
            if self.high is not None and value > self.high:
                raise self.error(shown, agent, of=of)
        if isinstance(value, str):
            if self.choices and value not in self.choices:
                raise self.error(shown, agent, of=of)
            if self.pattern is not None and not re.fullmatch(self.pattern, value):
                raise self.error(shown, agent, of=of)
        checked: int | float | str = value
        if isinstance(checked, str) and self.normalise is not None:
            checked = self.normalise(checked)
        return checked

    def error(
        self, shown: str, agent: str, *, of: Owner = "agent"
    ) -> InvalidAgentError | InvalidRulesError:
        return _error(of, f"{of} {agent}: {self.name} must be {_article(self.kind())}, got {shown}")

    def to_json(self) -> dict[str, Any]:
        """Plain data for the web API and ``--json`` listings."""
        return {
            "name": self.name,
            "type": self.type.__name__,
            "default": self.default,
            "help": self.help,
            "low": self.low,
            "high": self.high,
            "low_open": self.low_open,
            "choices": list(self.choices),
            "pattern": self.pattern,
            "required": self.required,
            "describe": self.describe(),
        }


# --- agents and games ---------------------------------------------------------------------

AgentFactory = Callable[..., Agent]
"""``make(rules, **values)``: the game's rules object and one value per declared parameter."""


@dataclass(frozen=True)
class AgentInfo:
    """How to make one kind of agent, and what its parameters mean.

    ``positional`` names the parameter that ``name:value`` sets (``hold:20``
    sets ``n``); the same parameter may also be written ``name:n=20``.
    """

    name: str
    summary: str
    make: AgentFactory
    params: tuple[Param, ...] = ()
    positional: str | None = None
    min_players: int = 1
    """Players a game needs for this agent to play it (``win``: an opponent to beat)."""
    check: Callable[[Any, dict[str, Any]], None] | None = None
    """``check(rules, values)``: what the parameters' own ranges cannot say, because it
    depends on the rules (a Yahtzee target above the rules' highest score); raises a
    :class:`~stratagem.core.errors.StratagemError`. Run before the agent is made."""

    def __post_init__(self) -> None:
        names = [p.name for p in self.params]
        if len(set(names)) != len(names):
            raise ValueError(f"agent {self.name} declares a parameter twice")
        if self.positional is not None and self.positional not in names:
            raise ValueError(f"agent {self.name}: positional {self.positional} is not a parameter")

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(name)

    def usage(self) -> str:
        """``hold:n`` / ``mcts[:c=...,sims=...]`` for listings."""
        text = self.name
        if self.positional is not None:
            text += f":{self.positional}"
        rest = [p.name for p in self.params if p.name != self.positional]
        if rest:
            text += "[:" + ",".join(f"{k}=..." for k in rest) + "]"
        return text

    def values(self, spec: AgentSpec) -> dict[str, Any]:
        """Every parameter's value for ``spec`` (defaults filled in), each checked."""
        return _values(self.params, self.positional, spec, "agent")

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "summary": self.summary,
            "usage": self.usage(),
            "positional": self.positional,
            "params": [p.to_json() for p in self.params],
        }


def agent_table(*agents: AgentInfo) -> dict[str, AgentInfo]:
    """``{name: info}`` of a game's agents, in the order given (``GameSpec.agents``)."""
    table = {a.name: a for a in agents}
    if len(table) != len(agents):
        raise ValueError("two agents share a name")
    return table


_TARGET = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*:[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class Lazy:
    """An object of another module, named ``package.module:name`` and imported only when
    :meth:`load` is called.

    A game's capabilities that live above it (its command group, its codec for the
    adapters, its web extras) are named so: the spec stays cheap to read, and the
    layers import each other only downwards (the adapters load the game's codec, the
    game never imports the adapters).

    >>> Lazy("stratagem.core.errors:ArenaError").load().__name__
    'ArenaError'
    """

    target: str

    def __post_init__(self) -> None:
        if not _TARGET.fullmatch(self.target):
            raise ValueError(f"a lazy reference reads package.module:name, got {self.target!r}")

    @property
    def module(self) -> str:
        return self.target.partition(":")[0]

    def load(self) -> Any:
        module, _, name = self.target.partition(":")
        return getattr(importlib.import_module(module), name)


@dataclass(frozen=True)
class WebExtras:
    """What the web layer adds for one game beyond the one REST shape every game shares."""

    router: Lazy | None = None
    """The game's own routes (Yahtzee's tables and distributions, the Scrabble assistant):
    a FastAPI ``APIRouter``."""
    page: str | None = None
    """The game's own page, a file of ``stratagem/web/static`` (``yahtzee.html``), served at
    ``/<name>``; ``None``: the generic play page (``/play?game=<name>``)."""


@dataclass(frozen=True)
class GameSpec:
    """What core needs of a game; ``games/<name>/spec.py`` defines one as ``GAME``.

    ``rules`` turns a preset name into the game's rules object (cached by the
    game where building it is costly); ``new`` is the state class's
    ``new(rules, players)``. Agent factories take the rules object too, so a
    command line may pass rules it built from options rather than a preset.
    """

    name: str
    presets: tuple[str, ...]
    default_rules: str
    min_players: int
    max_players: int
    rules: Callable[[str], Any]
    new: Callable[[Any, int], State]
    agents: Mapping[str, AgentInfo]
    result: Literal["score", "win"] = "score"
    summary: str = ""
    rules_type: type | None = None
    """The type of a rules object (to tell one from a preset name)."""
    rule_params: tuple[Param, ...] = ()
    """The rules' own parameters, ``preset:key=value,...`` (Pig's goal, Scrabble's word
    list); a parameter left out keeps the preset's value, so each defaults to ``None``."""
    rule_positional: str | None = None
    """The rule parameter that ``preset:value`` sets (Scrabble's ``english:FILE``)."""
    vary: Callable[[str, Mapping[str, Any]], Any] | None = None
    """``vary(preset, values)``: the rules object of a preset with some parameters set
    (only those given, checked against their ranges); raises
    :class:`~stratagem.core.errors.InvalidRulesError` for what the ranges cannot say
    (a bust face not on the die). Required when ``rule_params`` is not empty."""
    series: FastSeries | None = None
    """A compiled runner of whole series for some agents (see :mod:`stratagem.core.series`)."""
    returns_range: Callable[[Any], tuple[float, float]] | None = None
    """``returns_range(rules)``: the lowest and highest return of a seat (OpenSpiel's
    ``min_utility`` / ``max_utility``, Yahtzee's 0 to its highest card), which bounds the
    arena report's intervals; ``None``: 1/0 for ``win`` games, unbounded otherwise."""
    wins: bool = True
    """Whether a game has a winner (False for a cooperative game, where every seat gets the
    same return): the report gives win rates only then."""
    perfect_information: bool = True
    """Whether every player sees the whole state (False for Kuhn poker or Scrabble)."""
    title: str = ""
    """The game's name for people ("Score Four"); empty: the name, capitalised."""
    coaching: Callable[[Any], Coaching] | None = None
    """``coaching(rules)``: the game's :class:`~stratagem.core.coaching.Coaching` (its
    picture of a position, its coach's rows, its unit and judge), which the session's
    renderers and the review use; ``None``: the game offers play only."""

    rules_text: Lazy | None = None
    """``all_rules()``: every preset's rules in plain words, a list of
    :class:`~stratagem.core.rules_text.PresetRules` (served by ``GET /api/<game>/rules``);
    ``None``: the game has no rules text."""
    cli: Lazy | None = None
    """The typer app mounted as ``stratagem <name>`` (``stratagem.games.<name>.cli:app``);
    ``None``: the game has no commands of its own (the arena's commands still play it)."""
    codec: Lazy | None = None
    """The game's :class:`~stratagem.interop.codecs.CodecSource`: integer action ids and
    observations, through which the OpenSpiel and PettingZoo adapters (and Gymnasium)
    play it; ``None``: the adapters do not offer the game."""
    web: WebExtras | None = None
    """The game's own page and routes on the web page; ``None``: the generic play page and
    the shared REST shape only."""

    @property
    def display_title(self) -> str:
        """:attr:`title`, or the name capitalised when the game gave none."""
        return self.title or self.name.capitalize()

    def __post_init__(self) -> None:
        names = [p.name for p in self.rule_params]
        if len(set(names)) != len(names):
            raise ValueError(f"game {self.name} declares a rule parameter twice")
        if self.rule_params and self.vary is None:
            raise ValueError(f"game {self.name} declares rule parameters but no vary hook")
        if self.rule_positional is not None and self.rule_positional not in names:
            raise ValueError(f"game {self.name}: positional {self.rule_positional} is not a rule")
        for p in self.rule_params:
            if p.required or p.default is not None:
                raise ValueError(f"rule {p.name} of {self.name}: a rule defaults to the preset's")

    def parse_rules(self, rules: str) -> tuple[str, dict[str, Any]]:
        """The preset of a rules spec and the parameters it sets, each checked against its
        type and range (not yet against each other: :meth:`check_rules` builds them).

        >>> load_game("pig").parse_rules("pig:goal=50,faces=8")
        ('pig', {'goal': 50, 'faces': 8})
        """
        if not isinstance(rules, str):
            raise InvalidRulesError(f"rules must be text, got {type(rules).__name__}")
        parsed = parse_spec(rules, of="rules")
        if parsed.name not in self.presets:
            raise ArenaError(
                f"unknown rules {parsed.name!r} for {self.name}; "
                f"the presets are: {', '.join(self.presets)}"
                + (
                    "; a preset takes " + ", ".join(f"{p.name}=..." for p in self.rule_params)
                    if self.rule_params
                    else ""
                )
            )
        values = _values(self.rule_params, self.rule_positional, parsed, "rules")
        return parsed.name, {k: v for k, v in values.items() if v is not None}

    def rules_spec(self, preset: str, values: Mapping[str, Any]) -> str:
        """The one canonical spelling of a preset with parameters (results files hold it):
        declared order, ``true``/``false``, the positional one alone as ``preset:value``."""
        if not values:
            return preset
        key = self.rule_positional
        if key is not None and list(values) == [key]:
            return f"{preset}:{values[key]}"
        text = [
            f"{p.name}={str(values[p.name]).lower() if p.type is bool else values[p.name]}"
            for p in self.rule_params
            if p.name in values
        ]
        return f"{preset}:" + ",".join(text)

    def check_rules(self, rules: str) -> str:
        """``rules`` (a rules spec) checked, in its canonical spelling; the rules object is
        built once here, so that a bad combination or an unreadable word list fails now, not
        in a worker."""
        preset, values = self.parse_rules(rules)
        if values:
            self._vary(preset, values)
        return self.rules_spec(preset, values)

    def _vary(self, preset: str, values: Mapping[str, Any]) -> Any:
        if self.vary is None:  # no parameters are declared, so none was accepted
            raise InvalidRulesError(f"{self.name} rules take no parameters")
        return self.vary(preset, values)

    def rules_object(self, rules: Any) -> Any:
        """The rules object of a rules spec, or ``rules`` itself if it already is one."""
        if rules is None:
            rules = self.default_rules
        if isinstance(rules, str):
            preset, values = self.parse_rules(rules)
            return self._vary(preset, values) if values else self.rules(preset)
        return rules

    def rules_usage(self) -> str:
        """``pig[:goal=...,faces=...]`` for listings and help."""
        if not self.rule_params:
            return "|".join(self.presets)
        return (
            "|".join(self.presets) + "[:" + ",".join(f"{p.name}=..." for p in self.rule_params)
            + "]"
        )  # fmt: skip

    def new_state(self, rules: Any, players: int) -> State:
        """A fresh game for ``players`` players (``rules``: a preset name or rules object)."""
        if isinstance(players, bool) or not isinstance(players, int):
            raise ArenaError(f"the number of players must be a whole number, got {players!r}")
        if not self.min_players <= players <= self.max_players:
            raise ArenaError(
                f"{self.name} is played by {self.min_players}-{self.max_players} players, "
                f"got {players}"
            )
        return self.new(self.rules_object(rules), players)

    def agent_info(self, name: str) -> AgentInfo:
        info = self.agents.get(name)
        if info is None:
            raise InvalidAgentError(
                f"unknown agent {name!r} for {self.name}; the agents are: "
                f"{', '.join(self.agents)} (stratagem arena agents --game {self.name})"
            )
        return info

    def check_agent(self, spec: str | AgentSpec, rules: Any = None) -> AgentSpec:
        """Read and check ``spec`` without building the agent (cheap); with ``rules`` (a
        preset name or rules object) also the agent's checks against them
        (:attr:`AgentInfo.check`)."""
        parsed = parse_spec(spec) if isinstance(spec, str) else spec
        info = self.agent_info(parsed.name)
        values = info.values(parsed)
        if rules is not None and info.check is not None:
            info.check(self.rules_object(rules), values)
        return parsed

    def make_agent(self, rules: Any, spec: str | AgentSpec) -> Agent:
        """A fresh agent from a spec string (``rules``: a preset name or rules object)."""
        parsed = parse_spec(spec) if isinstance(spec, str) else spec
        info = self.agent_info(parsed.name)
        values = info.values(parsed)
        rules_obj = self.rules_object(rules)
        if info.check is not None:
            info.check(rules_obj, values)
        return info.make(rules_obj, **values)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "summary": self.summary,
            "presets": list(self.presets),
            "default_rules": self.default_rules,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "result": self.result,
            "rule_params": [p.to_json() for p in self.rule_params],
            "rule_positional": self.rule_positional,
            "agents": [a.to_json() for a in self.agents.values()],
        }


SPEC_MODULE = "spec"
"""The module of a game's package that holds its :class:`GameSpec` as ``GAME``."""

OLD_SPEC_MODULE = "arena"
"""What :data:`SPEC_MODULE` was called before (``games/<g>/arena.py``); a game still laid
out so is refused with a message saying to rename the file, not silently skipped."""


def _games_with(module_name: str) -> list[str]:
    import stratagem.games as games_pkg

    names = []
    for module in pkgutil.iter_modules(games_pkg.__path__):
        full = f"stratagem.games.{module.name}.{module_name}"
        if module.ispkg and importlib.util.find_spec(full):
            names.append(module.name)
    return sorted(names)


def available_games() -> list[str]:
    """Games that have a ``spec`` module (found by convention, no registration)."""
    return _games_with(SPEC_MODULE)


def _old_layout_error(name: str) -> ArenaError:
    return ArenaError(
        f"game {name!r} declares its GAME in games/{name}/{OLD_SPEC_MODULE}.py, the old name of "
        f"the game's spec module: rename the file to games/{name}/{SPEC_MODULE}.py"
    )


GameSource = Callable[[str], GameSpec]
"""``load(name)``: the :class:`GameSpec` of a game named ``<prefix>:<rest>``."""

SOURCE_GROUP = "stratagem.game_sources"
"""The entry-point group through which packages offer games from elsewhere: the entry's
name is the prefix, its value a :data:`GameSource` (Stratagem's own pyproject declares
``openspiel = "stratagem.interop.openspiel:arena_game"``)."""

_SOURCES: dict[str, GameSource] = {}


def register_game_source(prefix: str, load: GameSource) -> None:
    """Let ``load_game("<prefix>:<rest>")`` call ``load``.

    Core imports nothing above it: a layer that adapts games from elsewhere (the
    OpenSpiel bridge in ``stratagem.interop``) is found through the entry-point
    group :data:`SOURCE_GROUP`, or registers itself here (a test, a plug-in not
    installed as a package).
    """
    if not _NAME.fullmatch(prefix):
        raise ValueError(f"a game source prefix is a plain name, got {prefix!r}")
    _SOURCES[prefix] = load


def game_source(prefix: str) -> GameSource | None:
    """The loader of games named ``<prefix>:...``: registered, else found among the
    installed packages' entry points (loaded on first use only), else ``None``."""
    found = _SOURCES.get(prefix)
    if found is not None:
        return found
    from importlib.metadata import entry_points

    for entry in entry_points(group=SOURCE_GROUP):
        if entry.name == prefix:
            loader: GameSource = entry.load()
            _SOURCES[prefix] = loader
            return loader
    return None


def load_game(name: str) -> GameSpec:
    """The :class:`GameSpec` of ``stratagem.games.<name>.spec``.

    ``<prefix>:<game>`` names a game from elsewhere, loaded by the source registered
    for the prefix (:func:`register_game_source`): ``openspiel:<game>`` plays a game of
    OpenSpiel through ``stratagem.interop`` (the ``interop`` extra).
    """
    prefix, colon, _ = name.partition(":")
    if colon:
        source = game_source(prefix)
        if source is None:
            raise ArenaError(
                f"unknown game {name!r}: no installed package offers games named {prefix}:... "
                "(openspiel:<game> comes with the interop extra: pip install 'stratagem[interop]')"
            )
        return source(name)
    games = available_games()
    if name not in games:
        if _NAME.fullmatch(name) and name in _games_with(OLD_SPEC_MODULE):
            raise _old_layout_error(name)
        raise ArenaError(f"unknown game {name!r}; the games are: {', '.join(games)}")
    module = importlib.import_module(f"stratagem.games.{name}.{SPEC_MODULE}")
    game: GameSpec = module.GAME
    return game


def make_agent(game: str | GameSpec, rules: Any, spec: str | AgentSpec) -> Agent:
    """A fresh agent of ``game`` from a spec string.

    >>> agent = make_agent("pig", "pig", "hold:20")
    >>> agent.spec
    'hold:20'
    >>> try:
    ...     make_agent("pig", "pig", "hold:0")
    ... except InvalidAgentError as exc:
    ...     print(exc)
    agent hold: n must be a whole number 1..100000, got '0'
    """
    g = load_game(game) if isinstance(game, str) else game
    return g.make_agent(rules, spec)


def names_file(param: Param, value: object) -> bool:
    """Whether ``value`` given for ``param`` names a file on this machine (a server must
    not let a client choose one).

    >>> names_file(Param("weights", str, "tuned", "", file=True, named=("tuned",)), "tuned")
    False
    >>> names_file(Param("leaves", str, None, "", file=True), "/etc/passwd")
    True
    """
    return param.file and value is not None and str(value) not in param.named
