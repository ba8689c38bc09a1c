"""Solitaire Yahtzee (any preset) as a Gymnasium environment.

One episode is one game of 13 turns (15 in Yatzy). The dice are thrown for
the agent: every observation is a decision.

* **Action** (``Discrete(462 + C)``, ``C`` boxes): ``0..461`` keeps those
  dice and throws the rest (the keep's number in
  :mod:`stratagem.games.yahtzee.dice`: by size, then lexicographic; 0 keeps
  nothing, 461 keeps 6 6 6 6 6); ``462 + i`` scores box ``i`` in card order
  (``env.unwrapped.categories``). ``env.unwrapped.action_text(a)`` says it in words.
* **Observation**: a dict. ``"observation"`` is a float32 vector of
  ``2C + 3 + 12`` values: ``C`` flags (box filled), ``C`` box points, the
  upper total, the Yahtzee bonus points, the total so far; how many dice show
  each face 1..6; ``rolls_left`` one-hot (0..3); 1 while a throw is pending
  (never in an observation) and 1 (the player to move). ``"action_mask"`` is
  an int8 vector, 1 for each legal action (also ``env.action_masks()``, the
  form sb3-contrib's MaskablePPO reads).
* **Reward**: the points each action adds to the card (bonuses included),
  so an episode's return is the final score.
* **Illegal actions** (a masked one): by default (``illegal="ignore"``, so that
  checkers and learners that sample the whole action space run) the step
  changes nothing, pays 0 and says ``info["illegal_action"] = True``;
  ``illegal="raise"`` raises :class:`IllegalActionId` (Gymnasium's
  ``InvalidAction``), and ``illegal="end"`` ends the episode there
  (``terminated``, reward 0). Every episode ends: after ``max_steps`` steps
  (default :data:`MAX_EPISODE_STEPS`, also registered with Gymnasium as
  ``max_episode_steps``) it is truncated; a legal game needs at most three
  steps a box (39 in Yahtzee, 45 in Yatzy).
* **Rendering**: ``render_mode="ansi"`` returns the position as text,
  ``"rgb_array"`` a picture (the dice, the card) as an RGB array, ``"human"``
  shows the picture in a matplotlib window (the text on standard output
  where none can open). Another mode raises :class:`RenderModeError`, a
  ``TypeError``, as Stable-Baselines3's ``make_vec_env`` expects.

The exact optimum is known: :func:`stratagem.games.yahtzee.solver.solve`
gives the expected score of optimal play (254.59 for ``yahtzee``), a ceiling
to measure a learner against.

>>> env = YahtzeeEnv("yatzy")
>>> obs, info = env.reset(seed=3)
>>> obs["observation"].shape, int(obs["action_mask"].sum()) > 0
((45,), True)
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import numpy as np

from stratagem.core.game import CHANCE
from stratagem.core.game import sample_chance as _sample_chance
from stratagem.interop import InteropError, require
from stratagem.interop.codecs import YahtzeeCodec

require("gymnasium")
import gymnasium as gym  # noqa: E402
from gymnasium import spaces  # noqa: E402

from stratagem.interop.gym_registration import ENV_ID, MAX_EPISODE_STEPS  # noqa: E402


class RenderModeError(InteropError, TypeError):
    """A render mode the environment does not have (a ``TypeError``, which wrappers such as
    Stable-Baselines3's ``make_vec_env`` catch to try again without one)."""


class IllegalActionId(InteropError, gym.error.InvalidAction):
    """A masked action given with ``illegal="raise"`` (Gymnasium's ``InvalidAction``)."""


class YahtzeeEnv(gym.Env[Any, Any]):
    """Solitaire Yahtzee or Yatzy; ``rules`` is a preset name."""

    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        rules: str = "yahtzee",
        render_mode: str | None = None,
        illegal: str = "ignore",
        max_steps: int = MAX_EPISODE_STEPS,
    ) -> None:
        from stratagem.games.yahtzee.rules import preset

        if render_mode not in (None, *self.metadata["render_modes"]):
            raise RenderModeError(
                f"render_mode must be None, 'ansi', 'human' or 'rgb_array', got {render_mode!r}"
            )
        if illegal not in ("ignore", "raise", "end"):
            raise InteropError(f"illegal must be 'ignore', 'raise' or 'end', got {illegal!r}")
        if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1:
            raise InteropError(f"max_steps must be a whole number >= 1, got {max_steps!r}")
        self.max_steps = max_steps
        self._steps = 0
        self._window: Any = None
        self.rules = preset(rules)
        self.codec = YahtzeeCodec(self.rules, 1)
        self.categories = self.codec.categories
        self.render_mode = render_mode
        self.illegal = illegal
        self.action_space = spaces.Discrete(self.codec.num_actions)
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    self.codec.observation_low, self.codec.observation_high, dtype=np.float32
                ),
                "action_mask": spaces.Box(0, 1, (self.codec.num_actions,), dtype=np.int8),
            }
        )
        self.state: Any = None
        self._mask: np.ndarray | None = None  # the mask of the state shown last

    def _throw(self) -> None:
        while self.state.current_player == CHANCE:
            self.state = self.state.apply(_sample_chance(self.state, self.np_random))

    def _obs(self) -> dict[str, np.ndarray]:
        mask = (
            self.codec.mask(self.state) if not self.state.is_terminal()
            else np.zeros(self.codec.num_actions, dtype=np.int8)
        )  # fmt: skip
        self._mask = mask
        return {"observation": self.codec.observation(self.state, 0), "action_mask": mask.copy()}

    def action_masks(self) -> np.ndarray:
        """The legal actions (bool), for maskable learners."""
        return self._obs()["action_mask"].astype(bool)

    def action_text(self, action: int) -> str:
        return self.codec.action_text(self.state, int(action))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        self._steps = 0
        self.state = self.codec.new_state()
        self._throw()
        return self._obs(), {}

    def step(
        self, action: Any
    ) -> tuple[dict[str, np.ndarray], SupportsFloat, bool, bool, dict[str, Any]]:
        if self.state is None:
            raise InteropError("call reset() before step()")
        if self.state.is_terminal():
            raise InteropError("the game is over: call reset()")
        self._steps += 1
        truncated = self._steps >= self.max_steps
        try:
            move = self.codec.checked(self.state, action, self._mask)
        except InteropError as exc:
            if self.illegal == "raise":
                raise IllegalActionId(str(exc)) from None
            ended = self.illegal == "end"
            return self._obs(), 0.0, ended, truncated and not ended, {"illegal_action": True}
        before = self.state.cards[0].total
        self.state = self.state.apply(move)
        self._throw()
        reward = float(self.state.cards[0].total - before)
        if self.render_mode == "human":
            self.render()
        done = bool(self.state.is_terminal())
        return self._obs(), reward, done, truncated and not done, {}

    def render(self) -> str | np.ndarray | None:
        """The position as text (``ansi``), a picture (``rgb_array``), or shown (``human``)."""
        if self.render_mode is None or self.state is None:
            return None
        if self.render_mode == "ansi":
            return str(self.state)
        from stratagem.interop.render import picture, show

        image = picture(self.codec, self.state)
        if self.render_mode == "rgb_array":
            return image
        self._window = show(image, self._window)
        if self._window is None:
            print(self.state)
        return None


from stratagem.interop.gym_registration import register_envs  # noqa: E402

__all__ = [
    "ENV_ID",
    "MAX_EPISODE_STEPS",
    "IllegalActionId",
    "RenderModeError",
    "YahtzeeEnv",
]

register_envs()
