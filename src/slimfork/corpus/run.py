"""One corpus row: shrink a profile (the batches verified by the project's tests), then run the project's tests
on the original and on the fork once more, independently of the engine, and count what changed."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

from slimfork.api import open_source, shrink
from slimfork.corpus.testdeps import test_requirements
from slimfork.errors import SlimforkError
from slimfork.spec import Spec, load_spec
from slimfork.testsuite.check import planned_checks
from slimfork.testsuite.pytest_config import unrecognized_plugins
from slimfork.verify.build import layout_of, verify_env
from slimfork.verify.checks.pytest import PytestCheck
from slimfork.verify.spec import ChecksSpec, PytestSpec, VerifySpec


@dataclass
class CorpusRow:
    profile: str
    source: str
    lines_before: int
    lines_after: int
    python_before: int
    python_after: int
    tests_before: int  # tests that pass on the original
    tests_after: int  # tests that pass on the fork
    tests_removed: int  # tests of the original that left with the code they test
    removed_by_reason: dict[str, int] = field(default_factory=dict)
    new_failures: list[str] = field(default_factory=list)  # must stay empty
    test_requirements: str = ""
    seconds: float = 0.0

    def to_dict(self) -> dict:
        return asdict(self)


def run_profile(profile: Path, out_root: Path, jobs: int | None = None, tests: tuple[str, ...] = (),
                executor: str | None = None, ray_address: str | None = None) -> CorpusRow:
    """``tests``: node ids or paths to run instead of the whole suite (the reduced form CI runs); ``executor``,
    ``ray_address``: where the shrink's checks run (``slimfork.pipeline.shrink.shrink``)."""
    start = time.perf_counter()
    spec = load_spec(profile)
    tree = open_source(spec)
    origin = _ensure_test_env(spec, tree)
    checks_spec = spec.sections.get("checks") or ChecksSpec()
    pytest_spec = checks_spec.pytest or PytestSpec()
    if tests:
        pytest_spec = PytestSpec(tuple(tests), pytest_spec.k, pytest_spec.args, pytest_spec.timeout)
    spec.sections["checks"] = ChecksSpec(checks_spec.skip, checks_spec.import_modules, checks_spec.commands,
                                         pytest_spec)
    out = out_root / f"{profile.stem}-fork"
    result = shrink(spec, out, jobs=jobs, executor=executor, ray_address=ray_address)
    check = planned_checks([PytestCheck(layout_of(tree), verify_env(spec), pytest_spec)], result.analysis.stages)[0]
    base = check.baseline(tree.root)
    if not base.usable:
        plugins = unrecognized_plugins(base.note)
        raise SlimforkError(f"{profile.name}: the tests do not run on the original: {base.note}", key="verify",
                            hint=f"the project's pytest options need {', '.join(plugins)}: add them to [verify] "
                                 "requirements" if plugins else
                                 "declare what they need: [verify] requirements = [...] (docs/verify.md)")
    outcomes, _ = check.execute(out)
    verdict = check.run(out, base)
    data = result.data
    passed = base.data["passed"] if isinstance(base.data, dict) and "passed" in base.data else {}
    gone = base.data.get("gone", set()) if isinstance(base.data, dict) else set()
    from_removed = getattr(check, "generated_from_removed", lambda test: False)  # [RubyLexer]: no longer generated
    generated = {t for t in passed if t not in gone and t not in (outcomes or {}) and from_removed(t)}
    doctest_of = getattr(check, "doctest_of_removed", lambda test, file: False)  # pydash's docstring examples
    doctests = {t for t in passed if t not in gone | generated and t not in (outcomes or {})
                and doctest_of(t, passed[t])}
    renamed = check.original_ids(outcomes, base.data.get("ids", {})) if hasattr(check, "original_ids") \
        and outcomes is not None else outcomes or {}
    lost_value = getattr(check, "lost_value", lambda test, file: False)  # textdistance's ALGS entries
    values = {t for t in passed if t not in gone | generated | doctests and t not in renamed
              and lost_value(t, passed[t])}
    return CorpusRow(
        profile.name, spec.source, data["before"]["lines"], data["after"]["lines"],
        _python(data["before"]), _python(data["after"]), len(passed),
        sum(1 for o in (outcomes or {}).values() if o[0] == "passed"), len(gone | generated | doctests | values),
        dict(_reasons(data.get("tests", {}), passed, gone, generated, doctests, values)), list(verdict.failures),
        origin, round(time.perf_counter() - start, 1))


def _ensure_test_env(spec: Spec, tree) -> str:
    """A profile without [verify] gets the project's declared test dependencies and the project itself (for its
    metadata; the tree under test comes first on PYTHONPATH and shadows the installed code)."""
    if spec.sections.get("verify") is not None:
        return "[verify] of the profile"
    reqs, origin = test_requirements(tree.root)
    if tree.dist is not None and spec.source.startswith("pypi:"):
        reqs.append(f"{tree.dist.name}=={tree.dist.version}")
    spec.sections["verify"] = VerifySpec(tuple(reqs))
    return origin


def _python(stats: dict) -> int:
    return stats.get("by_language", {}).get("Python", {}).get("lines", 0)


def _reasons(tests: dict, passed: dict, gone: set, generated: set, doctests: set, values: set) -> Counter:
    """Tests of the original that left the fork, by the category of the removal that took them; ``generated``:
    tests parametrised over a registry entry the fork removed (no longer generated); ``doctests``: docstring
    examples of removed code; ``values``: a test's run with a parameter value the plan cut (a table entry)."""
    by_file = {r["path"]: r["category"] for r in tests.get("removed", []) if r["test"] is None}
    by_file.update({p: "test data of a removed registry entry" for p in tests.get("removed_data", [])})
    by_unit = {(r["path"], r["test"]): r["category"] for r in tests.get("removed", []) if r["test"]}
    out: Counter = Counter()
    for test in gone:
        file = passed.get(test, "")
        category = by_file.get(file)
        if category is None:
            base = test.rpartition("::")[2].split("[")[0]
            category = next((c for (p, q), c in by_unit.items() if p == file and q.split(".")[-1] == base),
                            next((c for (p, q), c in by_unit.items() if p == file), "removed"))
        out[category] += 1
    if generated:
        out["generated from a removed registry entry"] = len(generated)
    if doctests:
        out["a doctest of removed code"] = len(doctests)
    if values:
        out["a parameter value of removed code"] = len(values)
    return out


def render_table(rows: list[CorpusRow]) -> str:
    lines = ["| profile | lines before | lines after | Python before | Python after | tests passed before | "
             "tests passed after | tests removed (why) | new failures |", "|---|---:|---:|---:|---:|---:|---:|---|---:|"]
    for r in rows:
        why = ", ".join(f"{n} {k}" for k, n in sorted(r.removed_by_reason.items())) or "-"
        lines.append(f"| {r.profile} | {r.lines_before:,} | {r.lines_after:,} | {r.python_before:,} | "
                     f"{r.python_after:,} | {r.tests_before:,} | {r.tests_after:,} | {r.tests_removed} ({why}) | "
                     f"{len(r.new_failures)} |")
    return "\n".join(lines)
