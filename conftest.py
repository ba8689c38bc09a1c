"""Collection settings for the doctests of src/ (``--doctest-modules``, see pyproject.toml)."""

from __future__ import annotations

import importlib.util

# `python -m stratagem` runs the command line when imported.
collect_ignore = ["src/stratagem/__main__.py"]
collect_ignore_glob: list[str] = []

# Modules of optional extras are imported for their doctests only when the extra is installed.
_EXTRAS = {
    "src/stratagem/web/*": ("fastapi",),
    "src/stratagem/interop/*": ("gymnasium", "pettingzoo", "pyspiel"),
}
for pattern, modules in _EXTRAS.items():
    if any(importlib.util.find_spec(m) is None for m in modules):
        collect_ignore_glob.append(pattern)
