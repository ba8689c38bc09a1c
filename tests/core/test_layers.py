"""core/ imports nothing above it; games from elsewhere come in through the registry's hook."""

from __future__ import annotations

import ast
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

import stratagem.core
from stratagem.core import registry
from stratagem.core.errors import ArenaError
from stratagem.core.registry import GameSpec, load_game, register_game_source

CORE = Path(stratagem.core.__file__).parent
ROOT = Path(__file__).resolve().parents[2]

# The one import of a layer above core that core may make: the package of games,
# whose folders the registry lists (available_games); each game's spec module is then
# imported by name (load_game), which is the registry's discovery.
DISCOVERY = {("registry.py", "stratagem.games")}


def _imports(path: Path) -> Iterator[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module


def test_core_imports_nothing_of_stratagem_above_core() -> None:
    above = [
        (path.name, module)
        for path in sorted(CORE.glob("*.py"))
        for module in _imports(path)
        if module.startswith("stratagem.") and not module.startswith("stratagem.core")
    ]
    assert set(above) <= DISCOVERY, f"core imports a layer above it: {sorted(set(above))}"
    assert above, "the scan found not even the registry's discovery import"


def _named_modules(path: Path) -> Iterator[str]:
    """Module names written as text in code (``importlib.import_module(f"stratagem.games.
    {g}.rules_text")``): an import the import statements do not show. Docstrings are prose,
    not code, and are left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
        ):
            text = node.value
        elif isinstance(node, ast.JoinedStr):
            text = "".join(v.value for v in node.values if isinstance(v, ast.Constant))
        else:
            continue
        for layer in ("stratagem.games", "stratagem.interop", "stratagem.web"):
            if text.startswith(layer):
                yield layer


def test_core_names_no_module_above_it_outside_the_registry_discovery() -> None:
    """Before the play-session work core/rules_text.py imported each game's rules_text by
    name, around the registry; now a game's rules text is a capability of its spec."""
    named = [
        (path.name, layer)
        for path in sorted(CORE.glob("*.py"))
        for layer in _named_modules(path)
        if path.name != "registry.py"
    ]
    assert named == [], f"core names a module above it: {named}"
    assert set(_named_modules(CORE / "registry.py")) == {"stratagem.games"}


@pytest.fixture
def clean_sources(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "_SOURCES", {})


def test_a_registered_source_serves_its_prefix(clean_sources: None) -> None:
    pig = load_game("pig")
    asked: list[str] = []

    def load(name: str) -> GameSpec:
        asked.append(name)
        return pig

    register_game_source("elsewhere", load)
    assert load_game("elsewhere:pig") is pig
    assert asked == ["elsewhere:pig"]


def test_an_unknown_prefix_names_the_problem(clean_sources: None) -> None:
    with pytest.raises(ArenaError, match=r"no installed package offers games named nowhere:"):
        load_game("nowhere:chess")


def test_a_source_is_found_through_installed_entry_points(
    clean_sources: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A package installed with an entry in the group, as pip would lay it out.
    dist = tmp_path / "plugin_pkg-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: plugin-pkg\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(
        f"[{registry.SOURCE_GROUP}]\nplugged = plugin_source:load\n"
    )
    (tmp_path / "plugin_source.py").write_text(
        "from stratagem.core.registry import load_game\n"
        "def load(name):\n    return load_game(name.split(':', 1)[1])\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        assert load_game("plugged:scorefour").name == "scorefour"
    finally:
        sys.modules.pop("plugin_source", None)


def test_the_openspiel_bridge_is_declared_as_an_entry_point() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    group = project["project"]["entry-points"][registry.SOURCE_GROUP]
    module, _, function = group["openspiel"].partition(":")
    source = (ROOT / "src" / Path(*module.split("."))).with_suffix(".py")
    tree = ast.parse(source.read_text(encoding="utf-8"))
    assert function in {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
