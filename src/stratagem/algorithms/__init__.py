"""Game-independent methods, written against :mod:`stratagem.core.game` only."""
