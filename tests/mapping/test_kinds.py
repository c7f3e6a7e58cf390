"""One registry-kind table (spec/kinds.py) names every kind and the stage that reads it; the handler tables of the
stages agree with it, so a kind is its own module, its table line and (a rewriting kind) its handler line."""

from __future__ import annotations

from collections import Counter

from tests.mapping.registrykit import write_project

from slimfork.mapping.kinds import KINDS
from slimfork.prune.spec import dict_registries
from slimfork.spec.fields import REGISTRY
from slimfork.spec.kinds import FILTERING_KINDS, KIND_NAMES, REGISTRY_KINDS, REWRITING_KINDS, kinds_of
from slimfork.spec.load import load_spec


def test_every_kind_has_one_stage():
    assert set(FILTERING_KINDS) | set(REWRITING_KINDS) == set(KIND_NAMES)
    assert not set(FILTERING_KINDS) & set(REWRITING_KINDS)
    assert {k.stage for k in REGISTRY_KINDS} == {"graph", "mapping", "symbols"}
    assert len(set(KIND_NAMES)) == len(KIND_NAMES)


def test_the_spec_table_reads_the_kinds_table():
    field = next(f for f in REGISTRY.fields if f.name == "kind")
    assert field.choices == KIND_NAMES
    assert all(f"'{k.name}' ({k.what})" in field.doc for k in REGISTRY_KINDS)


def test_each_mapping_kind_has_one_handler():
    handled = Counter(name for kind in KINDS for name in kind.kinds)
    assert set(handled) == set(kinds_of("mapping")) and set(handled.values()) == {1}


def test_the_symbol_stage_reads_its_kinds():
    for name in kinds_of("symbols"):
        assert dict_registries([{"kind": name, "package": "pkg.mod.TABLE", "keep": ["a"]}])


def test_only_filtering_kinds_reach_the_graph(tmp_path):
    entries = "".join(f'[[registries]]\npackage = "pkg.m{i}"\nkeep = ["a"]\nkind = "{k.name}"\n'
                      + ('variable = "T"\n' if k.name == "mapping" else "")
                      for i, k in enumerate(REGISTRY_KINDS))
    root = write_project(tmp_path, {"pkg/__init__.py": ""}, f'source = "."\nroots = ["pkg"]\n{entries}')
    spec = load_spec(root / "slimfork.toml")
    assert [r.package for r in spec.registries] == [f"pkg.m{i}" for i, k in enumerate(REGISTRY_KINDS)
                                                     if k.name in FILTERING_KINDS]
