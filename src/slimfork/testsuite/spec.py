"""The spec's ``tests`` key: where the project's tests are (globs relative to the source)."""

from __future__ import annotations

from dataclasses import dataclass

from slimfork.errors import SpecError


@dataclass(frozen=True)
class TestsSpec:
    globs: tuple[str, ...]


def parse_tests(raw: list, key: str = "tests") -> TestsSpec:
    for i, glob in enumerate(raw):
        if not glob.strip() or glob.startswith("/") or ".." in glob.split("/"):
            raise SpecError(f"'{glob}' is not a path inside the source", key=f"{key}[{i}]",
                            hint="a folder or glob relative to the source, e.g. 'tests'")
    return TestsSpec(tuple(raw))
