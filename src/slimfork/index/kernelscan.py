"""The kernel audit's part of a file's summary: kernel definitions, loader calls, references by name, string
literals (``ModuleSummary.scan``, computed with the rest of the summary by ``index.parse.summarize``)."""

from __future__ import annotations

import ast
import fnmatch
import re
from dataclasses import dataclass, field

from slimfork.index.file_paths import below, file_level
from slimfork.index.kernel_names import name_pattern_text, pattern_text
from slimfork.index.nativescan import scan_native
from slimfork.index.own_names import own_name
from slimfork.index.walk import walk

NATIVE_EXTS = (".cu", ".cuh", ".cpp", ".cc", ".cxx", ".c", ".h", ".hpp", ".hh", ".hip", ".metal", ".mm", ".inl",
               ".inc", ".s")  # compared lower-case
# templates of native code a Python generator renders (aiter's pa_ps.cpp.jinja launches pa_decode_ps_reduce_hip_kernel)
NATIVE_TEMPLATE_EXTS = tuple(ext + t for ext in NATIVE_EXTS for t in (".jinja", ".jinja2", ".j2"))
_NATIVE = re.compile(r"[\w./{}*+-]*\.(?:cuh|cu|cpp|cc|cxx|c|hpp|hh|h|hip|metal|mm|inl|inc|s|S|pyx)(?:\.jinja2?|\.j2)?$")
_IDENT = re.compile(r"^[A-Za-z_]\w{0,99}$")
# a header written as an include names it: '"deep_gemm/fp8_gemm.cuh"', '<pkg/x.cuh>', '#include "x.cuh"' lines of code
# a JIT compiler is given (the quotes or brackets kept)
_QUOTED_HEADER = re.compile(r'\s*(?:#\s*include\s*)?(?:"([^"<>\n]+)"|<([^"<>\n]+)>)\s*')
_COMPUTED_FILE = re.compile(r"(?:\{\.\.\.\})+\.(?:c|cc|cpp|cxx|cu)")  # a source, not a header (a tree's, maybe)
_INCLUDE_LINE = re.compile(r'#[ \t]*include[ \t]*(?:"([^"<>\n]+)"|<([^"<>\n]+)>)')
# names generated code calls (f"...scoreboard.wait_deps(info)...": Triton-distributed's code generator), and the
# name after a path's colon (f"{__file__}:add_kernel", "pkg.mod:run"): what the string's code or tool uses
_CODE_CALL = re.compile(r"(?<![\w\"'])([A-Za-z_]\w*)\s*\(")
_PATH_TAIL = re.compile(r"^[^\s:]+:([A-Za-z_]\w*)$")
# a folder path: words joined by "/", f-string holes allowed, no file suffix ("{...}/ck_gemm_a8w8/instances")
_FOLDER = re.compile(r"(?:\{\.\.\.\}|[\w+-]+)(?:/(?:\{\.\.\.\}|[\w+-]+))+/?")
_SOURCE_KEYWORDS = {"cuda_files", "cpp_files", "sources", "source_files", "cuda_sources_files"}
_EXTENSION_CLASSES = {"CUDAExtension", "CppExtension", "Extension", "SyclExtension"}
_LISTINGS = {"listdir", "scandir", "walk", "iterdir", "glob", "rglob", "iglob"}
_PY_HINT_CALLS = {"import_module", "__import__", "spec_from_file_location", "exec_module", "run_path",
                  "load_source", "load_module", "find_spec"}
_MAX_LINES = 8  # per name: enough to show call sites, small enough to cache the whole tree


@dataclass(frozen=True, slots=True)
class PyKernelDef:
    """A Triton ``@triton.jit`` function."""

    name: str
    qualname: str
    line: int
    end: int
    decorators: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class LoaderCall:
    """A call that compiles native sources at run time (``load_jit``, ``cpp_extension.load``, ...)."""

    func: str  # the called name as written, e.g. "load_jit"
    name: str | None  # the module name it builds ("hicache"); "compress_{...}" when built by an f-string
    name_is_pattern: bool
    line: int
    function: str | None  # qualname of the enclosing function (None: module level)
    sources: tuple[tuple[str, int], ...]  # native file names as written (f-strings as "{...}" patterns)
    dynamic: bool  # a source argument is computed and no file name was found for it
    exports: tuple[str, ...]  # names the built module exports (wrappers, functions=)
    inline: bool = False  # load_inline: compiles source text, names no file
    empty: bool = False  # its sources are an empty literal (Extension("m", sources=[])): a build command compiles


@dataclass(slots=True)
class PyScan:
    functions: list[tuple[int, int, str]] = field(default_factory=list)  # (start, end, qualname)
    imports: list[tuple[str, str | None, int, str | None, int]] = field(default_factory=list)
    # (local name, module as written, level, imported name or None for "import m", line)
    refs: dict[str, list[int]] = field(default_factory=dict)  # names loaded and attributes read -> lines
    strings: dict[str, list[int]] = field(default_factory=dict)  # identifier-like string literals -> lines
    patterns: list[tuple[str, int]] = field(default_factory=list)  # f-strings as "a{...}b" (name lookups)
    triton: list[PyKernelDef] = field(default_factory=list)
    loaders: list[LoaderCall] = field(default_factory=list)
    native_strings: list[tuple[str, int, str | None]] = field(default_factory=list)  # "x.cu", line, function
    torch_ops: list[tuple[str, str, int]] = field(default_factory=list)  # (namespace, op, line)
    constants: dict[str, str] = field(default_factory=dict)  # module-level NAME = "string"
    self_listings: list[tuple[int, int, str, str]] = field(default_factory=list)
    # listings of the file's own folder (or one above) that may find Python modules: (line, up, sub-path, call)
    named_fstrings: list[tuple[str, str, int]] = field(default_factory=list)  # f"{NAME}.rest" -> (NAME, ".rest", line)
    all_names: list[str] = field(default_factory=list)  # the strings of __all__ (not counted as kernel names)
    native_kernels: list[tuple[str, str, int]] = field(default_factory=list)  # (kind, name, line) in source strings
    # the only CUDA kernel of a source string passed to a call (compiled at run time, launched without its name:
    # tutel's JitKernel.generate_kernel(keys, '''extern "C" __global__ void cumsum(...)''')): (name, line, call line)
    compiled_kernels: list[tuple[str, int, int]] = field(default_factory=list)
    stubs: list[tuple[str, int]] = field(default_factory=list)  # decorated functions with no body: (name, line)
    # (``@compile_ops("module_gemm") def gemm_a8w8(...): ...``: the decorator binds a native function of the name)
    folder_strings: list[tuple[str, int, str | None]] = field(default_factory=list)
    # paths naming a folder (f"{CSRC}/ck_gemm_a8w8"), not in an include list: a build helper may compile its sources
    # attributes read on an instance of a class (a parameter annotated with a class, ``lq: AdaptiveGPTQ``, or a
    # local built by a class, ``lq = AdaptiveGPTQ(...)``): a method, not a name of a module -> lines
    method_reads: dict[str, list[int]] = field(default_factory=dict)
    # getattr(obj, name) with a computed name: (line, obj when a plain name); and names bound from other names
    # (scatter = scatter_cuda if cuda else scatter_cpu): name -> those names, to tell what obj may be
    dynamic_getattrs: list[tuple[int, str]] = field(default_factory=list)
    aliases: dict[str, list[str]] = field(default_factory=dict)
    # names bound to a namespace of torch.ops (``from torch.ops import disco_kernels``, ``ops = torch.ops.ns``):
    # local name -> namespace; ``disco_kernels.forward.default(...)`` calls the op ``disco_kernels::forward``
    ops_aliases: dict[str, str] = field(default_factory=dict)
    error: str | None = None

    def module_reads(self, name: str) -> list[int]:
        """The lines of ``refs[name]`` that may read ``name`` from a module (not only as a method of an instance)."""
        methods = self.method_reads.get(name)
        refs = self.refs.get(name, [])
        return [line for line in refs if line not in methods] if methods else refs

    def enclosing(self, line: int) -> str | None:
        best = None
        for start, end, qualname in self.functions:
            if start <= line <= end and (best is None or start >= best[0]):
                best = (start, qualname)
        return best[1] if best else None


def scan_module(tree: ast.Module) -> PyScan:
    """The kernel audit's part of a file's summary (``index.parse.summarize`` parses the file)."""
    scan = PyScan()
    visitor = _Visitor(scan)
    visitor.include_lists = _include_lists(tree)
    visitor.visit(tree)
    visitor.close_scope()
    return scan


_NOT_CLASSES = frozenset({"Any", "ModuleType", "Optional", "Union", "Callable", "Type", "TypeVar", "Protocol",
                          "Self", "Object", "None", "True", "False"})


def _class_name(node) -> bool:
    """``AdaptiveGPTQ``, ``pkg.Quantizer``: a capitalized name (a class by convention), not a typing construct."""
    name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""
    return bool(name) and name[0].isupper() and not name.isupper() and name not in _NOT_CLASSES


def _instance_annotation(node) -> bool:
    """An annotation naming a class (``AdaptiveGPTQ``, ``AdaptiveGPTQ or None``, ``Quantizer | None``,
    ``Optional[Quantizer]``); nothing that may stand for a module (``Any``, ``ModuleType``, a string)."""
    names = [n for n in ast.walk(node) if isinstance(n, (ast.Name, ast.Attribute))]
    if any(isinstance(n, ast.Constant) and isinstance(n.value, str) for n in ast.walk(node)):
        return False
    if any((n.id if isinstance(n, ast.Name) else n.attr) in ("Any", "ModuleType", "object") for n in names):
        return False
    return any(_class_name(n) for n in names)


def _instances(node) -> set[str]:
    """Names of a function bound only to instances of classes: parameters annotated with a class, and locals
    every assignment of which calls a class (``lq = AdaptiveGPTQ(...)``). Attributes read on them are methods."""
    a = node.args
    out = {x.arg for x in a.posonlyargs + a.args + a.kwonlyargs if x.annotation is not None
           and _instance_annotation(x.annotation)}
    built: dict[str, bool] = {}
    declared: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, (ast.Global, ast.Nonlocal)):
            declared.update(sub.names)
        elif isinstance(sub, ast.Assign):
            for target in sub.targets:
                if isinstance(target, ast.Name):
                    ok = isinstance(sub.value, ast.Call) and _class_name(sub.value.func)
                    built[target.id] = built.get(target.id, True) and ok
        elif isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
            built.setdefault(sub.id, False)  # for/with targets, walrus, tuple unpacking: unknown
        elif isinstance(sub, (ast.Import, ast.ImportFrom)):
            for alias in sub.names:
                built[(alias.asname or alias.name).split(".")[0]] = False
        elif isinstance(sub, ast.arg) and sub.arg not in out:
            built[sub.arg] = False
    # a Name stored by an Assign is also seen as a Store: only names every binding of which calls a class count
    stores: dict[str, int] = {}
    assigns: dict[str, int] = {}
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
            stores[sub.id] = stores.get(sub.id, 0) + 1
        elif isinstance(sub, ast.Assign):
            for target in sub.targets:
                if isinstance(target, ast.Name):
                    assigns[target.id] = assigns.get(target.id, 0) + 1
    out |= {n for n, ok in built.items() if ok and stores.get(n) == assigns.get(n)}
    return out - declared


_NOT_BINDERS = {"overload", "abstractmethod", "property", "setter", "getter", "staticmethod", "classmethod"}


def _is_stub(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A body of only a docstring, ``...`` or ``pass``: a declaration its decorator implements."""
    return all(isinstance(st, ast.Pass) or isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant)
               for st in node.body)


_NOT_COMPILED = ("include", "package", "exclude")  # include_dirs=, packages=, package_data=, exclude=


def _not_compiled(text: str) -> bool:
    return any(word in text.lower() for word in _NOT_COMPILED)


def _include_lists(tree: ast.Module) -> set[int]:
    """Nodes of include-folder lists (``include_dirs=[...]``, ``includes = [...]``, ``{"extra_include": [...]}``,
    ``include_paths.append(...)``): the folders they name are searched for headers, not compiled; nor are those
    of package lists and exclusions (``find_packages(exclude=["pkg/legacy"])``)."""
    out: set[int] = set()
    for node in walk(tree):
        values: list[ast.AST] = []
        if isinstance(node, ast.keyword) and node.arg and _not_compiled(node.arg):
            values = [node.value]
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(_not_compiled(ast.unparse(t)) for t in targets):
                values = [node.value]
        elif isinstance(node, ast.Dict):
            values = [v for k, v in zip(node.keys, node.values)
                      if isinstance(k, ast.Constant) and _not_compiled(str(k.value))]
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in ("append", "extend", "insert") and _not_compiled(ast.unparse(node.func.value))):
            values = list(node.args)
        elif isinstance(node, ast.Call) and ast.unparse(node.func).endswith("find_packages"):
            values = [node]
        out.update(id(n) for v in values for n in ast.walk(v))
    return out


class _Visitor(ast.NodeVisitor):
    def __init__(self, scan: PyScan):
        self.s = scan
        self.include_lists: set[int] = set()
        self.stack: list[str] = []
        self.params: list[set[str]] = [set()]  # parameter names of the enclosing functions
        self.triton_names: set[str] = set()  # local names bound to triton.jit ("from triton import jit")
        self.file_vars: list[dict[str, tuple[int, str]]] = [{}]  # per scope: names bound to a folder of __file__
        self.py_hint: list[bool] = [False]  # per scope: names ".py" files or imports modules dynamically
        self.call_args: dict[int, int] = {}  # id of a string passed to a call that holds CUDA code -> the call's line
        self.pending: list[list[tuple[int, int, str, str]]] = [[]]  # listings that need such a hint
        self.instances: list[set[str]] = [set()]  # per function: names bound only to instances of a class

    # -- definitions and scopes ------------------------------------------------------------------------
    def visit_FunctionDef(self, node) -> None:
        qualname = ".".join(self.stack + [node.name])
        end = getattr(node, "end_lineno", node.lineno) or node.lineno
        self.s.functions.append((node.lineno, end, qualname))
        decorators = tuple(self._decorator(d) for d in node.decorator_list)
        if any(self._is_triton(d) for d in decorators):
            self.s.triton.append(PyKernelDef(node.name, qualname, node.lineno, end, decorators))
        elif decorators and _is_stub(node) and not any(d.split(".")[-1] in _NOT_BINDERS for d in decorators):
            self.s.stubs.append((node.name, node.lineno))
        for d in node.decorator_list:
            self.visit(d)
        self.visit(node.args)
        if node.returns is not None:
            self.visit(node.returns)
        a = node.args
        self.params.append({x.arg for x in a.posonlyargs + a.args + a.kwonlyargs + [a.vararg, a.kwarg] if x})
        self.instances.append(_instances(node))
        self.stack.append(node.name)
        self.file_vars.append({})
        self.py_hint.append(False)
        self.pending.append([])
        for stmt in node.body:
            self.visit(stmt)
        self.close_scope()
        self.stack.pop()
        self.params.pop()
        self.instances.pop()

    def close_scope(self) -> None:
        """A listing without a ".py" pattern counts only where its scope names .py files or imports
        dynamically (``os.listdir(here)`` then ``import_module``); a data-file glob never counts."""
        pending = self.pending.pop()
        if self.py_hint.pop():
            self.s.self_listings.extend(pending)
        self.file_vars.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node) -> None:
        for d in node.decorator_list:
            self.visit(d)
        for b in node.bases + [k.value for k in node.keywords]:
            self.visit(b)
        self.stack.append(node.name)
        for stmt in node.body:
            self.visit(stmt)
        self.stack.pop()

    def _decorator(self, node) -> str:
        target = node.func if isinstance(node, ast.Call) else node
        try:
            return ast.unparse(target)
        except Exception:  # pragma: no cover - unparse handles every expression the parser produces
            return ""

    def _is_triton(self, text: str) -> bool:
        return text in ("triton.jit", "tl.jit", "triton.language.jit") or text in self.triton_names

    # -- imports -----------------------------------------------------------------------------------------
    def _all_names(self, value) -> bool:
        """``__all__ = [...]``: the names are Python exports, not kernel names; kept apart (``all_names``)."""
        names = [e.value for e in getattr(value, "elts", ()) if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        if not isinstance(value, (ast.List, ast.Tuple, ast.Set)) or len(names) != len(value.elts):
            return False
        self.s.all_names.extend(names)
        return True

    def visit_AugAssign(self, node) -> None:
        if isinstance(node.target, ast.Name) and node.target.id == "__all__" and self._all_names(node.value):
            return
        self.generic_visit(node)

    def visit_Assign(self, node) -> None:
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets) and self._all_names(node.value):
            return
        if (not self.stack and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)):
            self.s.constants[node.targets[0].id] = node.value.value
        elif not self.stack and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and (own := own_name(node.value)) is not None:  # _PKG = __name__.rsplit(".", 1)[0]
            self.s.constants[node.targets[0].id] = own
        value = node.value
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and isinstance(value, ast.Attribute) \
                and isinstance(value.value, ast.Attribute) and value.value.attr == "ops" \
                and isinstance(value.value.value, ast.Name) and value.value.value.id == "torch":
            self.s.ops_aliases[node.targets[0].id] = value.attr  # ops = torch.ops.my_ns
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and isinstance(node.value, (ast.Name, ast.IfExp, ast.BoolOp)):
            names = [n.id for n in ast.walk(node.value) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]
            self.s.aliases.setdefault(node.targets[0].id, []).extend(names)
        for target in node.targets:
            if isinstance(target, ast.Name):
                level = file_level(self.file_vars, node.value)
                if level is not None:
                    self.file_vars[-1][target.id] = level
                else:
                    self.file_vars[-1].pop(target.id, None)
        self.generic_visit(node)

    def _listing(self, node: ast.Call, func: str) -> None:
        f = node.func
        if func in ("glob", "rglob", "iterdir") and isinstance(f, ast.Attribute) \
                and not (isinstance(f.value, ast.Name) and f.value.id == "glob"):
            target = f.value
            pattern = getattr(node.args[0], "value", None) if node.args else "*"
        elif node.args:  # os.listdir(d), os.scandir(d), os.walk(d), glob.glob(pattern)
            target, pattern = node.args[0], "*"
            if func in ("glob", "iglob"):
                if isinstance(target, ast.Call) and target.args:  # os.path.join(here, "*.py")
                    pattern = getattr(target.args[-1], "value", None)
                    target = ast.Call(func=target.func, args=target.args[:-1], keywords=[]) \
                        if len(target.args) > 1 else target.args[0]
                elif isinstance(target, ast.JoinedStr) and isinstance(target.values[0], ast.FormattedValue):
                    pattern = "".join(str(getattr(v, "value", "*")) for v in target.values[1:]).lstrip("/")
                    target = target.values[0].value
                else:
                    return
        else:
            return
        where = file_level(self.file_vars, target)
        if not isinstance(pattern, str) or not where or not where[0]:
            return
        folder, _, last = pattern.rpartition("/")
        level, sub = below(where, [ast.Constant(folder)] if "*" not in folder else []) or where
        if not fnmatch.fnmatch("module.py", last):
            return  # a data-file glob ("*.safetensors", "*.metal")
        try:
            text = ast.unparse(node)
        except Exception:  # pragma: no cover
            text = func
        item = (node.lineno, level, sub, text[:100])
        if ".py" in last:
            self.s.self_listings.append(item)
        else:
            self.pending[-1].append(item)

    def visit_Import(self, node) -> None:
        for a in node.names:
            local = a.asname or a.name.split(".")[0]
            self.s.imports.append((local, a.name, 0, None, node.lineno))

    def visit_ImportFrom(self, node) -> None:
        for a in node.names:
            self.s.imports.append((a.asname or a.name, node.module, node.level, a.name, node.lineno))
            if node.module == "triton" and a.name == "jit":
                self.triton_names.add(a.asname or "jit")
            if node.module == "torch.ops" and not node.level and a.name != "*":
                self.s.ops_aliases[a.asname or a.name] = a.name

    # -- references ----------------------------------------------------------------------------------------
    def visit_Name(self, node) -> None:
        if isinstance(node.ctx, ast.Load):
            self._ref(node.id, node.lineno)

    def visit_Attribute(self, node) -> None:
        self._ref(node.attr, node.lineno)
        value = node.value
        if isinstance(value, ast.Name) and value.id in self.instances[-1]:
            lines = self.s.method_reads.setdefault(node.attr, [])
            if not lines or lines[-1] != node.lineno:
                lines.append(node.lineno)
        if (isinstance(value, ast.Attribute) and isinstance(value.value, ast.Attribute)
                and value.value.attr == "ops" and isinstance(value.value.value, ast.Name)
                and value.value.value.id == "torch"):
            self.s.torch_ops.append((value.attr, node.attr, node.lineno))
        self.visit(value)

    def _ref(self, name: str, line: int) -> None:
        lines = self.s.refs.setdefault(name, [])
        if len(lines) < _MAX_LINES and (not lines or lines[-1] != line):
            lines.append(line)

    def visit_Constant(self, node) -> None:
        value = node.value
        if isinstance(value, str) and value.endswith(".py"):
            self.py_hint[-1] = True
        if isinstance(value, str) and len(value) > 40 and ("kernel" in value or "__global__" in value):
            found = [k for k in scan_native(value, metal="kernel void" in value or "[[kernel]]" in value).kernels
                     if k.kind in ("metal", "cuda")]
            for k in found:
                self.s.native_kernels.append((k.kind, k.name, node.lineno - 1 + k.line))
            if len(found) == 1 and found[0].kind == "cuda" and id(node) in self.call_args:
                kernel = found[0]
                self.s.compiled_kernels.append((kernel.name, node.lineno - 1 + kernel.line, self.call_args[id(node)]))
        if isinstance(value, str) and len(value) <= 300:
            if (tail := _PATH_TAIL.match(value)) and not _IDENT.match(value):
                self._string(tail.group(1), node.lineno)
            if _IDENT.match(value):
                lines = self.s.strings.setdefault(value, [])
                if len(lines) < _MAX_LINES:
                    lines.append(node.lineno)
            elif _NATIVE.search(value):
                self.s.native_strings.append((value, node.lineno, self._function()))
            else:
                self._folder(value, node)
        if isinstance(value, str):
            self._included(value, node.lineno)

    def _string(self, name: str, line: int) -> None:
        lines = self.s.strings.setdefault(name, [])
        if len(lines) < _MAX_LINES:
            lines.append(line)

    def _folder(self, text: str, node: ast.Constant | ast.JoinedStr) -> None:
        if (_FOLDER.fullmatch(text) and not text.rstrip("/").endswith("{...}") and "include" not in text.lower()
                and id(node) not in self.include_lists):
            self.s.folder_strings.append((text, node.lineno, self._function()))

    def _included(self, text: str, line: int) -> None:
        """Headers a string names the way an include does (a JIT's include list, generated source code)."""
        quoted = _QUOTED_HEADER.fullmatch(text) if len(text) <= 300 else None
        found = [quoted] if quoted else list(_INCLUDE_LINE.finditer(text)) if "include" in text else []
        for m in found:
            header = m.group(1) or m.group(2)
            # generated code including a source named entirely at run time (keops' f'#include "{tag}.cpp"')
            # includes what the generator wrote beside it, not a source of the tree; a header may be the tree's
            if _NATIVE.search(header) and not (m is not quoted and _COMPUTED_FILE.fullmatch(header)):
                self.s.native_strings.append((header, line, self._function()))

    def visit_JoinedStr(self, node) -> None:
        text = pattern_text(node)
        first = node.values[0] if node.values else None
        if (isinstance(first, ast.FormattedValue) and isinstance(first.value, ast.Name) and len(node.values) > 1
                and isinstance(node.values[1], ast.Constant) and str(node.values[1].value).startswith(".")):
            self.s.named_fstrings.append((first.value.id, text[len("{...}"):], node.lineno))
        if _NATIVE.search(text):
            self.s.native_strings.append((text, node.lineno, self._function()))
        elif _FOLDER.fullmatch(text):
            self._folder(text, node)
        elif len(text.replace("{...}", "")) >= 3 and re.fullmatch(r"[\w{}.]+", text):
            self.s.patterns.append((name_pattern_text(node), node.lineno))
        if not _NATIVE.search(text):
            self._included(text, node.lineno)
        names = _CODE_CALL.findall(text) if "(" in text and ("\n" in text or len(text) > 40) else []
        names += [tail.group(1)] if (tail := _PATH_TAIL.match(text)) else []
        for name in dict.fromkeys(names):
            self._string(name, node.lineno)
        for v in node.values:
            if not isinstance(v, ast.Constant):
                self.visit(v)

    # -- loader calls ------------------------------------------------------------------------------------
    def visit_Call(self, node) -> None:
        for arg in [*node.args, *(k.value for k in node.keywords)]:
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and "__global__" in arg.value:
                self.call_args[id(arg)] = node.lineno
        func = node.func.attr if isinstance(node.func, ast.Attribute) else \
            node.func.id if isinstance(node.func, ast.Name) else None
        if func in _LISTINGS:
            self._listing(node, func)
        if func in _PY_HINT_CALLS:
            self.py_hint[-1] = True
        if (isinstance(node.func, ast.Name) and func == "getattr" and len(node.args) >= 2
                and not isinstance(node.args[1], ast.Constant)):
            # getattr(ext, name), getattr(torch_spline_conv.basis_cuda, name): the name or dotted name read from
            receiver = ast.unparse(node.args[0]) if _dotted(node.args[0]) else ""
            self.s.dynamic_getattrs.append((node.lineno, receiver))
        if func and ("load" in func.lower() or func in _EXTENSION_CLASSES):
            loader = self._loader(node, func)
            if loader is not None:
                self.s.loaders.append(loader)
        self.generic_visit(node)

    def _loader(self, node: ast.Call, func: str) -> LoaderCall | None:
        kw = {k.arg: k.value for k in node.keywords if k.arg}
        source_args = [v for k, v in kw.items() if k in _SOURCE_KEYWORDS]
        inline = "cuda_sources" in kw or "cpp_sources" in kw
        if (not source_args and func in ("load", "load_extension") and len(node.args) >= 2
                and isinstance(node.args[1], (ast.List, ast.Tuple))
                and any(isinstance(e, ast.JoinedStr) or isinstance(e, ast.Constant) and isinstance(e.value, str)
                        for e in node.args[1].elts)):
            source_args = [node.args[1]]  # cpp_extension.load("name", ["a.cpp", "b.cu"])
        if not source_args and not inline:
            return None
        name, is_pattern = None, False
        name_node = kw.get("name", node.args[0] if node.args else None)
        if isinstance(name_node, ast.Call):  # load_jit(make_name(f"compress_{ratio}"), ...)
            name_node = next((a for a in name_node.args if isinstance(a, (ast.Constant, ast.JoinedStr))), None)
        if isinstance(name_node, ast.Constant) and isinstance(name_node.value, str):
            name = name_node.value
        elif isinstance(name_node, ast.JoinedStr):
            name, is_pattern = pattern_text(name_node), True
        sources: list[tuple[str, int]] = []
        computed = False
        for arg in source_args:
            inner = {id(v) for sub in ast.walk(arg) if isinstance(sub, ast.JoinedStr) for v in sub.values}
            for sub in ast.walk(arg):
                if id(sub) in inner:
                    continue
                if isinstance(sub, ast.Constant) and isinstance(sub.value, str) and _NATIVE.search(sub.value):
                    sources.append((sub.value, sub.lineno))
                elif isinstance(sub, ast.JoinedStr) and _NATIVE.search(pattern_text(sub)):
                    sources.append((pattern_text(sub), sub.lineno))
                elif isinstance(sub, (ast.Name, ast.Call, ast.Subscript, ast.Starred)):
                    computed = True
        if not sources and any(isinstance(sub, ast.Name) and sub.id in self.params[-1]
                               for arg in source_args for sub in ast.walk(arg)):
            return None  # a loader wrapper passing on its caller's sources: the callers are the loader sites
        exports = []
        for key in ("cuda_wrappers", "cpp_wrappers", "functions"):
            value = kw.get(key)
            for sub in (value.elts if isinstance(value, (ast.List, ast.Tuple)) else []):
                first = sub.elts[0] if isinstance(sub, ast.Tuple) and sub.elts else sub
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    exports.append(first.value)
        empty = all(isinstance(arg, (ast.List, ast.Tuple)) and not arg.elts for arg in source_args) and not inline
        return LoaderCall(func, name, is_pattern, node.lineno, self._function(), tuple(sources),
                          computed and not sources and not inline, tuple(exports), inline and not source_args, empty)

    def _function(self) -> str | None:
        return ".".join(self.stack) if self.stack else None


def _dotted(node: ast.AST) -> bool:
    """A name, or attributes of a name (``pkg.ext``)."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)
