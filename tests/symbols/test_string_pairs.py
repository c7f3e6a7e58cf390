"""A string naming a module keeps every symbol of it (it may be imported by name and read with getattr), but a
pair `("pkg.mod", "Name")` (a pickle allow-list entry, a lazy import table) names one symbol: the rest of the
module is pruned as usual."""

from __future__ import annotations

from tests.mapping.registrykit import write_project

from slimfork.api import analyse

FILES = {
    "pkg/__init__.py": "",
    "pkg/io.py": "class Request:\n    pass\n\n\nclass Unused:\n    pass\n",
    "pkg/plugins.py": "def helper():\n    return 1\n\n\ndef unused():\n    return 2\n",
    "pkg/cli.py": """
        import importlib

        ALLOWED = {("pkg.io", "Request")}
        PLUGIN = "pkg.plugins"


        def load(pair):
            module, name = pair
            return getattr(importlib.import_module(module), name)


        if __name__ == "__main__":
            print([load(p) for p in ALLOWED], importlib.import_module(PLUGIN))
        """,
}
SPEC = """
source = "."
packages = ["pkg"]
roots = ["pkg.cli"]

[symbols]
public_api = "roots"
"""


def test_a_module_name_paired_with_a_symbol_keeps_that_symbol_only(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    analysis = analyse(root / "slimfork.toml")
    symbols = analysis.stages.symbols
    pruned = {(p.module, n) for p in symbols.pruned for n in p.names}
    assert ("pkg.io", "Unused") in pruned and ("pkg.io", "Request") not in pruned
    assert "pkg.io" not in symbols.reach.keep_all
    assert "pkg.plugins" in symbols.reach.keep_all  # named alone: may be looked up by any name
    assert ("pkg.plugins", "unused") not in pruned


def test_a_docstring_naming_a_module_keeps_nothing(tmp_path):
    files = {**FILES, "pkg/cli.py": '"""Moved from pkg.io; see pkg.plugins.helper."""\n\nimport pkg.io\n\n'
                                    'print(pkg.io.Request)\n'}
    root = write_project(tmp_path, files, SPEC)
    symbols = analyse(root / "slimfork.toml").stages.symbols
    assert "pkg.io" not in symbols.reach.keep_all
    assert ("pkg.io", "Unused") in {(p.module, n) for p in symbols.pruned for n in p.names}
