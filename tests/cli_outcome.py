"""What a command-line property test allows: a result, or a named error with exit 2."""

from __future__ import annotations

from collections.abc import Sequence

from typer.testing import CliRunner

from stratagem.cli import app
from stratagem.core.errors import StratagemError

runner = CliRunner()


def outcome(args: Sequence[str], stdin: str | None = None) -> tuple[int, str]:
    """Run ``stratagem ARGS`` in-process: ``(exit status, output)`` as the console script
    would give them (a :class:`StratagemError` is ``error: ...`` with status 2).

    Any other exception fails the calling test with its traceback.
    """
    result = runner.invoke(app, list(args), input=stdin)
    exc = result.exception
    if isinstance(exc, StratagemError):
        return 2, f"{result.output}error: {exc}"
    if exc is not None and not isinstance(exc, SystemExit):
        raise AssertionError(f"stratagem {' '.join(args)} crashed: {exc!r}") from exc
    return result.exit_code, result.output


def allowed(args: Sequence[str], stdin: str | None = None) -> tuple[int, str]:
    """:func:`outcome`, asserting that it is success (0) or a named refusal (2)."""
    code, output = outcome(args, stdin)
    assert code in (0, 2), f"stratagem {' '.join(args)} exited {code}: {output[-500:]}"
    return code, output
