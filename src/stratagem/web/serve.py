"""``stratagem serve``: run the web app with uvicorn."""

from __future__ import annotations

import ipaddress
import socket
from pathlib import Path

from stratagem.core.errors import StratagemError


def check_port(port: int) -> int:
    if not 1 <= port <= 65535:
        raise StratagemError(f"--port must be 1..65535, got {port}")
    return port


def check_listen(host: str, port: int) -> None:
    """Refuse, before the server says it is running, an address this machine cannot
    listen on: an empty or unknown host, or a port already in use."""
    if not host.strip():
        raise StratagemError("--host must name an address, e.g. 127.0.0.1")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        reason = getattr(exc, "strerror", None) or exc
        raise StratagemError(f"--host {host!r} is not an address to listen on ({reason})") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            raise StratagemError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    lexicon: Path | None = None,
    data: Path | None = None,
    deep_workers: int = 1,
) -> None:
    """Start the server in the foreground (Ctrl-C stops it). Games are saved in
    ``data/games.sqlite3`` (default: the per-user data folder); a folder that cannot be
    used is said at start-up, and the games then live in memory only."""
    check_port(port)
    from stratagem.games.scrabble.sim_pool import cores

    if isinstance(deep_workers, bool) or not 1 <= deep_workers <= cores():
        raise StratagemError(f"--deep-workers must be 1 to {cores()} (the cores this machine "
                             f"gives the process), got {deep_workers}")  # fmt: skip
    if data is not None and data.exists() and not data.is_dir():
        raise StratagemError(f"--data must be a folder, and {data} is a file")
    try:
        import uvicorn

        from stratagem.web.app import create_app
    except ImportError as exc:
        raise StratagemError(
            f"the web page needs the 'web' extra ({exc.name} is missing): "
            "pip install 'stratagem[web]'"
        ) from None
    check_listen(host, port)
    from stratagem.core.store import GameStore

    store = GameStore.in_folder(data)
    # compiles in the background
    app = create_app(lexicon=lexicon, warm_kernels=True, data=store, deep_workers=deep_workers)
    shown = f"[{host}]" if _is_ipv6(host) else host
    print(f"Stratagem is running at http://{shown}:{port}/  (Ctrl-C stops it)", flush=True)
    print(
        f"games: {store.status.message}"
        if store.persistent
        else f"warning: {store.status.message}",
        flush=True,
    )
    if host not in ("127.0.0.1", "localhost", "::1"):
        print(f"warning: listening on {host}: other machines can reach this server", flush=True)
    uvicorn.run(app, host=host, port=port, log_level="warning")


def _is_ipv6(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).version == 6
    except ValueError:
        return False
