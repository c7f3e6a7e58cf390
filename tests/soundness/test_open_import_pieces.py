"""A name imported at run time that the index does not evaluate, narrowed by what its module shows
(``index/open_names.py``, session 47): an expression reading the module's own name keeps the module's package, a
relative module name in a module that imports by name keeps that module of its package (also for the symbol stage),
a name read off a docstring keeps what the module's strings name, and so does a name cut out of a longer string
(``shlex.split("run --backend pkg.backends.fast")[-1]``); a name built from literals alone by string operations
(``translate``, a slice, ``bytes.join``, ``map(chr, ...)``) is evaluated (``index/own_expr.py``). Before, each
kept only the loose modules: ``backends/fast.py``, imported otherwise only by code no root reaches, left the fork
with exit 0 (session 46's four leftovers and session 47's shapes, both ``[symbols]`` modes)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

HEAD = "import functools, importlib, itertools, re, shlex, subprocess, sys, urllib.parse\n\n"
RUN_C = "    return subprocess.run([sys.executable, '-c', code], capture_output=True, text=True).stdout.strip()\n"
SHAPES = {
    "reduce_join": "def main():\n    return importlib.import_module(functools.reduce(lambda a, b: a + '.' + b, "
                   "[__package__, 'backends', 'fast'])).NAME\n",
    "docstring_name": "def run():\n    \"\"\"Backend: pkg.backends.fast\"\"\"\n\n\n"
                      "def main():\n    return importlib.import_module(run.__doc__.split()[-1]).NAME\n",
    "set_name_descriptor": "class LazyModule:\n    def __init__(self, rel):\n        self.rel = rel\n\n"
                           "    def __set_name__(self, owner, name):\n"
                           "        self.pkg = owner.__module__.rpartition('.')[0]\n\n"
                           "    def __get__(self, obj, owner):\n"
                           "        return importlib.import_module(self.rel, self.pkg)\n\n\n"
                           "class App:\n    backend = LazyModule('.backends.fast')\n\n\n"
                           "def main():\n    return App().backend.NAME\n",
    "child_code_repr": "TOOL = '.backends.fast'\n\n\ndef main():\n"
                       "    code = f'import importlib; print(importlib.import_module({TOOL!r}, "
                       "{__package__!r}).NAME)'\n"
                       "    return subprocess.run([sys.executable, '-c', code], capture_output=True, text=True)"
                       ".stdout.strip()\n",
    # names built from literals alone, by operations the evaluator now computes
    "translate": "def main():\n    return importlib.import_module('pkg/backends/fast'.translate("
                 "str.maketrans('/', '.')))"
                 ".NAME\n",
    "literal_slice": "def main():\n    return importlib.import_module('xxpkg.backends.fastyy'[2:-2]).NAME\n",
    "bytes_join": "def main():\n    return importlib.import_module(b'.'.join([b'pkg', b'backends', b'fast']).decode())"
                  ".NAME\n",
    "dict_keys_join": "def main():\n    return importlib.import_module('.'.join({'pkg': 1, 'backends': 2, 'fast': 3}))"
                      ".NAME\n",
    "chain_join": "def main():\n    return importlib.import_module('.'.join(itertools.chain(['pkg'], ['backends', "
                  "'fast']))).NAME\n",
    "chr_codes": "def main():\n    return importlib.import_module(__package__ + ''.join(map(chr, %r))).NAME\n"
                 % [ord(c) for c in ".backends.fast"],
    # a name cut out of a longer string
    "shlex_split": "def main():\n    return importlib.import_module(shlex.split('run --backend pkg.backends.fast')[-1])"
                   ".NAME\n",
    "url_netloc": "def main():\n    return importlib.import_module(urllib.parse.urlparse('plugin://pkg.backends.fast/')"
                  ".netloc).NAME\n",
    "regex_group": "def main():\n    return importlib.import_module(re.search(r'use (\\S+) now', "
                   "'use pkg.backends.fast now').group(1)).NAME\n",
    # a child's code built by str.format, %, Template, or a literal fed on stdin, importing `from X import fast`
    "child_format": "def main():\n    code = 'import {0}.backends.fast as m; print(m.NAME)'.format(__package__)\n"
                    + RUN_C,
    "child_percent": "def main():\n    code = 'from %s.backends import fast; print(fast.NAME)' % __package__\n" + RUN_C,
    "child_template": "import string\n\n\ndef main():\n    code = string.Template('from $p.backends import fast; "
                      "print(fast.NAME)').substitute(p=__package__)\n" + RUN_C,
    "child_stdin": "def main():\n    code = 'from pkg.backends import fast\\nprint(fast.NAME)\\n'\n"
                   "    return subprocess.run([sys.executable, '-'], input=code, capture_output=True, text=True)"
                   ".stdout.strip()\n",
    "exec_code_relative": "def main():\n    ns = {}\n    src = '\\n'.join(['import importlib', "
                          "f\"m = importlib.import_module('.backends.fast', {__package__!r})\"])\n"
                          "    exec(compile(src, '<gen>', 'exec'), ns)\n    return ns['m'].NAME\n",
    "factory_closure": "REG = {}\n\n\ndef _make(path):\n    def factory():\n"
                       "        return importlib.import_module(path)\n"
                       "    return factory\n\n\nREG['fast'] = _make('.'.join([__package__, 'backends', 'fast']))\n\n\n"
                       "def main():\n    return REG['fast']().NAME\n",
}
FILES = {"pkg/__init__.py": "", "pkg/backends/__init__.py": "", "pkg/backends/fast.py": "NAME = 'fast'\n",
         "pkg/legacy.py": "import pkg.backends.fast\n\nALL = True\n",
         "tests/test_legacy.py": "from pkg import legacy\n\n\ndef test_legacy():\n    assert legacy.ALL\n"}


@pytest.mark.parametrize("mode", ["default", "roots"])
@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_a_name_its_module_shows_pieces_of_keeps_its_module(tmp_path, shape, mode):
    symbols = '[symbols]\npublic_api = "roots"\npackage_api = false\n' if mode == "roots" else "[symbols]\n"
    root = write_project(tmp_path, {**FILES, "pkg/app.py": HEAD + SHAPES[shape]},
                         f'source = "."\nroots = ["pkg.app:main"]\ntests = ["tests"]\n\n{symbols}')
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    done = subprocess.run([sys.executable, "-c", "from pkg.app import main; print(main())"], cwd=fork,
                          capture_output=True, text=True)
    assert done.stdout.strip() == "fast", done.stderr[-2000:]


def test_a_relative_string_without_an_import_by_name_names_nothing():
    import ast
    from slimfork.index.open_names import imports_by_name, relative_literals
    tree = ast.parse("SUFFIX = '.json'\n")
    assert relative_literals(tree) == [("{__package__}.json", 1)] and not imports_by_name(tree)
    assert imports_by_name(ast.parse("CODE = 'import importlib; importlib.import_module(x)'\n"))
