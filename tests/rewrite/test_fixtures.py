"""One fixture per folding pitfall (18-28 of docs/pitfalls.md): fixtures/<name>/before.py folded with facts.toml
must give after.py byte for byte (no after.py: the file must come out unchanged), and expect.json names what
the report must say. Run with SLIMFORK_BLESS=1 to write the after.py files from the current behaviour."""

from __future__ import annotations

import json
import os
import shutil
import tomllib
from pathlib import Path

import pytest

from slimfork.facts import parse_facts
from slimfork.rewrite import fold_tree

FIXTURES = Path(__file__).parent / "fixtures"
CASES = sorted(p.name for p in FIXTURES.iterdir() if p.is_dir())


def facts_for(case: Path):
    raw = tomllib.loads((FIXTURES / "facts.toml").read_text())["facts"]
    extra = case / "facts.toml"
    if extra.is_file():
        for key, value in tomllib.loads(extra.read_text())["facts"].items():
            raw[key] = {**raw.get(key, {}), **value} if isinstance(value, dict) else value
    return parse_facts(raw, "facts")


def make_tree(case: Path, root: Path) -> dict[str, str]:
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    shutil.copy(FIXTURES / "plat.py", root / "pkg" / "plat.py")
    shutil.copy(case / "before.py", root / "pkg" / "mod.py")
    modules = {"pkg/__init__.py": "pkg", "pkg/plat.py": "pkg.plat", "pkg/mod.py": "pkg.mod"}
    for extra in sorted(case.glob("*.py")):
        if extra.name not in ("before.py", "after.py"):
            shutil.copy(extra, root / "pkg" / extra.name)
            modules[f"pkg/{extra.name}"] = f"pkg.{extra.stem}"
    return modules


@pytest.mark.parametrize("name", CASES)
def test_fixture(name, tmp_path):
    case = FIXTURES / name
    modules = make_tree(case, tmp_path)
    facts = facts_for(case)
    report = fold_tree(tmp_path, modules, facts, jobs=1)
    got = (tmp_path / "pkg" / "mod.py").read_bytes()
    expected_file = case / "after.py"
    if os.environ.get("SLIMFORK_BLESS"):
        if got != (case / "before.py").read_bytes():
            expected_file.write_bytes(got)
    expected = expected_file.read_bytes() if expected_file.is_file() else (case / "before.py").read_bytes()
    assert got == expected
    expect = json.loads((case / "expect.json").read_text()) if (case / "expect.json").is_file() else {}
    mod = next(f for f in report.files if f.path == "pkg/mod.py")
    if "failure" in expect:
        assert mod.failure and expect["failure"] in mod.failure
        assert not mod.changed
    else:
        assert mod.failure is None, mod.failure
    if "blocked" in expect:
        assert len(mod.blocked) == expect["blocked"]
    if "methods_removed" in expect:
        assert report.methods_removed() == expect["methods_removed"]
        assert {k: [list(p) for p in v] for k, v in report.methods_kept.items()} == expect["methods_kept"]
    if "constant_parameters" in expect:
        assert sorted(f"{c.function}.{c.parameter}={c.value}" for c in report.constant_parameters) == \
            expect["constant_parameters"]
    if "inert" in expect:
        assert [o.option for o in report.inert_options] == expect["inert"]
    if "inert_values" in expect:
        assert [f"{v.option} {v.value}" for v in report.inert_values] == expect["inert_values"]
    if "patched" in expect:
        assert set(expect["patched"]) <= {name for name, _, _ in report.patched}
    if "unmatched" in expect:
        assert set(expect["unmatched"]) <= {f.key for f in report.unmatched}
        assert "facts.functions.pkg.plat.is_hip" not in {f.key for f in report.unmatched}
    # Pitfall 28: a second run over the folded tree changes nothing.
    again = fold_tree(tmp_path, modules, facts, jobs=1)
    assert (tmp_path / "pkg" / "mod.py").read_bytes() == got
    assert not again.changed
