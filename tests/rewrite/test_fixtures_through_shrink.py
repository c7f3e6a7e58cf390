"""The folding pitfalls (18-28 of docs/pitfalls.md) through the whole pipeline: each fixture of
tests/rewrite/fixtures/pNN_* is shrunk with `slimfork.api.shrink` (its facts in the spec, every default check)
and the fork's file must equal what `fold_tree` alone gives (after.py, or before.py unchanged), with no
restoration: the checks and the batches neither undo nor alter what the fold wrote."""

from __future__ import annotations

import json
import re
import tomllib

import pytest
from tests.rewrite.test_fixtures import FIXTURES, make_tree

from slimfork.api import shrink

PITFALL_CASES = sorted(p.name for p in FIXTURES.iterdir() if p.is_dir() and re.match(r"p\d\d_", p.name))


def _facts(case) -> dict:
    raw = tomllib.loads((FIXTURES / "facts.toml").read_text())["facts"]
    extra = case / "facts.toml"
    if extra.is_file():
        for key, value in tomllib.loads(extra.read_text())["facts"].items():
            raw[key] = {**raw.get(key, {}), **value} if isinstance(value, dict) else value
    return raw


def _toml_value(value) -> str:
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{json.dumps(k)} = {_toml_value(v)}" for k, v in value.items()) + " }"
    return json.dumps(value)


@pytest.mark.parametrize("name", PITFALL_CASES)
def test_fixture_through_shrink(name, tmp_path):
    case = FIXTURES / name
    source = tmp_path / "src"
    modules = make_tree(case, source)
    # a root that imports every module (a root module's own names would be public API, kept beside the fold)
    (source / "pkg/entry.py").write_text("".join(f"import {m}\n" for m in sorted(modules.values())))
    facts = "\n".join(f"{k} = {_toml_value(v)}" for k, v in _facts(case).items())
    # one facts table for every fixture: each fixture uses a few of them, the others are stale there by design
    # the fold's clean-up of a kept module's public names, as before public_api's default became "kept"
    spec = f'source = "."\npackages = ["pkg"]\nroots = ["pkg.entry"]\nallow_stale = true\n\n[facts]\n{facts}\n' \
        '\n[symbols]\nprune = false\npublic_api = "roots"\n'
    (source / "slimfork.toml").write_text(spec)
    result = shrink(source / "slimfork.toml", out=tmp_path / "fork", jobs=1)
    expected = case / "after.py" if (case / "after.py").is_file() else case / "before.py"
    assert (tmp_path / "fork/pkg/mod.py").read_bytes() == expected.read_bytes()
    assert result.apply.restored == []
