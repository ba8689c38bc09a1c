"""Stratagem: exact and heuristic strategies for games of chance and opponents.

>>> from stratagem.games.yahtzee import rules
>>> rules.preset("yatzy").categories[:2]
('ones', 'twos')
"""

__version__ = "0.1.0"
