"""Kernel definitions in native sources (CUDA, HIP, C++, Metal), read with regular expressions.

Native sources are not parsed: the patterns below find definitions and names, and anything they miss is
reported as "no definition found" rather than guessed. Comments are blanked first so commented-out kernels
do not count.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from slimfork.index.native_functions import HostFunction, host_code

_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_STRING = re.compile(r'"(?:\\.|[^"\\\n])*"')
_GLOBAL = re.compile(r"\b__global__\b")
# nested calls in the bounds too: __launch_bounds__(get_num_threads<T>(BLOCK_M), 1)
_LAUNCH_BOUNDS = re.compile(r"__launch_bounds__\s*\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)")
_METAL_KERNEL = re.compile(r"(?:\bkernel|\[\[\s*kernel\s*\]\])\s+void\s+([A-Za-z_]\w*)\s*\(")
_TEMPLATE_BEFORE = re.compile(r"template\s*<[^;{}]*>\s*$")
_HOST_NAME = re.compile(r"\[\[\s*host_name\s*\(\s*\"([^\"]+)\"\s*\)\s*\]\]")
_TORCH_LIBRARY = re.compile(r"\bTORCH_LIBRARY(?:_FRAGMENT|_EXPAND)?\s*\(\s*([A-Za-z_]\w*)\s*,\s*([A-Za-z_]\w*)\s*\)")
_TORCH_IMPL = re.compile(r"\bTORCH_LIBRARY_IMPL\s*\(\s*([A-Za-z_]\w*)\s*,\s*\w+\s*,\s*([A-Za-z_]\w*)\s*\)")
_IMPL = re.compile(r"\b([A-Za-z_]\w*)\s*\.\s*impl\s*\(\s*(?:TORCH_SELECTIVE_NAME\s*\(\s*)?\"(?:(\w+)::)?(\w+)")
_PYBIND = re.compile(r"\b(?:PYBIND11_MODULE|NB_MODULE)\s*\(\s*([A-Za-z_]\w*)\s*,\s*([A-Za-z_]\w*)\s*\)")
_DEF = re.compile(r"\b([A-Za-z_]\w*)\s*\.\s*def\s*\(\s*\"([A-Za-z_][\w.]*)")
# a function that binds names into the module it is passed: void PybindFoo(py::module &m) { m.def("foo", ...); }
_BINDER = re.compile(r"\b([A-Za-z_]\w*)\s*\(\s*(?:const\s+)?(?:py|pybind11|nb|nanobind)::module_?\s*&\s*([A-Za-z_]\w*)\s*\)"
                     r"\s*\{")
_ONE_ARG_CALL = re.compile(r"\b([A-Za-z_]\w*)\s*\(\s*[A-Za-z_]\w*\s*\)")  # PybindFoo(m), PybindBar(sub)
# a Python module imported from C++: nb::module_::import_("pkg.mod"), py::module_::import("pkg.mod"),
# PyImport_ImportModule("pkg.mod")
_PY_IMPORT = re.compile(r"\b(?:import_?|PyImport_ImportModule(?:Level)?)\s*\(\s*\"([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\"")
_PY_FILE = re.compile(r"[\w./-]*\w\.py")
_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]([^>"]+)[>"]', re.M)
# an #include line of code a host generates (codegen's decl_stream << "#include <tl_templates/cuda/copy.h>\n")
_STRING_INCLUDE = re.compile(r'#[ \t]*include[ \t]*(?:<([^<>"\\\n]+)>|\\"([^"\\\n]+)\\")')
# a Jinja template of native code names the templates it renders with: {% include 'common.cuh' %},
# {%- from 'wmm.cuh' import f %}, {% import "x.cuh" as x %}, {% extends "base.cu.j2" %}
_JINJA_INCLUDE = re.compile(r"""\{%-?\s*(?:include|import|from|extends)\s+(?:"([^"\n]+)"|'([^'\n]+)')""")
_IDENT = re.compile(r"[A-Za-z_]\w*")
_DIRECTIVE = re.compile(r"^[ \t]*#(?:[^\n\\]|\\[\s\S])*", re.M)  # a preprocessor line, with its continuations
_INSTANTIATION = re.compile(r"\btemplate\s*$")
_TEMPLATE_ARGS = re.compile(r"<[^<>;{}()]*>")


@dataclass(frozen=True, slots=True)
class NativeKernel:
    kind: str  # "cuda" (__global__), "metal", "torch-op" (TORCH_LIBRARY m.def), "pybind" (PYBIND11_MODULE m.def)
    name: str
    line: int
    namespace: str = ""  # the torch library namespace or the pybind module name


@dataclass(slots=True)
class NativeScan:
    kernels: list[NativeKernel] = field(default_factory=list)
    includes: list[tuple[str, int]] = field(default_factory=list)
    idents: dict[str, list[int]] = field(default_factory=dict)  # identifier -> lines (code, not comments)
    strings: dict[str, list[int]] = field(default_factory=dict)  # identifier-like string literals -> lines
    impls: list[tuple[str, str, int]] = field(default_factory=list)  # TORCH_LIBRARY_IMPL m.impl: (ns, op, line)
    functions: list[HostFunction] = field(default_factory=list)  # host functions and macros, with the names they use
    loose: dict[str, list[int]] = field(default_factory=dict)  # identifiers used outside any function (always live)
    modules: list[str] = field(default_factory=list)  # PYBIND11_MODULE/NB_MODULE names, with or without m.def
    py_imports: list[tuple[str, int]] = field(default_factory=list)  # Python modules it imports: (module, line)
    # Python files it names ("fill.py": a Triton runtime in C++ loading a kernel's source by path): (text, line)
    py_files: list[tuple[str, int]] = field(default_factory=list)
    # functions binding names into a module they are passed: function -> [(name, line)] of its m.def exports
    binders: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    # (caller, callee) of one-argument calls in a module's body ("module:_k2") or a binder's (its name)
    binder_calls: list[tuple[str, str]] = field(default_factory=list)


def _blank(match: re.Match) -> str:
    """A comment as spaces, its lines kept; a block comment keeps the line continuations of the macro it is in
    (``/*wvSpltK_hf:<...> \\`` inside a ``#define``: the macro's body went on after it)."""
    text = match.group(0)
    if text.startswith("/*"):
        return re.sub(r"\\(?=\n)|([^\n])", lambda m: " " if m.group(1) else "\\", text)
    return re.sub(r"[^\n]", " ", text)


def scan_native(text: str, metal: bool = False) -> NativeScan:
    scan = NativeScan()
    code = _COMMENT.sub(_blank, text)
    starts = [0]
    for i, ch in enumerate(code):
        if ch == "\n":
            starts.append(i + 1)

    def line_of(pos: int) -> int:
        lo, hi = 0, len(starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if starts[mid] <= pos:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1

    for m in _INCLUDE.finditer(code):
        scan.includes.append((m.group(1).strip(), line_of(m.start())))
    if "{%" in code:
        for m in _JINJA_INCLUDE.finditer(code):
            scan.includes.append(((m.group(1) or m.group(2)).strip(), line_of(m.start())))
    if "__global__" in code:
        params_at = [(d.start(), d.end(), {p.strip() for p in d.group(2).split(",")}) for d in _DEFINE.finditer(code)]
        for m in _GLOBAL.finditer(code):
            if _INSTANTIATION.search(code, max(0, m.start() - 40), m.start()):
                continue  # `template __global__ void k<float>(...);`: the kernel is defined elsewhere
            name = _declared_name(code, m.end())
            if name and any(a <= m.start() < b and name in ps for a, b, ps in params_at):
                continue  # `#define INVOKER(kernel, f) __global__ void kernel(...)`: named where it is invoked
            if name:
                scan.kernels.append(NativeKernel("cuda", name, line_of(m.start())))
    embedded = not metal and ("metal_stdlib" in code or "using namespace metal" in code)  # Metal source in C++
    if metal or "kernel" in code:
        for m in _METAL_KERNEL.finditer(code):
            if _TEMPLATE_BEFORE.search(code, max(0, m.start() - 300), m.start()):
                continue  # a template: its [[host_name("...")]] instantiations are the kernels
            if metal or embedded or "[[" in m.group(0):
                scan.kernels.append(NativeKernel("metal", m.group(1), line_of(m.start())))
        for m in _HOST_NAME.finditer(code):
            scan.kernels.append(NativeKernel("metal", m.group(1), line_of(m.start())))
    for kind, name, pos in _macro_kernels(code, metal):
        scan.kernels.append(NativeKernel(kind, name, line_of(pos)))
    for m in _STRING.finditer(code):
        if _IDENT.fullmatch(m.group(0)[1:-1]):
            scan.strings.setdefault(m.group(0)[1:-1], []).append(line_of(m.start()))
        elif _PY_FILE.fullmatch(m.group(0)[1:-1]):
            scan.py_files.append((m.group(0)[1:-1], line_of(m.start())))
        elif "include" in m.group(0):  # generated code includes it: the generator keeps the header
            for inc in _STRING_INCLUDE.finditer(m.group(0)):
                scan.includes.append(((inc.group(1) or inc.group(2)).strip(), line_of(m.start())))
    for block in _TORCH_IMPL.finditer(code):
        namespace, var = block.group(1), block.group(2)
        body = _block_after(code, block.end())
        for m in _IMPL.finditer(body):
            if m.group(1) == var:
                scan.impls.append((m.group(2) or namespace, m.group(3), line_of(block.end() + m.start())))
    for pattern, kind in ((_TORCH_LIBRARY, "torch-op"), (_PYBIND, "pybind")):
        for block in pattern.finditer(code):
            namespace, var = block.group(1), block.group(2)
            if kind == "pybind":  # NB_MODULE(core, m) { init_array(m); ... }: a module whose defs are elsewhere
                scan.modules.append(namespace)
            body = _block_after(code, block.end())
            for m in _DEF.finditer(body):
                if m.group(1) == var:
                    name = m.group(2).split(".")[0]
                    scan.kernels.append(NativeKernel(kind, name, line_of(block.end() + m.start()), namespace))
            if kind == "pybind":
                scan.binder_calls += [(f"module:{namespace}", c.group(1)) for c in _ONE_ARG_CALL.finditer(body)]
    if "module" in code:
        for block in _BINDER.finditer(code):
            function, var = block.group(1), block.group(2)
            body = _block_after(code, block.end() - 1)
            scan.binders[function] = [(m.group(2).split(".")[0], line_of(block.end() - 1 + m.start()))
                                      for m in _DEF.finditer(body) if m.group(1) == var]
            scan.binder_calls += [(function, c.group(1)) for c in _ONE_ARG_CALL.finditer(body)]
    if "import" in code:
        scan.py_imports = [(m.group(1), line_of(m.start())) for m in _PY_IMPORT.finditer(code)]
    code_only = _STRING.sub(_blank, code)
    if not metal:
        host = host_code(code_only, line_of)
        scan.functions, scan.loose = host.functions, host.loose
    for m in _IDENT.finditer(code_only):
        lines = scan.idents.setdefault(m.group(0), [])
        if len(lines) < 8:
            line = line_of(m.start())
            if not lines or lines[-1] != line:
                lines.append(line)
    return scan


def _block_after(code: str, pos: int) -> str:
    """The text of the ``{ ... }`` block that starts after ``pos`` (empty when there is none)."""
    start = code.find("{", pos)
    if start < 0:
        return ""
    depth = 0
    for i in range(start, len(code)):
        if code[i] == "{":
            depth += 1
        elif code[i] == "}":
            depth -= 1
            if depth == 0:
                return code[pos:i]
    return code[pos:]


def _declared_name(code: str, pos: int) -> str | None:
    """The function name in ``__global__ void __launch_bounds__(256) name(``: the identifier before '('.
    Preprocessor lines between are skipped (``#if defined(USE_ROCM)`` / ``__launch_bounds__(...)`` / ``#endif``)."""
    head = _LAUNCH_BOUNDS.sub(" ", _DIRECTIVE.sub(" ", code[pos:pos + 600]))
    paren = _parameters_start(head)
    if paren < 0 or ";" in head[:paren] or "{" in head[:paren]:
        return None
    after = head[paren:]
    end = min((i for i in (after.find(";"), after.find("{")) if i >= 0), default=-1)
    if end >= 0 and after[end] == ";" and ")" in after[:end]:
        return None  # a prototype: the kernel's definition is elsewhere
    idents = _IDENT.findall(_TEMPLATE_ARGS.sub(" ", head[:paren]))
    name = idents[-1] if idents else None
    if name is None or name in ("void", "static", "inline") or name.startswith("__") and name.endswith("__"):
        return None  # a keyword (__forceinline__, __launch_bounds__ in a regex string: r"__global__\s+void\s+...")
    return name


def _parameters_start(head: str) -> int:
    """The '(' of the parameter list: the first one outside template arguments (``__global__
    std::enable_if_t<(width > 0) && ok<T>::value> fused_add_rms_norm_kernel(``), -1 if none."""
    angle = paren = 0
    for i, ch in enumerate(head):
        if ch == "(":
            if not angle:
                return i
            paren += 1
        elif ch == ")" and paren:
            paren -= 1
        elif ch == "<" and not paren:
            angle += 1
        elif ch == ">" and not paren and angle:
            angle -= 1
        elif ch in ";{":
            break
    return head.find("(")


_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)\(([^)]*)\)((?:[^\n]*\\\n)*[^\n]*)", re.M)
_MACRO_METAL = re.compile(r"(?:\bkernel|\[\[\s*kernel\s*\]\])\s+void\s+([\w#]*##[\w#]*)\s*\(")
_MACRO_CUDA = re.compile(r"\b__global__\b[^;{}()]*?\b([\w#]*##[\w#]*|\w+)\s*\(")


def _macro_kernels(code: str, metal: bool) -> list[tuple[str, str, int]]:
    """Kernels a function-like macro defines (``#define DEF(SUFFIX) kernel void gemm_##SUFFIX(...)``), one per
    invocation (``DEF(t64x64)`` -> ``gemm_t64x64``), also through a macro that invokes such a macro; a name
    built from arguments that are not plain tokens is skipped."""
    out: list[tuple[str, str, int]] = []
    if "define" not in code:
        return out
    defines = list(_DEFINE.finditer(code))
    spans = [(d.start(), d.end()) for d in defines]
    macros: dict[str, tuple[list[str], list[tuple[str, list[str]]]]] = {}
    for d in defines:
        body = d.group(3)
        templates = [("metal", t.split("##")) for t in _MACRO_METAL.findall(body)] if metal or "kernel" in body else []
        params = [p.strip() for p in d.group(2).split(",")]
        # a name pasted from arguments (k_##S), or an argument itself (__global__ void kernel(...) for KERNEL)
        templates += [("cuda", t.split("##")) for t in _MACRO_CUDA.findall(body) if "##" in t or t in params]
        macros[d.group(1)] = (params, templates)
    for _ in range(3):  # a macro invoking a kernel macro defines kernels too
        for d in defines:
            params, templates = macros[d.group(1)]
            for inner, (inner_params, inner_templates) in list(macros.items()):
                if inner == d.group(1) or not inner_templates:
                    continue
                for call in _calls(inner, d.group(3)):
                    values = dict(zip(inner_params, _args(call.group(1))))
                    for kind, tokens in inner_templates:
                        new = (kind, "##".join(values.get(t, t) for t in tokens).split("##"))
                        if new not in templates and len(_args(call.group(1))) == len(inner_params):
                            templates.append(new)
    for name, (params, templates) in macros.items():
        if not templates:
            continue
        for call in _calls(name, code):
            if any(a <= call.start() < b for a, b in spans):
                continue  # inside a macro body: expanded where that macro is invoked
            args = _args(call.group(1))
            if len(args) != len(params):
                continue
            values = dict(zip(params, args))
            for kind, tokens in templates:
                parts = [values.get(t, t) for t in tokens]
                if all(re.fullmatch(r"\w*", t) for t in parts):
                    out.append((kind, "".join(parts), call.start()))
    return out


def _calls(name: str, text: str):
    return re.finditer(r"(?<![\w#])" + re.escape(name) + r"\s*\(((?:[^()]|\([^()]*\))*)\)", text)


def _args(text: str) -> list[str]:
    return [a.strip().replace("\\\n", "").strip() for a in text.split(",")]
