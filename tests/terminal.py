"""An in-process terminal for the games' ``play_terminal(..., read=..., write=...)``.

Terminal play is tested through a pseudo-terminal (pexpect) once per game; the
other terminal tests drive ``play_terminal`` directly, which checks the same
dialogue without starting a Python process per test. The transcript is what a
person would see (prompts, their typed lines, the game's output), and
:meth:`Terminal.expect` reads it in order as pexpect does.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable


class Terminal:
    """Answers ``read(prompt)`` with ``answer(prompt, output since the last prompt)``.

    ``answer`` may raise EOFError (Ctrl-D). A scripted terminal fails the test if
    the game asks for more lines than the script has.
    """

    def __init__(self, answer: Callable[[str, str], str]) -> None:
        self._answer = answer
        self.transcript = ""
        self._since_prompt = ""
        self._pos = 0
        self.prompts = 0

    @classmethod
    def scripted(cls, lines: Iterable[str]) -> Terminal:
        queue = list(lines)

        def answer(prompt: str, _screen: str) -> str:
            if not queue:
                raise AssertionError(f"the game asked for more input than scripted: {prompt!r}")
            return queue.pop(0)

        return cls(answer)

    def write(self, text: str = "") -> None:
        self.transcript += text + "\n"
        self._since_prompt += text + "\n"

    def read(self, prompt: str) -> str:
        self.prompts += 1
        screen, self._since_prompt = self._since_prompt, ""
        self.transcript += prompt
        line = self._answer(prompt, screen)
        self.transcript += line + "\n"
        return line

    def expect(self, pattern: str) -> re.Match[str]:
        """The next match of ``pattern`` after the previous one (as pexpect's expect)."""
        match = re.compile(pattern).search(self.transcript, self._pos)
        if match is None:
            tail = self.transcript[self._pos : self._pos + 2000]
            raise AssertionError(f"{pattern!r} not found in what followed:\n{tail}")
        self._pos = match.end()
        return match
