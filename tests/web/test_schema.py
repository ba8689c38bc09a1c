"""schemathesis against /openapi.json through the ASGI app: no server errors, and every
answer (4xx included) matches the schema the app publishes."""

from __future__ import annotations

import pytest

schemathesis = pytest.importorskip("schemathesis")

from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.checks import not_a_server_error  # noqa: E402
from schemathesis.specs.openapi.checks import (  # noqa: E402
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from stratagem.web.app import create_app  # noqa: E402

# Large tables off, MCTS capped low: the examples stay fast.
schema = schemathesis.openapi.from_asgi(
    "/openapi.json", create_app(tables="off", max_mcts_sims=200)
)
CHECKS = [
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
    content_type_conformance,
]


@schema.parametrize()
@settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_the_api_keeps_to_its_schema(case: schemathesis.Case) -> None:
    case.call_and_validate(checks=CHECKS)
