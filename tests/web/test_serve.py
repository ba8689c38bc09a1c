"""`stratagem serve` refuses an address it cannot listen on before it says it is running."""

from __future__ import annotations

import socket

import pytest

from stratagem.core.errors import StratagemError
from stratagem.web.serve import check_listen, serve


@pytest.mark.parametrize(
    ("host", "message"),
    [
        ("", "--host must name an address"),
        ("   ", "--host must name an address"),
        ("999.1.1.1", "is not an address to listen on"),
        ("no-such-host.invalid", "is not an address to listen on"),
    ],
)
def test_an_address_that_cannot_be_listened_on_is_refused(host: str, message: str) -> None:
    with pytest.raises(StratagemError, match=message):
        check_listen(host, 8765)


def test_a_port_in_use_is_refused_before_the_server_says_it_runs(capsys) -> None:  # type: ignore[no-untyped-def]
    """It printed "Stratagem is running at ..." and then failed in uvicorn (exit 3)."""
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        with pytest.raises(StratagemError, match=f"cannot listen on 127.0.0.1:{port}"):
            serve("127.0.0.1", port)
    assert "running" not in capsys.readouterr().out


def test_a_free_port_passes() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    check_listen("127.0.0.1", port)  # no error: nothing listens there now
    with socket.socket() as again:  # and the check left nothing bound behind it
        again.bind(("127.0.0.1", port))
