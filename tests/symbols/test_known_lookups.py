"""Two namespace reads whose names are known (session 37's depth round), each once a reason to keep every name:

- ``exec``/``eval`` of a string literal without a namespace (petl 1.7.15's ``petl/io/avro.py``: ``exec('raise
  ErrorType, new_message, tracebk')``, a Python 2 fallback) reads at most the identifiers its text holds. It kept
  every name of ``petl.io.avro``, whose doctests then kept all of ``petl``'s API through the package.
- ``__locals = locals()`` read only as ``__locals[__name]`` in ``for __name in __all__:`` (httpx 0.27.2's
  ``__init__``: each exported name gets ``__module__ = "httpx"``) reads only the names the literal ``__all__``
  lists, and the fork's ``__all__`` lists a name exactly when it keeps it.

A text that names a lookup (``globals``, ``getattr``, ``sys``, a dunder), a computed text, a namespace argument, a
namespace read any other way, or a loop over something else keeps every name as before."""

from __future__ import annotations

import ast

import pytest

from slimfork.api import analyse
from slimfork.index.symbols import symbol_summary
from tests.mapping.registrykit import write_project

EXEC = '''
import sys


def _raise(ErrorType, msg):
    tb = sys.exc_info()[2]
    if sys.version_info[0] == 3:
        raise ErrorType(msg).with_traceback(tb)
    exec('raise ErrorType, msg, tb')


def helper():
    return 1


def unused():
    return 2


def read(x):
    if not x:
        _raise(ValueError, "empty")
    return x
'''

ALL_LOOP = '''
from .core import read
from .extra import Extra, extra_fn

__all__ = ["read", "Extra", "extra_fn"]

__locals = locals()
for __name in __all__:
    if not __name.startswith("__"):
        setattr(__locals[__name], "__module__", "lk")
'''

FILES = {
    "pyproject.toml": '[project]\nname = "lk"\nversion = "1.0"\n',
    "lk/__init__.py": ALL_LOOP,
    "lk/core.py": "from lk.io import read as _read\n\n\ndef read(x):\n    return _read(x)\n",
    "lk/io.py": EXEC,
    "lk/extra.py": "class Extra:\n    pass\n\n\ndef extra_fn():\n    return Extra()\n",
}
SPEC = 'source = "."\nroots = ["lk.core:read"]\n\n[symbols]\npublic_api = "roots"\npackage_api = false\n'


def test_a_literal_exec_reads_only_its_words():
    summary = symbol_summary(ast.parse(EXEC))
    assert not summary.keep_all
    raiser = next(st for st in summary.statements if "_raise" in st.binds)
    assert {"ErrorType", "msg", "tb"} <= raiser.names


def test_a_loop_over_all_reads_only_its_names():
    summary = symbol_summary(ast.parse(ALL_LOOP))
    assert not summary.keep_all and summary.all_names == ["read", "Extra", "extra_fn"]


def test_the_fork_prunes_both_modules(tmp_path):
    analysis = analyse(write_project(tmp_path, FILES, SPEC) / "slimfork.toml", jobs=1)
    stage = analysis.stages.symbols
    gone = {(p.module, n) for p in stage.pruned for n in p.names}
    assert {("lk.io", "unused"), ("lk.io", "helper")} <= gone
    assert ("lk.io", "_raise") not in gone and ("lk.io", "read") not in gone
    assert "lk/extra.py" in {r.path for r in analysis.plan.removals}  # only the package's __all__ loop read it
    init = stage.contents["lk/__init__.py"].decode()
    assert "Extra" not in init and "__all__ = []" in init and "__locals[__name]" in init  # nothing uses lk.read


@pytest.mark.parametrize("code", [
    "def f():\n    exec('globals()[n] = 1')\n",
    "def f(code):\n    exec(code)\n",
    "def f():\n    exec('x = 1', {})\n    exec('y = getattr(m, n)')\n",
    "def f():\n    eval('__import__(\"os\")')\n",
    "def f():\n    return eval('sys.modules[__name__]')\n",
])
def test_other_execs_keep_every_name(code):
    assert symbol_summary(ast.parse(code)).keep_all


@pytest.mark.parametrize("code", [
    '__all__ = ["a"]\na = 1\nns = locals()\nprint(ns)\n',
    '__all__ = ["a"]\na = 1\nns = locals()\nfor n in __all__:\n    ns[n]\nns["b"]\n',
    '__all__ = ["a"]\na = 1\nns = locals()\nfor n in ["a", "b"]:\n    ns[n]\n',
    '__all__ = ["a"]\na = 1\nns = locals()\nfor n in __all__:\n    n = "b"\n    ns[n]\n',
    '__all__ = ["a"]\na = 1\nfor n in __all__:\n    globals()[n + "_x"]\n',
    'a = 1\n__all__ = [x for x in dir()]\nns = locals()\nfor n in __all__:\n    ns[n]\n',
])
def test_other_namespace_reads_keep_every_name(code):
    assert symbol_summary(ast.parse(code)).keep_all


def test_labels_name_no_module(tmp_path):
    """``setattr(obj, "__module__", "lk")``, ``f.__module__ = "lk"``, ``__title__ = "lk"`` (httpx's
    ``__version__.py``) and ``logging.getLogger("lk")`` (httpx's ``_client.py``) name the package as a label: none
    keeps every name of ``lk/__init__.py``."""
    files = {**FILES, "lk/__version__.py": '__title__ = "lk"\n__version__ = "1.0"\n',
             "lk/core.py": 'from lk.io import read as _read\nfrom lk.__version__ import __version__\n\n\n'
                           'import logging\nlogger = logging.getLogger("lk")\n\n\n'
                           'def read(x):\n    logger.debug(x)\n    return _read(x), __version__\n\n\n'
                           'read.__module__ = "lk"\n'}
    analysis = analyse(write_project(tmp_path, files, SPEC) / "slimfork.toml", jobs=1)
    assert not analysis.stages.symbols.reach.keep_all
    assert "lk/extra.py" in {r.path for r in analysis.plan.removals}
