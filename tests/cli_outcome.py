"""What a command-line property test allows: a result, or a named error with exit 2."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from typer.testing import CliRunner

from stratagem.cli import app
from stratagem.core.errors import StratagemError

runner = CliRunner()


@dataclass(frozen=True)
class Invoked:
    """What the console script would have shown: its exit status and its two streams."""

    exit_code: int
    stdout: str
    stderr: str

    @property
    def output(self) -> str:
        """Standard output and standard error together."""
        return self.stdout + self.stderr


def invoke(args: Sequence[str], stdin: str | None = None) -> Invoked:
    """Run ``stratagem ARGS`` in-process, as the console script would run it: a
    :class:`StratagemError` becomes ``error: ...`` on standard error with status 2
    (``stratagem.cli.main`` is the one place that does this for every command).

    Any other exception fails the calling test with its traceback.
    """
    result = runner.invoke(app, list(args), input=stdin)
    exc = result.exception
    if isinstance(exc, StratagemError):
        return Invoked(2, result.stdout, f"{result.stderr}error: {exc}\n")
    if exc is not None and not isinstance(exc, SystemExit):
        raise AssertionError(f"stratagem {' '.join(args)} crashed: {exc!r}") from exc
    return Invoked(result.exit_code, result.stdout, result.stderr)


def outcome(args: Sequence[str], stdin: str | None = None) -> tuple[int, str]:
    """:func:`invoke` as ``(exit status, both streams)``."""
    done = invoke(args, stdin)
    return done.exit_code, done.output


def allowed(args: Sequence[str], stdin: str | None = None) -> tuple[int, str]:
    """:func:`outcome`, asserting that it is success (0) or a named refusal (2)."""
    code, output = outcome(args, stdin)
    assert code in (0, 2), f"stratagem {' '.join(args)} exited {code}: {output[-500:]}"
    return code, output
