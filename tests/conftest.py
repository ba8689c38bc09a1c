"""Settings shared by the whole test suite."""

from __future__ import annotations

import os

from hypothesis import settings

# No per-example deadline: the first call into a numba kernel compiles it (or
# loads it from the on-disk cache), which can take seconds inside an example.
settings.register_profile("default", deadline=None)
# `HYPOTHESIS_PROFILE=ci`: the same examples on every run, and more of them.
settings.register_profile("ci", deadline=None, derandomize=True, max_examples=300)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
