"""meson-python 0.22.1's tests build packages whose ``meson.build`` lists each C source as a string relative to
itself (``py.extension_module('extension', 'extension.c', ...)``, ``files('lib/examplelib.c')``): the audit read
CMake, make and shell builds but not meson's: 33 kernel findings (sources and the headers they include, 30
to 70), 1 after (a header nothing names). A source no ``meson.build`` names (nor anything else) still is."""

from __future__ import annotations

from slimfork.audit.layout import audit_tree
from slimfork.audit.run import run_audit
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[build-system]\nbuild-backend = "mesonpy"\nrequires = ["meson-python"]\n',
    "meson.build": "py = import('python').find_installation()\npy.install_sources('pkg/__init__.py', subdir: 'pkg')\n",
    "pkg/__init__.py": "X = 1\n",
    "tests/test_build.py": "def test_build():\n    assert True\n",
    "tests/packages/demo/meson.build": "py = import('python').find_installation()\nsubdir('lib')\n"
                                       "py.extension_module('_ext', 'src/ext.c')  # not 'src/gone.c'\n",
    "tests/packages/demo/lib/meson.build": "examplelib = library('examplelib', files('examplelib.c'))\n",
    "tests/packages/demo/lib/examplelib.c": "int add(int a, int b) { return a + b; }\n",
    "tests/packages/demo/src/ext.c": '#include "ext.h"\nPyObject* PyInit__ext(void) { return 0; }\n',
    "tests/packages/demo/src/ext.h": "int ext(void);\n",
    "tests/packages/demo/src/gone.c": "int gone(void) { return 0; }\n",
}


def test_the_sources_a_meson_build_names_are_built(tmp_path):
    result, _table = run_audit(audit_tree(write_project(tmp_path, FILES, "")))
    unused = {f.subject for f in result.findings if f.kind == "unused-kernel"}
    demo = "tests/packages/demo/"
    assert not {s for s in unused if any(n in s for n in ("src/ext.c", "src/ext.h", "lib/examplelib.c"))}
    assert any(demo + "src/gone.c" in subject for subject in unused)
