"""The browser tests share their helpers (tests/web/pages.py) instead of copying them:
no helper function of one test module is another's, word for word."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _is_fixture(node: ast.FunctionDef) -> bool:
    def name(d: ast.expr) -> str:
        d = d.func if isinstance(d, ast.Call) else d
        return d.attr if isinstance(d, ast.Attribute) else getattr(d, "id", "")

    return any(name(d) == "fixture" for d in node.decorator_list)


def test_no_helper_is_copied_between_the_web_test_modules() -> None:
    # a helper's body (its docstring aside) as the parser sees it, and where it is defined
    bodies: dict[str, list[str]] = defaultdict(list)
    for path in sorted(HERE.glob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if not isinstance(node, ast.FunctionDef) or node.name.startswith("test_"):
                continue
            if _is_fixture(node):
                continue
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                body = body[1:]  # the docstring
            if len(body) < 2:
                continue  # a one-liner is not worth a shared module
            code = ast.dump(ast.Module(body=body, type_ignores=[]))
            bodies[code].append(f"{path.name}:{node.name}")
    copies = [places for places in bodies.values() if len(places) > 1]
    assert copies == [], f"copied helpers (share them in tests/web/pages.py): {copies}"
