"""The per-file summary: everything slimfork reads from a Python file, from one parse (``index.parse.summarize``),
cached by content with the index (``index.build``): the graph's fields, ``symbols`` (``index.symbols``), ``scan``
(the kernel audit's, ``index.kernelscan``) and ``bindings`` (the facts', ``index.bindings``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from slimfork.index.bindings import BindingEvents
from slimfork.index.built_names import BuiltName
from slimfork.index.kernelscan import PyScan
from slimfork.index.symbols import SymbolSummary


class ImportEdge(NamedTuple):
    """One import statement (or dynamic import) as written, before it is resolved to a module."""

    module: str | None  # "a.b" in "from a.b import c" / "import a.b"; None for "from . import x"
    level: int  # relative import level (0 = absolute)
    names: tuple[str, ...]  # imported names for "from" imports ("*" for star); () for "import a.b"
    line: int
    kind: str = "import"  # "import", "from", "dynamic" (import_module/__import__ with a literal), "string"
    scope: str = "module"  # "module", "function" or "class": where the statement runs
    condition: str | None = None  # enclosing if/try condition as source text, innermost last
    type_checking: bool = False  # under "if TYPE_CHECKING:" (never runs)


# The condition of an import in a ``try:`` block whose handler catches ImportError (or a base of it): the code
# handles the module being absent (an optional dependency or feature).
GUARDED_TRY = "try (except ImportError)"


class DynamicImport(NamedTuple):
    """An importlib.import_module / __import__ call; ``target`` is the literal or f-string prefix, if any."""

    line: int
    text: str
    target: str | None = None
    prefix: bool = False  # target is only a prefix (f-string or concatenation)
    package: str | None = None  # what a relative name resolves against: a literal `package=`, "{__name__}" or
    # "{__package__}" (the importing module's name or package, filled in by the graph), or RUNTIME_PACKAGE
    defaults: tuple[str, ...] = ()  # dotted literals the computed name is derived from (an env default)
    attribute: str = ""  # the name starts with a value of ``self.<attribute>`` (``for p in self.packages: p + name``)
    reads: tuple[str, ...] | None = None  # ``__import__("pkg").__version__``: the one name read off the module the
    # call returns, which nothing else sees (None: the module object is used otherwise)
    built: tuple[BuiltName, ...] = ()  # a name computed entirely at run time: the names the module builds elsewhere
    # (``_LAZY = {n: f"{__name__}.{n}" for n in _MODS}``, ``"pkg.plugins." + n``), own name placeholders kept
    lazy: bool = False  # a name computed entirely at run time, imported by a module ``__getattr__`` (PEP 562; a
    # ModuleType subclass's; or a function of the module it calls): a lazy attribute of the module's package


RUNTIME_PACKAGE = "?"  # a package argument computed at run time


@dataclass
class ModuleSummary:
    sha: str
    lines: int
    error: str | None = None  # why the file could not be parsed or decoded
    imports: list[ImportEdge] = field(default_factory=list)
    defs: dict[str, int] = field(default_factory=dict)  # module-level names bound -> first line
    all_names: list[str] | None = None  # literal __all__
    all_dynamic: bool = False  # __all__ built in a way we cannot read statically
    dynamic_imports: list[DynamicImport] = field(default_factory=list)
    strings: list[tuple[str, int]] = field(default_factory=list)  # dotted literals that may name modules
    class_strings: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)  # class attributes bound to
    # literal strings (``packages = ("docutils.languages.", "")``): (attribute, the strings)
    path_strings: list[tuple[str, int]] = field(default_factory=list)  # literals naming a .py file by path
    folder_strings: list[tuple[str, int]] = field(default_factory=list)  # folders a path from __file__ names
    sys_path_folders: list[tuple[str, int]] = field(default_factory=list)  # folders it puts on sys.path
    data_names: list[tuple[str, int]] = field(default_factory=list)  # literals naming a data file: "plugins.txt",
    # "config/app.toml", "setup.cfg" (one outside the package folders, read for the modules it names)
    # pkgutil.iter_modules(...) and the like: (line, call, scanned package (index.scans), reaches subpackages)
    dir_scans: list[tuple[int, str, str | None, bool]] = field(default_factory=list)
    # (callee, argument position or keyword, dotted string): what callers pass a function that scans a package
    literal_calls: list[tuple[str, int | str, str]] = field(default_factory=list)
    module_getattr: bool = False  # defines a module-level __getattr__ (lazy loader)
    symbols: SymbolSummary = field(default_factory=SymbolSummary)  # top-level statements, bindings, effects
    scan: PyScan = field(default_factory=PyScan)  # the kernel audit's: kernel defs, loader calls, refs, strings
    bindings: BindingEvents = field(default_factory=BindingEvents)  # the facts': what each module-level name is
    # bound to, relative imports unresolved

    @property
    def placeholder(self) -> bool:
        """A file the index counted but did not parse (the spec drops it): its parts are empty, not read."""
        return not self.sha
