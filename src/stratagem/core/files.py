"""Reading the files a user names, safely: size-limited, with named errors.

Every file a user hands to Stratagem (a rule table, a position, a word list, a
results file) is read through :func:`read_user_bytes` or :func:`read_user_text`:

- a missing file, a folder, or a path under a file is a :class:`FileInputError`
  that names the path and what was expected;
- at most ``limit`` bytes are read, so an endless input (``/dev/zero``, a pipe
  that never ends) or a huge file is refused instead of filling the memory;
- a named pipe with no writer is read as empty instead of blocking forever;
- text must be UTF-8; the error says where it is not.

Stratagem's own JSON files (weights, leave tables, GA checkpoints) carry a
``format`` tag; :func:`parse_json_document` checks it, and :func:`write_json`
writes one atomically.

Every file Stratagem writes goes through :func:`write_atomic` (or
:func:`replacing`, for writers that want a path): a temporary file beside the
target, renamed over it when complete, so a reader sees the old file or the
new one, never half of one. Neither writes through a symbolic link or onto a
device; a file the user names is replaced only if it is one Stratagem wrote
(:func:`check_writable_target` with a :data:`Recogniser`, :func:`write_output`).

>>> import tempfile, pathlib
>>> p = pathlib.Path(tempfile.mkdtemp()) / "t.txt"
>>> _ = p.write_text("hold 20\\n")
>>> read_user_text(p, limit=100, what="rule table")
'hold 20\\n'
>>> read_user_text(p, limit=3, what="rule table")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
stratagem.core.files.FileInputError: cannot read rule table ...t.txt: it is larger than 3 bytes
"""

from __future__ import annotations

import fcntl
import json
import math
import os
import stat
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from stratagem.core.errors import StratagemError

MiB = 1 << 20


class FileInputError(StratagemError, ValueError):
    """A file the user named that cannot be read as asked: missing, a folder, too big, not text."""


def check_readable(path: Path | str, what: str = "file") -> Path:
    """``path`` if it names something that can be opened for reading as a file."""
    path = Path(path)
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        raise FileInputError(f"cannot read {what} {path}: it does not exist") from None
    except NotADirectoryError:
        raise FileInputError(
            f"cannot read {what} {path}: a part of the path is a file, not a folder"
        ) from None
    except OSError as exc:
        raise FileInputError(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    except ValueError:  # a NUL byte in the path
        raise FileInputError(f"cannot read {what} {path!r}: no path holds a NUL byte") from None
    if stat.S_ISDIR(mode):
        raise FileInputError(f"cannot read {what} {path}: it is a folder; name a file")
    return path


def read_user_bytes(path: Path | str, *, limit: int, what: str = "file") -> bytes:
    """The bytes of ``path``, refusing more than ``limit`` of them (see the module doc)."""
    path = check_readable(path, what)
    flags = os.O_RDONLY | getattr(os, "O_CLOEXEC", 0)
    fifo = stat.S_ISFIFO(path.stat().st_mode)
    try:
        # a named pipe without a writer would block open() forever: open it without
        # waiting, then read normally (an absent writer reads as end of file)
        fd = os.open(path, flags | (os.O_NONBLOCK if fifo else 0))
    except OSError as exc:
        raise FileInputError(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    try:
        if fifo:
            fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
        chunks = []
        size = 0
        while size <= limit:
            try:
                chunk = os.read(fd, min(MiB, limit + 1 - size))
            except IsADirectoryError:
                raise FileInputError(f"cannot read {what} {path}: it is a folder") from None
            except OSError as exc:
                raise FileInputError(f"cannot read {what} {path}: {exc.strerror or exc}") from None
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    if size > limit:
        raise FileInputError(f"cannot read {what} {path}: it is larger than {limit} bytes")
    return b"".join(chunks)


def decode_utf8(blob: bytes, path: Path | str, what: str = "file") -> str:
    """``blob`` as UTF-8 text, or an error naming the first bad byte's line."""
    try:
        return blob.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = blob[: exc.start].count(b"\n") + 1
        raise FileInputError(
            f"cannot read {what} {path}: it is not UTF-8 text (a bad byte on line {line}); "
            "save it as UTF-8"
        ) from None


def read_user_text(path: Path | str, *, limit: int, what: str = "file") -> str:
    """The UTF-8 text of ``path``, at most ``limit`` bytes (see the module doc)."""
    return decode_utf8(read_user_bytes(path, limit=limit, what=what), path, what)


Recogniser = Callable[[bytes], bool]
"""Says whether a file's first :data:`RECOGNISE_BYTES` bytes are a file Stratagem wrote
(of the kind about to be written): only such a file may be replaced."""

RECOGNISE_BYTES = 64 * 1024


def check_writable_target(
    path: Path | str,
    what: str = "output file",
    ours: Recogniser | None = None,
) -> Path:
    """``path`` if a file can be created or replaced there: its folder exists (it is not
    created silently), and the path itself is not a folder, a device, a pipe or a symbolic
    link (a link would have the write land on the file it names, which the user did not
    name). With ``ours``, an existing non-empty file is replaced only if ``ours``
    recognises it as a file Stratagem wrote: a command never writes over a file it did
    not create (a source file named by mistake, a word list, a photo)."""
    path = Path(path)
    if "\x00" in str(path):
        raise FileInputError(f"{what} {str(path)!r}: no path holds a NUL byte")
    if path.is_symlink():
        raise FileInputError(
            f"{what} {path} is a symbolic link; Stratagem does not write through links "
            "(the file it names would be replaced): name the file itself, or a new file"
        )
    parent = path.parent
    try:
        parent_mode = parent.stat().st_mode
    except FileNotFoundError:
        raise FileInputError(
            f"the folder {parent} of {what} {path} does not exist; create it first"
        ) from None
    except NotADirectoryError:
        raise FileInputError(f"{what} {path}: a part of the path is a file, not a folder") from None
    except OSError as exc:
        raise FileInputError(f"cannot use {what} {path}: {exc.strerror or exc}") from None
    if not stat.S_ISDIR(parent_mode):
        raise FileInputError(f"{what} {path}: {parent} is a file, not a folder")
    _probe(parent, what, path)
    _check_replaceable(path, what, ours)
    return path


def _check_replaceable(path: Path, what: str, ours: Recogniser | None) -> None:
    """Refuse an existing ``path`` that is not a regular file, or (with ``ours``) not a
    file Stratagem wrote; an absent path passes."""
    try:
        mode = path.lstat().st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise FileInputError(f"cannot use {what} {path}: {exc.strerror or exc}") from None
    if stat.S_ISLNK(mode):
        raise FileInputError(
            f"{what} {path} is a symbolic link; Stratagem does not write through links: "
            "name the file itself, or a new file"
        )
    if stat.S_ISDIR(mode):
        raise FileInputError(f"{what} {path} is a folder; name a file")
    if not stat.S_ISREG(mode):
        raise FileInputError(f"{what} {path} is not a regular file (a device or a pipe)")
    if ours is None:
        return
    try:
        with open(path, "rb") as handle:
            head = handle.read(RECOGNISE_BYTES)
    except OSError as exc:
        raise FileInputError(f"cannot use {what} {path}: {exc.strerror or exc}") from None
    if head and not ours(head):
        raise FileInputError(
            f"{what} {path} already exists and is not a {what} Stratagem wrote; it is left "
            "as it is: name a new file (or delete that one first if it is yours to lose)"
        )


def json_format_of(fmt: str) -> Recogniser:
    """A :data:`Recogniser` of Stratagem's JSON documents tagged ``"format": fmt``.

    >>> json_format_of("x")(b'{"format": "x", "n": 1}'), json_format_of("x")(b"import os")
    (True, False)
    """

    def ours(head: bytes) -> bool:
        try:
            data = json.loads(head.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
            # a file longer than the head: its start must still name the format
            return head.lstrip().startswith(b"{") and f'"format": "{fmt}"'.encode() in head
        return isinstance(data, dict) and data.get("format") == fmt

    return ours


def first_line_is(line: bytes) -> Recogniser:
    """A :data:`Recogniser` of text files (a CSV Stratagem wrote) that start with ``line``."""

    def ours(head: bytes) -> bool:
        return head.split(b"\n", 1)[0].rstrip(b"\r") == line

    return ours


def write_output(path: Path | str, data: bytes, what: str, ours: Recogniser | None = None) -> None:
    """:func:`write_atomic`, checking again just before the rename's preparation that
    ``path`` is still something it may replace (:func:`check_writable_target`): the check
    before a long run does not cover a file made meanwhile."""
    path = Path(path)
    _check_replaceable(path, what, ours)
    write_atomic(path, data)


def prepare_folder(path: Path | str, what: str = "folder") -> Path:
    """``path`` as a folder to write in: an existing folder, or a new one (with its missing
    parents, like ``mkdir -p``). Anything else -- a file or a device there or on the way,
    no permission -- raises :class:`FileInputError`."""
    path = Path(path)
    if "\x00" in str(path):
        raise FileInputError(f"{what} {str(path)!r}: no path holds a NUL byte")
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        try:
            path.mkdir(parents=True)
        except OSError as exc:
            raise FileInputError(f"cannot create {what} {path}: {exc.strerror or exc}") from None
        return path
    except OSError as exc:
        raise FileInputError(f"cannot use {what} {path}: {exc.strerror or exc}") from None
    if not stat.S_ISDIR(mode):
        raise FileInputError(f"{what} {path} exists and is not a folder")
    if not os.access(path, os.W_OK | os.X_OK):
        raise FileInputError(f"cannot write in {what} {path}: permission denied")
    _probe(path, what, path)
    return path


def _probe(folder: Path, what: str, path: Path) -> None:
    """Make and remove a file in ``folder``, so that a folder no file can be written in
    (read-only, a system folder) is refused before the work, not after it."""
    try:
        fd, tmp = tempfile.mkstemp(prefix=".stratagem-probe.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise FileInputError(
            f"cannot write {what} {path}: no file can be made in {folder} ({exc.strerror or exc})"
        ) from None
    os.close(fd)
    Path(tmp).unlink(missing_ok=True)


@contextmanager
def replacing(path: Path | str) -> Iterator[Path]:
    """A temporary path beside ``path`` that replaces ``path`` when the block ends.

    If the block raises (or is interrupted), the temporary file is removed and
    ``path`` is left as it was.
    """
    path = Path(path)
    _check_replaceable(path, "file", None)  # never through a link, never onto a device
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise FileInputError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        os.fchmod(fd, _mode_for(path))
    finally:
        os.close(fd)
    try:
        yield Path(tmp)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _mode_for(path: Path) -> int:
    """The permissions a replaced file keeps, or a new file's (0666 less the umask)."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        return 0o666 & ~_umask()


def _umask() -> int:
    """The process's umask, read without changing it where Linux shows it (setting it to
    read it back would, for a moment, change it for every thread)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    umask = os.umask(0o022)
    os.umask(umask)
    return umask


def write_atomic(path: Path | str, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all (temporary file, fsync, rename).

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "out.txt"
    >>> write_atomic(p, b"one\\n")
    >>> p.read_bytes()
    b'one\\n'
    """
    with replacing(path) as tmp, open(tmp, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


MAX_INPUT_LINE = 10_000
"""Characters of one line typed or piped into an interactive command (:func:`bounded_input`)."""


def bounded_input(prompt: str = "") -> str:
    """``input(prompt)``, but a line piped in may hold at most :data:`MAX_INPUT_LINE`
    characters: a longer one (``< /dev/zero``) is a :class:`FileInputError`, not a read
    that grows without end. On a terminal it is ``input`` itself (line editing kept)."""
    stream = sys.stdin
    if stream is None:
        raise EOFError
    if stream.isatty():
        return input(prompt)
    sys.stdout.write(prompt)
    sys.stdout.flush()
    line = stream.readline(MAX_INPUT_LINE + 2)  # room for the line's end after the limit
    if not line:
        raise EOFError
    text = line.rstrip("\r\n")
    if len(text) > MAX_INPUT_LINE:
        raise FileInputError(f"an input line is longer than {MAX_INPUT_LINE:,} characters")
    return text


def finite_number(x: object) -> bool:
    """A real number (not a bool) that is finite; False for an integer too large for a
    float (a 400-digit number in a hostile file), where ``math.isfinite`` raises."""
    if isinstance(x, bool) or not isinstance(x, int | float):
        return False
    try:
        return math.isfinite(x)
    except OverflowError:
        return False


def parse_json_document(
    text: str, where: str, fmt: str, kind: str, error: type[StratagemError]
) -> dict[str, Any]:
    """The JSON object in ``text`` if its ``format`` is ``fmt``; else ``error`` naming
    ``where`` (a file, or "shipped ...") and what it should have been.

    >>> parse_json_document('{"format": "x", "n": 1}', "f.json", "x", "x file", StratagemError)
    {'format': 'x', 'n': 1}
    >>> parse_json_document('[1]', "f.json", "x", "x file", StratagemError)
    Traceback (most recent call last):
    ...
    stratagem.core.errors.StratagemError: f.json is not a Stratagem x file (format 'x' expected)
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(f"{where} is not JSON ({exc})") from None
    except RecursionError:
        raise error(f"{where} is not a Stratagem {kind}: its JSON is nested too deeply") from None
    if not isinstance(data, dict) or data.get("format") != fmt:
        raise error(f"{where} is not a Stratagem {kind} (format {fmt!r} expected)")
    return data


def write_json(
    path: Path | str, data: object, indent: int | None = None, what: str = "file"
) -> None:
    """``data`` as UTF-8 JSON and a newline, through :func:`write_output`; creates the
    folder. A document with a ``format`` tag replaces only a document of that format (a
    file Stratagem wrote), never another file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, ensure_ascii=False, indent=indent) + "\n"
    fmt = data.get("format") if isinstance(data, dict) else None
    ours = json_format_of(fmt) if isinstance(fmt, str) else None
    write_output(path, text.encode("utf-8"), what, ours)
