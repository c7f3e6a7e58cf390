"""Modules a package's own data files name: ``{"class": "pkg.handlers.JsonHandler"}`` in a logging config the
package loads, a plugin list in a YAML file, and the imports of its Cython sources (``_speedups.pyx``'s
``from pkg.helpers import scale``: the built extension imports it). The package's code reads or builds them, so
the package reaches what they name (an edge from the package, not a root: data of a package the fork leaves out
keeps nothing). ``run_roots``: modules a kept script or configuration anywhere runs as ``python -m pkg.tool``."""

from __future__ import annotations

import ast
import posixpath
import re

from slimfork.graph.modules import ModuleInfo, ModuleMap
from slimfork.graph.tool_configs import runtime_text
from slimfork.index.own_names import relative_code_imports
from slimfork.index.pickled import embedded_pickle_globals, marshalled_code, marshalled_imports, pickle_globals, \
    unpacked

DATA_SUFFIXES = (".json", ".yaml", ".yml", ".toml", ".cfg", ".ini", ".txt", ".conf", ".csv", ".xml", ".pkl",
                 ".pickle")  # a pickle names the classes it holds as "pkg.mod\nName" (text in every protocol)
CYTHON_SUFFIXES = (".pyx", ".pxd", ".pxi")
# files of a package folder read as anything but text naming modules: Python (indexed), stubs, compiled and native
# code, documentation prose, media, fonts, archives, tensors. Every other file of a package folder is read: a data
# file the package loads may have any suffix or none (``plugin.py.tmpl``, ``defaults.env``, ``REGISTRY``)
_NOT_SCANNED = (".py", ".pyi", ".pyc", ".pyo", ".so", ".pyd", ".dll", ".dylib", ".a", ".o", ".lib", ".exe",
                ".md", ".rst", ".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".cu", ".cuh", ".f90",
                ".png", ".jpg", ".jpeg", ".gif", ".bmp", ".ico", ".svg", ".webp", ".tif", ".tiff", ".pdf",
                ".ttf", ".otf", ".woff", ".woff2", ".eot", ".wav", ".mp3", ".mp4", ".ogg",
                ".zip", ".gz", ".tgz", ".bz2", ".xz", ".zst", ".tar", ".whl", ".egg", ".jar",
                ".npy", ".npz", ".pt", ".pth", ".bin", ".onnx", ".safetensors", ".h5", ".ckpt", ".mo", ".db",
                ".sqlite", ".sqlite3", ".parquet", ".arrow")
# of those, the suffixes of binary blobs a pickle is also saved under (``state.bin``, an old ``torch.save``'s ``.pt``):
# read when the file starts as a pickle does
_BLOBS = (".bin", ".pt", ".pth", ".ckpt", ".db", ".npy", ".sqlite", ".sqlite3")
_SQLITE = b"SQLite format 3\x00"  # a database whose values may be pickles (read for the PROTO opcodes in it)
# compressed files, read decompressed (``state.pkl.gz`` loaded by ``pickle.load(gzip.open(...))``, a zip of plugin
# lists): what they hold is read as a data file's text is
_COMPRESSED = (".gz", ".bz2", ".xz", ".lzma", ".zip")
_TEXT_PICKLE = re.compile(rb"\(?[ci][A-Za-z_][\w.]*\n[A-Za-z_]\w*\n")  # protocols 0 and 1: GLOBAL or INST first
_CYTHON_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+(\.*[\w.]*)[ \t]+c?import[ \t]+([\w, \t()]+)|c?import[ \t]+([\w., \t]+))",
                            re.MULTILINE)
_RUN_MODULE = re.compile(r"""(?:^|[\s"'\[,])-m[\s"',]+([A-Za-z_]\w*(?:\.\w+)*)""", re.MULTILINE)
# ``python -c "from pkg.tools import gen; gen.main()"`` (also ``"-c", "..."`` in a list): the code and its imports
_RUN_CODE = re.compile(r"""(?:^|[\s"'\[,])-c(?:["']\s*,)?\s*(["'])(.*?)\1""", re.MULTILINE | re.DOTALL)
_CODE_IMPORT = re.compile(r"(?:^|[\s;])(?:from[ \t]+([A-Za-z_][\w.]*)[ \t]+import[ \t]+(\w+(?:[ \t]*,[ \t]*\w+)*)"
                          r"|import[ \t]+([A-Za-z_][\w.]*))")
CODE_RUN = "imported by the code `python -c` runs"  # the symbol stage keeps every name of such a module
_MAX_BYTES = 512_000
_READ: dict[tuple[str, str], list[str]] = {}  # (root, path) -> dotted names in it, read once per process


def data_file_edges(mm: ModuleMap, root: str, other_files: list[str]) -> list[tuple[str, str, str, str]]:
    """(package, module named, edge kind, why) for the text and Cython files inside package folders."""
    if not mm.top_names:
        return []
    pattern = re.compile(r"\b((?:%s)(?:\.[A-Za-z_]\w*)+)" % "|".join(map(re.escape, sorted(mm.top_names))))
    out = []
    for package, data_package, path in _data_packages(mm, root, other_files):
        out.append((package, data_package, "path", f"its folder holds package data ({path})"))
    for path in other_files:
        if not scanned_data_file(path, root) or prose_file(root, path):
            continue
        package = package_above(mm, posixpath.dirname(path))
        if package is None:
            continue
        cython = path.endswith(CYTHON_SUFFIXES)
        names = _cython_imports(root, path, package) if cython else \
            _names(root, path, pattern) + relative_code_names(root, path, package, mm) + \
            placeholder_names(_text(root, path), package, mm)
        why = f"the Cython source {path} imports it" if cython else f"the data file {path} names it"
        for text in names:
            if not mm.is_internal(text):
                continue
            target = mm.longest_module(text)
            if target and target != package:
                out.append((package, target, "native" if cython else "string", why))
        for text in [] if cython else _from_imports(root, path):  # code it holds imports the module by name:
            # every name of it stays (its reads are in the data file)
            if mm.is_internal(text) and text in mm.modules and text != package:
                out.append((package, text, "dynamic", f"the code in the data file {path} imports it"))
        for target in [] if cython else _py_path_modules(mm, root, path, package):
            if target != package:  # {"hook": "hooks/run_me.py"}, exec'd or run by its path
                out.append((package, target, "path", f"the data file {path} names its file"))
    return out


_PY_PATH = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)*[\w-]+\.py)(?!\w)")
_PY_READ: dict[tuple[str, str], list[str]] = {}  # (root, path) -> the .py paths a data file holds


def _py_path_modules(mm: ModuleMap, root: str, path: str, package: str) -> list[str]:
    """The modules whose files the ``.py`` paths of a data file name, relative to its folder or its package's."""
    key = (root, path)
    if key not in _PY_READ:
        text = _text(root, path)
        _PY_READ[key] = list(dict.fromkeys(_PY_PATH.findall(text))) if ".py" in text else []
    here = posixpath.dirname(path)
    info = mm.modules.get(package)
    out = []
    for text in _PY_READ[key]:
        for folder in dict.fromkeys((here, posixpath.dirname(info.path) if info and info.path else here)):
            if (module := mm.module_of(posixpath.normpath(posixpath.join(folder, text)))) is not None:
                out.append(module)
                break
    return out


def modules_named(mm: ModuleMap, root: str, path: str, any_text: bool = False) -> list[str]:
    """The project's modules a data file names (``pkg.mod`` in a config, ``pkg.mod\nName`` in a pickle);
    ``any_text``: a file read for its names whatever its suffix (a test importing what ``docs/api.rst`` lists)."""
    if not mm.top_names or not (any_text or scanned_data_file(path, root)):
        return []
    pattern = re.compile(r"\b((?:%s)(?:\.[A-Za-z_]\w*)+)" % "|".join(map(re.escape, sorted(mm.top_names))))
    found = (mm.longest_module(text) for text in _names(root, path, pattern) if mm.is_internal(text))
    return list(dict.fromkeys(m for m in found if m))


_LONE_NAME = re.compile(r"""^[\s"',\[\]-]*(?:[\w.-]+\s*[=:]\s*)?["']?[A-Za-z_][\w]*(?:\.\w+)+(?::\w+)?["']?[\s,\]]*$""")


def prose_file(root: str, path: str) -> bool:
    """A ``.txt`` (or suffixless) file of sentences: documentation shipped in a package folder (SQLAlchemy's
    ``dialects/type_migration_guidelines.txt``, whose example ``from sqlalchemy.dialects.postgresql import base``
    kept every dialect). Its names are mentions, not a list the package reads: at least half of its lines hold five
    words or more, no line is a name alone (``pkg.plugins.alpha``, ``handler = pkg.log:Make``, a list item, each
    maybe followed by a ``#`` comment; comment lines aside) and the text is no Python (a ``boot.txt`` the package
    ``exec``s parses)."""
    name = posixpath.basename(path)
    if not (name.endswith(".txt") or "." not in name):
        return False
    text = _text(root, path)
    lines = [ln.split(" #")[0] for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith(("#", ";"))]
    if not lines or 2 * sum(len(ln.split()) >= 5 for ln in lines) < len(lines) \
            or any(_LONE_NAME.match(ln) for ln in lines):
        return False
    try:
        ast.parse(text)
    except (SyntaxError, ValueError):
        return True
    return False


def scanned_data_file(path: str, root: str | None = None) -> bool:
    """Whether a non-Python file of a package folder is read for the dotted names it holds: a known data or Cython
    suffix, or any suffix (or none) that is not code, prose or media (``_NOT_SCANNED``); the file's text decides
    the rest (``readable_text``: a binary file that is no pickle names nothing). Unknown means keep. With ``root``,
    a blob's suffix (``.bin``, ``.pt``) holding a pickle (``pickle.dump(Rec(7), open("rec.bin", "wb"))``) is read
    too: the classes it loads must stay."""
    name = posixpath.basename(path).lower()
    if path.endswith(DATA_SUFFIXES + CYTHON_SUFFIXES):
        return True
    if name.endswith(_COMPRESSED) and not name.endswith((".tar.gz", ".tar.bz2", ".tar.xz")):
        return True
    if name.endswith(_BLOBS) and root is not None:
        try:
            with open(posixpath.join(str(root), path), "rb") as f:
                head = f.read(256)
        except OSError:
            return False
        return _pickle_start(head) or _TEXT_PICKLE.match(head) is not None or marshalled_code(head) \
            or head.startswith(_SQLITE)
    return not (name.endswith(_NOT_SCANNED) or name.startswith(_NOT_DATA) or "__pycache__" in path)


def package_above(mm: ModuleMap, folder: str) -> str | None:
    """The package of ``folder``, or of the nearest folder above it that is one (``pkg/conf/`` without an
    ``__init__.py`` is data of ``pkg``)."""
    while folder:
        package = mm.module_of(posixpath.join(folder, "__init__.py"))
        if package is not None:
            return package
        folder = posixpath.dirname(folder)
    return None


def _data_packages(mm: ModuleMap, root: str, other_files: list[str]):
    """(parent package, subpackage, a data file) for the data-only subpackages (an empty ``__init__.py`` and data
    files): read through the subpackage (``pkgutil.get_data("pkg.tpl", "a.txt")``, ``resources.files("pkg.tpl")``)
    and installed by ``find_packages()`` only while it is a package, so its ``__init__.py`` stays with its parent."""
    seen = set()
    for path in other_files:
        folder, name = posixpath.split(path)
        if folder in seen or name.lower().startswith(_NOT_DATA) or name.endswith(_NOT_DATA_SUFFIXES) \
                or "__pycache__" in path:
            continue
        seen.add(folder)
        init = posixpath.join(folder, "__init__.py")
        package = mm.module_of(init)
        if package is not None and "." in package and not mm.descendants(package) and _empty(root, init):
            yield package.rpartition(".")[0], package, path


_NOT_DATA = ("readme", "license", "licence", "changelog", "py.typed")
_NOT_DATA_SUFFIXES = (".pyc", ".pyo", ".so", ".pyd", ".md", ".rst", ".pyi")


def _empty(root: str, path: str) -> bool:
    """An ``__init__.py`` that runs nothing: blank, comments or a docstring."""
    text = _text(root, path)
    lines = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.strip().startswith("#")]
    return len(text) < 2000 and (not lines or all(ln.startswith(('"', "'")) or ln.endswith(('"', "'"))
                                                  for ln in lines))


def run_roots(mm: ModuleMap, root: str, other_files: list[str],
              scripts: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """(module, why) for the project's modules a kept script or configuration runs as ``python -m pkg.tool``: any
    file but prose, media and binaries (``scanned_data_file``), whatever its name: a ``makefile``, ``GNUmakefile``,
    ``mk/gen.mk``, ``Justfile``, ``Dockerfile.dev``, ``Containerfile``, ``Jenkinsfile``, ``Procfile.dev``, a systemd
    ``.service``, a ``crontab``, ``.envrc``, ``.bat``, ``.ps1`` or ``.zsh`` script (session 42: a fixed list of
    names and suffixes missed these). ``scripts``: the Python files outside the packages and the tests, kept as
    written (invoke's ``tasks.py``: ``c.run("python -m pkg.tools.gen")``, a ``noxfile.py``: ``session.run(
    "python", "-m", "pkg.tools.gen")``), read as a Makefile is."""
    out = []
    for path in [*(p for p in other_files if scanned_data_file(p)), *scripts]:
        key = (root, "-m " + path)
        if key not in _READ:
            text = _text(root, path)
            _READ[key] = list(dict.fromkeys(_RUN_MODULE.findall(text)))
            _READ[(root, "-c " + path)] = list(dict.fromkeys(_code_run_imports(text)))
        out += [(m, f"run as `python -m {m}` by {path}") for m in _READ[key] if m in mm.modules]
        out += [(m, f"{CODE_RUN} in {path}, with every name it defines") for m in _READ[(root, "-c " + path)]
                if m in mm.modules]
    return out


def _code_run_imports(text: str) -> list[str]:
    """The modules the code of ``python -c "..."`` imports (session 43: a Makefile's, a shell script's or tox's
    ``python -c "import pkg.tools.gen as g; g.main()"`` kept nothing): ``from pkg.tools import gen`` names
    ``pkg.tools`` and ``pkg.tools.gen`` (a submodule or a name)."""
    out = []
    for code in (m.group(2) for m in _RUN_CODE.finditer(text) if "import" in m.group(2)):
        for module, names, plain in _CODE_IMPORT.findall(code):
            out += [plain] if plain else [module] + [f"{module}.{n.strip()}" for n in names.split(",")]
    return out


def _from_imports(root: str, path: str) -> list[str]:
    """``pkg.plugins.alpha`` for ``from pkg.plugins import alpha`` in a data file's text (a module of a zip put on
    ``sys.path``: session 44, only ``pkg.plugins`` was read and the submodule left)."""
    key = (root, "from " + path)
    if key not in _READ:
        text = _text(root, path)
        _READ[key] = [f"{module}.{n.strip()}" for module, names, _ in _CODE_IMPORT.findall(text) if module
                      for n in names.split(",")] if "import" in text else []
    return _READ[key]


def _names(root: str, path: str, pattern: re.Pattern) -> list[str]:
    key = (root, path)
    if key not in _READ:
        _READ[key] = list(dict.fromkeys(pattern.findall(_text(root, path))))
    return _READ[key]


def relative_code_names(root: str, path: str, package: str, mm: ModuleMap) -> list[str]:
    """What the relative imports of a data file's code import against its package (``boot.txt`` holding ``from
    .plugins import alpha``, which the package runs by ``exec(text, {"__package__": __package__, ...})``); one with
    more dots than the package has parts (``from ...plugins import alpha``, run in a deeper package): every module
    so named (``*.plugins.alpha``)."""
    text = _text(root, path)
    info = ModuleInfo(package, None, True)
    return [m for n in relative_code_imports(text) for m in mm.code_import_targets(info, n)] if "from ." in text else []


# a template's placeholder before a dotted tail: $pkg.x, ${pkg}.x, {pkg}.x, {{ pkg }}.x, %(pkg)s.x, @PKG@.x
_PLACEHOLDER = re.compile(r"(?:\$\{?\w+\}?|\{\{?\s*\w+\s*\}\}?|%\(\w+\)s|@\w+@)((?:\.[A-Za-z_]\w*)+)")


def placeholder_names(text: str, package: str, mm: ModuleMap) -> list[str]:
    """The modules a template of the package names through a placeholder it fills in at run time
    (``module = $pkg.plugins.alpha`` read by ``Template(text).substitute(pkg=__package__)``): the placeholder may
    stand for the package or any package above it, so each such name that reaches below it counts (session 45:
    the text names no module by itself, ``plugins/alpha.py`` left the fork)."""
    if not any(c in text for c in "${%@"):
        return []
    parts = package.split(".")
    out = []
    for tail in dict.fromkeys(_PLACEHOLDER.findall(text)):
        for prefix in (".".join(parts[:i]) for i in range(1, len(parts) + 1)):
            target = mm.longest_module(prefix + tail)
            if target and target != prefix and target.startswith(prefix + "."):
                out.append(prefix + tail)
    return out


def _cython_imports(root: str, path: str, package: str) -> list[str]:
    """The modules a Cython file imports or cimports, relative ones resolved against its package."""
    key = (root, path)
    if key not in _READ:
        out = []
        for base, names, plain in _CYTHON_IMPORT.findall(_text(root, path)):
            if plain:
                out += [n.split()[0] for n in plain.split(",") if n.strip()]
                continue
            dots = len(base) - len(base.lstrip("."))
            anchor = package.rsplit(".", dots - 1)[0] if dots > 1 else package
            absolute = f"{anchor}.{base[dots:]}".rstrip(".") if dots else base
            out.append(absolute)
            out += [f"{absolute}.{n.split()[0]}" for n in names.strip("() \t").split(",") if n.strip()]
        _READ[key] = list(dict.fromkeys(out))
    return _READ[key]


def _text(root: str, path: str) -> str:
    try:
        with open(posixpath.join(root, path), "rb") as f:
            data = f.read(_MAX_BYTES + 1)
    except OSError:
        return ""
    if len(data) > _MAX_BYTES:
        return ""
    return data_text(path, data)


def data_text(path: str, data: bytes) -> str:
    """``readable_text`` of a file's bytes, a compressed file's (``state.pkl.gz``, a zip's members) decompressed."""
    if posixpath.basename(path).lower().endswith(_COMPRESSED):
        return "\n".join(readable_text(path.rsplit(".", 1)[0], part) for part in unpacked(data))
    return readable_text(path, data)


def readable_text(path: str, data: bytes) -> str:
    """A file's text as the readers of dotted names see it; for a pickle, also its globals as ``pkg.mod:Name``
    (protocols 0-3 write ``cpkg.mod\nName``, where no word boundary precedes the module's name)."""
    if data.startswith(_SQLITE):
        return "\n".join(embedded_pickle_globals(data))
    if path.endswith(PICKLES) or _pickle_start(data) or _TEXT_PICKLE.match(data) is not None:
        return data.decode("utf-8", "replace") + "\n" + "\n".join(pickle_globals(data))
    if b"\0" in data[:8192] and marshalled_code(data) and (imports := marshalled_imports(data)):
        return "\n".join(imports)  # exec(marshal.loads(blob)): what its code imports (session 43: never read)
    if b"\0" in data[:8192] and not path.endswith(DATA_SUFFIXES):
        return ""  # a binary file (an image or archive whatever its suffix) names no module
    return runtime_text(path, data.decode("utf-8", "replace"))  # mypy's overrides name modules no one loads


def _pickle_start(data: bytes) -> bool:
    """A pickle of protocol 2 and above by its first opcodes (PROTO n), whatever the file's suffix (``state.dat``)."""
    return len(data) > 2 and data[:1] == b"\x80" and data[1:2] in (b"\x02", b"\x03", b"\x04", b"\x05")


PICKLES = (".pkl", ".pickle")




def files_by_name(other_files: list[str]) -> dict[str, list[str]]:
    """Basename -> the non-Python files of the tree so named (for ``named_file_modules``)."""
    table: dict[str, list[str]] = {}
    for path in other_files:
        table.setdefault(posixpath.basename(path), []).append(path)
    return table


def named_file_modules(mm: ModuleMap, root: str, by_name: dict[str, list[str]], text: str) -> list[tuple[str, str]]:
    """(path, module) for the modules a data file outside the package folders names, the file named by ``text``
    in kept code (``"plugins.txt"``, ``"config/app.toml"``, ``"setup.cfg"``): the code reads it (a plugin list in
    a ``config/`` folder beside ``src/``, a section of its own in ``setup.cfg``) and imports what it names."""
    out = []
    for path in by_name.get(posixpath.basename(text), []):
        if (path == text or path.endswith("/" + text)) and package_above(mm, posixpath.dirname(path)) is None \
                and scanned_data_file(path, root):
            out += [(path, module) for module in modules_named(mm, root, path)]
    return out
