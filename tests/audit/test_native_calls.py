"""The native call graph: a CUDA kernel whose launches all sit in host functions no live code calls is unused
(bitsandbytes' "Remove unused kernels": ``kDequantize`` <- ``dequantize()`` <- ``extern "C" cdequantize``, which
no Python code reads any more). What the reader cannot follow stays live."""

from __future__ import annotations

from pathlib import Path

from slimfork.audit.run import AuditOptions, run_audit
from slimfork.index.native_functions import host_code
from slimfork.index.nativescan import scan_native
from slimfork.source.layout import open_tree

FIXTURE = Path(__file__).parent / "fixtures" / "ctypes_lib"


def _host(text: str):
    lines = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    return host_code(text, lambda pos: sum(1 for start in lines if start <= pos))


def test_a_kernel_launched_only_behind_an_export_python_never_reads_is_unused():
    result, _table = run_audit(open_tree(FIXTURE), options=AuditOptions(kinds={"unused-kernel"}))
    found = {f.subject: f for f in result.findings}
    assert set(found) == {"cuda:csrc/kernels.cu::kDequantize"}
    finding = found["cuda:csrc/kernels.cu::kDequantize"]
    assert finding.confidence == 50
    assert finding.reason == "launched only in functions nothing calls: csrc/ops.cu:5 in dequantize (launch)"


def test_exports_python_reads_by_name_or_fstring_pattern_keep_their_chain():
    # lib.cscale -> scale() -> kScale; getattr(lib, f"cfill_{name}_fp32") matches the macro-made cfill_ones_fp32
    # -> fill<T>() -> kFill; a file-level table holds kTabled; #if branches make branchy.cu unreadable: kept
    result, _table = run_audit(open_tree(FIXTURE), options=AuditOptions(kinds={"unused-kernel"}))
    subjects = {f.subject for f in result.findings}
    for kept in ("kScale", "kFill", "kTabled"):
        assert f"cuda:csrc/kernels.cu::{kept}" not in subjects
    assert "cuda:csrc/branchy.cu::kBranchy" not in subjects


def test_prototypes_and_explicit_instantiations_are_neither_kernels_nor_uses():
    scan = scan_native("__global__ void k(float* a);\n"
                       "template <typename T> __global__ void t(T* a) {}\n"
                       "template __global__ void t<float>(float* a);\n")
    assert [k.name for k in scan.kernels] == ["t"]
    assert "k" not in scan.loose and "t" not in scan.loose


def test_a_file_level_macro_invocation_defines_the_function_its_arguments_name():
    host = _host("#define MAKE(name, T) void c##name##_fp32(T* a) { run_##name(a); }\n"
                 "extern \"C\" {\nMAKE(ones, float)\n}\n")
    made = {f.name: f for f in host.functions if not f.macro}
    assert set(made) == {"cones_fp32"} and "run_ones" in made["cones_fp32"].uses
    assert not host.loose


def test_what_is_not_plainly_a_function_is_a_loose_use():
    host = _host("namespace a {\nvoid f() { k1(); }\n}\n"
                 "PYBIND11_MODULE(ext, m) { m.def(\"g\", &g); }\n"
                 "struct S { void run() { k2(); } };\n"
                 "REGISTER(k3);\n"
                 "auto fp = &k4;\n")
    assert [f.name for f in host.functions] == ["f"]  # inside a namespace: still a function
    assert {"g", "k2", "k3", "k4"} <= set(host.loose) and "k1" not in host.loose


def test_unbalanced_branches_make_the_whole_file_loose():
    host = _host("#if A\nvoid f(int a) {\n#else\nvoid f() {\n#endif\n  k();\n}\n")
    assert not host.functions and "k" in host.loose


def test_a_kernel_whose_body_spans_an_else_is_not_its_own_use():
    """Transformer Engine's kernels are written `__global__ void __launch_bounds__(N)\\n    name(...) {` with
    `#if __CUDA_ARCH__ >= 1000 ... #else ... #endif` in the body: such a function was read as loose names (live),
    and its own name, on the line after the definition's, counted as a launch of the kernel."""
    host = _host("__global__ void __launch_bounds__(128)\n"
                 "    kArch(float* a) {\n"
                 "#if ARCH >= 100\n"
                 "  helper_new(a);\n"
                 "#else\n"
                 "  helper_old(a);\n"
                 "#endif\n"
                 "}\n"
                 "void launcher(float* a) { kArch<<<1, 128>>>(a); }\n")
    assert "kArch" not in host.loose  # its launch is in launcher, a function
    # the #if/#else sits inside the body: one function using the names of both branches
    arch, launcher = host.functions
    assert (arch.name, launcher.name) == ("kArch", "launcher")
    assert {"helper_new", "helper_old"} <= arch.uses and "kArch" in launcher.uses
    # an #else in a head is two half-functions: read as loose names (live)
    half = _host("#if A\nvoid f(int a)\n#else\nvoid f(long a)\n#endif\n{ g(a); }\n")
    assert half.functions == [] and {"f", "g"} <= set(half.loose)


def test_a_function_pointer_among_template_parameters_is_no_function_name():
    host = _host("template <typename P, float (*OP)(float, const P &), int N>\n"
                 "__global__ void __launch_bounds__(N) kT(float* a) { OP(a[0], P{}); }\n")
    assert [f.name for f in host.functions] == ["kT"]


def test_a_kernel_of_a_public_header_with_no_use_at_all_stays_at_40(tmp_path):
    """flashinfer's include/flashinfer/activation.cuh::act_and_mul_kernel is instantiated by C++ that JIT templates
    hold in Python strings: once its own name stopped counting as a use, it had no use at all and went from 40 (a
    public header's kernel with dead uses) to 70. A public header's kernel may be launched outside the tree."""
    (tmp_path / "include" / "lib").mkdir(parents=True)
    (tmp_path / "include" / "lib" / "act.cuh").write_text("__global__ void act_kernel(float* a) {}\n")
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "__init__.py").write_text("")
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "lib"\nversion = "0"\n')
    result, _table = run_audit(open_tree(tmp_path), options=AuditOptions(kinds={"unused-kernel"}))
    found = {f.subject: f for f in result.findings}
    kernel = found["cuda:include/lib/act.cuh::act_kernel"]
    assert kernel.confidence == 40 and "public header" in kernel.reason


def test_a_name_written_only_qualified_by_another_namespace_does_not_call_a_function(tmp_path):
    """Transformer Engine's ``nvfp4::quantize`` launched ``quantize_nvfp4_kernel``; the dispatcher called
    ``fp8::quantize<...>(`` and ``mxfp8::quantize<...>(``, never ``nvfp4::quantize``, so the kernel was dead
    (removed in 7e8bc98b2), but names matched without namespaces kept it. A qualifier naming the function's own
    namespace, a bare call, or a qualifier that is no namespace of the tree (a class, a library) still calls it."""
    files = {
        "pyproject.toml": '[project]\nname = "pkg"\nversion = "0"\n', "pkg/__init__.py": "",
        "setup.py": "from setuptools import setup, Extension\n"
                    "setup(name='pkg', ext_modules=[Extension('pkg._C', ['csrc/cast.cu'])])\n",
        "csrc/fp8.cuh": "namespace te {\nnamespace fp8 {\n__global__ void fp8_kernel(float* x) {}\n"
                        "template <bool B> void quantize(float* x) { fp8_kernel<<<1, 1>>>(x); }\n}  // namespace fp8\n}\n",
        "csrc/nvfp4.cuh": "namespace te::nvfp4 {\n__global__ void nvfp4_kernel(float* x) {}\n"
                          "__global__ void transpose_kernel(float* x) {}\n"
                          "inline void quantize(float* x) { nvfp4_kernel<<<1, 1>>>(x); }\n"
                          "inline void quantize_transpose(float* x) { transpose_kernel<<<1, 1>>>(x); }\n}\n",
        "csrc/cast.cu": '#include "fp8.cuh"\n#include "nvfp4.cuh"\nnamespace te {\n'
                        "void dispatch(float* x) {\n  fp8::quantize<true>(x);\n  nvfp4::quantize_transpose(x);\n"
                        "  Helper::quantize_transpose(x);\n}\n}\n"
                        "PYBIND11_MODULE(_C, m) { m.def(\"dispatch\", &te::dispatch); }\n",
        "pkg/ops.py": "from pkg._C import dispatch\n",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    result, _table = run_audit(open_tree(tmp_path), options=AuditOptions(kinds={"unused-kernel"}))
    found = {f.subject: f for f in result.findings if f.subject.startswith("cuda:")}
    assert set(found) == {"cuda:csrc/nvfp4.cuh::nvfp4_kernel"}
    assert found["cuda:csrc/nvfp4.cuh::nvfp4_kernel"].confidence == 50
