"""The shared option ranges of the command line."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stratagem.cli_types import finite


def test_finite_takes_numbers_in_range_only() -> None:
    parse = finite(0.0, 10.0, low_open=True)
    assert parse("10") == 10.0 and parse("1e-3") == 0.001
    for bad, message in [
        ("0", "out of range"),
        ("-1", "out of range"),
        ("10.5", "out of range"),
        ("nan", "not a finite"),
        ("inf", "not a finite"),
        ("x", "not a number"),
    ]:
        with pytest.raises(ValueError, match=message):
            parse(bad)  # fmt: skip


@given(st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=12))
def test_finite_returns_a_number_in_range_or_raises_value_error(value: float | str) -> None:
    parse = finite(-1.0, 1.0)
    try:
        number = parse(str(value))
    except ValueError:
        return
    assert -1.0 <= number <= 1.0
