"""The plot of docs/results/yahtzee_field.md: win shares against a field, and the exact
three-player deviation gains (matplotlib, off-screen, into a PNG tagged as Stratagem's)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from stratagem.games.yahtzee.plots import _pyplot, _save


def plot_field(
    measured: Sequence[dict[str, Any]], solved: Sequence[dict[str, Any]], path: str | Path
) -> Path:
    """Left: the win-seeker's share against 2 and 3 optimum players (95% CI) and the fair
    share; right: per solved variant, each seat's gain from deviating from the ES optimum."""
    plt = _pyplot()
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.8))
    x = np.arange(len(measured))
    shares = [float(r["win_share"]) for r in measured]
    err = np.array(
        [[s - r["ci95"][0], r["ci95"][1] - s] for s, r in zip(shares, measured, strict=True)]
    ).T
    ax1.bar(x, shares, 0.5, yerr=err if len(measured) else None, capsize=6,
            label="win-seeking player (95% CI)")  # fmt: skip
    for i, r in enumerate(measured):
        ax1.hlines(r["fair_share"], i - 0.35, i + 0.35, colors="k", linestyles="--",
                   label="an optimum player's share (1/n)" if i == 0 else None)  # fmt: skip
    ax1.set_xticks(x, [f"{r['players']} players\n({r['games']:,} games)" for r in measured])
    ax1.set_ylabel("share of the win (ties shared)")
    ax1.set_title("Against expected-score optimum players (full yahtzee)")
    ax1.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.16))
    names = [str(r["variant"]).replace("yahtzee[", "[", 1) for r in solved]
    y = np.arange(len(solved))
    for seat in range(3):
        gains = [float(r["deviation_gains"][seat]) for r in solved]
        ax2.barh(y + (seat - 1) * 0.25, gains, 0.25, label=f"seat {seat + 1} deviates")
    ax2.set_yticks(y, names, fontsize=8)
    ax2.set_xlabel("gain in share of the win over es-es-es (exact)")
    ax2.set_title("Three players: is the ES optimum a best response to itself?")
    ax2.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=3)
    fig.tight_layout()
    return _save(fig, path)
