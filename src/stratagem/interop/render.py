"""Pictures of a position for the adapters' ``rgb_array`` and ``human`` render modes.

Drawn with matplotlib's Agg canvas (the library the project's plots use),
without pyplot, so no window system is needed: the dice and the card in
Yahtzee, the scores against the goal in Pig, the four levels of the Score Four
board, the Scrabble board. Each picture carries the position's text (the
codec's ``key``) as its caption, so nothing the text says is lost.

>>> from stratagem.interop.codecs import codec
>>> c = codec("scorefour")
>>> image = picture(c, c.new_state())
>>> image.shape[2], image.dtype.name
(3, 'uint8')
"""

from __future__ import annotations

from typing import Any

import numpy as np

from stratagem.interop.codecs import Codec, MoveChoice, PigCodec, ScoreFourCodec, ScrabbleCodec

_PIPS = {
    1: [(0.5, 0.5)],
    2: [(0.25, 0.75), (0.75, 0.25)],
    3: [(0.25, 0.75), (0.5, 0.5), (0.75, 0.25)],
    4: [(0.25, 0.25), (0.25, 0.75), (0.75, 0.25), (0.75, 0.75)],
    5: [(0.25, 0.25), (0.25, 0.75), (0.5, 0.5), (0.75, 0.25), (0.75, 0.75)],
    6: [(0.25, 0.2), (0.25, 0.5), (0.25, 0.8), (0.75, 0.2), (0.75, 0.5), (0.75, 0.8)],
}


def _die(ax: Any, x: float, face: int) -> None:
    """One die of side 1 at (x, 0); faces above 6 (Pig's larger dice) are written."""
    from matplotlib.patches import Circle, FancyBboxPatch

    ax.add_patch(FancyBboxPatch((x, 0), 1, 1, boxstyle="round,pad=0,rounding_size=0.15",
                                facecolor="white", edgecolor="black", linewidth=1.5))  # fmt: skip
    if face in _PIPS:
        for px, py in _PIPS[face]:
            ax.add_patch(Circle((x + px, py), 0.08, color="black"))
    else:
        ax.text(x + 0.5, 0.5, str(face), ha="center", va="center", fontsize=14)


def _dice(ax: Any, faces: list[int], title: str) -> None:
    for i, face in enumerate(faces):
        _die(ax, i * 1.3, face)
    ax.set_xlim(-0.2, max(5, len(faces)) * 1.3)
    ax.set_ylim(-0.2, 1.2)
    ax.set_aspect("equal")
    ax.set_title(title, fontsize=10)
    ax.axis("off")


def _score_four(ax_row: Any, state: Any) -> None:
    from matplotlib.patches import Circle

    for z, ax in enumerate(ax_row):
        for cell in range(16):
            x, y = cell % 4, cell // 4
            bit = 1 << (z * 16 + cell)
            color = "white"
            if state.beads[0] & bit:
                color = "black"
            elif state.beads[1] & bit:
                color = "tab:red"
            ax.add_patch(Circle((x, y), 0.4, facecolor=color, edgecolor="grey"))
        ax.set_xlim(-0.6, 3.6)
        ax.set_ylim(-0.6, 3.6)
        ax.set_aspect("equal")
        ax.set_title(f"level {z + 1}", fontsize=9)
        ax.axis("off")


def _scrabble(ax: Any, state: Any) -> None:
    from matplotlib.patches import Rectangle

    rows = state.board_rows()
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            filled = ch not in ".-"
            ax.add_patch(Rectangle((x, 14 - y), 1, 1, edgecolor="grey", linewidth=0.5,
                                   facecolor="wheat" if filled else "honeydew"))  # fmt: skip
            if filled:
                ax.text(x + 0.5, 14.5 - y, ch, ha="center", va="center", fontsize=8)
    ax.set_xlim(0, 15)
    ax.set_ylim(0, 15)
    ax.set_aspect("equal")
    ax.axis("off")


def picture(codec: Codec[Any], state: Any, width: float = 6.0) -> np.ndarray:
    """The position as an RGB image (height x width x 3, uint8)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    caption = codec.key(state)
    position: Any = state.position if isinstance(state, MoveChoice) else state
    fig = Figure(figsize=(width, width * 0.75), dpi=80)
    FigureCanvasAgg(fig)
    if isinstance(codec, ScoreFourCodec):
        axes = fig.subplots(1, 4)
        _score_four(axes, position)
        fig.subplots_adjust(bottom=0.35)
    elif isinstance(codec, ScrabbleCodec):
        fig.set_size_inches(width, width * 1.1)
        ax = fig.add_axes((0.05, 0.22, 0.9, 0.75))
        _scrabble(ax, position)
        caption = caption.splitlines()[-1]  # the board is drawn; the rest in words
    elif isinstance(codec, PigCodec):
        ax = fig.add_axes((0.12, 0.3, 0.8, 0.6))
        goal = codec.rules.goal
        ax.barh([1, 0], position.scores, color=["tab:blue", "tab:red"])
        ax.barh([1 - position.player], [position.turn_total], left=[
            position.scores[position.player]], color="gold")  # fmt: skip
        ax.axvline(goal, color="black", linestyle="--")
        ax.set_yticks([1, 0], ["player 0", "player 1"])
        ax.set_xlim(0, max(goal, *position.scores) * 1.05)
        ax.set_title(f"goal {goal}; turn total {position.turn_total} (gold)", fontsize=10)
    elif hasattr(position, "dice"):  # Yahtzee
        ax = fig.add_axes((0.05, 0.55, 0.9, 0.4))
        title = f"player {position.player}, {position.rolls_left} rolls left"
        _dice(ax, list(position.dice), title)
        card = position.cards[position.player if not position.is_terminal() else 0]
        lines = [
            f"{name}: {'-' if v is None else v}"
            for name, v in zip(position.rules.categories, card.boxes)
        ]
        half = (len(lines) + 1) // 2
        for column, chunk in enumerate((lines[:half], lines[half:])):
            fig.text(0.05 + 0.45 * column, 0.5, "\n".join(chunk), va="top", family="monospace",
                     fontsize=8)  # fmt: skip
        caption = f"total {card.total}"
    fig.text(0.02, 0.02, _wrap(caption), family="monospace", fontsize=7, va="bottom")
    canvas = fig.canvas
    canvas.draw()
    return np.asarray(canvas.buffer_rgba())[..., :3].copy()  # type: ignore[attr-defined]


def _wrap(text: str, width: int = 90) -> str:
    out = []
    for line in text.splitlines():
        while len(line) > width:
            out.append(line[:width])
            line = line[width:]
        out.append(line)
    return "\n".join(out[-8:])


def show(image: np.ndarray, window: Any = None) -> Any:
    """Show a picture in a window when an interactive matplotlib backend is in use; return
    the window to update next time (``None`` without a display: then nothing is shown)."""
    import matplotlib

    if matplotlib.get_backend().lower() in ("agg", "pdf", "svg", "ps", "cairo", "template"):
        return None
    import matplotlib.pyplot as plt

    if window is None:
        _fig, ax = plt.subplots()
        ax.axis("off")
        window = ax.imshow(image)
    else:
        window.set_data(image)
    plt.pause(0.001)
    return window
