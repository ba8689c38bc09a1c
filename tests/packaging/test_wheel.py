"""The wheel and the sdist carry every file the installed program reads, the licence and the
notices; installed from the wheel in a fresh venv, the program runs and serves every page."""

from __future__ import annotations

import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"
# One xdist worker builds both the wheel and the sdist: the two builds write the same
# build/ and egg-info folders in the tree.
pytestmark = pytest.mark.xdist_group("packaging")

DATA_FOLDERS = [
    SRC / "stratagem" / "web" / "static",
    SRC / "stratagem" / "games" / "scrabble" / "data",
]
"""The folders of files the program reads besides code (pages, Scrabble tables, word lists)."""


def _package_files() -> set[str]:
    """Every file of the package that an install needs, as a path inside the wheel."""
    files = {p for p in (SRC / "stratagem").rglob("*.py")}
    for folder in DATA_FOLDERS:
        files |= {p for p in folder.rglob("*") if p.is_file()}
    files.add(SRC / "stratagem" / "py.typed")
    return {
        p.relative_to(SRC).as_posix()
        for p in files
        if "__pycache__" not in p.parts and not p.name.startswith(".")
    }


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    cmd = [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q", "-w", str(out)]
    subprocess.run(cmd, check=True, capture_output=True, timeout=600)
    (built,) = out.glob("stratagem-*.whl")
    return built


def test_the_wheel_holds_every_file_the_program_reads(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = _package_files() - names
    assert not missing, f"the wheel leaves out {sorted(missing)}"
    assert "stratagem/web/static/index.html" in names  # `stratagem serve` failed without it
    assert "stratagem/games/scrabble/data/enable1.fc.gz" in names


def test_the_wheel_declares_the_licence_and_carries_the_notices(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as whl:
        info = next(n for n in whl.namelist() if n.endswith(".dist-info/METADATA"))
        metadata = whl.read(info).decode()
        licences = {Path(n).name for n in whl.namelist() if ".dist-info/licenses/" in n}
        notice = whl.read(next(n for n in whl.namelist() if n.endswith("licenses/NOTICE")))
    assert "License-Expression: MIT" in metadata.splitlines()
    assert licences == {"LICENSE", "NOTICE"}
    assert b"ENABLE" in notice and b"public domain" in notice


def test_the_sdist_holds_the_sources_data_and_notices(tmp_path: Path) -> None:
    # pip builds no sdist; setuptools' own backend does, in a throwaway venv.
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    python = venv / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check",
         "setuptools>=77"],
        check=True, capture_output=True, timeout=600,
    )  # fmt: skip
    out = tmp_path / "sdist"
    build = (
        "import sys; from setuptools import build_meta; print(build_meta.build_sdist(sys.argv[1]))"
    )
    made = subprocess.run(
        [str(python), "-c", build, str(out)], cwd=ROOT, check=True, capture_output=True,
        text=True, timeout=600,
    )  # fmt: skip
    sdist = out / made.stdout.strip().splitlines()[-1]
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    wanted = {f"src/{p}" for p in _package_files()} | {
        "LICENSE", "NOTICE", "README.md", "pyproject.toml", "scripts/build_enable.py",
    }  # fmt: skip
    missing = wanted - names
    assert not missing, f"the sdist leaves out {sorted(missing)}"


@pytest.mark.slow
def test_the_installed_wheel_runs_every_game_and_serves_every_page(wheel: Path) -> None:
    """scripts/smoke_wheel.py, which .ci/run also runs on every CI run (minutes: a fresh
    venv, numba compiling for each game)."""
    script = ROOT / "scripts" / "smoke_wheel.py"
    done = subprocess.run(
        [sys.executable, str(script), "--wheel", str(wheel)], capture_output=True, text=True,
        timeout=3000,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "wheel smoke test passed" in done.stdout
    for page in ("/", "/yahtzee", "/pig", "/scorefour", "/scrabble", "/static/common.js"):
        assert f"200 {page}\n" in done.stdout, page
