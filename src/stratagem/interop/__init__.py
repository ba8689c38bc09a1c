"""Adapters to OpenSpiel, PettingZoo and Gymnasium (the ``interop`` extra).

The rest of Stratagem never imports these frameworks; the modules here do:

* :mod:`stratagem.interop.codecs` (no framework): fixed integer ids for each
  game's actions and chance outcomes, and observation vectors. The three
  adapters share it.
* :mod:`stratagem.interop.openspiel`: our games registered as Python
  OpenSpiel games (``stratagem_pig``, ``stratagem_yahtzee``,
  ``stratagem_scorefour``, ``stratagem_scrabble``), OpenSpiel bots as our
  agents, and any OpenSpiel game as one of our states (``openspiel:<game>``
  in the arena).
* :mod:`stratagem.interop.pettingzoo`: AEC environments with action masks.
* :mod:`stratagem.interop.gymnasium`: solitaire Yahtzee as a Gymnasium
  environment; :mod:`stratagem.interop.gym_registration` registers it (the
  ``gymnasium.envs`` entry point) without importing it.
* :mod:`stratagem.interop.render`: pictures of a position for the
  ``rgb_array`` and ``human`` render modes (matplotlib's Agg canvas).

Install with ``pip install 'stratagem[interop]'``; see docs/interop.md.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from stratagem.core.errors import StratagemError
from stratagem.core.registry import GameSpec, register_game_source


class InteropError(StratagemError):
    """A framework that is missing, or an id that is not an action of the position."""


def require(module: str) -> ModuleType:
    """Import a framework module, or say which extra installs it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise InteropError(
            f"{module} is not installed; it comes with the interop extra: "
            "pip install 'stratagem[interop]'"
        ) from None


def _openspiel_game(name: str) -> GameSpec:
    """``openspiel:<game>`` for ``core.registry.load_game`` (imports OpenSpiel on use only)."""
    from stratagem.interop.openspiel import arena_game

    return arena_game(name)


# Core imports nothing above it: the bridge registers itself here when this package is
# imported, and is found through the entry point of the same name otherwise (pyproject).
register_game_source("openspiel", _openspiel_game)
