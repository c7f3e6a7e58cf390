"""The graph's part of a file's summary: imports (with line, scope and enclosing condition), module-level names,
``__all__``, dynamic imports, directory scans and strings that may name modules."""

from __future__ import annotations

import ast
import re

from slimfork.index.doctests import doctest_examples
from slimfork.index.dynamic_imports import literal_strings as _literal_strings
from slimfork.index.dynamic_imports import RESOLVERS, prefix_tables, run_flags, scan_calls, unparse
from slimfork.index.lazy_tables import lazy_table_submodules
from slimfork.index.open_names import IMPORTS_BY_NAME, imports_by_name, own_built_names, own_package_imports, \
    relative_literals, string_words
from slimfork.index.own_names import built_imports, from_submodules, own_relative_strings, own_submodules, \
    relative_code_imports, rendered_code
from slimfork.index.pickled import pickled_literals
from slimfork.index.scans import find_scans, folder_strings, literal_calls, sys_path_folders
from slimfork.index.purity import type_checking_tests, typing_aliases
from slimfork.index.symbol_refs import packaging_strings
from slimfork.index.str_build import as_fstring
from slimfork.index.summary import GUARDED_TRY, DynamicImport, ImportEdge, ModuleSummary
from slimfork.index.walk import walk

_DOTTED_STRING = re.compile(r"""(["'])(?:ext://)?([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)(?::[A-Za-z_]\w*(?:\.\w+)*)?\1""")
_CODE_IMPORT = re.compile(r"(?:^|[\s;])(?:from\s+([A-Za-z_][\w.]*)\s+import\b|import\s+([A-Za-z_][\w.]*)|-m\s+([A-Za-z_][\w.]*))")
_DOTTED_NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
# Loads of a file by its path: a module that lists a folder of its package and loads what it finds by path
# (``spec_from_file_location(f.stem, f)`` over ``(Path(__file__).parent / PLUGIN_DIR).iterdir()``) scans it too.
_PATH_LOADS = re.compile(r"\b(?:spec_from_file_location|SourceFileLoader|SourcelessFileLoader|load_source|run_path"
                         r"|exec_module|load_module)\b|\bexec\(\s*compile\(")
# a literal path to a .py file; `"src/build_bcrypt.py:ffi"` (setup.py's cffi_modules: a file and its object) too
_PY_PATH = re.compile(r"""(["'])((?:[\w.-]+/)*[\w.-]+\.py)(?::[A-Za-z_][\w.]*)?\1""")
_PREFIX_STRING = re.compile(r"""\w\.["']""")  # "docutils.languages.": a module-name prefix
# a pickle beside the packages (``data/state.pkl``, ``model.joblib``) names the classes it loads, as a config does
_DATA_NAME = re.compile(r"(?:[\w.-]+/)*(?:[\w-][\w.-]*)?\.(?:txt|cfg|ini|toml|json|jsonl|ya?ml|conf|csv|tsv|xml|env"
                        r"|properties|lst|list|pkl|pickle|joblib)(?:\.(?:gz|bz2|xz|lzma))?")
_DATA_SUFFIX = re.compile(r"\.(?:txt|cfg|ini|toml|json|jsonl|ya?ml|conf|csv|tsv|xml|env|properties|lst|list|pkl|pickle"
                          r"|joblib)(?:\.(?:gz|bz2|xz|lzma))?[\"']")
_ENCODED_BLOB = re.compile(r"b64decode|b32decode|[ab]85decode|fromhex|unhexlify|a2b_base64|decompress|decodebytes"
                           r"|pickle|codecs")
_BLOCKS = (ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith)
_RELATIVE_LITERAL = re.compile(r"""['"]\.[A-Za-z_]""")


def collect_imports(tree: ast.Module, text: str, summary: ModuleSummary) -> None:
    """Fill ``summary``'s import fields from the parsed ``tree`` of ``text``."""
    _Collector(summary, text.splitlines(), type_checking_tests(typing_aliases(tree))).statements(
        tree.body, "module", (), False)
    if "global " in text:  # def pytest_configure(): global TO_CPU; TO_CPU = ...: a module name once it runs
        for node in walk(tree):
            if isinstance(node, ast.Global):
                for name in node.names:
                    summary.defs.setdefault(name, node.lineno)
    if "import_module" in text or "__import__" in text or "iter_modules" in text or "walk_packages" in text \
            or "pydoc" in text or "attach" in text or "run_module" in text or "find_spec" in text \
            or any(name in text for name in RESOLVERS):
        scan_calls(tree, summary)
        summary.dynamic_imports = own_package_imports(summary.dynamic_imports)
    if "class " in text and (_PREFIX_STRING.search(text) or "__package__" in text or "__name__" in text):
        summary.class_strings = prefix_tables(tree)
    if '"-m"' in text or "'-m'" in text:
        summary.dynamic_imports.extend(run_flags(tree))
    if summary.dynamic_imports or "iter_modules" in text or "walk_packages" in text or "__path__" in text \
            or "__file__" in text:  # a package folder handed to a loader: register_plugins(linter, __path__[0])
        listing = bool(summary.dynamic_imports) or _PATH_LOADS.search(text) is not None
        summary.dir_scans = find_scans(tree, unparse, listing=listing)
    prose = _docstring_lines(tree)
    by_name = any(name in text for name in IMPORTS_BY_NAME) and imports_by_name(tree)
    copied = packaging_strings(tree) if "setup(" in text else set()  # setup(packages=[...]): copied, not imported
    summary.strings = [(found, line) for found, line in _dotted_strings(text) if line not in prose
                       and (found, line) not in copied]
    if ("b'" in text or 'b"' in text) and ("\\x80" in text or "\\n" in text) \
            or _ENCODED_BLOB.search(text):  # a pickle in a bytes literal, or encoded (base64, hex, compressed)
        summary.strings += [(found.partition(":")[0], line) for found, line in pickled_literals(tree)]
    if "__name__" in text or "__package__" in text:  # f"{__name__}.ops": kept as "{__name__}.ops"
        summary.strings += own_submodules(tree) + lazy_table_submodules(tree)
    if _RELATIVE_LITERAL.search(text):  # load(".fast", __package__), load(".fast", "pkg.backends")
        summary.strings += own_relative_strings(tree)
        if by_name:  # TOOL = ".backends.fast" for a child's import_module
            summary.strings += relative_literals(tree)
    if by_name:  # import_module(shlex.split("run --backend pkg.backends.fast")[-1]), a name read off a docstring
        summary.strings += string_words(tree, summary.dynamic_imports, prose)
        summary.strings += own_built_names(tree, summary.dynamic_imports)
    if "import " in text or "-m" in text or "run_module" in text:
        summary.strings += _code_strings(tree, prose)
        summary.dynamic_imports += _code_templates(tree, prose)
        built_strings, built_imports = built_code(tree, prose)
        summary.strings += built_strings
        summary.dynamic_imports += built_imports
    if ">>>" in text and ("testmod(" in text or "run_docstring_examples(" in text):
        summary.strings += _own_doctest_imports(tree)
    if "__file__" in text or "__path__" in text or "resource" in text or "get_data" in text or "files(" in text:
        summary.folder_strings = folder_strings(tree)  # Path(alembic.__file__).parent / "templates": read as data
        if "sys.path" in text or "addsitedir" in text:
            summary.sys_path_folders = sys_path_folders(tree)
    if _DATA_SUFFIX.search(text):  # Path(__file__).parents[2] / "config" / "plugins.txt": read for module names
        summary.data_names = [(n.value, n.lineno) for n in walk(tree) if isinstance(n, ast.Constant)
                              and isinstance(n.value, str) and _DATA_NAME.fullmatch(n.value)]
    if ".py" in text:  # setup.py's open("coverage/pth_file.py"): a file read, copied or run by its path
        summary.path_strings = [(m.group(2), text.count("\n", 0, m.start()) + 1) for m in _PY_PATH.finditer(text)]
        summary.path_strings += _joined_py_paths(tree)
    if summary.strings:
        summary.literal_calls = literal_calls(tree)


_PATH_TYPES = frozenset({"Path", "PurePath", "PosixPath", "PurePosixPath"})


def _joined_py_paths(tree: ast.Module) -> list[tuple[str, int]]:
    """``os.path.join("src", "pkg", "_version.py")``, ``Path(here) / "pkg" / "x.py"``,
    ``files(__package__).joinpath("scripts", "gen.py")``, ``Path(here, "scripts", "gen.py")``, a list or tuple of
    parts joined later (``os.sep.join(__file__.split(os.sep)[:-1] + ["impl", "worker.py"])``): the literal parts
    joined (a computed base, ``here``, is dropped: the edge also tries the path beside the naming file)."""
    out = []
    for node in walk(tree):
        if isinstance(node, ast.Call) and (isinstance(node.func, ast.Attribute) and node.func.attr in ("join", "joinpath")
                                           or isinstance(node.func, ast.Name) and node.func.id in _PATH_TYPES):
            parts = node.args
        elif isinstance(node, (ast.List, ast.Tuple)) and not isinstance(node.ctx, ast.Store):
            parts = node.elts  # a sequence of parts joined later: ``os.sep.join(base + ["impl", "worker.py"])``
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            parts, left = [node.right], node.left
            while isinstance(left, ast.BinOp) and isinstance(left.op, ast.Div):
                parts, left = [left.right, *parts], left.left
            parts = [left, *parts]
        else:
            continue
        literal = [p.value for p in parts if isinstance(p, ast.Constant) and isinstance(p.value, str)]
        if len(literal) > 1 and literal[-1].endswith(".py") and isinstance(parts[-1], ast.Constant):
            out.append(("/".join(literal), node.lineno))
    return out


def _docstring_lines(tree: ast.Module) -> set[int]:
    """The lines of string statements without doctests: docstrings, and the attribute docstrings and string
    comments after them (SQLAlchemy documents ``NULL = symbol(...)`` by the string below it, whose example has
    ``from sqlalchemy.dialects.postgresql import JSON``). A string statement is evaluated and dropped: prose, whose
    example imports nothing when the module runs."""
    out: set[int] = set()
    todo: list[ast.AST] = [tree]
    while todo:  # statements only
        node = todo.pop()
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) \
                and isinstance(node.value.value, str) and ">>>" not in node.value.value:
            out.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            children = getattr(node, field, None)
            if isinstance(children, list):
                todo.extend(child for child in children if isinstance(child, ast.AST))
    return out


class _Collector:
    def __init__(self, summary: ModuleSummary, lines: list[str], type_checking: frozenset[str]):
        self.s = summary
        self.lines = lines
        self.type_checking = type_checking  # TYPE_CHECKING, typing.TYPE_CHECKING, _t.TYPE_CHECKING

    def test_text(self, node) -> str:
        """The condition as written on its first line (cheaper than ast.unparse, and what the user sees)."""
        line = self.lines[node.lineno - 1] if node.lineno <= len(self.lines) else ""
        if node.end_lineno == node.lineno:
            text = line[node.col_offset:node.end_col_offset]
        else:
            text = line[node.col_offset:].rstrip(" \\(") + " ..."
        return text if len(text) <= 120 else text[:117] + "..."

    def statements(self, body, scope: str, conds: tuple[str, ...], type_checking: bool) -> None:
        for node in body:
            self.statement(node, scope, conds, type_checking)

    def statement(self, node, scope, conds, tc) -> None:
        s = self.s
        if isinstance(node, ast.Import):
            for alias in node.names:
                s.imports.append(ImportEdge(alias.name, 0, (), node.lineno, "import", scope, _cond(conds), tc))
                if scope == "module":
                    self.bind(alias.asname or alias.name.split(".")[0], node.lineno)
        elif isinstance(node, ast.ImportFrom):
            names = tuple(a.name for a in node.names)
            s.imports.append(ImportEdge(node.module, node.level, names, node.lineno, "from", scope, _cond(conds), tc))
            if scope == "module":
                for alias in node.names:
                    if alias.name != "*":
                        self.bind(alias.asname or alias.name, node.lineno)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if scope == "module":
                self.bind(node.name, node.lineno)
                if node.name == "__getattr__":
                    s.module_getattr = True
            self.statements(node.body, "function", conds, tc)
        elif isinstance(node, ast.ClassDef):
            if scope == "module":
                self.bind(node.name, node.lineno)
            self.statements(node.body, "function" if scope == "function" else "class", conds, tc)
        elif isinstance(node, ast.If):
            test = self.test_text(node.test)
            is_tc = test in self.type_checking or test == "False"  # `if False:` never runs either
            self.statements(node.body, scope, conds + (f"if {test}",), tc or is_tc)
            self.statements(node.orelse, scope, conds + (f"not ({test})",), tc)
        elif isinstance(node, (ast.Try, ast.TryStar)):
            guarded = any(_catches_import_error(h.type) for h in node.handlers)
            self.statements(node.body, scope, conds + (GUARDED_TRY if guarded else "try",), tc)
            for handler in node.handlers:
                kind = self.test_text(handler.type) if handler.type is not None else "any error"
                self.statements(handler.body, scope, conds + (f"except {kind}",), tc)
            self.statements(node.orelse, scope, conds + ("try else",), tc)
            self.statements(node.finalbody, scope, conds, tc)
        elif isinstance(node, _BLOCKS):
            if scope == "module":
                for target in _targets(node):
                    self.bind_target(target, node.lineno)
            self.statements(node.body, scope, conds, tc)
            self.statements(getattr(node, "orelse", []), scope, conds, tc)
        elif isinstance(node, ast.Match):
            for case in node.cases:
                self.statements(case.body, scope, conds + (f"case {self.test_text(case.pattern)}",), tc)
        elif scope == "module":
            self.module_assignment(node)

    def module_assignment(self, node) -> None:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                self.bind_target(target, node.lineno)
                if isinstance(target, ast.Name) and target.id == "__all__":
                    self.set_all(node.value, replace=True)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            self.bind_target(node.target, node.lineno)
            if isinstance(node.target, ast.Name) and node.target.id == "__all__":
                self.set_all(node.value, replace=isinstance(node, ast.AnnAssign))
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            func = node.value.func
            if (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "__all__"
                    and func.attr in ("extend", "append", "remove")):
                if func.attr == "append" and node.value.args:
                    self.set_all(ast.List([node.value.args[0]]), replace=False)
                elif func.attr == "extend" and node.value.args:
                    self.set_all(node.value.args[0], replace=False)
                else:
                    self.s.all_dynamic = True

    def set_all(self, value, replace: bool) -> None:
        names = _literal_strings(value)
        if names is None:
            self.s.all_dynamic = True
            return
        if replace or self.s.all_names is None:
            self.s.all_names = list(names) if replace else (self.s.all_names or []) + list(names)
        else:
            self.s.all_names.extend(names)

    def bind(self, name: str, line: int) -> None:
        self.s.defs.setdefault(name, line)

    def bind_target(self, target, line: int) -> None:
        if isinstance(target, ast.Name):
            self.bind(target.id, line)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for elt in target.elts:
                self.bind_target(elt, line)
        elif isinstance(target, ast.Starred):
            self.bind_target(target.value, line)


def _targets(node):
    if isinstance(node, (ast.For, ast.AsyncFor)):
        return [node.target]
    if isinstance(node, (ast.With, ast.AsyncWith)):
        return [item.optional_vars for item in node.items if item.optional_vars is not None]
    return []


def _cond(conds: tuple[str, ...]) -> str | None:
    return " / ".join(conds) if conds else None

def _own_doctest_imports(tree: ast.Module) -> list[tuple[str, int]]:
    """A module that runs its own docstrings' examples (``doctest.testmod(sys.modules[__name__])``,
    ``run_docstring_examples``) imports what they import (session 46: prose before, the module left)."""
    out: list[tuple[str, int]] = []
    for node in walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            line = getattr(node, "lineno", 1)
            for example in doctest_examples(ast.get_docstring(node, clean=False) or ""):
                for sub in ast.walk(example):
                    if isinstance(sub, ast.Import):
                        out += [(a.name, line) for a in sub.names]
                    elif isinstance(sub, ast.ImportFrom) and sub.module and not sub.level:
                        out += [(sub.module, line)] + [(f"{sub.module}.{a.name}", line) for a in sub.names]
    return out


def _code_strings(tree: ast.Module, prose: set[int]) -> list[tuple[str, int]]:
    """Modules that code held in a string imports or runs: ``exec("from pkg.m import f")``,
    ``[sys.executable, "-c", "import pkg.m"]``, ``f"{sys.executable} -m pkg.worker"``."""
    out: list[tuple[str, int]] = []
    for node in walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.lineno not in prose \
                and ("import " in node.value or "-m " in node.value):
            for m in _CODE_IMPORT.finditer(node.value):
                out += [(m.group(1) or m.group(2), node.lineno)] if not m.group(3) else _run(m.group(3), node.lineno)
            if ">>>" not in node.value:  # from pkg.backends import fast (a doctest's imports are the tests')
                out += [(name, node.lineno) for name in from_submodules(node.value)]
            out += [(name, node.lineno) for name in relative_code_imports(node.value)]  # exec'd in its package
        elif isinstance(node, (ast.List, ast.Tuple)):  # [sys.executable, "-m", "pkg.tool"]
            for flag, name in zip(node.elts, node.elts[1:]):
                if isinstance(flag, ast.Constant) and flag.value == "-m" and isinstance(name, ast.Constant) \
                        and isinstance(name.value, str) and _DOTTED_NAME.fullmatch(name.value):
                    out += _run(name.value, name.lineno)
        elif isinstance(node, ast.Call) and (getattr(node.func, "attr", None) or getattr(node.func, "id", None)) \
                == "run_module" and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str) and _DOTTED_NAME.fullmatch(node.args[0].value):
            out += _run(node.args[0].value, node.lineno)  # runpy.run_module("pkg.tool")
    return out


_TEMPLATE_IMPORT = re.compile(r"(?:^|[\s;])(?:from|import|-m)\s+((?:[A-Za-z_]\w*\.)+)(?:\{[^{}\s]*\}|%(?:\(\w+\))?s)")


def _code_templates(tree: ast.Module, prose: set[int]) -> list[DynamicImport]:
    """A code template whose module name is filled in later (``exec("from pkg.tasks.{name} import run"
    .format(name=n))``, ``"import pkg.%s" % x``): every module under the literal start, as an import with a
    literal prefix."""
    out = []
    for node in walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.lineno not in prose:
            for m in _TEMPLATE_IMPORT.finditer(node.value):
                out.append(DynamicImport(node.lineno, unparse(node), m.group(1), True, None))
    return out


def built_code(tree: ast.Module, prose: set[int]) -> tuple[list[tuple[str, int]], list[DynamicImport]]:
    """Code built in an f-string or a ``+`` chain: ``exec(f"from {__package__}.runtime import helper")`` names
    the module's own submodule (``{__package__}.runtime``, filled in by the graph), ``f"from pkg.tasks.{name}
    import run"`` every module under ``pkg.tasks.`` (an import with a literal prefix, as a ``.format`` template
    is). A name that starts computed names nothing (``f"import {name} failed"``)."""
    strings: list[tuple[str, int]] = []
    dynamic: list[DynamicImport] = []
    inner: set[int] = set()
    for node in walk(tree):
        if id(node) in inner or not isinstance(node, (ast.JoinedStr, ast.BinOp, ast.Call)):
            continue
        built = as_fstring(node) if isinstance(node, (ast.Call, ast.BinOp)) else node  # "import {0}.x".format(...)
        if isinstance(node, ast.Call) and built is node:
            continue
        inner.update(id(n) for n in ast.walk(node) if n is not node)
        text = rendered_code(built) if node.lineno not in prose else None
        for name in relative_code_imports(text, built=True) if text and "from ." in text else ():
            head = name.split("*", 1)[0]  # f"from .plugins import {name}": every module under {__package__}.plugins.
            if "*" not in name:
                strings.append((name, node.lineno))
            elif head.endswith("."):
                dynamic.append(DynamicImport(node.lineno, unparse(node), head, True, None))
        for name, run in built_imports(node) if node.lineno not in prose else ():
            if "*" in name:
                head = name.split("*", 1)[0]
                if head.endswith(".") and head.strip("."):
                    dynamic.append(DynamicImport(node.lineno, unparse(node), head, True, None))
            elif run:
                strings += _run(name, node.lineno)
            else:
                strings.append((name, node.lineno))
    return strings, dynamic


def _run(module: str, line: int) -> list[tuple[str, int]]:
    """A module run as a program (``-m``, ``runpy.run_module``): a package runs its ``__main__``."""
    return [(module, line), (f"{module}.__main__", line)]


def _dotted_strings(text: str) -> list[tuple[str, int]]:
    """Dotted names in string literals."""
    out = []
    line, pos = 1, 0
    for match in _DOTTED_STRING.finditer(text):
        line += text.count("\n", pos, match.start())
        pos = match.start()
        out.append((match.group(2), line))
    return out


_IMPORT_ERROR_BASES = {"ImportError", "ModuleNotFoundError", "Exception", "BaseException"}


def _catches_import_error(handler_type) -> bool:
    """Does ``except <handler_type>:`` catch a failed import? (A bare ``except:`` does.)"""
    if handler_type is None:
        return True
    types = handler_type.elts if isinstance(handler_type, ast.Tuple) else [handler_type]
    return any(isinstance(t, (ast.Name, ast.Attribute)) and (t.id if isinstance(t, ast.Name) else t.attr)
               in _IMPORT_ERROR_BASES for t in types)

