"""What a module holds that a name it imports, computed at run time in a way the index does not evaluate, may be
built from (session 47). Unknown means keep, narrowed by what the module itself shows:

- an import whose expression reads the module's own name (``functools.reduce(lambda a, b: a + "." + b,
  [__package__, "backends", "fast"])``) builds a name under it: a computed name against the module's package, which
  keeps every module of that package;
- a relative module name anywhere in a module that imports by name (``TOOL = ".backends.fast"`` handed to a ``-c``
  child's ``import_module({TOOL!r}, {__package__!r})``, a descriptor's ``LazyModule(".backends.fast")`` whose
  ``__set_name__`` takes the package from ``owner.__module__``) names that module of the module's package;
- a name the module builds from its own name elsewhere (handed to a factory whose closure imports it) may be the one
  it imports;
- a name cut out of a longer string (``shlex.split("run --backend pkg.backends.fast")[-1]``, a URL's netloc, a
  query string, ``re.search``) may be any dotted word of the module's strings; read off a docstring
  (``import_module(run.__doc__.split()[-1])``), any of its docstrings' too.

Before, each was a name computed entirely at run time, which keeps only the project's loose modules: a target that
removed code also imported left the fork with exit 0."""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING

from slimfork.index.own_expr import module_bindings, own_expression
from slimfork.index.walk import walk

if TYPE_CHECKING:  # summary imports the symbol index, which imports this module
    from slimfork.index.summary import DynamicImport

_OWN = frozenset({"__name__", "__package__", "__spec__"})
_RELATIVE = re.compile(r"\.+[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
_QUOTED_RELATIVE = re.compile(r"""(['"])(\.+[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\1""")
_OWN_ATTRIBUTE = re.compile(r"""(?:__name__|__spec__\.name)\s*\+\s*['"]:|\{(?:__name__|__spec__\.name)\}:""")
_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
_DOTTED_WORD = re.compile(r"(?<![\w.])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
IMPORTS_BY_NAME = ("import_module", "__import__", "resolve_name", "find_spec", "run_module")


def is_open(dyn: DynamicImport) -> bool:
    """An import of a name computed entirely at run time, which nothing else the index read narrows."""
    return dyn.target is None and dyn.package is None and not dyn.defaults and not dyn.built and not dyn.attribute


def own_package_imports(imports: list[DynamicImport]) -> list[DynamicImport]:
    """Each open import whose expression reads the module's own name becomes one against the module's package; not
    ``resolve_name(__name__ + ":" + name)``, a name of the module itself (its symbols' uncertain place)."""
    return [dyn._replace(package="{__package__}") if is_open(dyn) and _reads(dyn.text, _own_name)
            and not _OWN_ATTRIBUTE.search(dyn.text) else dyn for dyn in imports]


def imports_by_name(tree: ast.Module) -> bool:
    """Does the module call an import by name, or hold code (a child's ``-c``) that does?"""
    return any(isinstance(node, ast.Name) and node.id in IMPORTS_BY_NAME
               or isinstance(node, ast.Attribute) and node.attr in IMPORTS_BY_NAME
               or isinstance(node, ast.Constant) and isinstance(node.value, str)
               and any(name in node.value for name in IMPORTS_BY_NAME) for node in walk(tree))


def relative_literals(tree: ast.Module) -> list[tuple[str, int]]:
    """``{__package__}.backends.fast`` for each relative module name among the module's string literals, or quoted
    inside one (code text: ``"m = importlib.import_module('.backends.fast', ...)"``)."""
    return [("{__package__}" + name, node.lineno) for node in walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            for name in ([node.value] if _RELATIVE.fullmatch(node.value) else
                         [m.group(2) for m in _QUOTED_RELATIVE.finditer(node.value[:10_000])])]


def string_words(tree: ast.Module, imports: list[DynamicImport], prose: set[int]) -> list[tuple[str, int]]:
    """The dotted words inside the longer strings of a module that imports by name (``shlex.split("run --backend
    pkg.backends.fast")[-1]``, ``"backend=pkg.backends.fast".split("=")[1]``, ``urlparse("plugin://pkg.x/")
    .netloc``); docstrings (lines in ``prose``) too when an open import reads a ``__doc__`` or ``inspect.getdoc``."""
    skip = set() if any(is_open(dyn) and _reads(dyn.text, _doc_read) for dyn in imports) else prose
    return [(word, node.lineno) for node in walk(tree) if isinstance(node, ast.Constant)
            and isinstance(node.value, str) and node.lineno not in skip and not _DOTTED.fullmatch(node.value)
            and ">>>" not in node.value  # a doctest's imports are its tests' (testsuite/doctests.py)
            for word in _DOTTED_WORD.findall(node.value[:10_000])]


def own_built_names(tree: ast.Module, imports: list[DynamicImport] | None) -> list[tuple[str, int]]:
    """Each name the module builds from its own name anywhere (``_make(".".join([__package__, "backends",
    "fast"]))`` handed to a factory whose closure imports it) when it has an open import: ``{=EXPR}``, which the
    graph evaluates with the module's name (``index/own_expr.py``); ``imports`` None: the symbol index, which
    has no imports read, asks for a module that imports by name."""
    if imports is not None and not any(is_open(dyn) for dyn in imports):
        return []
    bound, out, inner = module_bindings(tree), [], set[int]()
    for node in walk(tree):
        if id(node) in inner or not isinstance(node, (ast.Call, ast.BinOp, ast.JoinedStr)) \
                or not any(_own_name(n) for n in ast.walk(node)):
            continue
        found = own_expression(node, bound)
        if found is not None:
            inner.update(id(n) for n in ast.walk(node))
            out.append((found[0], node.lineno))
    return out


def _reads(text: str, test) -> bool:
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError:
        return False
    return any(test(node) for node in ast.walk(tree))


def _own_name(node: ast.AST) -> bool:
    return isinstance(node, ast.Name) and node.id in _OWN


def _doc_read(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "__doc__" \
        or isinstance(node, (ast.Attribute, ast.Name)) and getattr(node, "attr", getattr(node, "id", "")) == "getdoc"
