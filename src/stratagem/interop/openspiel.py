"""Our games as Python OpenSpiel games, OpenSpiel bots as our agents, and back.

Importing this module registers with ``pyspiel`` every game of the registry whose spec
names a codec (``GameSpec.codec``), as ``stratagem_<name>``; Stratagem's own four:

=====================  ==========================================================
``stratagem_pig``      Pig (``rules`` preset, ``goal``, ``faces``, ``bust_face``
                       (one face) or ``bust_faces`` (several: ``"1 6"``),
                       ``bust_scores_one``, ``catch_up_turn``; 0 / empty keeps
                       the preset's value)
``stratagem_yahtzee``  Yahtzee or Yatzy (``rules`` preset, ``players`` 1-4)
``stratagem_scorefour``  Score Four
``stratagem_scrabble``   Scrabble (``rules`` tile set, ``players`` 2-4,
                       ``lexicon`` word-list path; empty: the built-in one)
=====================  ==========================================================

A game whose spec adds no more (the recipe's Nim) takes ``rules`` when it has
several presets and ``players`` when their number varies.
Games won or lost by two players (Pig, Score Four) are zero-sum with returns +1 / -1
(0 for a draw), as in OpenSpiel's own games; our win probability ``p`` is ``(1 + v) / 2`` of their
value ``v``. Yahtzee and Scrabble return the final scores (general sum).
Every game is sequential with terminal rewards. Pig, Yahtzee and Score Four
have perfect information; their information state string is the history
(perfect recall) and their observation (tensor and string) is the position,
a sufficient statistic of it. Scrabble hides the racks: a player's
information state string lists what that player has seen (every move, the
own draws and exchanges, and only the number of tiles others draw or swap).
No game gives an information-state *tensor* (``information_state_tensor()``
raises): a perfect-recall history has no fixed size in Pig (a game can last
any number of turns) and Scrabble. Games and states pickle (a state as its
game and history, as OpenSpiel pickles its own).

Action and chance ids are those of :mod:`stratagem.interop.codecs`.

>>> import pyspiel
>>> game = pyspiel.load_game("stratagem_pig(goal=20)")
>>> state = game.new_initial_state()
>>> state.legal_actions(), state.apply_action(0), state.chance_outcomes()[0]
([0], None, (0, 0.16666666666666666))

The other direction: :class:`SpielState` makes any OpenSpiel game one of our
states, and :func:`arena_game` an arena game ``openspiel:<game string>``.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from stratagem.core.agent import Agent, RandomAgent
from stratagem.core.arena import AgentInfo, ArenaError, GameSpec
from stratagem.core.errors import StratagemError
from stratagem.core.game import CHANCE, TERMINAL, Action, State
from stratagem.core.registry import Param, agent_table
from stratagem.interop import InteropError, require
from stratagem.interop.codecs import Codec, MoveBlock, adapted_games, codec_source, game_spec

require("pyspiel")
import pyspiel  # noqa: E402

_T = pyspiel.GameType


class _Box:
    """Holds one of our (immutable) states; a clone shares it instead of copying it."""

    __slots__ = ("state",)

    def __init__(self, state: Any) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        return self


def _registry_games() -> dict[str, GameSpec]:
    """Every game of the registry that names a codec, by its OpenSpiel short name."""
    return {f"stratagem_{name}": game_spec(name) for name in adapted_games()}


_GAMES = _registry_games()


def _game_type(short_name: str) -> Any:
    game = _GAMES[short_name]
    source = codec_source(game)
    return _T(
        short_name=short_name,
        long_name=f"Stratagem {game.display_title}",
        dynamics=_T.Dynamics.SEQUENTIAL,
        chance_mode=(
            _T.ChanceMode.DETERMINISTIC
            if source.deterministic
            else _T.ChanceMode.EXPLICIT_STOCHASTIC
        ),
        information=(
            _T.Information.PERFECT_INFORMATION
            if game.perfect_information
            else _T.Information.IMPERFECT_INFORMATION
        ),
        utility=_T.Utility.ZERO_SUM if _won(game) else _T.Utility.GENERAL_SUM,
        reward_model=_T.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=source.parameters(game),
    )


def _won(game: GameSpec) -> bool:
    """A two-player game won or lost: zero-sum, returns +1 / -1 as OpenSpiel's own."""
    return game.result == "win" and game.max_players == 2


def _game_info(game: GameSpec, codec: Codec[Any]) -> Any:
    if _won(game):
        low, high, total = -1.0, 1.0, 0.0
    else:
        low, high, total = float(codec.min_score), float(codec.max_score), None
    kwargs: dict[str, Any] = {
        "num_distinct_actions": codec.num_actions,
        "max_chance_outcomes": codec.num_chance_outcomes,
        "num_players": codec.num_players,
        "min_utility": low,
        "max_utility": high,
        "max_game_length": codec.max_length,
    }
    if total is not None:
        kwargs["utility_sum"] = total
    return pyspiel.GameInfo(**kwargs)


class StratagemGame(pyspiel.Game):  # type: ignore[misc]
    """One of our games seen by OpenSpiel (the ``short_name`` picks which)."""

    short_name = ""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        game = _GAMES[self.short_name]
        try:
            self.codec = codec_source(game).codec(game, dict(params or {}))
        except StratagemError as exc:
            raise ValueError(f"{self.short_name}: {exc}") from None
        self.private = not game.perfect_information
        super().__init__(
            _game_type(self.short_name), _game_info(game, self.codec), dict(params or {})
        )

    def new_initial_state(self) -> StratagemState:
        return StratagemState(self, self.codec.new_state())

    def state_from(self, ours: State) -> StratagemState:
        """An OpenSpiel state holding one of our positions (its history is not known)."""
        return StratagemState(self, ours)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            return _HistoryObserver(self.private)
        return _Observer(self.codec)


class StratagemState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state around one of our immutable states (``ours``)."""

    def __init__(self, game: StratagemGame, ours: State) -> None:
        super().__init__(game)
        self._codec = game.codec
        self._box = _Box(ours)
        self._pending: tuple[int, ...] = ()
        self._win = _won(_GAMES[game.short_name])
        # (who saw it in full or -1 for everyone, full text, text for the others)
        self._private = game.private
        self._seen = _Box(())

    @property
    def ours(self) -> State:
        """Our state (in Scrabble, a draw under way is in ``pending`` until complete)."""
        state: State = self._box.state
        return state

    @property
    def pending(self) -> tuple[int, ...]:
        return self._pending

    def current_player(self) -> int:
        player = self.ours.current_player
        if player == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        if player == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return int(player)

    def _legal_actions(self, player: int) -> list[int]:
        return self._codec.legal_ids(self.ours)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._codec.chance_ids(self.ours, self._pending)

    def _apply_action(self, action: int) -> None:
        codec, state = self._codec, self.ours
        player = state.current_player
        if player == CHANCE:
            text = codec.chance_text(state, action)
            drawer = getattr(state, "drawer", -1)
            self._see((drawer, text, "draw a tile") if drawer >= 0 else (-1, text, text))
            state, self._pending = codec.apply_chance(state, self._pending, action)
        else:
            move = codec.action(state, action)
            text = str(move)
            if isinstance(move, MoveBlock):  # the first step of a move: the player's own
                self._see((player, f"player {player} {text}", ""))
            elif text.startswith("exchange "):
                hidden = f"player {player} exchanges {len(text.split()[1])} tiles"
                self._see((player, f"player {player} {text}", hidden))
            else:
                self._see((-1, f"player {player} {text}", f"player {player} {text}"))
            state = codec.apply(state, move)
        self._box = _Box(state)

    def _see(self, event: tuple[int, str, str]) -> None:
        if self._private:
            self._seen = _Box((*self._seen.state, event))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == int(pyspiel.PlayerId.CHANCE):
            return self._codec.chance_text(self.ours, action)
        return self._codec.action_text(self.ours, action)

    def is_terminal(self) -> bool:
        return bool(self.ours.is_terminal())

    def returns(self) -> list[float]:
        state = self.ours
        if not state.is_terminal():
            return [0.0] * self._codec.num_players
        values = [float(r) for r in state.returns()]
        return [2.0 * v - 1.0 for v in values] if self._win else values

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """Not provided (the game type says so): raises rather than return ``[]``."""
        raise InteropError(
            f"{self.get_game().get_type().short_name} gives no information-state tensor: a "
            "perfect-recall history has no fixed size here. Use information_state_string(), "
            "or observation_tensor() (the position; in Pig, Yahtzee and Score Four a "
            "sufficient statistic of the history)"
        )

    def seen_by(self, player: int) -> str:
        """What ``player`` has seen so far, one event a line (perfect recall)."""
        events = self._seen.state
        seen = (full if who in (-1, player) else other for who, full, other in events)
        return "\n".join(text for text in seen if text)

    def __str__(self) -> str:
        key = self._codec.key(self.ours)
        if self._pending:
            key += "; drawn so far " + " ".join(
                self._codec.chance_text(self.ours, c).split()[-1] for c in self._pending
            )
        return key


class _Observer:
    """The position seen by one player: the codec's vector and text."""

    def __init__(self, codec: Codec[Any]) -> None:
        self.codec = codec
        self.tensor = np.zeros(codec.observation_size, dtype=np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: StratagemState, player: int) -> None:
        self.tensor.fill(0.0)
        self.codec.observe(state.ours, player, self.tensor)

    def string_from(self, state: StratagemState, player: int) -> str:
        return self.codec.observation_text(state.ours, player)


class _HistoryObserver:
    """Perfect recall: the history (perfect information) or what the player saw (Scrabble)."""

    def __init__(self, private: bool) -> None:
        self.private = private
        self.tensor = None
        self.dict: dict[str, np.ndarray] = {}

    def set_from(self, state: StratagemState, player: int) -> None:
        pass

    def string_from(self, state: StratagemState, player: int) -> str:
        return state.seen_by(player) if self.private else str(state.history_str())


# One class per game, made here and set as this module's attribute under its own name
# (StratagemPigGame, StratagemScorefourGame, ...) so that pickle finds it: games and
# states pickle, as OpenSpiel's own Python games do.


def _class_name(short_name: str) -> str:
    words = short_name.removeprefix("stratagem_").replace("-", "_").split("_")
    return "Stratagem" + "".join(w.capitalize() for w in words) + "Game"


def _game_class(short_name: str) -> type[StratagemGame]:
    game = _GAMES[short_name]
    name = _class_name(short_name)
    cls = type(name, (StratagemGame,), {
        "short_name": short_name,
        "__doc__": f"{game.display_title} (see the module docstring for its parameters).",
        "__module__": __name__,
        "__qualname__": name,
    })  # fmt: skip
    globals()[name] = cls
    return cls


GAME_CLASSES: dict[str, type[StratagemGame]] = {name: _game_class(name) for name in _GAMES}
"""Every game of the registry that names a codec, as an OpenSpiel game class."""
for _name in _GAMES:
    if _name not in pyspiel.registered_names():
        pyspiel.register_game(_game_type(_name), GAME_CLASSES[_name])


# --- OpenSpiel's value iteration on our games ---------------------------------------------

_VI_RECURSION = 200_000
_VI_STACK = 1 << 30


def value_iteration(game: Any, threshold: float = 1e-13) -> dict[str, float]:
    """OpenSpiel's ``value_iteration`` (cyclic game) on one of our games, made safe to call.

    OpenSpiel lists the states with a recursive walk (``get_all_states``), one
    call per state along the path it explores, so its depth grows with the
    game. This runs it in a thread with a large stack and a recursion limit
    to match, so the caller sets nothing. Games
    whose states have no bound are refused: in Pig with the catch-up turn the
    player catching up may roll on past the goal for ever (our own solver,
    ``stratagem pig solve --catch-up-turn``, handles it). Returns OpenSpiel's
    values: the state's string to player 0's value.
    """
    import threading

    from open_spiel.python.algorithms import value_iteration as vi

    params = game.get_parameters()
    if game.get_type().short_name == "stratagem_pig" and params.get("catch_up_turn"):
        raise InteropError(
            "Pig with the catch-up turn has no bound on its states (the player catching up "
            "may roll on past the goal for ever), so value iteration cannot list them; "
            "solve it with stratagem.games.pig.solver (stratagem pig solve --catch-up-turn)"
        )
    if game.get_type().short_name == "stratagem_scrabble":
        raise InteropError("Scrabble has far too many states for value iteration")
    out: dict[str, Any] = {}

    def run() -> None:
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, _VI_RECURSION))
        try:
            out["values"] = vi.value_iteration(game, -1, threshold, cyclic_game=True)
        except BaseException as exc:  # handed to the caller's thread
            out["error"] = exc
        finally:
            sys.setrecursionlimit(limit)

    size = threading.stack_size()
    threading.stack_size(_VI_STACK)
    try:
        worker = threading.Thread(target=run, name="value-iteration")
        worker.start()
    finally:
        threading.stack_size(size)
    worker.join()
    if "error" in out:
        raise out["error"]
    return dict(out["values"])


# --- OpenSpiel bots as our agents ---------------------------------------------------------


class OpenSpielMCTSAgent:
    """OpenSpiel's MCTS bot (random rollouts) playing one of our states.

    The state is handed to the bot inside a :class:`StratagemState` of the
    matching registered game; the bot's choice comes back as our action.
    """

    def __init__(self, game: StratagemGame, simulations: int = 200, c: float = 2.0,
                 rollouts: int = 1) -> None:  # fmt: skip
        for label, value, least in (("sims", simulations, 1), ("rollouts", rollouts, 1)):
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                raise InteropError(f"{label} must be a whole number >= {least}, got {value!r}")
        if not (isinstance(c, (int, float)) and c > 0):
            raise InteropError(f"c must be a positive number, got {c!r}")
        if game.get_type().information != _T.Information.PERFECT_INFORMATION:
            raise InteropError(
                f"openspiel-mcts reads the whole state, and {game.get_type().long_name} hides "
                "information from the players: it plays perfect-information games only"
            )
        _check_bot_memory(simulations)
        self.game = game
        self.simulations = simulations
        self.c = float(c)
        self.rollouts = rollouts
        self.spec = f"openspiel-mcts:sims={simulations},c={c},rollouts={rollouts}"

    def act(self, state: State, rng: np.random.Generator) -> Action:
        from open_spiel.python.algorithms import mcts

        seed = int(rng.integers(2**31 - 1))
        random_state = np.random.RandomState(seed)
        evaluator = mcts.RandomRolloutEvaluator(self.rollouts, random_state)
        bot = mcts.MCTSBot(
            self.game, self.c, self.simulations, evaluator, random_state=random_state
        )
        spiel_state = self.game.state_from(state)
        return self.game.codec.action(state, bot.step(spiel_state))


def _check_bot_memory(simulations: int) -> None:
    """OpenSpiel's MCTS bot adds a node a simulation (its nodes hold no state, so the Python
    tree's figure per node is a generous bound)."""
    from stratagem.algorithms.mcts import PYTHON_NODE_BYTES, check_tree_memory

    try:
        check_tree_memory("openspiel-mcts", simulations, lambda n: (n + 1) * PYTHON_NODE_BYTES)
    except StratagemError as exc:
        raise InteropError(str(exc)) from None


def _rules_name(rules: Any) -> str:
    """The preset name of a game's rules object (Scrabble's is its lexicon's tile set)."""
    if isinstance(rules, str):
        return rules
    name = getattr(rules, "name", None)
    return str(name) if name is not None else str(rules.tiles.name)


def _spiel_game_of(game: str, rules: str) -> StratagemGame:
    """Our registered OpenSpiel game for one of our arena games and presets (its default
    number of players: solitaire for Yahtzee, whose bot sees the mover's own card)."""
    short_name = f"stratagem_{game}"
    if short_name not in GAME_CLASSES:
        raise ArenaError(f"no OpenSpiel adapter for {game}")
    spec = _GAMES[short_name]
    params = {"rules": rules} if "rules" in codec_source(spec).parameters(spec) else {}
    return GAME_CLASSES[short_name](params)


_MCTS_PARAMS = (
    Param("sims", int, 200, "simulations per decision", low=1, high=1_000_000),
    Param("c", float, 2.0, "UCT exploration constant", low=0.0, high=1000.0),
    Param("rollouts", int, 1, "random rollouts per leaf", low=1, high=1000),
)
"""The parameters of OpenSpiel's MCTS bot as an agent."""


def with_openspiel_agents(game: GameSpec) -> GameSpec:
    """``game`` with one more agent, ``openspiel-mcts``: OpenSpiel's MCTS bot.

    Yahtzee games with more than one player are given to the bot as solitaire
    positions of the player to move (the bot sees only its own card).
    """

    def make(rules: Any, sims: int, c: float, rollouts: int) -> Agent:
        spiel = _spiel_game_of(game.name, _rules_name(rules))
        try:
            return _OwnView(OpenSpielMCTSAgent(spiel, sims, c, rollouts))
        except StratagemError as exc:
            raise ArenaError(str(exc)) from None

    info = AgentInfo("openspiel-mcts", "OpenSpiel's MCTS bot (random rollouts)", make, _MCTS_PARAMS)
    return replace(game, agents={**game.agents, "openspiel-mcts": info})


class _OwnView:
    """Hands a multi-player Yahtzee position to a solitaire bot as the mover's own game."""

    def __init__(self, agent: OpenSpielMCTSAgent) -> None:
        self.agent = agent
        self.spec = agent.spec

    def act(self, state: State, rng: np.random.Generator) -> Action:
        from stratagem.games.yahtzee.state import YahtzeeState

        if isinstance(state, YahtzeeState) and state.num_players > 1:
            state = replace(state, cards=(state.card,), player=0)
        return self.agent.act(state, rng)


# --- any OpenSpiel game as our state ------------------------------------------------------


class SpielState:
    """An OpenSpiel state behind our state protocol (immutable: ``apply`` clones).

    Actions and chance outcomes are OpenSpiel's integer ids; ``str(action)``
    of an id is its ``action_to_string``. Returns are OpenSpiel's.

    >>> import pyspiel
    >>> s = SpielState(pyspiel.load_game("pig(winscore=10)").new_initial_state())
    >>> s.current_player, s.legal_actions()
    (0, [0, 1])
    """

    __slots__ = ("_hash", "spiel")

    def __init__(self, spiel: Any) -> None:
        self.spiel = spiel
        self._hash: int | None = None

    @property
    def num_players(self) -> int:
        return int(self.spiel.num_players())

    @property
    def perfect_information(self) -> bool:
        """Whether every player sees the whole state (agents that read it refuse otherwise)."""
        information = self.spiel.get_game().get_type().information
        return bool(information == _T.Information.PERFECT_INFORMATION)

    @property
    def current_player(self) -> int:
        if self.spiel.is_terminal():
            return TERMINAL
        if self.spiel.is_chance_node():
            return CHANCE
        if self.spiel.is_simultaneous_node():
            raise InteropError("simultaneous-move OpenSpiel games are not supported")
        return int(self.spiel.current_player())

    def legal_actions(self) -> list[int]:
        if self.spiel.is_chance_node() or self.spiel.is_terminal():
            return []
        return [int(a) for a in self.spiel.legal_actions()]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.spiel.is_chance_node():
            return []
        return [(int(a), float(p)) for a, p in self.spiel.chance_outcomes()]

    def apply(self, action: object) -> SpielState:
        if self.spiel.is_terminal():
            raise InteropError("the game is over")
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise InteropError(f"an OpenSpiel action is an integer id, got {action!r}")
        legal = (
            [a for a, _ in self.chance_outcomes()] if self.spiel.is_chance_node()
            else self.legal_actions()
        )  # fmt: skip
        if int(action) not in legal:
            raise InteropError(
                f"{action} is not legal here; the legal ids are: {', '.join(map(str, legal))}"
            )
        return SpielState(self.spiel.child(int(action)))

    def is_terminal(self) -> bool:
        return bool(self.spiel.is_terminal())

    def returns(self) -> tuple[float, ...]:
        return tuple(float(r) for r in self.spiel.returns())

    def action_text(self, action: int) -> str:
        return str(self.spiel.action_to_string(self.spiel.current_player(), action))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SpielState) and self.spiel.history() == other.spiel.history()

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(tuple(self.spiel.history()))
        return self._hash

    def __str__(self) -> str:
        return str(self.spiel)


def spiel_state(game: str) -> SpielState:
    """The initial state of an OpenSpiel game string (``connect_four``, ``pig(winscore=20)``)."""
    try:
        loaded = pyspiel.load_game(game)
    except Exception as exc:  # pyspiel raises RuntimeError / SpielError for unknown games
        raise InteropError(f"OpenSpiel cannot load {game!r}: {exc}") from None
    return SpielState(loaded.new_initial_state())


def arena_game(name: str) -> GameSpec:
    """The arena's view of ``openspiel:<game string>`` (agents: random, mcts, openspiel-mcts).

    >>> arena_game("openspiel:connect_four").min_players
    2
    """
    prefix, _, game = name.partition(":")
    if prefix != "openspiel" or not game:
        raise ArenaError(f"an OpenSpiel game is named openspiel:<game>, got {name!r}")
    first = spiel_state(game)
    loaded = first.spiel.get_game()
    players = int(loaded.num_players())
    game_type = loaded.get_type()
    low, high = float(loaded.min_utility()), float(loaded.max_utility())
    perfect = game_type.information == _T.Information.PERFECT_INFORMATION

    from stratagem.algorithms import mcts

    def new_state(rules: str, count: int) -> State:
        if count != players:
            raise ArenaError(f"{game} is played by {players} players, not {count}")
        return SpielState(loaded.new_initial_state())

    def theirs(rules: str, sims: int, c: float, rollouts: int) -> Agent:
        return _SpielBotAgent(loaded, sims, c, rollouts)

    return GameSpec(
        name=name,
        presets=("default",),
        default_rules="default",
        min_players=players,
        max_players=players,
        rules=str,
        new=new_state,
        agents=agent_table(
            AgentInfo("random", "uniformly random legal action", lambda rules: RandomAgent()),
            _full_state_agent(
                mcts.agent_info(
                    "Stratagem's MCTS (random playouts through the protocol)", mcts.PARAMS[2]
                ),
                game, perfect,
            ),
            _full_state_agent(
                AgentInfo(
                    "openspiel-mcts", "OpenSpiel's MCTS bot (random rollouts)", theirs,
                    _MCTS_PARAMS,
                ),
                game, perfect,
            ),
        ),
        # OpenSpiel's returns are not 1/0 wins (Connect Four's are +1/-1, Kuhn poker's up
        # to +-2): the report bounds its intervals by the game's own utility range, and
        # gives win rates unless every player always gets the same return.
        result="score",
        returns_range=lambda rules: (low, high),
        wins=players >= 2 and game_type.utility != _T.Utility.IDENTICAL,
        perfect_information=perfect,
    )  # fmt: skip


def _full_state_agent(info: AgentInfo, game: str, perfect: bool) -> AgentInfo:
    """``info`` refused (when its spec is checked) in an imperfect-information game.

    Both tree searches read the whole state they are given: in Kuhn poker that
    includes the opponent's card, and such an agent would play what it cannot
    know. Playing honestly would need a search over the player's information
    sets (determinisation); until then the agent refuses these games.
    """
    if perfect:
        return info

    def refuse(rules: Any, values: dict[str, Any]) -> None:
        raise ArenaError(
            f"agent {info.name} reads the whole state, and {game} hides information from "
            f"the players (an imperfect-information game): it would see the other players' "
            f"hidden cards or tiles. It plays perfect-information games only; use random here"
        )

    return replace(info, check=refuse)


class _SpielBotAgent:
    """OpenSpiel's MCTS bot on a :class:`SpielState`."""

    def __init__(self, game: Any, simulations: int, c: float, rollouts: int) -> None:
        _check_bot_memory(simulations)
        self.game, self.simulations, self.c, self.rollouts = game, simulations, c, rollouts

    def act(self, state: State, rng: np.random.Generator) -> Action:
        from open_spiel.python.algorithms import mcts

        assert isinstance(state, SpielState)
        random_state = np.random.RandomState(int(rng.integers(2**31 - 1)))
        evaluator = mcts.RandomRolloutEvaluator(self.rollouts, random_state)
        bot = mcts.MCTSBot(self.game, self.c, self.simulations, evaluator,
                           random_state=random_state)  # fmt: skip
        return int(bot.step(state.spiel))


def spiel_actions(state: SpielState) -> Sequence[str]:
    """The legal actions of a :class:`SpielState` as OpenSpiel names them."""
    return [state.action_text(a) for a in state.legal_actions()]
