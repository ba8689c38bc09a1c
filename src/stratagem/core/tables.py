"""On-disk cache of solved tables, keyed by a rules fingerprint.

A table is a set of named numpy arrays plus a small JSON header. Files live in
the user cache directory (``platformdirs``; ``$XDG_CACHE_HOME`` on Linux) or in
``$STRATAGEM_CACHE_DIR`` when that is set, and are named
``<kind>-<fingerprint>-v<format>.tbl``.

The file layout is: an 8-byte magic, an 8-byte little-endian header length,
the UTF-8 JSON header (array names, dtypes, shapes, offsets and the SHA-256
of the payload), then the raw array bytes. A file whose magic, header, length
or checksum is wrong is reported as corrupt and rebuilt, never used. Files
are written to a temporary name in the same directory and renamed into place,
so a crash never leaves a half-written table under the real name.

>>> import numpy as np, tempfile, pathlib
>>> cache = TableCache(pathlib.Path(tempfile.mkdtemp()))
>>> arrays, hit = cache.load_or_build("demo", "abc", 1, lambda: {"v": np.arange(3.0)})
>>> hit, arrays["v"].tolist()
(False, [0.0, 1.0, 2.0])
>>> cache.load_or_build("demo", "abc", 1, lambda: {})[1]
True
"""

from __future__ import annotations

import contextlib
import glob
import hashlib
import json
import os
import tempfile
import threading
import time
import warnings
import zlib
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Mapping
from contextvars import ContextVar
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import platformdirs

from stratagem.core.errors import CacheError
from stratagem.core.files import write_atomic

MAGIC = b"STRTGM1\n"
ENV_VAR = "STRATAGEM_CACHE_DIR"
MAX_BYTES_VAR = "STRATAGEM_CACHE_MAX_BYTES"
DEFAULT_MAX_BYTES = 4 << 30
"""The cache's size bound (4 GiB): one Yahtzee rule set's remaining-score tables take
about 1.2 GB, a Pig variant up to 64 MB. ``$STRATAGEM_CACHE_MAX_BYTES`` overrides it."""
T = TypeVar("T")


def default_cache_dir() -> Path:
    """``$STRATAGEM_CACHE_DIR`` if set, else the platform's user cache directory."""
    override = os.environ.get(ENV_VAR)
    if override:
        return Path(override)
    return user_cache_dir()


def user_cache_dir() -> Path:
    """The platform's user cache directory of Stratagem (``$XDG_CACHE_HOME/stratagem``,
    ``~/.cache/stratagem`` on Linux), whatever ``$STRATAGEM_CACHE_DIR`` says."""
    return Path(platformdirs.user_cache_dir("stratagem", appauthor=False))


def default_max_bytes() -> int:
    """``$STRATAGEM_CACHE_MAX_BYTES`` if set (bytes, or with a K/M/G suffix), else
    :data:`DEFAULT_MAX_BYTES`."""
    text = os.environ.get(MAX_BYTES_VAR, "").strip()
    if not text:
        return DEFAULT_MAX_BYTES
    scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(text[-1].upper(), 1)
    digits = text[:-1] if scale > 1 else text
    try:
        value = int(digits) * scale
    except ValueError:
        value = 0
    if value < 1:
        raise CacheError(
            f"{MAX_BYTES_VAR} must be a size in bytes (e.g. 2G, 500M), not {text!r}"
        )
    return value


def fingerprint(description: Mapping[str, object]) -> str:
    """A short stable hash of a JSON-able description of rules (key order ignored)."""
    canonical = json.dumps(description, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]


class TableCache:
    """A directory of solved tables.

    ``load_or_build(kind, key, version, build)`` returns ``(arrays, cache_hit)``.
    """

    def __init__(self, directory: Path | None = None, max_bytes: int | None = None) -> None:
        self.directory = Path(directory) if directory is not None else default_cache_dir()
        self.max_bytes = max_bytes if max_bytes is not None else default_max_bytes()
        if self.max_bytes < 1:
            raise CacheError(f"the cache's size bound must be at least 1 byte, got {max_bytes}")

    def tables(self) -> list[Path]:
        """The table files in the cache (both kinds), least recently used first."""
        found = []
        for pattern in ("*.tbl", "*.mtbl"):
            for path in self.directory.glob(pattern):
                try:
                    found.append((path.stat().st_mtime, path))
                except OSError:  # removed meanwhile
                    continue
        return [p for _, p in sorted(found)]

    def nbytes(self) -> int:
        """Bytes the cache's tables take."""
        total = 0
        for path in self.tables():
            try:
                total += path.stat().st_size
            except OSError:
                continue
        return total

    def trim(self, keep: Path | None = None) -> list[Path]:
        """Delete the least recently used tables until the cache fits :attr:`max_bytes`;
        ``keep`` (the table just written) goes last, only when it alone is too large.
        Returns what was deleted."""
        paths = self.tables()
        sizes = {}
        for p in paths:
            try:
                sizes[p] = p.stat().st_size
            except OSError:
                continue
        total = sum(sizes.values())
        order = [p for p in sizes if p != keep] + [p for p in sizes if p == keep]
        removed = []
        for path in order:
            if total <= self.max_bytes:
                break
            try:
                path.unlink()
            except OSError:
                continue
            total -= sizes[path]
            removed.append(path)
        return removed

    def _used(self, path: Path) -> None:
        """Mark a table as recently used (its modification time orders eviction)."""
        with contextlib.suppress(OSError):
            os.utime(path)

    def path(self, kind: str, key: str, version: int) -> Path:
        """Where the table of this kind, rules fingerprint and format version lives."""
        return self.directory / f"{kind}-{key}-v{version}.tbl"

    def load(self, kind: str, key: str, version: int) -> dict[str, np.ndarray] | None:
        """The cached arrays, ``None`` when absent; raises :class:`CacheError` if corrupt."""
        path = self.path(kind, key, version)
        try:
            blob = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise CacheError(f"cannot read cached table {path}: {exc}") from exc
        arrays = _decode(blob, path, expect={"kind": kind, "key": key, "version": version})
        self._used(path)
        return arrays

    def save(
        self,
        kind: str,
        key: str,
        version: int,
        arrays: Mapping[str, np.ndarray],
        meta: Mapping[str, object] | None = None,
    ) -> Path:
        """Write the arrays atomically (temporary file, fsync, rename)."""
        path = self.path(kind, key, version)
        blob = _encode(arrays, {"kind": kind, "key": key, "version": version, **(meta or {})})
        self.directory.mkdir(parents=True, exist_ok=True)
        write_atomic(path, blob)
        self.trim(keep=path)
        return path

    def mapped_path(self, kind: str, key: str, version: int) -> Path:
        """Where the memory-mapped table of this kind, fingerprint and version lives."""
        return self.directory / f"{kind}-{key}-v{version}.mtbl"

    def open_mapped(self, kind: str, key: str, version: int) -> MappedTable | None:
        """The memory-mapped table, ``None`` when absent (see :class:`MappedTable`);
        :class:`CacheError` if its structure is corrupt."""
        path = self.mapped_path(kind, key, version)
        try:
            table = _open_mapped(path, {"kind": kind, "key": key, "version": version})
            self._used(path)
            return table
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise CacheError(f"cannot read cached table {path}: {exc}") from exc

    def load_or_build_mapped(
        self,
        kind: str,
        key: str,
        version: int,
        build: Callable[[TableWriter], None],
        meta: Mapping[str, object] | None = None,
    ) -> tuple[MappedTable, bool]:
        """Open the memory-mapped table, or build it (``build`` fills a
        :class:`TableWriter`) and open it.

        A file whose structure is corrupt (bad magic, truncated, wrong header) is
        rebuilt with a warning; a bad segment is reported when it is first read.
        """
        table = _unless_corrupt(lambda: self.open_mapped(kind, key, version))
        if table is not None:
            return table, True
        path = self.mapped_path(kind, key, version)
        head = {"kind": kind, "key": key, "version": version, **(meta or {})}
        try:
            writer = TableWriter(path, head)
        except OSError as exc:
            fallback = Path(tempfile.mkdtemp(prefix="stratagem-"))
            warnings.warn(
                f"could not write the table cache in {self.directory}: {exc}; using {fallback}",
                stacklevel=2,
            )
            path = fallback / path.name
            writer = TableWriter(path, head)
        try:
            build(writer)
            writer.commit()
        except BaseException:
            writer.abort()
            raise
        table = _open_mapped(path, {"kind": kind, "key": key, "version": version})
        if path.parent == self.directory:
            self.trim(keep=path)  # after opening: a table too large to keep stays mapped
        return table, False

    def load_or_build(
        self,
        kind: str,
        key: str,
        version: int,
        build: Callable[[], Mapping[str, np.ndarray]],
        meta: Mapping[str, object] | None = None,
        save: bool = True,
    ) -> tuple[dict[str, np.ndarray], bool]:
        """Load the table, or build and save it (``save=False``: build it only, for a
        table that is not to be kept on disk). A corrupt file is rebuilt with a warning.

        If the cache directory cannot be written, the freshly built table is
        still returned (with a warning); the solve is not lost.
        """
        cached = _unless_corrupt(lambda: self.load(kind, key, version))
        if cached is not None:
            return cached, True
        arrays = {name: np.ascontiguousarray(a) for name, a in build().items()}
        if not save:
            return arrays, False
        try:
            self.save(kind, key, version, arrays, meta)
        except OSError as exc:
            warnings.warn(
                f"could not write the table cache in {self.directory}: {exc}", stacklevel=2
            )
        return arrays, False


def _unless_corrupt(load: Callable[[], T | None]) -> T | None:
    """What ``load`` finds in the cache; a corrupt entry (:class:`CacheError`) is
    reported as a warning to the cache's caller and treated as absent (rebuilt)."""
    try:
        return load()
    except CacheError as exc:
        warnings.warn(f"{exc}; rebuilding it", stacklevel=4)
        return None


def _encode(arrays: Mapping[str, np.ndarray], meta: Mapping[str, object]) -> bytes:
    entries = []
    chunks = []
    offset = 0
    for name, array in arrays.items():
        data = np.ascontiguousarray(array)
        raw = data.tobytes()
        entries.append(
            {
                "name": name,
                "dtype": data.dtype.str,
                "shape": list(data.shape),
                "offset": offset,
                "nbytes": len(raw),
            }
        )
        chunks.append(raw)
        offset += len(raw)
    payload = b"".join(chunks)
    header = dict(meta)
    header["arrays"] = entries
    header["payload_bytes"] = len(payload)
    header["sha256"] = hashlib.sha256(payload).hexdigest()
    head = json.dumps(header, sort_keys=True).encode()
    return MAGIC + len(head).to_bytes(8, "little") + head + payload


def _decode(blob: bytes, path: Path, expect: Mapping[str, object]) -> dict[str, np.ndarray]:
    def corrupt(why: str) -> CacheError:
        return CacheError(f"cached table {path} is corrupt ({why})")

    if len(blob) < 16 or blob[:8] != MAGIC:
        raise corrupt("bad magic bytes")
    head_len = int.from_bytes(blob[8:16], "little")
    if 16 + head_len > len(blob):
        raise corrupt("header runs past the end of the file")
    try:
        header = json.loads(blob[16 : 16 + head_len])
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise corrupt(f"unreadable header: {exc}") from exc
    if not isinstance(header, dict):
        raise corrupt("header is not an object")
    for field, value in expect.items():
        if header.get(field) != value:
            raise corrupt(f"header says {field}={header.get(field)!r}, expected {value!r}")
    payload = memoryview(blob)[16 + head_len :]
    if len(payload) != header.get("payload_bytes"):
        raise corrupt(f"payload is {len(payload)} bytes, header says {header.get('payload_bytes')}")
    if hashlib.sha256(payload).hexdigest() != header.get("sha256"):
        raise corrupt("checksum mismatch")
    arrays: dict[str, np.ndarray] = {}
    try:
        for entry in header["arrays"]:
            start = int(entry["offset"])
            stop = start + int(entry["nbytes"])
            array = np.frombuffer(payload[start:stop], dtype=np.dtype(entry["dtype"]))
            arrays[str(entry["name"])] = array.reshape(entry["shape"]).copy()
    except (KeyError, TypeError, ValueError) as exc:
        raise corrupt(f"bad array entry: {exc}") from exc
    return arrays


# ---------------------------------------------------------------------------
# Memory-mapped tables: a cache hit is a memory map, checked piece by piece.
#
# Layout: an 8-byte magic, the 8-byte little-endian offset and 8-byte length
# of a JSON header kept at the end of the file, then the arrays, each
# starting on a 64-byte boundary. An array is stored as consecutive
# *segments* (at most ``SEGMENT_BYTES`` each, or one per ``append``), each
# with its CRC-32 in the header. Opening a file checks the magic, the header
# and the file's length only; a segment's checksum is checked the first time
# a caller asks for the part of the array that holds it, so corruption is
# found before a wrong number is used, and a reader pays only for what it reads.

MAPPED_MAGIC = b"STRTGM2\n"
SEGMENT_BYTES = 4 << 20
MAX_HEADER_BYTES = 64 << 20
_ALIGN = 64


class MappedTable:
    """An opened memory-mapped table (see :meth:`TableCache.open_mapped`).

    >>> import numpy as np, tempfile, pathlib
    >>> cache = TableCache(pathlib.Path(tempfile.mkdtemp()))
    >>> def build(w: TableWriter) -> None:
    ...     w.append("v", np.arange(3.0))
    ...     w.append("v", np.arange(2.0))
    >>> table, hit = cache.load_or_build_mapped("demo", "abc", 1, build)
    >>> hit, table.array("v").tolist()
    (False, [0.0, 1.0, 2.0, 0.0, 1.0])
    """

    def __init__(self, path: Path, header: dict[str, Any], mapped: np.ndarray) -> None:
        self.path = path
        self.header = header
        self._mapped = mapped
        self._entries: dict[str, dict[str, Any]] = {str(e["name"]): e for e in header["arrays"]}
        self._checked: set[tuple[str, int]] = set()

    @property
    def names(self) -> list[str]:
        return list(self._entries)

    @property
    def nbytes(self) -> int:
        """The file's size."""
        return int(self._mapped.nbytes)

    def _corrupt(self, why: str) -> CacheError:
        return CacheError(
            f"cached table {self.path} is corrupt ({why}); delete it to have it rebuilt"
        )

    def _entry(self, name: str) -> dict[str, Any]:
        try:
            return self._entries[name]
        except KeyError:
            raise self._corrupt(f"it has no array {name!r}") from None

    def view(self, name: str) -> np.ndarray:
        """The array without checking it (see :meth:`verify`); copy-on-write, never written back."""
        e = self._entry(name)
        start = int(e["offset"])
        stop = start + int(e["nbytes"])
        raw = self._mapped[start:stop]
        return raw.view(np.dtype(str(e["dtype"]))).reshape(e["shape"])

    def verify(self, name: str, start: int = 0, stop: int | None = None) -> None:
        """Check the segments holding elements ``start:stop`` of the flattened array.

        Raises :class:`CacheError` on a checksum mismatch; a segment is checked once.
        """
        e = self._entry(name)
        itemsize = np.dtype(str(e["dtype"])).itemsize
        total = int(e["nbytes"])
        lo = max(0, start) * itemsize
        hi = total if stop is None else min(total, stop * itemsize)
        base = int(e["offset"])
        segments: list[list[int]] = e["segments"]
        for i, (seg_start, seg_bytes, crc) in enumerate(segments):
            if seg_start + seg_bytes <= lo or seg_start >= hi or (name, i) in self._checked:
                continue
            chunk = self._mapped[base + seg_start : base + seg_start + seg_bytes].data
            if zlib.crc32(chunk) != crc:
                raise self._corrupt(f"checksum of {name!r} segment {i} does not match")
            self._checked.add((name, i))

    def array(self, name: str) -> np.ndarray:
        """The whole array, every segment checked first."""
        self.verify(name)
        return self.view(name)


STALE_SECONDS = 6 * 3600
"""A build writes its temporary file at least once a layer; one untouched this long
was left by a build that was killed (not interrupted: Ctrl-C removes its own)."""


def _remove_stale(path: Path) -> None:
    """Delete the temporary files of killed builds of ``path`` (up to a table's size each)."""
    now = time.time()
    for tmp in path.parent.glob(glob.escape(path.name) + "*.tmp"):
        try:
            if now - tmp.stat().st_mtime > STALE_SECONDS:
                tmp.unlink()
        except OSError:  # another process removed it, or it is not ours to remove
            pass


class TableWriter:
    """Writes a memory-mapped table to a temporary file; :meth:`commit` renames it into place.

    ``append(name, a)`` adds ``a`` as one or more segments of the 1-D array
    ``name`` (its appends must follow one another); ``put(name, a)`` stores a
    whole array of any shape. Use it through :meth:`TableCache.load_or_build_mapped`.
    """

    def __init__(self, path: Path, meta: Mapping[str, object]) -> None:
        self.path = path
        self.meta = dict(meta)
        path.parent.mkdir(parents=True, exist_ok=True)
        _remove_stale(path)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
        self._tmp = Path(tmp)
        self._handle = os.fdopen(fd, "wb")
        self._handle.write(MAPPED_MAGIC + bytes(16))
        self._pos = len(MAPPED_MAGIC) + 16
        self._entries: list[dict[str, Any]] = []
        self._names: set[str] = set()

    def _start(self, name: str, dtype: np.dtype, shape: list[int]) -> dict[str, Any]:
        if name in self._names:
            raise ValueError(f"array {name!r} written twice")
        pad = -self._pos % _ALIGN
        self._handle.write(bytes(pad))
        self._pos += pad
        entry: dict[str, Any] = {"name": name, "dtype": dtype.str, "shape": shape,
                                    "offset": self._pos, "nbytes": 0, "segments": []}  # fmt: skip
        self._entries.append(entry)
        self._names.add(name)
        return entry

    def _write(self, entry: dict[str, Any], data: np.ndarray) -> None:
        raw = np.ascontiguousarray(data).view(np.uint8).reshape(-1).data
        segments: list[list[int]] = entry["segments"]
        for lo in range(0, max(len(raw), 1), SEGMENT_BYTES):
            piece = raw[lo : lo + SEGMENT_BYTES]
            segments.append([int(entry["nbytes"]), len(piece), zlib.crc32(piece)])
            self._handle.write(piece)
            entry["nbytes"] = int(entry["nbytes"]) + len(piece)
            self._pos += len(piece)

    def append(self, name: str, data: np.ndarray) -> None:
        """Add ``data`` (flattened) to the end of the 1-D array ``name``."""
        data = np.asarray(data)
        last = self._entries[-1] if self._entries else None
        if last is None or last["name"] != name:
            last = self._start(name, data.dtype, [0])
        elif np.dtype(str(last["dtype"])) != data.dtype:
            raise ValueError(f"array {name!r} mixes {last['dtype']} and {data.dtype.str}")
        self._write(last, data.reshape(-1))
        last["shape"] = [int(last["nbytes"]) // data.dtype.itemsize]

    def put(self, name: str, data: np.ndarray) -> None:
        """Store a whole array of any shape."""
        data = np.asarray(data)
        entry = self._start(name, data.dtype, list(data.shape))
        self._write(entry, data)

    def commit(self) -> Path:
        """Write the header, flush to disk and rename the file into place."""
        header = dict(self.meta)
        header["arrays"] = self._entries
        head = json.dumps(header, sort_keys=True).encode()
        self._handle.write(head)
        self._handle.seek(len(MAPPED_MAGIC))
        self._handle.write(self._pos.to_bytes(8, "little") + len(head).to_bytes(8, "little"))
        self._handle.flush()
        os.fsync(self._handle.fileno())
        self._handle.close()
        os.replace(self._tmp, self.path)
        return self.path

    def abort(self) -> None:
        if not self._handle.closed:
            self._handle.close()
        self._tmp.unlink(missing_ok=True)


def _open_mapped(path: Path, expect: Mapping[str, object]) -> MappedTable:
    def corrupt(why: str) -> CacheError:
        return CacheError(f"cached table {path} is corrupt ({why})")

    size = path.stat().st_size
    with path.open("rb") as handle:
        prologue = handle.read(len(MAPPED_MAGIC) + 16)
        if len(prologue) < len(MAPPED_MAGIC) + 16 or prologue[: len(MAPPED_MAGIC)] != MAPPED_MAGIC:
            raise corrupt("bad magic bytes")
        head_at = int.from_bytes(prologue[8:16], "little")
        head_len = int.from_bytes(prologue[16:24], "little")
        if head_len > MAX_HEADER_BYTES or head_at + head_len != size or head_at < 24:
            raise corrupt(f"the file is {size} bytes, its header says {head_at + head_len}")
        handle.seek(head_at)
        try:
            header = json.loads(handle.read(head_len))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise corrupt(f"unreadable header: {exc}") from exc
    if not isinstance(header, dict) or not isinstance(header.get("arrays"), list):
        raise corrupt("header is not an object with arrays")
    for field, value in expect.items():
        if header.get(field) != value:
            raise corrupt(f"header says {field}={header.get(field)!r}, expected {value!r}")
    try:
        for e in header["arrays"]:
            off, nbytes = int(e["offset"]), int(e["nbytes"])
            dtype = np.dtype(str(e["dtype"]))
            count = int(np.prod(e["shape"], dtype=np.int64))
            if off < 24 or off + nbytes > head_at or count * dtype.itemsize != nbytes:
                raise corrupt(f"array {e['name']!r} does not fit the file")
            if sum(int(s[1]) for s in e["segments"]) != nbytes:
                raise corrupt(f"the segments of {e['name']!r} do not cover it")
    except (KeyError, TypeError, ValueError) as exc:
        raise corrupt(f"bad array entry: {exc}") from exc
    mapped = np.memmap(path, dtype=np.uint8, mode="c", shape=(size,))
    return MappedTable(path, header, mapped)


class SolvedMemo:
    """Solved tables kept in memory, shared by everyone who asks for the same rules.

    Keyed by a rules fingerprint (or any hashable key), bounded in bytes: adding a table
    drops the least recently used ones until the total fits ``max_bytes`` (a table larger
    than the whole bound is returned but not kept). One solve per key at a time: a second
    caller of a key being solved waits for the first and shares its table, so twenty web
    sessions of one variant hold one table, not twenty.

    >>> memo = SolvedMemo(max_bytes=100)
    >>> a = memo.get_or_solve("a", lambda: np.zeros(10), nbytes=lambda t: t.nbytes)  # 80 bytes
    >>> memo.get_or_solve("a", lambda: None) is a, memo.nbytes
    (True, 80)
    >>> b = memo.get_or_solve("b", lambda: np.zeros(5), nbytes=lambda t: t.nbytes)  # 40: a goes
    >>> "a" in memo, "b" in memo, memo.nbytes
    (False, True, 40)
    """

    def __init__(self, max_bytes: int) -> None:
        if max_bytes < 1:
            raise ValueError(f"max_bytes must be at least 1, got {max_bytes}")
        self.max_bytes = max_bytes
        self._items: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self._solving: dict[Hashable, threading.Lock] = {}
        self._lock = threading.Lock()
        self.nbytes = 0
        self.solves = 0

    def __contains__(self, key: Hashable) -> bool:
        with self._lock:
            return key in self._items

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)

    def get(self, key: Hashable) -> Any:
        """The kept table of ``key`` (marked as recently used), or ``None``."""
        with self._lock:
            found = self._items.get(key)
            if found is None:
                return None
            self._items.move_to_end(key)
            return found[0]

    def get_or_solve(
        self, key: Hashable, solve: Callable[[], T], nbytes: Callable[[T], int] | None = None
    ) -> T:
        """The table of ``key``: kept, or made by ``solve()`` once (concurrent callers of
        the same key wait for it) and kept within the byte bound."""
        found = self.get(key)
        if found is not None:
            return found  # type: ignore[no-any-return]
        with self._lock:
            lock = self._solving.setdefault(key, threading.Lock())
        with lock:
            found = self.get(key)
            if found is not None:
                return found  # type: ignore[no-any-return]
            table = solve()
            self.solves += 1
            size = int(nbytes(table)) if nbytes is not None else _nbytes(table)
            with self._lock:
                self._solving.pop(key, None)
                if size <= self.max_bytes:
                    while self._items and self.nbytes + size > self.max_bytes:
                        _old, (_t, old_size) = self._items.popitem(last=False)
                        self.nbytes -= old_size
                    self._items[key] = (table, size)
                    self.nbytes += size
            return table


def _nbytes(table: object) -> int:
    """Bytes of the numpy arrays a table holds (its attributes, one level deep)."""
    if isinstance(table, np.ndarray):
        return int(table.nbytes)
    fields = vars(table) if hasattr(table, "__dict__") else {}
    return int(sum(v.nbytes for v in fields.values() if isinstance(v, np.ndarray)))


DEFAULT_MEMO_BYTES = 1 << 30
"""Bound of the process's memo of solved tables (1 GiB: Yahtzee's few hundred MB and
many Pig variants fit)."""

_PROCESS_MEMO = SolvedMemo(DEFAULT_MEMO_BYTES)


def solved_memo() -> SolvedMemo:
    """The process's one memo of solved tables, keyed by ``(game, rules fingerprint)``.

    Every agent, coach, command and web route that needs a game's solved table asks here
    (through the game's ``solution(rules)``), so a table is solved or loaded once per
    process and held once, however many sessions, agents and pages use it.
    """
    return _PROCESS_MEMO


def solved(game: str, fingerprint: str, solve: Callable[[], T]) -> T:
    """The solved table of ``game`` under the rules with ``fingerprint``, from the
    process's memo (:func:`solved_memo`), made by ``solve()`` the first time.

    >>> a = solved("doc-example", "f00d", lambda: np.zeros(4))
    >>> solved("doc-example", "f00d", lambda: np.ones(4)) is a
    True
    """
    return _PROCESS_MEMO.get_or_solve((game, fingerprint), solve)


_LARGE_BUILDS: ContextVar[bool] = ContextVar("stratagem_large_builds", default=True)
_CUSTOM_SAVED: ContextVar[bool] = ContextVar("stratagem_custom_tables_saved", default=True)


def custom_tables_saved() -> bool:
    """Whether a solved table of rules that are not a named preset may be written to the
    on-disk cache: yes for the library and the terminal (the user's own variants, on their
    own disk); no inside a web request, where any client names any variant and would fill
    the cache with tables of its choosing. Those stay in the process's memo
    (:func:`solved_memo`, bounded in bytes); a preset's table is saved either way."""
    return _CUSTOM_SAVED.get()


@contextlib.contextmanager
def no_custom_tables_saved() -> Iterator[None]:
    """Within this block (and the pools' work that copies the context),
    :func:`custom_tables_saved` is False."""
    token = _CUSTOM_SAVED.set(False)
    try:
        yield
    finally:
        _CUSTOM_SAVED.reset(token)


def large_builds_allowed() -> bool:
    """Whether the running code may build a large table where it is first needed (minutes,
    a gigabyte): yes for the library and the terminal; no inside a web request, where a
    person waits and the server builds such tables as background jobs instead."""
    return _LARGE_BUILDS.get()


@contextlib.contextmanager
def no_large_builds() -> Iterator[None]:
    """Within this block (and the work it hands to pools that copy the context, as the web
    layer's do), :func:`large_builds_allowed` is False."""
    token = _LARGE_BUILDS.set(False)
    try:
        yield
    finally:
        _LARGE_BUILDS.reset(token)
