"""The MCTS of :mod:`stratagem.algorithms.mcts`, compiled whole with numba.

The Python tree costs a few microseconds per simulation in node objects and
dictionaries; here the tree lives in preallocated arrays (doubled when full)
and the search runs without returning to Python until its last simulation.
The algorithm is the same, step for step (see :mod:`stratagem.algorithms.mcts`):
untried actions first in a random order, then UCT over min-max normalised
means of the player to move; chance nodes draw an outcome on every visit and
follow the child of that outcome; ``expand_after``; each node backs up the
return of the player whose decision led to it; the root's best mean is played.

A game takes part through a :class:`FastGame`: its state encoded as a
fixed-length int64 array and a handful of numba-compiled functions over it,
passed to the kernel as arguments (numba compiles the kernel once per game):

==============================  =============================================
``player(s) -> int``            the player to move (>= 0), -1 at a chance
                                node, -2 at the end of the game
``legal(s, out) -> n``          writes the legal action codes to ``out[:n]``
``apply(s, code, out)``         writes the next state to ``out`` (a code is
                                an action at a decision, an outcome at a
                                chance node); ``s`` is left unchanged
``sample(s, rng) -> outcome``   draws a chance outcome
``outcome_index(s, outcome)``   a small key 0..max_outcomes-1 of an outcome
``rollout(s, rng, policy, out)``  plays to the end, writes each player's
                                final return to ``out``; ``s`` unchanged
``returns(s, out)``             each player's return at the end of the game
==============================  =============================================

``rng`` is a one-element ``uint64`` array holding a SplitMix64 state that the
tree and the game's functions advance in turn, so a search is determined by
its seed. ``policy`` is an int64 array whose meaning the game defines (its
rollout policy and parameters).

Memory: a node holds its state (``state_size`` int64s) and a few counters; a
decision node that has grown children a row of ``max_actions`` actions and
children; a chance node that has drawn an outcome a row of ``max_outcomes``
children (keyed by :func:`outcome_index`). A search adds at most one node per
simulation.

This module knows no game.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from stratagem.core._rng_kernels import below
from stratagem.core.errors import InvalidRulesError, InvalidStateError
from stratagem.core.game import Action, State

__all__ = ["DEFAULT_CAPACITY", "CompiledSearch", "FastGame", "below", "search", "tree_bytes"]

DEFAULT_CAPACITY = 4096
"""Nodes allocated before the first doubling (fewer when the search is shorter)."""

_CHANCE = -1
_TERMINAL = -2


@dataclass(frozen=True, eq=False)
class FastGame:
    """A game's compiled interface for :func:`search` (built by the game layer).

    The sizes are those of the encoded states the game's :attr:`encode`
    accepts: ``state_size`` int64s, at most ``max_actions`` legal actions,
    outcome keys below ``max_outcomes``, ``num_players`` returns. The seven
    functions are numba dispatchers (see the module docstring). ``encode``
    turns a protocol state into its array, or ``None`` when it cannot (the
    caller then searches in Python); ``decode_action(state, code)`` gives the
    protocol action of a code at ``state``; ``policy(name)`` the rollout
    policy's int64 array, raising :class:`InvalidRulesError` for an unknown
    name.
    """

    name: str
    state_size: int
    max_actions: int
    max_outcomes: int
    num_players: int
    player: Any
    legal: Any
    apply: Any
    sample: Any
    outcome_index: Any
    rollout: Any
    returns: Any
    encode: Callable[[State], np.ndarray | None]
    decode_action: Callable[[State, int], Action]
    policy: Callable[[str], np.ndarray]

    def __post_init__(self) -> None:
        for label, size in (
            ("state_size", self.state_size),
            ("max_actions", self.max_actions),
            ("max_outcomes", self.max_outcomes),
            ("num_players", self.num_players),
        ):
            if isinstance(size, bool) or not isinstance(size, int) or size < 1:
                raise InvalidRulesError(f"{label} must be a whole number >= 1, got {size!r}")
        for fn in self.kernels:
            _pin_uuid(fn)

    @classmethod
    def from_kernels(
        cls,
        name: str,
        kernels: Any,
        *,
        state_size: int,
        max_actions: int,
        max_outcomes: int,
        num_players: int,
        encode: Callable[[State], np.ndarray | None],
        decode_action: Callable[[State, int], Action],
        policy: Callable[[str], np.ndarray],
    ) -> FastGame:
        """The interface of a game whose kernel module names its seven functions
        ``fast_player``, ``fast_legal``, ``fast_apply``, ``fast_sample``,
        ``fast_outcome_index``, ``fast_rollout`` and ``fast_returns``."""
        return cls(
            name=name,
            state_size=state_size,
            max_actions=max_actions,
            max_outcomes=max_outcomes,
            num_players=num_players,
            player=kernels.fast_player,
            legal=kernels.fast_legal,
            apply=kernels.fast_apply,
            sample=kernels.fast_sample,
            outcome_index=kernels.fast_outcome_index,
            rollout=kernels.fast_rollout,
            returns=kernels.fast_returns,
            encode=encode,
            decode_action=decode_action,
            policy=policy,
        )

    @property
    def kernels(self) -> tuple[Any, ...]:
        """The seven compiled functions, in the kernel's argument order."""
        return (
            self.player,
            self.legal,
            self.apply,
            self.sample,
            self.outcome_index,
            self.rollout,
            self.returns,
        )


@dataclass(frozen=True)
class CompiledSearch:
    """What :func:`search` found at the root.

    ``actions`` are the root's action codes in the order they were first
    tried; simulation ``i`` went through ``actions[through[i]]`` and ended
    with ``value[i]`` for the root's player. ``nodes`` is the size of the
    tree and ``capacity`` the nodes its arrays held at the end.
    """

    actions: np.ndarray
    through: np.ndarray
    value: np.ndarray
    nodes: int
    capacity: int

    def samples(self) -> list[tuple[int, np.ndarray]]:
        """``(action code, the root player's returns through it)`` per tried action."""
        order = np.argsort(self.through, kind="stable")
        counts = np.bincount(self.through, minlength=len(self.actions))
        parts = np.split(self.value[order], np.cumsum(counts)[:-1])
        return [(int(code), part) for code, part in zip(self.actions, parts)]


def search(
    game: FastGame,
    state: np.ndarray,
    policy: np.ndarray,
    *,
    c: float,
    simulations: int,
    expand_after: int = 1,
    seed: int,
    capacity: int | None = None,
) -> CompiledSearch:
    """Run ``simulations`` simulations from the encoded decision ``state``.

    ``seed`` (any int; 64 bits are used) starts the SplitMix64 stream;
    ``capacity`` is the number of nodes allocated at first (the arrays double
    when full; default: the simulations + 1, at most :data:`DEFAULT_CAPACITY`).
    """
    if state.shape != (game.state_size,) or state.dtype != np.int64:
        raise InvalidRulesError(
            f"an encoded {game.name} state is {game.state_size} int64s, "
            f"got shape {state.shape} of {state.dtype}"
        )
    if simulations < 1 or expand_after < 1 or not (math.isfinite(c) and c >= 0):
        raise InvalidRulesError(
            "a search needs simulations >= 1, expand_after >= 1 and a finite c >= 0, got "
            f"{simulations}, {expand_after} and {c}"
        )
    if game.player(state) < 0 or game.legal(state, np.empty(game.max_actions, np.int64)) < 1:
        raise InvalidStateError("MCTS searches a decision with a legal action")
    if capacity is None:
        capacity = min(simulations + 1, DEFAULT_CAPACITY)
    kernel: Any = _search  # numba's Dispatcher.__call__ is typed with too few arguments
    actions, through, value, nodes, final = kernel(
        *game.kernels,
        state,
        np.ascontiguousarray(policy, dtype=np.int64),
        Settings(
            game.num_players,
            game.max_actions,
            game.max_outcomes,
            float(c),
            int(simulations),
            int(expand_after),
            np.uint64(seed & 0xFFFFFFFFFFFFFFFF),
            max(int(capacity), 2),
        ),
    )
    return CompiledSearch(actions, through, value, int(nodes), int(final))


def node_bytes(game: FastGame) -> int:
    """Bytes one node of the compiled tree holds: its state, five counters, a decision
    row (actions, children, two counts) and a chance row (one child per outcome key);
    every node has both rows, as the kernel allocates them by node."""
    return 8 * (game.state_size + 5 + 2 * game.max_actions + 2 + game.max_outcomes)


def tree_bytes(game: FastGame, simulations: int) -> int:
    """The most memory a search of ``simulations`` simulations takes (an upper bound).

    A search adds at most one node per simulation to the root; the arrays
    start at :data:`DEFAULT_CAPACITY` nodes and double when full, so they end
    at the first doubling that holds ``simulations + 1`` nodes, and while the
    last doubling copies, the old arrays (half as large) are still held. Add
    three int64/float64 values per simulation (the path, the root action and
    the return of each).

    >>> class G: state_size, max_actions, max_outcomes = 10, 16, 1
    >>> tree_bytes(G(), 1) == 2 * node_bytes(G()) + 3 * 8 + 16
    True
    """
    nodes = simulations + 1
    capacity = max(min(nodes, DEFAULT_CAPACITY), 2)
    while capacity < nodes:
        capacity *= 2
    held = capacity + (capacity // 2 if capacity > DEFAULT_CAPACITY else 0)
    return held * node_bytes(game) + 3 * 8 * simulations + 16


# ---------------------------------------------------------------- caching
#
# numba keys a cached kernel by its argument types, and the type of a
# dispatcher argument by the dispatcher's UUID, fresh in every process: a
# kernel that takes functions as arguments would be compiled anew in each
# one (seconds). Pinning each game function's UUID to its qualified name and
# a hash of its module's source makes the key stable, and a new one whenever
# that source changes, so the cached kernel is reused exactly while the game
# functions compiled into it are the same (as long as they call no helpers
# kept in another file: the usual limit of numba's cache).


@functools.cache
def _source_hash(path: str) -> str:
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()[:16]
    except OSError:
        return ""


def _pin_uuid(fn: Any) -> None:
    """Give a numba dispatcher a UUID stable across processes (best effort)."""
    py_func = getattr(fn, "py_func", None)
    set_uuid = getattr(fn, "_set_uuid", None)
    if py_func is None or set_uuid is None or getattr(fn, "_MemoMixin__uuid", None) is not None:
        return
    try:
        path = inspect.getsourcefile(py_func) or ""
    except TypeError:
        return
    digest = _source_hash(path)
    if digest:
        set_uuid(f"{py_func.__module__}.{py_func.__qualname__}:{digest}")


# ---------------------------------------------------------------- the kernel


class Settings(NamedTuple):
    """The numbers one compiled search runs with, as one kernel argument: the game's sizes
    (``num_players``, ``max_actions``, ``max_outcomes``), the exploration constant ``c``,
    the ``simulations``, the visits before a node expands (``expand_after``), the
    SplitMix64 ``seed`` and the nodes allocated at first (``capacity``)."""

    num_players: int
    max_actions: int
    max_outcomes: int
    c: float
    simulations: int
    expand_after: int
    seed: np.uint64
    capacity: int


@njit(cache=True)
def _grown(a: Any, size: Any, fill: Any) -> Any:
    """``a`` with its first axis enlarged to ``size``, new entries ``fill``."""
    shape = (size, *a.shape[1:])
    out = np.empty(shape, dtype=a.dtype)
    out[: a.shape[0]] = a
    out[a.shape[0] :] = fill
    return out


@njit(cache=True)
def _search(
    player_fn: Any,
    legal_fn: Any,
    apply_fn: Any,
    sample_fn: Any,
    outcome_fn: Any,
    rollout_fn: Any,
    returns_fn: Any,
    root_state: Any,
    policy: Any,
    S: Any,
) -> Any:
    num_players, max_actions, max_outcomes = S.num_players, S.max_actions, S.max_outcomes
    c, simulations, expand_after = S.c, S.simulations, S.expand_after
    seed = S.seed
    size = root_state.shape[0]
    cap = S.capacity
    states = np.empty((cap, size), dtype=np.int64)
    kind = np.empty(cap, dtype=np.int64)  # player(s) of the node's state
    owner = np.empty(cap, dtype=np.int64)  # whose decision led here (-1: none)
    visits = np.zeros(cap, dtype=np.int64)
    value = np.zeros(cap, dtype=np.float64)  # the owner's returns, summed
    row = np.empty(cap, dtype=np.int64)  # the node's row of children, -1 before any
    # Decision rows: legal actions, tried ones first in the order tried, and
    # the child of each tried action.
    drows = cap
    d_actions = np.empty((drows, max_actions), dtype=np.int64)
    d_child = np.empty((drows, max_actions), dtype=np.int64)
    d_legal = np.empty(drows, dtype=np.int64)
    d_tried = np.empty(drows, dtype=np.int64)
    nd = 0
    # Chance rows: the child of each outcome key, -1 before it is drawn.
    crows = cap
    c_child = np.full((crows, max_outcomes), -1, dtype=np.int64)
    nc = 0

    rng = np.empty(1, dtype=np.uint64)
    rng[0] = seed
    ret = np.zeros(num_players, dtype=np.float64)
    path = np.empty(simulations + 2, dtype=np.int64)
    through = np.empty(simulations, dtype=np.int64)
    samples = np.empty(simulations, dtype=np.float64)

    states[0] = root_state
    kind[0] = player_fn(root_state)
    owner[0] = -1
    row[0] = -1
    root_player = kind[0]
    n = 1

    for sim in range(simulations):
        node = 0
        path[0] = 0
        depth = 1
        # A new child of ``node`` by ``move``, owned by ``who``, when the walk expands.
        expand = False
        move = 0
        who = -1
        while True:
            p = kind[node]
            if p >= 0:
                if node != 0 and visits[node] < expand_after:
                    rollout_fn(states[node], rng, policy, ret)
                    break
                r = row[node]
                if r < 0:
                    if nd == drows:
                        drows *= 2
                        d_actions = _grown(d_actions, drows, 0)
                        d_child = _grown(d_child, drows, 0)
                        d_legal = _grown(d_legal, drows, 0)
                        d_tried = _grown(d_tried, drows, 0)
                    r = nd
                    nd += 1
                    row[node] = r
                    d_legal[r] = legal_fn(states[node], d_actions[r])
                    d_tried[r] = 0
                tried = d_tried[r]
                legal = d_legal[r]
                if tried < legal:
                    # Expand an untried action, picked at random.
                    j = tried + below(rng, legal - tried)
                    action = d_actions[r, j]
                    d_actions[r, j] = d_actions[r, tried]
                    d_actions[r, tried] = action
                    d_tried[r] = tried + 1
                    d_child[r, tried] = n
                    expand, move, who = True, action, p
                    break
                # UCT over min-max normalised means of the player to move.
                lo = np.inf
                hi = -np.inf
                for k in range(legal):
                    ch = d_child[r, k]
                    q = value[ch] / visits[ch]
                    if q < lo:
                        lo = q
                    if q > hi:
                        hi = q
                scale = 1.0 / (hi - lo) if hi > lo else 0.0
                log_n = math.log(visits[node])
                best = d_child[r, 0]
                best_score = -np.inf
                for k in range(legal):
                    ch = d_child[r, k]
                    m = visits[ch]
                    score = (value[ch] / m - lo) * scale + c * math.sqrt(log_n / m)
                    if score > best_score:
                        best_score = score
                        best = ch
                node = best
                path[depth] = node
                depth += 1
            elif p == _CHANCE:
                r = row[node]
                if r < 0:
                    if nc == crows:
                        crows *= 2
                        c_child = _grown(c_child, crows, -1)
                    r = nc
                    nc += 1
                    row[node] = r
                outcome = sample_fn(states[node], rng)
                key = outcome_fn(states[node], outcome)
                child = c_child[r, key]
                if child < 0:
                    c_child[r, key] = n
                    expand, move, who = True, outcome, -1
                    break
                node = child
                path[depth] = node
                depth += 1
            else:
                returns_fn(states[node], ret)
                break
        if expand:
            if n == cap:
                cap *= 2
                states = _grown(states, cap, 0)
                kind = _grown(kind, cap, 0)
                owner = _grown(owner, cap, 0)
                visits = _grown(visits, cap, 0)
                value = _grown(value, cap, 0.0)
                row = _grown(row, cap, -1)
            child = n
            n += 1
            apply_fn(states[node], move, states[child])
            kind[child] = player_fn(states[child])
            owner[child] = who
            row[child] = -1
            path[depth] = child
            depth += 1
            if kind[child] == _TERMINAL:
                returns_fn(states[child], ret)
            else:
                rollout_fn(states[child], rng, policy, ret)
        for i in range(depth):
            v = path[i]
            visits[v] += 1
            o = owner[v]
            if o >= 0:
                value[v] += ret[o]
        through[sim] = path[1]
        samples[sim] = ret[root_player]

    # Simulations by the index of their root action, in the order tried.
    r0 = row[0]
    tried = d_tried[r0]
    index = np.full(n, -1, dtype=np.int64)
    for k in range(tried):
        index[d_child[r0, k]] = k
    for sim in range(simulations):
        through[sim] = index[through[sim]]
    return d_actions[r0, :tried].copy(), through, samples, n, cap
