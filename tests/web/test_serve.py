"""`stratagem serve` refuses an address it cannot listen on before it says it is running."""

from __future__ import annotations

import socket
from pathlib import Path

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


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@pytest.fixture
def no_server(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """uvicorn.run records its call instead of serving (a check that comes too late shows
    as a started server, not as a test that hangs)."""
    import uvicorn

    started: list[object] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kwargs: started.append(app))
    return started


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read lexicon {path}: it does not exist"),
        ("folder", "cannot read lexicon {path}: it is a folder; name a file"),
        (b"", "lexicon {path} holds no word that the english or czech tiles can spell"),
        (b"\x00" * 64 + b"\n", "lexicon {path} holds no word that the english or czech tiles"),
        (b"\x89PNG\r\n\x1a\n\xff\xfe", "lexicon {path} is not UTF-8 text (byte 0)"),
        (b"CAT\n" * 40, "cannot read lexicon {path}: it is larger than 100 bytes"),
    ],
    ids=["missing", "folder", "empty", "NUL bytes", "binary", "too large"],
)
def test_an_unusable_word_list_is_refused_before_the_server_says_it_runs(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    no_server: list[object],
    content: bytes | str | None,
    message: str,
) -> None:
    """A missing file was refused at startup, but a binary, empty or oversized one was
    served and refused on every Scrabble request that chose it."""
    from stratagem.games.scrabble import lexicon
    from tests.cli_outcome import invoke

    monkeypatch.setattr(lexicon, "LEXICON_LIMIT", 100)
    path = tmp_path / "words.txt"
    if content == "folder":
        path.mkdir()
    elif isinstance(content, bytes):
        path.write_bytes(content)
    result = invoke(["serve", "--port", str(_free_port()), "--lexicon", str(path)])
    assert result.exit_code == 2
    assert f"error: {message.format(path=path)}" in result.stderr
    assert "running" not in result.stdout and not no_server


def test_a_word_list_of_either_tile_set_is_served(tmp_path: Path, no_server: list[object]) -> None:
    from tests.cli_outcome import invoke

    path = tmp_path / "slova.txt"
    path.write_text("\ufeffŽÁBA\nŘEŘICHA\n", encoding="utf-8")  # Czech letters only
    result = invoke(["serve", "--port", str(_free_port()), "--lexicon", str(path)])
    assert result.exit_code == 0, result.output
    assert "Stratagem is running at" in result.stdout and len(no_server) == 1


def test_serve_keeps_games_in_the_data_folder_and_says_where(
    tmp_path: Path, no_server: list[object]
) -> None:
    from fastapi.testclient import TestClient

    from tests.cli_outcome import invoke

    result = invoke(["serve", "--port", str(_free_port()), "--data", str(tmp_path / "d")])
    assert result.exit_code == 0, result.output
    assert f"games are saved in {tmp_path / 'd' / 'games.sqlite3'}" in result.stdout
    (app,) = no_server
    client = TestClient(app)  # type: ignore[arg-type]
    made = client.post("/api/sessions", json={"game": "pig", "seats": ["human", "hold:2"]})
    assert made.json()["storage"]["persistent"]


def test_a_data_path_that_is_a_file_is_refused(tmp_path: Path, no_server: list[object]) -> None:
    from tests.cli_outcome import invoke

    path = tmp_path / "games"
    path.write_text("not a folder")
    result = invoke(["serve", "--port", str(_free_port()), "--data", str(path)])
    assert result.exit_code == 2 and "--data must be a folder" in result.stderr
    assert not no_server


@pytest.mark.parametrize("workers", ["0", "-3", "100000"])
def test_deep_workers_out_of_range_are_refused_before_the_server_starts(
    workers: str, no_server: list[object]
) -> None:
    from tests.cli_outcome import invoke

    result = invoke(["serve", "--port", str(_free_port()), "--deep-workers", workers])
    assert result.exit_code == 2 and "--deep-workers must be 1 to" in result.stderr
    assert not no_server


def test_deep_workers_reach_the_app(no_server: list[object]) -> None:
    from stratagem.games.scrabble.sim_pool import cores
    from tests.cli_outcome import invoke

    workers = min(2, cores())
    result = invoke(["serve", "--port", str(_free_port()), "--deep-workers", str(workers)])
    assert result.exit_code == 0, result.output
    (app,) = no_server
    assert app.state.settings.deep_workers == workers  # type: ignore[attr-defined]
