"""aiter (``2f773f826c^``): a Python generator renders ``pa_ps.cpp.jinja`` (``open(f"{ROOT}/csrc/pa/pa_ps.cpp.jinja")``)
into the host code that launches ``pa_decode_ps_reduce_hip_kernel<{{out_dtype}}, ...>`` of ``pa_ps.cuh``; the
template was not read, so the kernel was reported at 70 ("its name appears in no other native line"). A Jinja
template of native code (``x.cpp.jinja``, ``.j2``) is read as native code, and a Python string naming it names it;
a template nothing names is reported like any unnamed source."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "setup.py": "from setuptools import setup\nsetup(name='pa', packages=['pa'])\n",
    "pa/__init__.py": """
        import os

        ROOT = os.path.dirname(os.path.dirname(__file__))


        def render(dtype):
            with open(f"{ROOT}/csrc/pa/pa_ps.cpp.jinja") as fh:
                return fh.read().replace("{{out_dtype}}", dtype)
    """,
    "csrc/pa/pa_ps.cuh": "template <typename T>\n__global__ void pa_decode_ps_reduce_hip_kernel(T* out) { }\n"
                         "template <typename T>\n__global__ void pa_unused_kernel(T* out) { }\n",
    "csrc/pa/pa_ps.cpp.jinja": '#include "pa_ps.cuh"\n\nextern "C" void run_{{out_dtype}}(void* out) {\n'
                               "    pa_decode_ps_reduce_hip_kernel<{{out_dtype}}><<<1, 1>>>(({{out_dtype}}*)out);\n}\n",
    "csrc/pa/old.cpp.jinja": "void old_{{x}}() {}\n",
    "tests/test_pa.py": "from pa import render\n\n\ndef test_render():\n    assert render('float')\n",
}


def test_a_rendered_native_template_launches_kernels(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-kernel"}
    assert "cuda:csrc/pa/pa_ps.cuh::pa_decode_ps_reduce_hip_kernel" not in found
    assert "source:csrc/pa/pa_ps.cpp.jinja" not in found and "source:csrc/pa/pa_ps.cuh" not in found
    assert found.get("cuda:csrc/pa/pa_ps.cuh::pa_unused_kernel", 0) >= 60
    assert found.get("source:csrc/pa/old.cpp.jinja", 0) >= 60
