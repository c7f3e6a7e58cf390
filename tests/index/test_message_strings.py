"""The message of a warning or an exception is prose: a module named in it (jsonschema's ``warnings.warn("...
Import it from jsonschema.exceptions instead.")``) is a word, not a module some code looks up by name, which
kept every name of that module (session 36's depth round). A string outside such a message, and a call inside
one, are read as before."""

from __future__ import annotations

import ast

from slimfork.api import analyse
from slimfork.index.symbols import symbol_summary
from tests.mapping.registrykit import write_project


def _refs(source: str):
    st = symbol_summary(ast.parse(source)).statements[-1]
    return st.strings, st.words


def test_a_warning_message_names_words():
    strings, words = _refs('import warnings\n\n\ndef f():\n    warnings.warn("Import it from pkg.exc instead.",'
                           ' DeprecationWarning)\n')
    assert "pkg.exc" in words and "pkg.exc" not in strings


def test_an_exception_message_names_words():
    strings, words = _refs('def f(name):\n    raise AttributeError(f"module pkg.exc has no attribute {name}")\n')
    assert "pkg.exc" in words and "pkg.exc" not in strings
    strings, words = _refs('def f():\n    raise ValueError("pkg.exc")\n')
    assert "pkg.exc" not in strings


def test_other_strings_and_calls_inside_a_message_still_name_modules():
    strings, _ = _refs('def f():\n    return load("pkg.exc")\n')
    assert "pkg.exc" in strings
    strings, _ = _refs('import warnings\n\n\ndef f():\n    warnings.warn(str(import_module("pkg.exc")))\n')
    assert "pkg.exc" in strings
    strings, _ = _refs('def f():\n    return error_handler("pkg.exc")\n')  # not a class name: read as before
    assert "pkg.exc" in strings
    strings, words = _refs('def f():\n    raise Gone("pkg.exc")\n')  # any raised call is a constructor
    assert "pkg.exc" in words and "pkg.exc" not in strings
    strings, _ = _refs('def f():\n    raise make_error("pkg.exc")\n')  # a factory may look its string up
    assert "pkg.exc" in strings


FILES = {
    "pyproject.toml": '[project]\nname = "pkg"\nversion = "1.0"\n',
    "src/pkg/__init__.py": "",
    "src/pkg/exc.py": "class Used(Exception):\n    pass\n\n\nclass Unused(Exception):\n    pass\n",
    "src/pkg/app.py": 'import warnings\n\nfrom pkg.exc import Used\n\n\ndef main():\n'
                      '    warnings.warn("Importing Used from pkg.app is deprecated: use pkg.exc", DeprecationWarning)\n'
                      '    raise Used("see pkg.exc")\n',
}


def test_a_module_named_in_a_message_keeps_only_what_is_used(tmp_path):
    spec = 'source = "."\npackages = ["pkg"]\nroots = ["pkg.app"]\n\n[symbols]\npublic_api = "roots"\n'
    stage = analyse(write_project(tmp_path, FILES, spec) / "slimfork.toml").stages.symbols
    gone = {(p.module, n) for p in stage.pruned for n in p.names}
    assert ("pkg.exc", "Unused") in gone and ("pkg.exc", "Used") not in gone
