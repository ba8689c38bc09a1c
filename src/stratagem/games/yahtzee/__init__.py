"""Yahtzee and Scandinavian Yatzy: rules, exact solver, advisor, simulation, play."""
