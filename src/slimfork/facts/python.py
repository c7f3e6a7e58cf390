"""What Python the fork runs on: ``sys.version_info`` compared with a literal folds where every version from the
floor on gives the same answer (``sys.version_info < (3, 8)`` is False on ">=3.9", ``>= (3, 12)`` stays unknown).
The floor is ``[facts] python`` (">=3.10"), else the distribution's own ``requires-python``: the project says it
never runs below it, so the branches for older versions are dead code. Python 4 is not assumed to exist."""

from __future__ import annotations

import dataclasses
import operator
from typing import Any

from packaging.specifiers import InvalidSpecifier, SpecifierSet

from slimfork.facts.model import NAME, UNKNOWN, Fact, FactSet

TARGET = "sys.version_info"
DEFAULT_KEY = "requires-python"  # the key of the fact taken from the distribution (no spec entry to report on)
_LAST_MINOR = 40
_FIELDS = {"major": 0, "minor": 1, "micro": 2, "releaselevel": 3, "serial": 4}


def python_floor(spec: str) -> tuple[int, int] | None:
    """The lowest (major, minor) a specifier set (">=3.9", "~=3.10", ">=3.8,<4") allows; None without a floor."""
    try:
        specifiers = SpecifierSet(spec)
    except InvalidSpecifier:
        return None
    floors = []
    for s in specifiers:
        if s.operator in (">=", ">", "==", "~=", "==="):
            parts = [int(p) for p in s.version.split(".")[:2] if p.isdigit()]
            if parts and parts[0] == 3:
                floors.append((3, parts[1] if len(parts) > 1 else 0))
    return max(floors) if floors else None


def python_fact(spec: str, key: str) -> Fact | None:
    floor = python_floor(spec)
    return Fact(NAME, TARGET, PythonVersions(floor), key) if floor else None


class PythonVersions:
    """``sys.version_info`` (or an index, slice or field of it) over every version from ``floor`` on."""

    def __init__(self, floor: tuple[int, int], view: tuple = ()):
        self.floor = floor
        self.view = view  # ("index", i) / ("slice", start, stop, step) / ("field", name)

    def __repr__(self) -> str:
        return f"Python>={self.floor[0]}.{self.floor[1]}{self.view or ''}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PythonVersions) and (self.floor, self.view) == (other.floor, other.view)

    def __hash__(self) -> int:
        return hash((self.floor, self.view))

    def __bool__(self) -> bool:
        raise TypeError("the truth of sys.version_info is not a fact")

    def at(self, view: tuple) -> "PythonVersions | Any":
        return UNKNOWN if self.view else PythonVersions(self.floor, view)

    def values(self) -> list[Any]:
        out: list[Any] = []
        for minor in range(self.floor[1], _LAST_MINOR):
            for micro in (0, 50):
                version = (3, minor, micro, "final", 0)
                kind = self.view[0] if self.view else None
                if kind == "index":
                    out.append(version[self.view[1]])
                elif kind == "slice":
                    out.append(version[slice(*self.view[1:])])
                elif kind == "field":
                    out.append(version[_FIELDS[self.view[1]]])
                else:
                    out.append(version)
        return out

    def compare(self, op, other: Any, flipped: bool = False) -> Any:
        """True or False when ``op(version, other)`` is the same for every version, else UNKNOWN."""
        if op in (operator.is_, operator.is_not) or isinstance(other, PythonVersions):
            return UNKNOWN
        outcomes = set()
        for value in self.values():
            try:
                outcomes.add(bool(op(other, value) if flipped else op(value, other)))
            except TypeError:
                return UNKNOWN
        return outcomes.pop() if len(outcomes) == 1 else UNKNOWN


def is_field(name: str) -> bool:
    return name in _FIELDS


def with_requires_python(facts: FactSet | None, dist) -> FactSet | None:
    """``facts`` plus the floor of the distribution's ``requires-python`` when the spec sets no ``python``."""
    if dist is None or not dist.requires_python or facts is not None and any(f.target == TARGET for f in facts.facts):
        return facts
    fact = python_fact(dist.requires_python, f"{DEFAULT_KEY} {dist.requires_python}")
    if fact is None:
        return facts
    base = facts if facts is not None else FactSet()
    return dataclasses.replace(base, facts=[*base.facts, fact])
