"""Registers ``stratagem/Yahtzee-v0`` with Gymnasium, without importing the environment.

Gymnasium 0.26-0.29 load the ``gymnasium.envs`` entry points of installed
packages when ``gymnasium`` is imported; Stratagem declares
``register_envs`` there (pyproject.toml), so ``gymnasium.make(ENV_ID)`` works
without importing Stratagem first. Gymnasium 1.0 dropped that plugin
system; there, name the module in the id, which Gymnasium imports for you::

    gymnasium.make("stratagem.interop.gymnasium:stratagem/Yahtzee-v0")

(or import :mod:`stratagem.interop.gymnasium` first). This module imports
nothing of Stratagem's, so that Gymnasium can call it while it is itself
being imported.
"""

from __future__ import annotations

ENV_ID = "stratagem/Yahtzee-v0"
"""``gymnasium.make(ENV_ID, rules="yatzy")`` makes a
:class:`~stratagem.interop.gymnasium.YahtzeeEnv`."""

ENTRY_POINT = "stratagem.interop.gymnasium:YahtzeeEnv"

MAX_EPISODE_STEPS = 200
"""The step limit registered (the environment's own default ``max_steps`` too)."""


def register_envs() -> None:
    """Register :data:`ENV_ID` (once) with its step limit."""
    import gymnasium

    if ENV_ID not in gymnasium.registry:
        gymnasium.register(ENV_ID, entry_point=ENTRY_POINT, max_episode_steps=MAX_EPISODE_STEPS)
