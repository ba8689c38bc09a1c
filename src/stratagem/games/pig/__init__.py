"""Pig and its variants: exact win-probability strategy, rules of thumb, play."""
