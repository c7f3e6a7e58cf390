"""aiter (``8df2bbd``, the parent of the three "[module_pa*] dead code" clean-ups): JIT modules are registered in
``aiter/jit/optCompilerConfig.json`` (``{"module_pa_v1": {"srcs": ["f'{AITER_CSRC_DIR}/kernels/attention_v1.cu'",
...]}}``) and loaded by key (``@compile_ops("module_pa_v1")``). The JSON was not read, and a code generator's output
path (``os.path.join(out, "instances", f"{kernel.name}.cu")``, opened with ``"a"``) matched every ``.cu`` of the tree,
so every source was kept. Now a registered module's sources are named where Python code names its key, outside
literal lists of several keys (an exclusion list loads nothing), and a path a function only writes names no source."""

from __future__ import annotations

import json

from slimfork.audit.json_modules import listing_lines, path_text, written_lines
from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

CFG = {"module_act": {"srcs": ["f'{CSRC}/kernels/act.cu'", "f'{CSRC}/pybind/act_pybind.cu'"], "flags": []},
       "module_old": {"srcs": ["f'{CSRC}/kernels/old.cu'", "f'{CSRC}/pybind/old_pybind.cu'"], "flags": []},
       "module_gen": {"srcs": ["f'{CSRC}/kernels/gen.cu'"]}}

FILES = {
    "setup.py": "from setuptools import setup\nsetup(name='kl', packages=['kl'])\n",
    "kl/__init__.py": "from kl.ops.act import silu\nfrom kl.gen import gen, write\n",
    "kl/jit/__init__.py": "",
    "kl/jit/optCompilerConfig.json": json.dumps(CFG, indent=1),
    "kl/jit/core.py": """
        import functools, json, os
        from torch.utils import cpp_extension
        this_dir = os.path.dirname(os.path.abspath(__file__))
        CSRC = os.path.abspath(f"{this_dir}/../../csrc")
        CK_MODULES = {"module_act", "module_old", "module_gen"}


        def get_args(md):
            with open(this_dir + "/optCompilerConfig.json") as fh:
                d = json.load(fh)[md]
            return [eval(s) for s in d["srcs"]]


        def compile_ops(md):
            def wrap(f):
                @functools.wraps(f)
                def run(*a):
                    mod = cpp_extension.load(md, sources=get_args(md))
                    return getattr(mod, f.__name__)(*a)
                return run
            return wrap
    """,
    "kl/ops/__init__.py": "",
    "kl/ops/act.py": "from kl.jit.core import compile_ops\n\n\n@compile_ops(\"module_act\")\ndef silu(x):\n    ...\n",
    "kl/gen.py": """
        import os
        from kl.jit.core import compile_ops


        @compile_ops("module_gen")
        def gen(x):
            ...


        def write(out, names):
            for name in names:
                path = os.path.join(out, "instances", f"{name}.cu")
                if not os.path.exists(path):
                    with open(path, "a") as fh:
                        fh.write("//")
    """,
    "csrc/kernels/act.cu": "__global__ void silu_kernel(float* x) { x[0] = 0; }\n"
                           "void silu(float* x) { silu_kernel<<<1, 1>>>(x); }\n",
    "csrc/pybind/act_pybind.cu": "void silu(float* x);\n"
                                 "PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def(\"silu\", &silu); }\n",
    "csrc/kernels/old.cu": "__global__ void old_kernel(float* x) { x[0] = 0; }\n"
                           "void old_op(float* x) { old_kernel<<<1, 1>>>(x); }\n",
    "csrc/pybind/old_pybind.cu": "void old_op(float* x);\n"
                                 "PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def(\"old_op\", &old_op); }\n",
    "csrc/kernels/gen.cu": "__global__ void gen_kernel(float* x) { x[0] = 0; }\n"
                           "void gen(float* x) { gen_kernel<<<1, 1>>>(x); }\n",
    "tests/test_act.py": "from kl import silu\n\n\ndef test_silu():\n    assert silu(1)\n",
}


def test_a_registered_module_nothing_loads_is_dead_and_the_loaded_ones_live(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f for f in result.findings if f.kind == "unused-kernel"}
    for path in ("csrc/kernels/old.cu", "csrc/pybind/old_pybind.cu"):
        assert found[f"source:{path}"].confidence == 60
        assert "module_old of kl/jit/optCompilerConfig.json" in found[f"source:{path}"].reason
    for path in ("csrc/kernels/act.cu", "csrc/pybind/act_pybind.cu", "csrc/kernels/gen.cu"):
        assert f"source:{path}" not in found  # loaded by @compile_ops("module_...")
    assert found["cuda:csrc/kernels/old.cu::old_kernel"].confidence >= 60


def test_an_unnamed_json_file_registers_nothing(tmp_path):
    files = dict(FILES)
    files["kl/jit/core.py"] = files["kl/jit/core.py"].replace("optCompilerConfig.json", "other.json")
    result, _table = run_audit(open_tree(write_project(tmp_path, files, "")))
    found = {f.subject for f in result.findings if f.kind == "unused-kernel"}
    assert "source:csrc/kernels/act.cu" in found  # nothing reads the JSON: nothing names the sources


def test_json_strings_as_paths():
    assert path_text("f'{AITER_CSRC_DIR}/kernels/attention_v1.cu'") == "{...}/kernels/attention_v1.cu"
    assert path_text("csrc/a.cu") == "csrc/a.cu"


def test_listings_of_several_keys():
    src = 'EXCLUDE = {"m_a", "m_b", "m_c"}\nPAIR = ["m_a", "m_b"]\nload("m_c")\n'
    assert listing_lines(src, {"m_a", "m_b", "m_c"}) == {1}


def test_written_paths():
    src = ("import os\n"
           "def gen(out, name):\n"
           "    path = os.path.join(out, f'{name}.cu')\n"
           "    with open(path, 'w') as fh:\n"
           "        fh.write('')\n"
           "def build(d, name):\n"
           "    src = os.path.join(d, f'{name}.cu')\n"
           "    with open(src, 'w') as fh:\n"
           "        fh.write('')\n"
           "    return load(name, sources=[src])\n"
           "def read(d, name):\n"
           "    with open(f'{d}/{name}.cu') as fh:\n"
           "        return fh.read()\n")
    assert written_lines(src) == {3}  # the second path is also compiled; the third is read


def test_a_format_field_in_a_generated_include_is_a_hole(tmp_path):
    files = {
        "setup.py": "from setuptools import setup\nsetup(name='kl', packages=['kl'])\n",
        "kl/__init__.py": "from kl.gen import render\n",
        "kl/gen.py": 'TEMPLATE = """#include "common{quanttype}.cuh"\nint main() {{ return 0; }}\n"""\n\n\n'
                     'def render(q):\n    return TEMPLATE.format(quanttype=q)\n',
        "csrc/common_fp8.cuh": "#pragma once\nint fp8();\n",
        "csrc/common.cuh": "#pragma once\nint plain();\n",
        "csrc/other.cuh": "#pragma once\nint other();\n",
    }
    result, _table = run_audit(open_tree(write_project(tmp_path, files, "")))
    found = {f.subject for f in result.findings if f.kind == "unused-kernel"}
    assert "source:csrc/common_fp8.cuh" not in found and "source:csrc/common.cuh" not in found
    assert "source:csrc/other.cuh" in found
