"""Inventory registries (``kind = "call"`` with ``key_keyword`` and ``lookup``): sglang's kernel groups register
``register_kernel(KernelSpec(op="moe.x", target="pkg.mod:fn"))`` for every kernel they have, and code asks for one
by name, ``get_kernel("moe.x")``. A registration nothing looks up is inventory only: it goes, and the module only
its string named leaves the fork; a key some module looks up with a literal stays, and a lookup whose key is
computed keeps every registration (unknown means keep)."""

from __future__ import annotations

import pytest

from tests.mapping.registrykit import run_cli, write_project

from slimfork.api import shrink
from slimfork.errors import SpecError

FILES = {
    "pkg/__init__.py": "",
    "pkg/registry.py": """
        import importlib

        SPECS = {}


        class KernelSpec:
            def __init__(self, op, target):
                self.op, self.target = op, target


        def register_kernel(spec):
            SPECS[spec.op] = spec


        def get_kernel(op):
            if op not in SPECS:
                raise KeyError(f"no kernel {op}")
            module, _, name = SPECS[op].target.partition(":")
            return getattr(importlib.import_module(module), name)
        """,
    "pkg/ops.py": """
        from pkg.registry import KernelSpec, register_kernel

        # the decode kernel, asked for by name
        register_kernel(KernelSpec(op="decode", target="pkg.k_decode:run"))
        # an AMD kernel nothing asks for
        register_kernel(
            KernelSpec(op="decode_gfx950", target="pkg.k_gfx950:run")
        )
        register_kernel(KernelSpec(op="fused", target="pkg.k_fused:run"))
        """,
    "pkg/k_decode.py": "def run():\n    return 'decode'\n",
    "pkg/k_gfx950.py": "def run():\n    return 'gfx950'\n",
    "pkg/k_fused.py": "def run():\n    return 'fused'\n",
    "pkg/cli.py": """
        import sys

        import pkg.ops  # noqa: F401  (registers)


        def main(op):
            from pkg.registry import get_kernel

            if op == "decode":
                return get_kernel("decode")()
            from pkg import registry

            return registry.get_kernel(op)() if op == "any" else "?"


        if __name__ == "__main__":
            print(main(sys.argv[1]))
        """,
}
SPEC = """
source = "."
packages = ["pkg"]
roots = ["pkg.cli"]

[[registries]]
kind = "call"
package = "pkg.registry.register_kernel"
key_keyword = "op"
lookup = "{lookup}"
keep = ["fused"]
reason = "kernels the code asks for by name"
"""


def test_registrations_nothing_looks_up_leave_with_their_modules(tmp_path):
    files = dict(FILES, **{"pkg/cli.py": FILES["pkg/cli.py"].replace('registry.get_kernel(op)()', '"any"')})
    root = write_project(tmp_path, files, SPEC.format(lookup="pkg.registry.get_kernel"))
    result = shrink(root / "slimfork.toml", tmp_path / "fork")
    fork = result.out
    ops = (fork / "pkg/ops.py").read_text()
    assert 'op="decode"' in ops and 'op="fused"' in ops  # looked up by name; kept by the spec
    assert "gfx950" not in ops and "# an AMD kernel" not in ops
    assert not (fork / "pkg/k_gfx950.py").exists()
    assert (fork / "pkg/k_decode.py").exists() and (fork / "pkg/k_fused.py").exists()
    assert run_cli(fork, "decode").stdout == "decode\n"
    entries = {e["path"]: e for e in result.data["decorator_registries"]}
    assert entries["pkg/ops.py"]["removed"] == [{"key": "decode_gfx950", "definition": "pkg.k_gfx950:run"}]
    assert sorted(entries["pkg/ops.py"]["kept"]) == ["decode", "fused"]
    assert all(batch.checks and all(c.ok for c in batch.checks) for batch in result.apply.batches)


def test_a_computed_lookup_keeps_every_registration(tmp_path):
    root = write_project(tmp_path, FILES, SPEC.format(lookup="pkg.registry.get_kernel"))
    assert run_cli(root, "any").returncode == 1  # get_kernel("any"): the key is computed at run time
    result = shrink(root / "slimfork.toml", tmp_path / "fork")
    assert (result.out / "pkg/k_gfx950.py").exists()
    assert "gfx950" in (result.out / "pkg/ops.py").read_text()
    [entry] = result.data["decorator_registries"]
    assert entry["removed"] == [] and entry["failure"].startswith("pkg/cli.py:13 looks a key up through get_kernel()")


def test_key_keyword_belongs_to_call_and_decorator_registries_lookup_to_call(tmp_path):
    spec = SPEC.format(lookup="pkg.registry.get_kernel")
    for kind, bad in (("decorator", "lookup"), ("dict", "key_keyword")):
        root = write_project(tmp_path / kind, FILES, spec.replace('kind = "call"', f'kind = "{kind}"'))
        with pytest.raises(SpecError) as err:
            shrink(root / "slimfork.toml", tmp_path / kind / "fork", dry_run=True)
        assert err.value.key == f"registries[0].{bad}"
