"""OpenEquivariance (``f7aa89d^``): Python renders ``loop_unroll_batch.cuh`` through a Jinja ``PackageLoader``
(``env.get_template("loop_unroll_batch.cuh")``), and that template pulls in the others with Jinja's own directives
(``{% include 'common.cuh' %}``, ``{%- from 'loop_unroll_tp.cuh' import ... %}``, which imports ``wmm.cuh`` in
turn). Only ``#include`` lines were read, so the three templates were reported at 70 ("no Python string, loader,
build file or #include in the tree names it"). A Jinja ``include``/``import``/``from``/``extends`` of a native
template names it like an ``#include``; a template nothing names is still reported."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "setup.py": "from setuptools import setup\nsetup(name='eq', packages=['eq'])\n",
    "eq/__init__.py": """
        from jinja2 import Environment, PackageLoader


        def render():
            env = Environment(loader=PackageLoader("eq"))
            return env.get_template("batch.cuh").render()
    """,
    "eq/templates/batch.cuh": "{% include 'common.cuh' %}\n{%- from \"tp.cuh\" import gen %}\n"
                              "void batch(float* x) { {{ gen() }} }\n",
    "eq/templates/common.cuh": "#define WARP 32\n",
    "eq/templates/tp.cuh": "{%- import 'sub/wmm.cuh' as wmm %}\n{% macro gen() %}x[0] = 1;{% endmacro %}\n",
    "eq/templates/sub/wmm.cuh": "{% macro mm() %}{% endmacro %}\n",
    "eq/templates/old.cuh": "__global__ void old_kernel(float* x) { }\n",
    "tests/test_eq.py": "from eq import render\n\n\ndef test_render():\n    assert render()\n",
}


def test_templates_a_jinja_template_includes_are_named(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-kernel"}
    for kept in ("common.cuh", "tp.cuh", "sub/wmm.cuh", "batch.cuh"):
        assert f"source:eq/templates/{kept}" not in found, (kept, found)
    assert found.get("source:eq/templates/old.cuh", 0) >= 60, found
