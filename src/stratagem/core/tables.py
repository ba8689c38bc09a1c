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

import hashlib
import json
import os
import tempfile
import warnings
from collections.abc import Callable, Mapping
from pathlib import Path

import numpy as np
import platformdirs

from stratagem.core.errors import CacheError

MAGIC = b"STRTGM1\n"
ENV_VAR = "STRATAGEM_CACHE_DIR"


def default_cache_dir() -> Path:
    """``$STRATAGEM_CACHE_DIR`` if set, else the platform's user cache directory."""
    override = os.environ.get(ENV_VAR)
    if override:
        return Path(override)
    return Path(platformdirs.user_cache_dir("stratagem", appauthor=False))


def fingerprint(description: Mapping[str, object]) -> str:
    """A short stable hash of a JSON-able description of rules (key order ignored)."""
    canonical = json.dumps(description, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]


class TableCache:
    """A directory of solved tables.

    ``load_or_build(kind, key, version, build)`` returns ``(arrays, cache_hit)``.
    """

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = Path(directory) if directory is not None else default_cache_dir()

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
        return _decode(blob, path, expect={"kind": kind, "key": key, "version": version})

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
        fd, tmp_name = tempfile.mkstemp(dir=self.directory, prefix=path.name, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(blob)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp_name, path)
        except BaseException:
            Path(tmp_name).unlink(missing_ok=True)
            raise
        return path

    def load_or_build(
        self,
        kind: str,
        key: str,
        version: int,
        build: Callable[[], Mapping[str, np.ndarray]],
        meta: Mapping[str, object] | None = None,
    ) -> tuple[dict[str, np.ndarray], bool]:
        """Load the table, or build and save it. A corrupt file is rebuilt with a warning.

        If the cache directory cannot be written, the freshly built table is
        still returned (with a warning); the solve is not lost.
        """
        try:
            cached = self.load(kind, key, version)
        except CacheError as exc:
            warnings.warn(f"{exc}; rebuilding it", stacklevel=2)
            cached = None
        if cached is not None:
            return cached, True
        arrays = {name: np.ascontiguousarray(a) for name, a in build().items()}
        try:
            self.save(kind, key, version, arrays, meta)
        except OSError as exc:
            warnings.warn(
                f"could not write the table cache in {self.directory}: {exc}", stacklevel=2
            )
        return arrays, False


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
