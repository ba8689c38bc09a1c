"""Scrabble: tiles, board, lexicon (DAWG), numba move generation, greedy play."""
