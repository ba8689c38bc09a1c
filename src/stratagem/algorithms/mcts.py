"""Monte Carlo tree search (UCT) with decision nodes and chance nodes.

The tree alternates the two kinds of node a game of chance has:

* at a **decision node** the untried actions are expanded first (one per
  simulation, in a random order drawn from the search's generator); once all
  are tried, UCT picks the child maximising ``q + c * sqrt(ln N / n)``, where
  ``q`` is the child's mean return *for the player to move*, min-max
  normalised over the node's children (0 for all when they are equal), ``N``
  the node's visits and ``n`` the child's; the first of equal scores wins;
* at a **chance node** an outcome is drawn from the chance distribution on
  every visit and the child of that outcome is followed (created on first
  sight), so repeated visits average over the dice. Children are keyed by
  outcome.

Each simulation adds one node (a new action or a new outcome) and plays a
rollout from it to the end of the game; the final returns (one per player)
are added along the path. Every node keeps the return of the player whose
decision led to it, so two-player games back up each side's own value. The
root's action with the best mean return is played.

``expand_after`` (default 1, the textbook rule above) lets a decision node
below the root grow children only once it has been visited that many times;
until then each visit plays a rollout from the node itself. With a strong
rollout policy and wide decisions (Yahtzee's ~40 keeps and boxes) this
matters: under the textbook rule every revisited node first tries each of
its actions once, so the values of actions that lead to few chance outcomes
(keeping four dice) are diluted by one-off random moves and the search plays
worse than its own rollout policy.

Note on two-action nodes: min-max normalisation maps the better child to 1
and the other to 0, so the loser is revisited only while
``c * sqrt(ln N / n) > 1``; use a larger ``c`` (about 2) in games like Pig.

Rollouts are uniformly random playouts through the protocol, unless a game
provides a compiled fast path: a function ``rollout_fn(state, policy, rng)``
returning the final returns of one playout (the game layer passes it, e.g.
``stratagem.games.pig.rollout.rollout``), or a ``state.rollout(policy, rng)``
method. Game-provided paths may offer other policies (``greedy`` in Yahtzee,
``hold20`` in Pig); the generic playout offers ``random`` only.

A game may also hand over its compiled interface (``fast``, a
:class:`~stratagem.algorithms.mcts_compiled.FastGame`): then the whole
search, tree included, runs in numba (:mod:`stratagem.algorithms.mcts_compiled`,
the same algorithm at a fraction of the cost per simulation) whenever the
state can be encoded, and the advice is the same kind of record. Its random
numbers come from one 64-bit seed drawn from the search's generator.

Random numbers all come from the generator given to a search (``advise``
makes one from ``seed``): it seeds a ``random.Random`` for the tree's own
draws (expansion order, outcomes of chance nodes that list them) and is
passed on to the states' own ``sample_chance`` and to rollouts. Chance
nodes without their own sampler draw from their cached
``chance_outcomes()``, the same distribution as
:func:`stratagem.core.game.sample_chance`, at a fraction of its cost.

This module knows no game.

>>> from stratagem.core.game import CHANCE, TERMINAL
>>> class Coin:
...     '''One player: toss a fair coin (heads pays 1, tails 0) or take 0.1.'''
...     num_players, current_player = 1, 0
...     def legal_actions(self): return ["toss", "take"]
...     def apply(self, action): return Toss() if action == "toss" else Done(0.1)
...     def is_terminal(self): return False
>>> class Toss:
...     num_players, current_player = 1, CHANCE
...     def chance_outcomes(self): return [(0.0, 0.5), (1.0, 0.5)]
...     def apply(self, outcome): return Done(outcome)
...     def is_terminal(self): return False
>>> class Done:
...     num_players, current_player = 1, TERMINAL
...     def __init__(self, value): self.value = value
...     def is_terminal(self): return True
...     def returns(self): return (self.value,)
>>> advice = MCTS(c=2.0, simulations=400, seed=1).advise(Coin())
>>> advice[0].action, sum(a.n for a in advice), sorted(advice[0].histogram)
('toss', 400, [0, 1])
"""

from __future__ import annotations

import gc
import math
import os
import random
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from stratagem.algorithms.mcts_compiled import FastGame
from stratagem.algorithms.mcts_compiled import search as compiled_search
from stratagem.algorithms.mcts_compiled import tree_bytes as compiled_tree_bytes
from stratagem.core.agent import Advice
from stratagem.core.errors import InvalidAgentError, InvalidRulesError, InvalidStateError
from stratagem.core.game import CHANCE, TERMINAL, Action, State
from stratagem.core.registry import AgentInfo, Param

__all__ = [
    "MCTS",
    "PARAMS",
    "PYTHON_NODE_BYTES",
    "MCTSConfig",
    "RolloutFn",
    "agent_info",
    "check_tree_memory",
    "memory_budget",
    "random_playout",
]

RolloutFn = Callable[[State, str, np.random.Generator], tuple[float, ...]]
"""A game's compiled playout: ``(state, policy, rng) -> final returns, one per player``."""

GENERIC_POLICIES = ("random",)
"""Rollout policies the generic (pure-Python, protocol-only) playout knows."""

MAX_SIMULATIONS = 10_000_000
WEB_SIMULATIONS = 20_000
"""The most simulations a web client may ask of one decision (a few seconds)."""
"""Most simulations per decision (the compiled tree holds one node per simulation)."""

PYTHON_NODE_BYTES = 2048
"""Bytes one node of the Python tree takes, with its state (an estimate with a margin).

Measured as the growth of the process's peak memory over a search: about 1,100
bytes a simulation in Yahtzee at 20,000 simulations, 1,380 at 60,000 (deeper
trees hold more chance children), 1,280 in OpenSpiel's Connect Four. A game
whose states are larger passes its own figure (``node_bytes``)."""

MEMORY_LIMIT_ENV = "STRATAGEM_MEMORY_LIMIT"
"""Environment variable: the bytes one search may take (``500M``, ``4G``, or a number)."""


def memory_budget() -> int | None:
    """The bytes one search tree may take: :data:`MEMORY_LIMIT_ENV` if set, else half the
    memory available now (the rest is for the program, the other workers of a run and
    everything else on the machine); ``None`` where neither can be read.

    >>> os.environ[MEMORY_LIMIT_ENV] = "1.5G"; memory_budget()
    1610612736
    >>> del os.environ[MEMORY_LIMIT_ENV]
    """
    text = os.environ.get(MEMORY_LIMIT_ENV, "").strip()
    if text:
        units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
        scale = units.get(text[-1].upper(), 1)
        number = text[:-1] if text[-1].upper() in units else text
        try:
            value = float(number) * scale
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and value > 0):
            raise InvalidAgentError(
                f"{MEMORY_LIMIT_ENV} must be a positive size such as 500M or 4G, got {text!r}"
            )
        return int(value)
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024 // 2
    except OSError:
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2
    except (ValueError, OSError, AttributeError):
        return None


def _size(n: float) -> str:
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= scale:
            return f"{n / scale:,.1f} {unit}"
    return f"{n:,.0f} bytes"


def check_tree_memory(
    agent: str, simulations: int, nodes_bytes: Callable[[int], int], label: str = "sims"
) -> int:
    """Refuse a search whose tree will not fit, before it starts; return its estimate.

    ``nodes_bytes(simulations)`` is the agent's estimate of its tree (one node
    a simulation times the bytes of a node). The message gives the estimate,
    the budget (:func:`memory_budget`) and the most simulations that fit.
    """
    need = nodes_bytes(simulations)
    budget = memory_budget()
    if budget is not None and need > budget:
        low, high = 1, simulations
        while low < high:  # the most simulations that fit (the estimate grows with them)
            mid = (low + high + 1) // 2
            if nodes_bytes(mid) <= budget:
                low = mid
            else:
                high = mid - 1
        fits = low if nodes_bytes(low) <= budget else 0
        raise InvalidAgentError(
            f"agent {agent}: {label}={simulations:,} would grow a search tree of about "
            f"{_size(need)} ({simulations + 1:,} nodes), more than the {_size(budget)} one "
            f"search may take here (half the memory available; {MEMORY_LIMIT_ENV} sets "
            f"another bound); at most {label}={fits:,} fits"
        )
    return need


PARAMS = (
    Param("c", float, 0.71, "exploration constant on min-max normalised values",
          low=0.0, high=1000.0),
    Param("sims", int, 2500, "simulations per decision", low=1, high=MAX_SIMULATIONS,
          web_high=WEB_SIMULATIONS),
    Param("rollout", str, "random", "playout policy", choices=GENERIC_POLICIES),
    Param("expand", int, 1, "visits before a node below the root grows children",
          low=1, high=MAX_SIMULATIONS),
    Param("seed", int, None, "seed of advise(); act() uses the generator it is given",
          low=0, high=2**63 - 1),
)  # fmt: skip
"""The MCTS agent's parameters; a game replaces ``rollout`` with its own policies."""


@dataclass(frozen=True)
class MCTSConfig:
    """The settings of a search; ``spec`` is the agent's name in tournaments.

    ``c`` is the exploration constant (values are min-max normalised, so it
    is on a [0, 1] scale), ``simulations`` the simulations per decision,
    ``rollout`` the playout policy, ``seed`` the seed :meth:`MCTS.advise`
    uses (``act`` draws from the generator it is given) and ``expand_after``
    the visits a decision node below the root needs before it grows children
    (spec key ``expand``; 1 is textbook UCT). Every value is checked against
    :data:`PARAMS`.

    >>> MCTSConfig(c=0.71, simulations=2500, rollout="greedy").spec
    'mcts:c=0.71,sims=2500,rollout=greedy'
    >>> try:
    ...     MCTSConfig(simulations=0)
    ... except InvalidAgentError as exc:
    ...     print(exc)
    agent mcts: sims must be a whole number 1..10000000, got 0
    """

    c: float = 0.71
    simulations: int = 2500
    rollout: str = "random"
    seed: int | None = None
    expand_after: int = 1

    def __post_init__(self) -> None:
        c, sims, _, expand, seed = PARAMS
        c.check(self.c, "mcts")
        sims.check(self.simulations, "mcts")
        expand.check(self.expand_after, "mcts")
        seed.check(self.seed, "mcts")
        if not isinstance(self.rollout, str) or not self.rollout:
            raise InvalidAgentError(
                f"agent mcts: rollout must be a policy name, got {self.rollout!r}"
            )

    @property
    def spec(self) -> str:
        """The settings as a spec string (``mcts:c=0.71,sims=2500,rollout=random``)."""
        extra = "" if self.expand_after == 1 else f",expand={self.expand_after}"
        extra += "" if self.seed is None else f",seed={self.seed}"
        return f"mcts:c={self.c!r},sims={self.simulations},rollout={self.rollout}{extra}"


def agent_info(
    summary: str,
    rollout: Param,
    make_fast: Callable[[Any], FastGame | None] | None = None,
    rollout_fn: RolloutFn | None = None,
    *,
    c: float | None = None,
    node_bytes: int = PYTHON_NODE_BYTES,
) -> AgentInfo:
    """The registry entry of an MCTS agent for a game: its playout policies
    (``rollout``), compiled playout, compiled interface (``make_fast(rules)``),
    if given, the game's default exploration constant ``c`` (else 0.71), and the
    bytes a node of the Python tree takes in this game (``node_bytes``).
    """

    def make(rules: Any, c: float, sims: int, rollout: str, expand: int, seed: int | None) -> MCTS:
        fast = make_fast(rules) if make_fast is not None else None
        return MCTS(
            c, sims, rollout, seed, expand_after=expand, rollout_fn=rollout_fn, fast=fast,
            node_bytes=node_bytes,
        )  # fmt: skip

    params = tuple(rollout if p.name == "rollout" else p for p in PARAMS)
    if c is not None:
        params = tuple(
            replace(p, default=p.check(c, "mcts")) if p.name == "c" else p for p in params
        )
    return AgentInfo("mcts", summary, make, params)


class _Node:
    """One node of the tree; ``player`` says which kind (>= 0, CHANCE or TERMINAL).

    ``owner`` is the player whose decision led here (-1 below a chance node
    and at the root): ``value`` sums that player's returns over ``visits``.
    """

    __slots__ = (
        "action",
        "children",
        "distribution",
        "outcomes",
        "owner",
        "player",
        "returns",
        "sampler",
        "samples",
        "state",
        "untried",
        "value",
        "visits",
    )

    def __init__(self, state: State, owner: int) -> None:
        self.state = state
        self.owner = owner
        self.player = state.current_player
        self.visits = 0
        self.value = 0.0
        self.action: Action = None
        self.untried: list[Action] | None = None
        self.children: list[_Node] = []
        self.outcomes: dict[Action, _Node] = {}
        self.returns: tuple[float, ...] = ()
        self.samples: list[float] | None = None
        self.sampler: Callable[[np.random.Generator], Action] | None = None
        self.distribution: Distribution | None = None
        if self.player == TERMINAL:
            self.returns = tuple(state.returns())
        elif self.player == CHANCE:
            self.sampler = getattr(state, "sample_chance", None)


Distribution = tuple[list[Action], list[float] | None]
"""A chance node's outcomes and cumulative probabilities (``None`` when all are equal)."""


def _distribution(state: State) -> Distribution:
    """Outcomes and cumulative probabilities of a chance node, for fast draws."""
    outcomes: list[Action] = []
    cumulative: list[float] = []
    total = 0.0
    for outcome, probability in state.chance_outcomes():
        total += probability
        outcomes.append(outcome)
        cumulative.append(total)
    if not outcomes:
        raise InvalidStateError("a chance node listed no outcomes")
    first = cumulative[0]
    equal = all(
        math.isclose(p - q, first, rel_tol=1e-12)
        for p, q in zip(cumulative, [0.0, *cumulative[:-1]])
    )
    return outcomes, None if equal else cumulative


def _draw(distribution: Distribution, u: float) -> Action:
    """The outcome at uniform ``u`` in [0, 1) of a chance node's distribution."""
    outcomes, cumulative = distribution
    if cumulative is None:
        return outcomes[int(u * len(outcomes))]
    index = bisect_right(cumulative, u * cumulative[-1])
    return outcomes[index if index < len(outcomes) else -1]


def random_playout(
    state: State, rng: np.random.Generator, uniform: Callable[[], float] | None = None
) -> tuple[float, ...]:
    """Final returns of one uniformly random playout through the protocol.

    Actions are drawn uniformly from ``legal_actions()``, chance outcomes
    with the state's own ``sample_chance(rng)`` when it has one and from
    ``chance_outcomes()`` otherwise. ``uniform`` draws floats in [0, 1)
    (default: a ``random.Random`` seeded from ``rng``).
    """
    if uniform is None:
        uniform = random.Random(int(rng.bit_generator.random_raw())).random
    while True:
        player = state.current_player
        if player == TERMINAL:
            return tuple(state.returns())
        if player == CHANCE:
            sampler = getattr(state, "sample_chance", None)
            outcome = (
                sampler(rng) if sampler is not None else _draw(_distribution(state), uniform())
            )
            state = state.apply(outcome)
        else:
            actions = state.legal_actions()
            state = state.apply(actions[int(uniform() * len(actions))])


TICK_EVERY = 50
"""Simulations between two calls of an :class:`MCTS` agent's ``tick``."""


class MCTS:
    """UCT search over decision and chance nodes; an agent and an advisor.

    ``rollout_fn`` is a game's compiled playout (see :data:`RolloutFn`);
    without it, a state's own ``rollout(policy, rng)`` method is used, and
    without that the generic random playout (policy ``random`` only).
    ``fast`` is a game's compiled interface: states it can encode are
    searched entirely in compiled code, others as above.
    Searches are deterministic: ``act`` for a given generator, ``advise``
    for a given ``seed``.

    >>> agent = MCTS(c=0.71, simulations=2500, rollout="random")
    >>> agent.spec
    'mcts:c=0.71,sims=2500,rollout=random'
    """

    name = "mcts"

    def __init__(
        self,
        c: float = 0.71,
        simulations: int = 2500,
        rollout: str = "random",
        seed: int | None = None,
        *,
        expand_after: int = 1,
        rollout_fn: RolloutFn | None = None,
        fast: FastGame | None = None,
        tick: Callable[[int], None] | None = None,
        node_bytes: int = PYTHON_NODE_BYTES,
    ) -> None:
        self.config = MCTSConfig(c, simulations, rollout, seed, expand_after)
        self.rollout_fn = rollout_fn
        self.fast = fast
        # called with the simulations done so far, every TICK_EVERY simulations of the
        # Python tree (for a progress bar; it may raise to cancel the search)
        self.tick = tick
        self.node_bytes = node_bytes
        if fast is not None:
            fast.policy(rollout)  # an unknown policy is refused now, not at the first search
        # A tree too large for the memory is refused now, not after minutes of growing.
        self.tree_bytes = check_tree_memory("mcts", simulations, self._tree_bytes)

    def _tree_bytes(self, simulations: int) -> int:
        """The memory a search of ``simulations`` takes: the compiled tree's arrays when the
        game has a compiled interface, else a Python node (with its state) per simulation."""
        if self.fast is not None:
            return compiled_tree_bytes(self.fast, simulations)
        return (simulations + 1) * self.node_bytes

    @classmethod
    def from_config(
        cls,
        config: MCTSConfig,
        rollout_fn: RolloutFn | None = None,
        fast: FastGame | None = None,
    ) -> MCTS:
        """An agent with these settings."""
        return cls(
            config.c,
            config.simulations,
            config.rollout,
            config.seed,
            expand_after=config.expand_after,
            rollout_fn=rollout_fn,
            fast=fast,
        )

    @property
    def spec(self) -> str:
        """The agent's settings as a spec string (see :attr:`MCTSConfig.spec`)."""
        return self.config.spec

    def act(self, state: State, rng: np.random.Generator) -> Action:
        """The root action with the best mean return (a lone legal action is played at once)."""
        actions = state.legal_actions()
        if len(actions) == 1 and state.current_player >= 0:
            return actions[0]
        return self.search(state, rng)[0].action

    def advise(self, state: State) -> list[Advice]:
        """Every legal action with its statistics, best mean first (seeded by ``seed``)."""
        return self.search(state, np.random.default_rng(self.config.seed))

    def search(self, state: State, rng: np.random.Generator) -> list[Advice]:
        """Run the simulations from ``state``; one :class:`Advice` per legal action.

        ``value`` is the mean final return of the player to move over the
        simulations through that action, ``n`` their number (they sum to
        ``simulations``), ``sd`` the sample standard deviation, ``se`` =
        ``sd / sqrt(n)`` (both ``None`` below two samples) and ``histogram``
        the counts of the returns seen, rounded to integers (final scores,
        or 0/1 wins). Sorted by value, then visits, then legal order;
        actions never tried (fewer simulations than actions) come last with
        value NaN and ``n`` 0.
        """
        player = state.current_player
        if player < 0:
            where = "a chance node" if player == CHANCE else "the end of the game"
            raise InvalidStateError(f"MCTS searches a decision, not {where}")
        if getattr(state, "perfect_information", True) is False:
            # The tree would be built from the whole state, hidden cards or tiles included:
            # the agent would play on what its player cannot know.
            raise InvalidStateError(
                "MCTS reads the whole state, and this game hides information from the players "
                "(an imperfect-information game): it plays perfect-information games only"
            )
        legal = list(state.legal_actions())
        if not legal:
            raise InvalidStateError("MCTS found no legal action to search")
        fast = self.fast
        encoded = None if fast is None else fast.encode(state)
        if fast is not None and encoded is not None:
            config = self.config
            found = compiled_search(
                fast,
                encoded,
                fast.policy(config.rollout),
                c=config.c,
                simulations=config.simulations,
                expand_after=config.expand_after,
                seed=int(rng.bit_generator.random_raw()),
            )
            tried = [(fast.decode_action(state, code), v) for code, v in found.samples()]
            return _advice(tried, legal)
        if fast is not None:  # a state the compiled tree cannot hold: the Python tree
            check_tree_memory("mcts", self.config.simulations, lambda n: (n + 1) * self.node_bytes)
        root = self._run(state, rng)
        return _advice([(child.action, child.samples or ()) for child in root.children], legal)

    def _playout(
        self, state: State, rng: np.random.Generator, uniform: Callable[[], float]
    ) -> Callable[[State], tuple[float, ...]]:
        """The leaf evaluator: compiled fast path if any, else the generic playout."""
        policy = self.config.rollout
        fast = self.rollout_fn
        if fast is not None:
            return lambda s: fast(s, policy, rng)
        if callable(getattr(state, "rollout", None)):
            return lambda s: s.rollout(policy, rng)  # type: ignore[attr-defined]
        if policy not in GENERIC_POLICIES:
            raise InvalidRulesError(
                f"rollout policy {policy!r} needs a game-provided rollout (rollout_fn); "
                f"through the protocol only {', '.join(GENERIC_POLICIES)} is available"
            )
        return lambda s: random_playout(s, rng, uniform)

    def _run(self, state: State, rng: np.random.Generator) -> _Node:
        # The tree holds no reference cycles; the cyclic collector would only
        # rescan it over and over (a third of the time at 20,000 simulations).
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._simulate(state, rng)
        finally:
            if collecting:
                gc.enable()

    def _simulate(self, state: State, rng: np.random.Generator) -> _Node:
        uniform = random.Random(int(rng.bit_generator.random_raw())).random
        playout = self._playout(state, rng, uniform)
        c = float(self.config.c)
        expand_after = self.config.expand_after
        log = math.log
        sqrt = math.sqrt
        root = _Node(state, -1)
        root_player = root.player
        tick = self.tick
        for done in range(self.config.simulations):
            if tick is not None and done % TICK_EVERY == 0:
                tick(done)
            node = root
            path = [root]
            while True:
                player = node.player
                if player >= 0:
                    if node.visits < expand_after and node is not root:
                        returns = playout(node.state)
                        break
                    untried = node.untried
                    if untried is None:
                        untried = node.untried = list(node.state.legal_actions())
                    if untried:
                        # Expand an untried action, picked at random.
                        i = int(uniform() * len(untried))
                        action = untried[i]
                        untried[i] = untried[-1]
                        untried.pop()
                        child = _Node(node.state.apply(action), player)
                        child.action = action
                        if node is root:
                            child.samples = []
                        node.children.append(child)
                        path.append(child)
                        returns = (
                            child.returns if child.player == TERMINAL else playout(child.state)
                        )
                        break
                    # UCT over min-max normalised means of the player to move.
                    children = node.children
                    lo = math.inf
                    hi = -math.inf
                    for child in children:
                        q = child.value / child.visits
                        if q < lo:
                            lo = q
                        if q > hi:
                            hi = q
                    scale = 1.0 / (hi - lo) if hi > lo else 0.0
                    log_n = log(node.visits)
                    best = children[0]
                    best_score = -math.inf
                    for child in children:
                        n = child.visits
                        score = (child.value / n - lo) * scale + c * sqrt(log_n / n)
                        if score > best_score:
                            best_score = score
                            best = child
                    node = best
                    path.append(node)
                elif player == CHANCE:
                    sampler = node.sampler
                    if sampler is not None:
                        outcome = sampler(rng)
                    else:
                        distribution = node.distribution
                        if distribution is None:
                            distribution = node.distribution = _distribution(node.state)
                        outcomes, cumulative = distribution
                        if cumulative is None:
                            outcome = outcomes[int(uniform() * len(outcomes))]
                        else:
                            outcome = _draw(distribution, uniform())
                    seen = node.outcomes.get(outcome)
                    if seen is None:
                        child = _Node(node.state.apply(outcome), -1)
                        child.action = outcome
                        node.outcomes[outcome] = child
                        path.append(child)
                        returns = (
                            child.returns if child.player == TERMINAL else playout(child.state)
                        )
                        break
                    node = seen
                    path.append(node)
                else:
                    returns = node.returns
                    break
            for node in path:
                node.visits += 1
                owner = node.owner
                if owner >= 0:
                    node.value += returns[owner]
            path[1].samples.append(returns[root_player])  # type: ignore[union-attr]
        return root


def _advice(
    tried_actions: Sequence[tuple[Action, Sequence[float] | np.ndarray]], legal: Sequence[Action]
) -> list[Advice]:
    """Root statistics as advice, best mean first, from each tried action's returns."""
    order = {action: i for i, action in enumerate(legal)}
    rows: list[tuple[float, int, int, Advice]] = []
    tried = set()
    for action, returns in tried_actions:
        samples = np.asarray(returns, dtype=np.float64)
        n = len(samples)
        mean = float(samples.mean())
        sd = float(samples.std(ddof=1)) if n >= 2 else None
        se = sd / math.sqrt(n) if sd is not None else None
        values, counts = np.unique(np.rint(samples).astype(np.int64), return_counts=True)
        histogram = {int(k): int(m) for k, m in zip(values, counts)}
        advice = Advice(action, mean, 0.0, n, se, sd, histogram)
        rows.append((mean, n, order[action], advice))
        tried.add(order[action])
    rows.sort(key=lambda row: (-row[0], -row[1], row[2]))
    best = rows[0][0]
    out = [
        Advice(a.action, a.value, best - a.value, a.n, a.se, a.sd, a.histogram) for *_, a in rows
    ]
    nan = math.nan
    out.extend(Advice(a, nan, nan, 0) for i, a in enumerate(legal) if i not in tried)
    return out
