"""R compiles the sources in the ``src/`` folder of a package it installs (keops' ``rkeops/DESCRIPTION``,
``Package: rkeops``: ``rkeops/src/rkeops.cpp``, ``RcppExports.cpp``), with no build file naming them: they were
"named by nothing" at 70, and the header only they include at 60."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "setup.py": "from setuptools import setup\nsetup(name='rx', packages=['rx'])\n",
    "rx/__init__.py": "def f():\n    return 1\n",
    "tests/test_f.py": "from rx import f\n\n\ndef test_f():\n    assert f()\n",
    "rpkg/DESCRIPTION": "Package: rpkg\nType: Package\nVersion: 1.0\n",
    "rpkg/src/rpkg.cpp": '#include "rpkg.h"\nextern "C" int add(int a, int b) { return a + b; }\n',
    "rpkg/src/rpkg.h": "int add(int a, int b);\n",
    "rpkg/inst/stale.cpp": "int old() { return 0; }\n",
}


def test_the_sources_of_an_r_package_are_built_by_r(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.path: f.confidence for f in result.findings if f.kind == "unused-kernel"}
    assert "rpkg/src/rpkg.cpp" not in found and "rpkg/src/rpkg.h" not in found, found
    assert found.get("rpkg/inst/stale.cpp", 0) >= 60, found
