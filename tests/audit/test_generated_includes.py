"""Generated code that includes a source named entirely at run time (keops' ``f'#include "{tag}.cpp"'``, the
formula source the JIT writes beside the binding it generates) named every ``.cpp`` of the tree: a stale
source nothing builds, and every header it includes, were "named by" the generator and never reported. A header
named that way may still be the tree's (included through an include path): unknown, kept."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "setup.py": "from setuptools import setup\nsetup(name='jx', packages=['jx'])\n",
    "jx/__init__.py": "from jx.gen import binding\n",
    "jx/gen.py": "def binding(tag):\n    return f'''\n#include \"{tag}.cpp\"\n#include <pybind11/pybind11.h>\n'''\n",
    "tests/test_gen.py": "from jx import binding\n\n\ndef test_binding():\n    assert binding('a')\n",
    "stale/red.cpp": '#include "stale/pack.h"\nint red() { return pack(); }\n',
    "stale/pack.h": "inline int pack() { return 1; }\n",
}


def test_an_include_of_a_computed_file_name_names_no_source(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.path: f.confidence for f in result.findings if f.kind == "unused-kernel"}
    assert found.get("stale/red.cpp", 0) >= 60 and found.get("stale/pack.h", 0) >= 60, found


def test_a_quoted_include_with_a_fixed_name_still_names_its_header(tmp_path):
    files = {**FILES, "jx/gen.py": "def binding(tag):\n    return f'#include \"stale/red.cpp\"\\n// {tag}'\n"}
    result, _table = run_audit(open_tree(write_project(tmp_path, files, "")))
    found = {f.path: f.confidence for f in result.findings if f.kind == "unused-kernel"}
    assert "stale/red.cpp" not in found and "stale/pack.h" not in found, found


def test_an_include_of_a_computed_header_name_still_keeps_the_headers(tmp_path):
    files = {**FILES, "jx/gen.py": "def binding(op):\n    return f'''\n#include \"{op}.h\"\n'''\n",
             "stale/red.cpp": "int red() { return 1; }\n"}
    result, _table = run_audit(open_tree(write_project(tmp_path, files, "")))
    found = {f.path: f.confidence for f in result.findings if f.kind == "unused-kernel"}
    assert "stale/pack.h" not in found, found  # unknown: it may be the header a generated source includes
