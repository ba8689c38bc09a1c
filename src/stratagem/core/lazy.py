"""Modules imported when first used.

A quick command (``stratagem yahtzee distribution`` answered from the cache,
``--help``) should not pay for what it never runs: importing numba costs about
half a second of CPU, and the first compiled function loaded from its cache
more. Modules that call numba kernels therefore hold their kernel modules as a
:class:`LazyModule`, which imports the real module on the first attribute read.

>>> m = LazyModule("json")
>>> m.dumps([1, 2])
'[1, 2]'
>>> LazyModule("json").no_such_name
Traceback (most recent call last):
...
AttributeError: module 'json' has no attribute 'no_such_name'
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any


class LazyModule:
    """Stands for the module ``name`` and imports it on first use."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._module: ModuleType | None = None

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__"):  # copy, pickle and inspect probe dunders: do not import
            raise AttributeError(attr)
        if self._module is None:
            self._module = importlib.import_module(self._name)
        return getattr(self._module, attr)

    def __repr__(self) -> str:
        return f"<lazy module {self._name!r}>"
