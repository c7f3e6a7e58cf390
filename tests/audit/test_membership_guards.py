"""A CLI's ``__main__`` that checks its subcommand against a literal set before importing it (mlx-vlm
``391179c1^``: ``if subcommand not in subcommands: raise ValueError(...)``, then
``importlib.import_module(f"mlx_vlm.{subcommand}")``) was read as a prefix import of every module of the package,
so nothing in it was ever unreached (four benchmark scripts in ``mlx_vlm/tests/`` the clean-up deleted: 0/4). The
check confines the name to the set's strings: the import names those modules."""

from __future__ import annotations

import ast

from slimfork.audit.run import run_audit
from slimfork.index.membership_guards import guarded_values
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

MAIN = """import importlib
import sys

if __name__ == "__main__":
    subcommands = {"generate", "convert"}
    subcommand = sys.argv.pop(1)
    if subcommand not in subcommands:
        raise ValueError(f"CLI requires a subcommand in {subcommands}")
    importlib.import_module(f"cli.{subcommand}").main()
"""
FILES = {
    "pyproject.toml": '[project]\nname = "cli"\nversion = "1"\n',
    "cli/__init__.py": "",
    "cli/__main__.py": MAIN,
    "cli/generate.py": "def main():\n    pass\n",
    "cli/convert.py": "def main():\n    pass\n",
    "cli/_old_export.py": "def main():\n    pass\n",
}


def _values(source: str) -> list[dict[str, list[str]]]:
    tree = ast.parse(source)
    found = guarded_values(tree)
    return [found.get(id(n), {}) for n in ast.walk(tree) if isinstance(n, ast.Call)
            and ast.unparse(n.func).endswith("import_module")]


def test_a_checked_subcommand_imports_only_the_listed_modules(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-file"}
    assert found.get("cli/_old_export.py", 0) >= 60
    assert "cli/generate.py" not in found and "cli/convert.py" not in found


def test_what_confines_a_name_and_what_does_not():
    assert _values(MAIN) == [{"subcommand": ["generate", "convert"]}]
    inside = "import importlib\n\ndef run(name):\n    if name in ('a', 'b'):\n        importlib.import_module(name)\n"
    assert _values(inside) == [{"name": ["a", "b"]}]
    rebound = MAIN.replace("    importlib.import_module",
                           "    subcommand = 'x' + subcommand\n    importlib.import_module")
    assert _values(rebound) == [{}]
    no_exit = MAIN.replace("raise ValueError(f\"CLI requires a subcommand in {subcommands}\")", "print('unknown')")
    assert _values(no_exit) == [{}]
    twice = MAIN.replace("    subcommand = sys.argv", "    subcommands = set(sys.argv)\n    subcommand = sys.argv")
    assert _values(twice) == [{}]
    later = "import importlib\n\ndef run(name):\n    importlib.import_module(name)\n    if name not in ('a',):\n" \
            "        return\n"
    assert _values(later) == [{}]
