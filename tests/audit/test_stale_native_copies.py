"""aiter (``ee9114bd48^``, "remove useless files"): ``csrc/transpose_operator.cu`` was a stale copy of
``csrc/kernels/transpose_operator.cu`` (the loader names the latter by path); only the root ``setup.py``'s listing of
every source directly in ``csrc/`` picked the copy up, so it was kept. A source only folder listings pick up that is
a copy (90%+ of code lines alike) of a same-named source code names by path is now reported (60); a copy that is
named by path itself, or a same-named file that differs, is not."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

KERNEL = "\n".join(["__global__ void transpose_kernel(float* x, int n) {"]
                   + [f"    x[{i}] = x[{i}] * {i}.0f;  // step {i}" for i in range(30)]
                   + ["}", "void transpose(float* x) { transpose_kernel<<<1, 1>>>(x, 1); }", ""])
OTHER = "\n".join(["__global__ void norm_kernel(float* x) {"] + [f"    x[{i}] += {i * 7};" for i in range(30)]
                  + ["}", "void norm(float* x) { norm_kernel<<<1, 1>>>(x); }", ""])

FILES = {
    "setup.py": """
        import os
        from setuptools import setup
        from kl.jit import compile_folder
        this_dir = os.path.dirname(os.path.abspath(__file__))
        compile_folder(f"{this_dir}/csrc")
        setup(name="kl", packages=["kl"])
    """,
    "kl/__init__.py": "from kl.ops import transpose, norm\n",
    "kl/jit.py": """
        import glob
        from torch.utils import cpp_extension


        def compile_folder(folder):
            return cpp_extension.load("all", sources=glob.glob(folder + "/*.cu"))


        def load(name, srcs):
            return cpp_extension.load(name, sources=srcs)
    """,
    "kl/ops.py": """
        import os
        from kl.jit import load
        CSRC = os.path.join(os.path.dirname(__file__), "..", "csrc")


        def transpose(x):
            return load("tr", [f"{CSRC}/kernels/transpose_operator.cu"]).transpose(x)


        def norm(x):
            return load("nm", [f"{CSRC}/kernels/norm.cu"]).norm(x)
    """,
    "tests/test_ops.py": "from kl import norm, transpose\n\n\ndef test_ops():\n    assert transpose(norm(1))\n",
    "csrc/transpose_operator.cu": KERNEL,
    "csrc/kernels/transpose_operator.cu": KERNEL.replace("// step 3", "// step three"),
    "csrc/norm.cu": OTHER.replace("7", "5"),
    "csrc/kernels/norm.cu": OTHER,
}


def test_a_copy_only_a_folder_listing_builds_is_stale(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f for f in result.findings if f.kind == "unused-kernel"}
    stale = found["source:csrc/transpose_operator.cu"]
    assert stale.confidence == 60
    assert "stale copy" in stale.reason and "csrc/kernels/transpose_operator.cu" in stale.reason
    assert "source:csrc/kernels/transpose_operator.cu" not in found
    assert "source:csrc/norm.cu" not in found  # same name, different code: the folder build may mean it


def test_a_copy_named_by_path_is_kept(tmp_path):
    files = dict(FILES)
    files["kl/extra.py"] = "import os\nPATH = os.path.join('csrc', 'transpose_operator.cu')\n"
    files["kl/__init__.py"] += "from kl import extra\n"
    result, _table = run_audit(open_tree(write_project(tmp_path, files, "")))
    assert "source:csrc/transpose_operator.cu" not in {f.subject for f in result.findings}


def test_a_stale_copys_kernel_is_not_used_by_the_live_copys_lookups(tmp_path):
    """Session 36 (aiter ``98bde2b``): the live copy names its kernel in a string as well as launching it (a name
    for a lookup or a log line, ``"add_tn_big_tile_kernel"``); that native string counted as a use of every kernel of
    the name, the stale copy's included, so the stale copy's kernel was never reported. A native file's strings
    name the kernels its translation unit sees, like its launches."""
    kernel = KERNEL.replace("void transpose(float* x) {", 'void transpose(float* x) { log_name("transpose_kernel");')
    files = {**FILES, "csrc/transpose_operator.cu": kernel,
             "csrc/kernels/transpose_operator.cu": kernel.replace("// step 3", "// step three")}
    result, _table = run_audit(open_tree(write_project(tmp_path, files, "")))
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-kernel"}
    assert found.get("cuda:csrc/transpose_operator.cu::transpose_kernel", 0) >= 60, found
    assert not any(s.startswith("cuda:csrc/kernels/") for s in found), found
