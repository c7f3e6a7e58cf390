"""Every removal shrink will attempt, listed the same way by ``slimfork plan`` and by the shrink report: the plan's
files, then what the tests stage removes (test files, test functions, test data), each with its fate before any
check runs: **certain**, or **pending verification** (shrink checks its batch and restores it if a check fails)."""

from __future__ import annotations

from dataclasses import asdict

from slimfork.decisions import Removal
from slimfork.plan.build import imports_of_dropped
from slimfork.verify.spec import ALL_CHECKS, ChecksSpec

PENDING = "pending verification"
CERTAIN = "certain"


def planned_removals(analysis) -> list[Removal]:
    """The plan's removals and the tests stage's (``stages.test_removals``, applied in a batch of their own)."""
    return list(analysis.plan.removals) + list(analysis.stages.test_removals if analysis.stages else ())


def enabled_checks(spec) -> list[str]:
    """The checks shrink runs on every batch, as ``slimfork.verify.build.build_checks`` picks them."""
    checks = spec.sections.get("checks") or ChecksSpec()
    # the install check runs on a fork only when its build files change (the packaging edit): it decides no removal
    present = {"command": bool(checks.commands), "pytest": checks.pytest is not None, "install": False}
    return [name for name in ALL_CHECKS if checks.enabled(name) and present.get(name, True)]


def fates(analysis) -> list[tuple[Removal, str, str]]:
    """(removal, CERTAIN or PENDING, why) for every planned removal. What the spec drops (a ``drop`` glob, the
    spec file) is certain unless kept code imports it; everything else is decided by shrink's checks, when any
    is enabled."""
    checks = enabled_checks(analysis.spec)
    needed: dict[str, str] = {}
    for src, edge in imports_of_dropped(analysis.graph):
        info = analysis.graph.modules[src]
        needed.setdefault(edge.target, f"kept module {src} imports it ({info.path}:{edge.line})")
    decided = f"shrink's checks ({', '.join(checks)}) decide: a failing check restores it"
    out = []
    for r in planned_removals(analysis):
        if not checks:
            out.append((r, CERTAIN, "no check is enabled"))
        elif r.kind == "dropped" and (r.module is None or r.module not in needed):
            out.append((r, CERTAIN, "the spec drops it and no kept code imports it"))
        elif r.kind == "dropped" and r.module is not None:
            out.append((r, PENDING, f"{needed[r.module]}; {decided}"))
        else:
            out.append((r, PENDING, decided))
    return out


def removals_data(analysis) -> list[dict]:
    """``plan --json``'s ``removed``: each removal's fields, ``pending`` and ``fate`` (why)."""
    return [{**asdict(r), "pending": fate == PENDING, "fate": f"{fate}: {why}"} for r, fate, why in fates(analysis)]
