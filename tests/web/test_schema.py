"""schemathesis against /openapi.json through the ASGI app, in every phase (examples,
coverage, fuzzing, stateful): it reaches every operation (the session operations through
the links the schema declares), no answer is a server error, and every answer (4xx
included) matches the schema the app publishes.

The fast run takes a few examples per operation; ``-m slow`` runs many more.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest

schemathesis = pytest.importorskip("schemathesis")

from schemathesis.config import SchemathesisConfig  # noqa: E402
from schemathesis.engine import events, from_schema  # noqa: E402

from stratagem.web.app import create_app  # noqa: E402

PHASES = ("examples", "coverage", "fuzzing", "stateful")
REQUIRED = (
    "not_a_server_error",
    "response_schema_conformance",
    "status_code_conformance",
    "content_type_conformance",
    "response_headers_conformance",
    "unsupported_method",
    "allow_header_conformance",
    "negative_data_rejection",
    "use_after_free",
    "ensure_resource_availability",
)
"""Checks that must all pass. Left out: ``positive_data_acceptance``, which expects every
schema-valid body to be accepted, while a game rule the schema cannot state (an upper
total impossible with the boxes filled, a move the board does not allow) is a 400 with a
message, by design."""


@dataclass
class Run:
    operations: set[str] = field(default_factory=set)
    checks: Counter[tuple[str, str]] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    phases: dict[str, str] = field(default_factory=dict)


def run_schemathesis(max_examples: int, max_steps: int) -> tuple[Run, int]:
    """Every phase against a fresh app (tables off, searches and solves capped low)."""
    config = SchemathesisConfig.from_dict({
        "seed": 33,
        "generation": {"max-examples": max_examples, "deterministic": True},
        "phases": {name: {"enabled": True} for name in PHASES[:3]}
        | {"stateful": {"enabled": True, "max-steps": max_steps}},
    })  # fmt: skip
    app = create_app(tables="off", max_mcts_sims=200, max_table_bytes=8 << 20)
    schema = schemathesis.openapi.from_asgi("/openapi.json", app, config=config)
    operations = sum(len(ops) for ops in app.openapi()["paths"].values())
    run = Run()
    for event in from_schema(schema).execute():
        if isinstance(event, events.ScenarioFinished | events.FuzzScenarioFinished):
            recorder = event.recorder
            for case in recorder.cases.values():
                run.operations.add(case.value.operation.label)
            for case_id, nodes in recorder.checks.items():
                for node in nodes:
                    status = str(node.status)
                    run.checks[(node.name, status)] += 1
                    if node.name in REQUIRED and status != "success":
                        case = recorder.cases.get(case_id)
                        label = case.value.operation.label if case is not None else "?"
                        run.failures.append(f"{node.name} on {label}: {node.failure_info}")
        elif isinstance(event, events.FatalError):
            run.errors.append(repr(event.exception))
        elif isinstance(event, events.NonFatalError):
            run.problems.append(f"{event.label}: {event.info.message}"[:300])
        elif isinstance(event, events.PhaseFinished):
            run.phases[event.phase.name.value] = str(event.status)
    return run, operations


def _check(run: Run, operations: int) -> None:
    assert not run.errors, run.errors
    assert len(run.operations) == operations, f"reached {len(run.operations)} of {operations}"
    assert not run.failures, "\n".join(sorted(set(f[:400] for f in run.failures)))
    ran = {name for name, _ in run.checks}
    assert {"not_a_server_error", "response_schema_conformance"} <= ran
    assert run.checks[("not_a_server_error", "success")] > operations


def test_schemathesis_in_every_phase_finds_nothing(record_property: Any) -> None:
    run, operations = run_schemathesis(max_examples=2, max_steps=6)
    record_property("schemathesis", {"operations": len(run.operations), **{
        f"{n}:{s}": c for (n, s), c in sorted(run.checks.items())}})  # fmt: skip
    _check(run, operations)


@pytest.mark.slow
def test_schemathesis_at_length_finds_nothing() -> None:
    run, operations = run_schemathesis(max_examples=20, max_steps=15)
    _check(run, operations)
