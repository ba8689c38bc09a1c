"""Plots of Yahtzee results (matplotlib, drawn off-screen into PNG files)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import numpy as np

from stratagem.core.errors import StratagemError
from stratagem.core.files import write_output
from stratagem.games.yahtzee.distribution import ScoreDistribution

SOFTWARE = "Stratagem"
"""The PNG ``Software`` tag of Stratagem's plots: an existing plot is replaced only if
it carries it (:func:`is_our_plot`), never a picture the user made."""


def is_our_plot(head: bytes) -> bool:
    """A PNG whose ``Software`` text chunk names Stratagem (the start of the file)."""
    return head.startswith(b"\x89PNG\r\n\x1a\n") and b"Software\x00" + SOFTWARE.encode() in head


def _pyplot() -> Any:
    """matplotlib's pyplot, drawing off-screen."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(fig: Any, path: str | Path) -> Path:
    """Write ``fig`` as a PNG to ``path`` and close it; an existing plot is replaced
    whole or not at all."""
    import matplotlib.pyplot as plt

    path = Path(path)
    buffer = io.BytesIO()
    try:
        fig.savefig(buffer, dpi=110, format="png", metadata={"Software": SOFTWARE})
    finally:
        plt.close(fig)
    try:
        write_output(path, buffer.getvalue(), "plot", is_our_plot)
    except OSError as exc:
        raise StratagemError(f"cannot write the plot {path}: {exc}") from exc
    return path


def plot_distribution(dist: ScoreDistribution, path: str | Path) -> Path:
    """Draw the final-score distribution (probability per point, log scale inset)."""
    plt = _pyplot()
    keep = dist.pmf > 1e-9
    scores = dist.scores[keep]
    pmf = dist.pmf[keep]
    fig, (ax, lax) = plt.subplots(2, 1, figsize=(9, 6.5), height_ratios=(2, 1), sharex=True)
    ax.bar(scores, pmf, width=1.0, color="#3b6ea8")
    ax.axvline(dist.mean, color="k", lw=1, ls="--", label=f"mean {dist.mean:.2f}")
    ax.axvline(dist.median, color="#c0392b", lw=1, label=f"median {dist.median}")
    ax.set_ylabel("probability")
    ax.set_title(
        f"{dist.rules.name}, {dist.policy} strategy: exact final-score distribution "
        f"(SD {dist.sd:.2f})"
    )
    ax.legend()
    lax.semilogy(scores, pmf, color="#3b6ea8", lw=0.8)
    lax.set_xlabel("final score")
    lax.set_ylabel("probability (log)")
    lax.set_ylim(1e-9, max(1e-8, float(np.max(pmf)) * 2))
    fig.tight_layout()
    return _save(fig, path)


def plot_high_score(
    rows: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]], path: str | Path
) -> Path:
    """P(final >= T) against T per preset: the best possible (high-score table) and the
    expected-score optimum's; ``rows[preset] = (targets, best, optimum)``."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(9, 5.5))
    for i, (name, (targets, best, optimum)) in enumerate(rows.items()):
        color = f"C{i}"
        ax.semilogy(targets, best, color=color, lw=1.6, label=f"{name}: high-score strategy")
        ax.semilogy(targets, optimum, color=color, lw=1.0, ls="--",
                    label=f"{name}: expected-score optimum")  # fmt: skip
    ax.set_xlabel("target T")
    ax.set_ylabel("P(final score >= T)")
    ax.set_ylim(1e-6, 1.2)
    ax.set_title("Yahtzee: the best chance of reaching a target, exact")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return _save(fig, path)
