"""A string that is the whole name of a module of the project (``"pkg.tables.parser_table"``) names that module
even where the file also imports it (``import pkg.tables.parser_table`` binds ``pkg``, so the string also reads as
a chain off that binding): a caller may import it by that name and read any of its names. Session 40, jsonpath-ng
1.16.0: ``JsonPathParser._ply_table_module = "jsonpath_ng._ply_tables.parser_table"`` goes to ply's yacc, which
``exec("import %s" % module)`` and reads ``parsetab._tabversion``; symbol pruning removed ``_tabversion``,
``_lr_method``, ``_lr_signature`` and ``_lr_productions``, and 444 tests of the fork failed."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "tpkg"\nversion = "1.0"\n',
    "tpkg/__init__.py": "",
    "tpkg/tables/__init__.py": "",
    "tpkg/tables/parser_table.py": "_tabversion = '3.10'\n_lr_method = 'LALR'\n_lr_action = {'a': 1}\n",
    "tpkg/loader.py": """
        import sys


        def read_table(module):
            exec("import %s" % module)
            table = sys.modules[module]
            return table._tabversion, table._lr_method, table._lr_action
    """,
    "tpkg/parser.py": """
        import tpkg.tables.parser_table  # noqa: F401
        from tpkg.loader import read_table


        class Parser:
            table_module = "tpkg.tables.parser_table"

            def parse(self):
                return read_table(self.table_module)
    """,
}


def test_a_string_naming_an_imported_module_whole_keeps_its_names(tmp_path):
    spec = 'source = "."\nroots = ["tpkg.parser:Parser"]\ntests = []\n[symbols]\npublic_api = "roots"\n' \
           'package_api = false\n'
    root = write_project(tmp_path / "proj", FILES, spec)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    table = (fork / "tpkg/tables/parser_table.py").read_text()
    assert "_tabversion" in table and "_lr_method" in table, table
    done = subprocess.run([sys.executable, "-c", "from tpkg.parser import Parser; print(Parser().parse())"],
                          cwd=fork, capture_output=True, text=True)
    assert done.returncode == 0 and "LALR" in done.stdout, done.stderr[-2000:]
