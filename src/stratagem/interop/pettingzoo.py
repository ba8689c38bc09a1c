"""PettingZoo AEC environments: every game of the registry whose spec names a codec.

:func:`env` makes any of them by name (the recipe's Nim as well); Pig, Score Four,
Yahtzee (2-4 players) and Scrabble have a function of their own.

Each agent (``player_0``, ``player_1``, ...) observes a dict:
``{"observation": float32 vector, "action_mask": int8 vector}``; the vector
is the codec's view for that player (:mod:`stratagem.interop.codecs` gives
the layout), the mask marks the legal action ids (all 0 when it is not that
agent's turn). Chance events (dice, tile draws) happen inside ``step`` and
``reset``, drawn from a generator seeded by ``reset(seed=...)``. Our state of
the game is ``env.position``; ``env.state()`` is PettingZoo's global view
(every player's observation). Render modes: ``ansi`` (text, returned),
``rgb_array`` (a picture) and ``human`` (the picture in a window, or the text
printed where no window can open).

A Scrabble position with more legal moves than action ids (65,536; a rack
with two blanks) is played in two steps by the same agent: a block of moves,
then the move in it (see :mod:`stratagem.interop.codecs`); the block step
pays no reward.

Rewards: in a game won or lost (Pig, Score Four) +1 to the winner and -1 to
the loser at the end (0 each for a Score Four draw); in a game whose codec
keeps a running score (Yahtzee, Scrabble) each step pays every player the
change of their score, so an episode's rewards add up to the final score;
otherwise each player's return at the end. An illegal action id raises
:class:`~stratagem.interop.InteropError`.

>>> env = pig_env(goal=20)
>>> env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.last()
>>> env.agent_selection, obs["action_mask"].tolist()
('player_0', [1, 0])
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from stratagem.core.game import CHANCE
from stratagem.core.game import sample_chance as _sample_chance
from stratagem.core.registry import load_game
from stratagem.interop import require
from stratagem.interop.codecs import Codec, codec

require("pettingzoo")
from gymnasium import spaces  # noqa: E402
from pettingzoo import AECEnv  # noqa: E402


class StratagemAEC(AECEnv):  # type: ignore[misc]
    """One of our games as an AEC environment, through its :class:`Codec`."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human", "rgb_array"],
        "name": "stratagem_v0",
        "is_parallelizable": False,
    }

    def __init__(self, game_codec: Codec[Any], render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(
                f"render_mode must be None, 'ansi', 'human' or 'rgb_array', got {render_mode!r}"
            )
        self.codec = game_codec
        self.render_mode = render_mode
        self.metadata = {**type(self).metadata, "name": f"stratagem_{game_codec.name}_v0"}  # type: ignore[misc]
        self.possible_agents = [f"player_{i}" for i in range(game_codec.num_players)]
        self._index = {agent: i for i, agent in enumerate(self.possible_agents)}
        self._scores = game_codec.scores(game_codec.new_state()) is not None
        self._won = load_game(game_codec.name).result == "win"
        obs = spaces.Dict(
            {
                "observation": spaces.Box(
                    game_codec.observation_low, game_codec.observation_high, dtype=np.float32
                ),
                "action_mask": spaces.Box(0, 1, (game_codec.num_actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {
            a: spaces.Discrete(game_codec.num_actions) for a in self.possible_agents
        }
        self.state_space = spaces.Box(
            np.tile(game_codec.observation_low, game_codec.num_players),
            np.tile(game_codec.observation_high, game_codec.num_players),
            dtype=np.float32,
        )
        self._rng = np.random.default_rng()
        self._window: Any = None
        self.position: Any = None
        """Our state of the game (``state()`` is PettingZoo's global observation)."""
        self._masked: tuple[Any, np.ndarray] | None = None  # (state, its mask)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _values(self) -> list[float]:
        """Each player's score so far (Yahtzee, Scrabble)."""
        values = self.codec.scores(self.position)
        assert values is not None
        return values

    def _settle_chance(self) -> None:
        while self.position.current_player == CHANCE:
            self.position = self.position.apply(_sample_chance(self.position, self._rng))

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.position = self.codec.new_state()
        self._settle_chance()
        self.agent_selection = self.possible_agents[self.position.current_player]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        i = self._index[agent]
        mover = self.position.current_player
        if mover == i:
            mask = self.codec.mask(self.position)
            self._masked = (self.position, mask)
            mask = mask.copy()  # the agent may write on its copy
        else:
            mask = np.zeros(self.codec.num_actions, dtype=np.int8)
        return {"observation": self.codec.observation(self.position, i), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        known = self._masked[1] if self._masked and self._masked[0] is self.position else None
        move = self.codec.checked(self.position, action, known)
        before = self._values() if self._scores else None
        self._cumulative_rewards[agent] = 0.0
        self.position = self.codec.apply(self.position, move)
        self._settle_chance()
        if before is not None:
            after = self._values()
            self.rewards = {a: after[i] - before[i] for a, i in self._index.items()}
        else:
            self.rewards = {a: 0.0 for a in self.agents}
        if self.position.is_terminal():
            if before is None:
                for a, r in zip(self.possible_agents, self.position.returns()):
                    self.rewards[a] = 2.0 * float(r) - 1.0 if self._won else float(r)
            self.terminations = {a: True for a in self.agents}
        else:
            self.agent_selection = self.possible_agents[self.position.current_player]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def state(self) -> np.ndarray:
        """The global view: every player's observation, player 0's first (in Scrabble this
        shows every rack: it is for centralised critics, not for a player)."""
        return np.concatenate(
            [self.codec.observation(self.position, i) for i in range(self.codec.num_players)]
        )

    def render(self) -> str | np.ndarray | None:
        """``ansi``: the position as text (returned, never printed); ``rgb_array``: a
        picture of it; ``human``: the picture in a matplotlib window when one can open,
        else the text on standard output (after every step)."""
        if self.render_mode is None or self.position is None:
            return None
        if self.render_mode == "ansi":
            return self.codec.key(self.position)
        from stratagem.interop.render import picture, show

        image = picture(self.codec, self.position)
        if self.render_mode == "rgb_array":
            return image
        self._window = show(image, self._window)
        if self._window is None:
            print(self.codec.key(self.position))
        return None

    def close(self) -> None:
        pass


def env(
    game: str, rules: str | None = None, players: int | None = None,
    render_mode: str | None = None, **options: Any,
) -> StratagemAEC:  # fmt: skip
    """Any game of the registry whose spec names a codec (``GameSpec.codec``), by name:
    ``rules`` a rules spec, ``players`` in the game's range, the game's own options
    (:func:`~stratagem.interop.codecs.codec`)."""
    return StratagemAEC(codec(game, rules, players, **options), render_mode)


def pig_env(rules: str = "pig", render_mode: str | None = None, **options: Any) -> StratagemAEC:
    """Pig (``rules`` preset; ``goal``, ``faces``, ``bust_faces``, ``bust_scores_one``,
    ``catch_up_turn`` as in :meth:`~stratagem.games.pig.rules.PigRules.with_options`)."""
    return StratagemAEC(codec("pig", rules, **options), render_mode)


def scorefour_env(render_mode: str | None = None) -> StratagemAEC:
    return StratagemAEC(codec("scorefour"), render_mode)


def yahtzee_env(
    rules: str = "yahtzee", players: int = 2, render_mode: str | None = None
) -> StratagemAEC:
    """Yahtzee or Yatzy for ``players`` (2-4; one player: see :mod:`.gymnasium`)."""
    return StratagemAEC(codec("yahtzee", rules, players), render_mode)


def scrabble_env(
    rules: str = "english", players: int = 2, lexicon: str | None = None,
    render_mode: str | None = None,
) -> StratagemAEC:  # fmt: skip
    """Scrabble on a tile set (``rules``) with a word list (``lexicon``: a path; default
    the built-in lexicon of the tile set)."""
    return StratagemAEC(codec("scrabble", rules, players, lexicon=lexicon), render_mode)
