"""A name read off a module imported by a computed name (bandit 1.7.10's ``core/test_set.py``: ``genner =
importlib.import_module(plugin.plugin.__module__)``, then ``genner.gen_config(...)``) may be any module's binding of
that name: each stays. Before, symbol pruning removed every plugin's ``gen_config`` (no code names it), and 33 of
bandit's tests failed on the fork, with main's code too (session 37's depth round)."""

from __future__ import annotations

import ast

from slimfork.api import analyse
from slimfork.index.symbols import symbol_summary
from tests.mapping.registrykit import write_project

LOADER = '''
import importlib


def load(check):
    genner = importlib.import_module(check.__module__)
    return genner.gen_config(check.__name__)


def first(check):
    return importlib.import_module(check.__module__).default_name
'''

FILES = {
    "pyproject.toml": '[project]\nname = "cq"\nversion = "1.0"\n',
    "cq/__init__.py": "",
    "cq/loader.py": LOADER,
    "cq/plugin.py": "def check():\n    return 1\n\n\ndef gen_config(name):\n    return {name: 1}\n\n\n"
                    "default_name = 'p'\n\n\ndef unused():\n    return 2\n",
}
SPEC = ('source = "."\nroots = ["cq.loader:load", "cq.loader:first", "cq.plugin:check"]\n\n[symbols]\n'
        'public_api = "roots"\npackage_api = false\n')


def test_the_names_read_are_recorded():
    statements = symbol_summary(ast.parse(LOADER)).statements
    assert {n for st in statements for n in st.anywhere} == {"gen_config", "default_name"}


def test_every_binding_of_a_name_read_so_stays(tmp_path):
    stage = analyse(write_project(tmp_path, FILES, SPEC) / "slimfork.toml", jobs=1).stages.symbols
    gone = {n for p in stage.pruned if p.module == "cq.plugin" for n in p.names}
    assert "unused" in gone and not gone & {"gen_config", "default_name", "check"}
