"""If-chain registries (``kind = "if-chain"``): the arms of an ``if name == "k": from .k import K`` chain whose
keys the spec does not keep are deleted, the modules only they imported leave the fork, arms of another shape
stay, and a removed key reaches the ``else`` an unknown key reaches."""

from __future__ import annotations

import pytest

from tests.mapping.registrykit import run_cli, write_project

from slimfork.api import shrink
from slimfork.errors import SpecError
from slimfork.mapping.ifchain import IfChainRegistry, cut_if_chain

FILES = {
    "pkg/__init__.py": "",
    "pkg/grammar.py": """
        import os


        class Factory:
            def create(self, name):
                # the default backend
                if name == "xgrammar":
                    from pkg.backend_x import X

                    return X()
                elif name in ("outlines", "outlines-dev"):  # two spellings
                    from pkg.backend_o import O

                    return O()
                elif name == os.environ.get("PKG_CUSTOM"):  # another shape: stays
                    from pkg.backend_custom import C

                    return C()
                elif "llguidance" == name or name == "llg":
                    from pkg.backend_l import L

                    return L()
                else:
                    raise ValueError(f"Invalid grammar backend: {name}")


        def only(name):
            if name == "outlines":
                from pkg.backend_o import O

                return O()
            return None
        """,
    "pkg/backend_x.py": "class X:\n    name = 'x'\n",
    "pkg/backend_o.py": "class O:\n    name = 'o'\n",
    "pkg/backend_l.py": "class L:\n    name = 'l'\n",
    "pkg/backend_custom.py": "class C:\n    name = 'c'\n",
    "pkg/cli.py": """
        import sys

        from pkg.grammar import Factory

        if __name__ == "__main__":
            print(Factory().create(sys.argv[1]).name)
        """,
}
SPEC = """
source = "."
packages = ["pkg"]
roots = ["pkg.cli"]

[[registries]]
kind = "if-chain"
package = "{function}"
variable = "name"
keep = ["xgrammar", "llg*"]
reason = "one grammar backend is deployed"
"""


def _project(tmp_path, function="pkg.grammar.Factory.create"):
    return write_project(tmp_path, FILES, SPEC.format(function=function))


def _run(tree, key):
    return run_cli(tree, key)


def test_unkept_arms_and_what_only_they_import_leave_the_fork(tmp_path):
    root = _project(tmp_path)
    result = shrink(root / "slimfork.toml", tmp_path / "fork")
    fork = result.out
    text = (fork / "pkg/grammar.py").read_text()
    assert "outlines" not in text.split("def only")[0] and "# two spellings" not in text
    assert "# the default backend\n        if name == \"xgrammar\":" in text
    assert "elif name == os.environ.get(\"PKG_CUSTOM\"):" in text and 'elif "llguidance" == name' in text
    assert 'if name == "outlines":' in text.split("def only")[1]  # another function: not this registry
    assert (fork / "pkg/backend_o.py").exists()  # still imported by only()
    assert _run(fork, "xgrammar").stdout == "x\n" and _run(fork, "llguidance").stdout == "l\n"
    removed, unknown = _run(fork, "outlines-dev"), _run(root, "nope")
    assert removed.returncode == unknown.returncode == 1
    assert removed.stderr.splitlines()[-1] == "ValueError: Invalid grammar backend: outlines-dev"
    assert unknown.stderr.splitlines()[-1] == "ValueError: Invalid grammar backend: nope"
    [entry] = result.data["if_chain_registries"]
    assert entry["kept"] == ["xgrammar", "llguidance", "llg"] and entry["removed"] == ["outlines", "outlines-dev"]
    assert all(batch.checks and all(c.ok for c in batch.checks) for batch in result.apply.batches)


def test_a_module_only_removed_arms_imported_leaves_the_fork(tmp_path):
    root = _project(tmp_path)
    (root / "pkg/grammar.py").write_text((root / "pkg/grammar.py").read_text().split("def only")[0])
    result = shrink(root / "slimfork.toml", tmp_path / "fork")
    assert not (result.out / "pkg/backend_o.py").exists()
    why = {r["path"]: r["reason"] for r in result.data["removed"]}
    assert "pkg/backend_o.py" in why


@pytest.mark.parametrize("keep, expected", [
    (["a"], 'def f(name):\n    if name == "a":\n        return 1\n    raise KeyError(name)\n'),
    (["b"], 'def f(name):\n    # first\n    if name == "b":\n        return 2\n    else:\n'
            '        raise KeyError(name)\n'),
    (["zzz"], 'def f(name):\n    # first\n    raise KeyError(name)\n'),
])
def test_chain_shapes(keep, expected):
    src = ('def f(name):\n    # first\n    if name == "a":\n        return 1\n    elif name == "b":\n        return 2\n'
           '    else:\n        raise KeyError(name)\n')
    if keep == ["a"]:
        src = 'def f(name):\n    if name == "a":\n        return 1\n    elif name == "b":\n        return 2\n' \
              '    raise KeyError(name)\n'
    cut = cut_if_chain(IfChainRegistry("m.f", "name", tuple(keep)), "m.py", src.encode(), ["f"])
    assert cut.failure is None
    assert cut.new_source.decode() == expected


def test_enum_member_keys():
    """sglang's get_kv_class compares ``transfer_backend == TransferBackend.MORI``: the member's text is the key."""
    src = ('def f(backend):\n    if backend == Backend.MOONCAKE:\n        return 1\n'
           '    elif backend in (Backend.MORI, Backend.ASCEND):\n        return 2\n'
           '    elif backend == other.value():\n        return 3\n    else:\n        raise ValueError(backend)\n')
    cut = cut_if_chain(IfChainRegistry("m.f", "backend", ("Backend.MOONCAKE",)), "m.py", src.encode(), ["f"])
    assert cut.removed == ["Backend.MORI", "Backend.ASCEND"] and cut.kept == ["Backend.MOONCAKE"]
    assert cut.new_source.decode() == src.replace(
        '    elif backend in (Backend.MORI, Backend.ASCEND):\n        return 2\n', "")


def test_a_function_in_no_module_of_the_source_is_a_spec_error(tmp_path):
    root = _project(tmp_path, function="pkg.grammar.Factory.nowhere")
    with pytest.raises(SpecError) as err:
        shrink(root / "slimfork.toml", tmp_path / "fork", dry_run=True)
    assert err.value.key == "registries[0].package"
