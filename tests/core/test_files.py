"""Reading user files: size-limited, never blocking, with named errors."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from stratagem.core.errors import StratagemError
from stratagem.core.files import (
    MAX_INPUT_LINE,
    FileInputError,
    check_writable_target,
    json_format_of,
    parse_json_document,
    prepare_folder,
    read_user_bytes,
    read_user_text,
    replacing,
    write_atomic,
    write_json,
)


def test_an_endless_input_is_refused_at_the_limit() -> None:
    with pytest.raises(FileInputError, match="larger than 1000 bytes"):
        read_user_bytes("/dev/zero", limit=1000, what="rule table")


def test_a_named_pipe_without_a_writer_reads_as_empty_instead_of_blocking(
    tmp_path: Path,
) -> None:
    os.mkfifo(tmp_path / "p")
    assert read_user_bytes(tmp_path / "p", limit=10) == b""


def test_a_folder_a_missing_file_and_a_path_under_a_file_are_named(tmp_path: Path) -> None:
    with pytest.raises(FileInputError, match="is a folder; name a file"):
        read_user_text(tmp_path, limit=10, what="position")
    with pytest.raises(FileInputError, match=r"position .* does not exist"):
        read_user_text(tmp_path / "nope", limit=10, what="position")
    (tmp_path / "f").write_text("x")
    with pytest.raises(FileInputError, match="is a file, not a folder"):
        read_user_text(tmp_path / "f" / "g", limit=10)


def test_text_must_be_utf8_and_the_line_is_named(tmp_path: Path) -> None:
    (tmp_path / "t").write_bytes(b"ok\nok\nbad \xff\n")
    with pytest.raises(FileInputError, match=r"not UTF-8 text .*line 3"):
        read_user_text(tmp_path / "t", limit=100)


def test_a_write_target_needs_an_existing_folder_and_a_regular_file(tmp_path: Path) -> None:
    assert check_writable_target(tmp_path / "new.csv") == tmp_path / "new.csv"
    with pytest.raises(FileInputError, match="does not exist"):
        check_writable_target(tmp_path / "a" / "b.csv")
    with pytest.raises(FileInputError, match="is a folder"):
        check_writable_target(tmp_path)
    with pytest.raises(FileInputError, match="not a regular file"):
        check_writable_target(Path("/dev/null"))


def test_write_atomic_replaces_a_file_whole(tmp_path: Path) -> None:
    path = tmp_path / "out.bin"
    path.write_bytes(b"old")
    write_atomic(path, b"new contents")
    assert path.read_bytes() == b"new contents"
    assert [p.name for p in tmp_path.iterdir()] == ["out.bin"]


def test_an_interrupted_replacement_leaves_the_old_file_byte_for_byte(tmp_path: Path) -> None:
    path = tmp_path / "out.bin"
    path.write_bytes(b"old")
    with pytest.raises(KeyboardInterrupt), replacing(path) as tmp:
        tmp.write_bytes(b"half")
        raise KeyboardInterrupt
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.bin"]


def test_a_path_with_a_nul_byte_is_a_named_error() -> None:
    with pytest.raises(FileInputError, match="NUL byte"):
        read_user_text("rules\x00.txt", limit=100)
    with pytest.raises(FileInputError, match="NUL byte"):
        check_writable_target("out\x00.csv")


def test_prepare_folder_makes_missing_folders_and_refuses_files(tmp_path) -> None:  # type: ignore[no-untyped-def]
    nested = tmp_path / "a" / "b" / "run"
    assert prepare_folder(nested, "run folder") == nested and nested.is_dir()
    assert prepare_folder(nested, "run folder") == nested  # an existing folder: resumed
    note = tmp_path / "note.txt"
    note.write_bytes(b"keep\n")
    with pytest.raises(FileInputError, match=r"run folder .*note\.txt exists and is not a folder"):
        prepare_folder(note, "run folder")
    with pytest.raises(FileInputError, match=r"cannot use run folder .*inside: Not a directory"):
        prepare_folder(note / "inside", "run folder")
    with pytest.raises(FileInputError, match="is not a folder"):
        prepare_folder("/dev/null", "run folder")
    with pytest.raises(FileInputError, match="NUL"):
        prepare_folder(str(tmp_path / "x\x00y"), "run folder")
    assert note.read_bytes() == b"keep\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a", "note.txt"]


def test_a_file_no_file_can_be_made_beside_is_refused_before_work() -> None:
    """`/proc/self` is a folder, but no file can be made in it (as in a read-only folder):
    learn-leaves and arena run wrote nothing there only after all their work."""
    with pytest.raises(FileInputError, match="no file can be made in /proc/self"):
        check_writable_target("/proc/self/results.csv", "results file")
    with pytest.raises(FileInputError, match="cannot write /proc/self/x"):
        write_atomic("/proc/self/x", b"data")


def test_a_symbolic_link_is_never_written_through(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Issue 33: a link as --out had the write land on the file it names."""
    target = tmp_path / "important.py"
    target.write_bytes(b"import os\n")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    with pytest.raises(FileInputError, match="symbolic link"):
        check_writable_target(link, "leave file")
    with pytest.raises(FileInputError, match="symbolic link"):
        write_atomic(link, b"new\n")
    assert link.is_symlink() and target.read_bytes() == b"import os\n"


def test_a_file_stratagem_did_not_write_is_not_replaced(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Issue 33: learn-leaves --out important.py replaced a source file with JSON."""
    source = tmp_path / "important.py"
    source.write_bytes(b"import os\n")
    ours = json_format_of("stratagem-scrabble-leaves")
    with pytest.raises(FileInputError, match="not a leave file Stratagem wrote"):
        check_writable_target(source, "leave file", ours)
    with pytest.raises(FileInputError, match="not a leave file Stratagem wrote"):
        write_json(source, {"format": "stratagem-scrabble-leaves"}, what="leave file")
    assert source.read_bytes() == b"import os\n"
    write_json(tmp_path / "new.json", {"format": "stratagem-scrabble-leaves", "n": 1})
    write_json(tmp_path / "new.json", {"format": "stratagem-scrabble-leaves", "n": 2})  # its own
    assert b'"n": 2' in (tmp_path / "new.json").read_bytes()
    assert check_writable_target(tmp_path / "new.json", "leave file", ours)


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can replace a device node")
def test_a_device_is_never_replaced(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(FileInputError, match="not a regular file"):
        write_atomic("/dev/null", b"x")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_replacing_a_file_keeps_its_mode(tmp_path) -> None:  # type: ignore[no-untyped-def]
    target = tmp_path / "target.json"
    target.write_bytes(b"old\n")
    target.chmod(0o644)
    write_atomic(target, b"new\n")
    assert target.read_bytes() == b"new\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o644  # not the temporary file's 0600
    fresh = tmp_path / "fresh.txt"
    write_atomic(fresh, b"x")
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o666 & ~umask


def test_deeply_nested_json_is_refused_by_name() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    with pytest.raises(StratagemError, match="nested too deeply"):
        parse_json_document(deep, "weights file w.json", "x", "weights file", StratagemError)


@pytest.mark.parametrize(
    "args",
    [
        ["pig", "play", "--seed", "1"],
        ["scorefour", "play", "--seed", "1"],
        ["yahtzee", "play", "--seed", "1"],
    ],
)
def test_a_play_command_refuses_an_endless_input_line(args: list[str]) -> None:
    """`stratagem pig play < /dev/zero` grew to 5 GB in 8 s reading one line."""
    from tests.cli_outcome import invoke

    result = invoke(args, stdin="0" * (MAX_INPUT_LINE + 5))
    assert result.exit_code == 2 and "input line is longer than 10,000" in result.stderr
    result = invoke(args, stdin="q\n")  # an ordinary line still reads as before
    assert result.exit_code == 0, result.output


def test_a_piped_line_of_exactly_the_limit_is_read(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import io

    from stratagem.core.files import bounded_input

    monkeypatch.setattr("sys.stdin", io.StringIO("a" * MAX_INPUT_LINE + "\r\n" + "b" * 3))
    assert bounded_input() == "a" * MAX_INPUT_LINE
    assert bounded_input() == "bbb"
    with pytest.raises(EOFError):
        bounded_input()
    monkeypatch.setattr("sys.stdin", io.StringIO("a" * (MAX_INPUT_LINE + 1) + "\n"))
    with pytest.raises(FileInputError, match="longer than 10,000"):
        bounded_input()
