"""Large table builds are allowed in the library and refused inside a web request's
context (found in review: a module-level switch set by importing the web layer leaked
into every library caller of the same process)."""

from stratagem.core.tables import large_builds_allowed, no_large_builds


def test_the_library_may_build_large_tables() -> None:
    assert large_builds_allowed()


def test_inside_no_large_builds_it_may_not_and_after_it_may_again() -> None:
    with no_large_builds():
        assert not large_builds_allowed()
    assert large_builds_allowed()


def test_importing_the_web_layer_changes_nothing_for_the_library() -> None:
    import stratagem.web.app
    import stratagem.web.yahtzee  # noqa: F401

    assert large_builds_allowed()
