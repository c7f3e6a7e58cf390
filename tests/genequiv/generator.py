"""A seeded generator of small programs that trip code-removal tools, each a sub-package
`gq.sNN.pNNNN` of one project.

Every program has a `main()` returning a deterministic trace of what it computes (on Linux). Its modules use
platform branches (`sys.platform`, `os.name`, `platform.system()`, project predicates and flags, combined with
`and`/`or`/`not`, ternaries, elif chains, walrus, side-effecting calls in conditions), platform-only modules
imported at module level or inside functions, lazy imports (`__getattr__` + `import_module`), registries (a dict
of module names, decorator registration over a directory scan, a dict of classes; declared in the spec or not),
helpers used or unused, `__all__` and classes with platform-only private methods. The spec folds the Linux facts
and prunes symbols; a declared registry's program only looks up the keys the spec keeps.

Constructs that slimfork is known to get wrong are generated only when their `Flags` field is on (the
equivalence test keeps them off; `tests/genequiv/test_known_breaks.py` holds one minimal reproduction each).
"""

from __future__ import annotations

import random
import re
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

from tests.genequiv.structures import Structures

PACKAGE = "gq"
SUITE = 100  # programs per folder gq/sNN: slimfork deletes each such folder's unreachable files in one batch


@dataclass(frozen=True)
class Flags:
    relative_lazy: bool = False  # lazy-import tables and import_module() with relative strings (issue 25, class 1)
    outside_scan: bool = False  # a directory scan of another package's __path__ (issue 25, class 2)
    public_fact: bool = False  # a fact on a public predicate of a root module, whose public names are read (class 3)
    walrus_rebound: bool = False  # `(m := <known>) == "linux"` in a decided condition, m also assigned before
    folded_concat_getattr: bool = False  # getattr(self, "_value_" + ("win" if WINDOWS else "posix")) picks a method
    walrus_with_star_import: bool = False  # `if (w := <always true>):`, w read after, in a file with a star import


@dataclass
class Program:
    name: str  # gq.p0001
    files: dict[str, str] = field(default_factory=dict)  # path relative to the project -> text
    roots: list[str] = field(default_factory=list)
    functions: dict[str, bool] = field(default_factory=dict)  # [facts.functions]
    registries: list[str] = field(default_factory=list)  # [[registries]] tables, TOML text
    api: list[str] = field(default_factory=list)  # public names of its main module the runner must find
    features: set[str] = field(default_factory=set)


PLAT = """\
import os
import sys

WINDOWS = sys.platform == "win32"
MACOS = sys.platform == "darwin"
POSIX = os.name == "posix"


def is_windows():
    return sys.platform.startswith("win")


def is_mac():
    return sys.platform == "darwin"


def is_linux():
    return sys.platform.startswith("linux")


def get_bool_env_var(name, default="false"):
    return os.getenv(name, default).lower() in ("true", "1")


def describe_platform():
    if is_windows():
        return "windows"
    elif is_mac():
        return "mac"
    return "other"
"""

# Conditions the Linux facts decide (each with the imports it needs in main) and conditions they do not.
KNOWN = [
    ('sys.platform == "win32"', ()), ('sys.platform.startswith("linux")', ()), ('sys.platform != "darwin"', ()),
    ('sys.platform in ("win32", "cygwin")', ()), ('os.name == "nt"', ()), ('os.name == "posix"', ()),
    ('platform.system() == "Windows"', ("import platform",)), ('platform.system() == "Linux"', ("import platform",)),
    ("plat.is_windows()", ()), ("plat.is_mac()", ()), ("plat.is_linux()", ()), ("plat.WINDOWS", ()),
    ("plat.MACOS", ()), ("plat.POSIX", ()), ("_WIN", ()), ("_POSIX", ()), ("is_windows()", ()),
    ('sys.platform.startswith(("win", "cygwin"))', ()), ('os.name in {"nt", "ce"}', ()),
    ('not sys.platform == "win32"', ()), ('"linux" <= sys.platform < "linuy"', ()), ('sys.platform[:3] == "win"', ()),
    ('plat.get_bool_env_var("GQ_FAST")', ()), ('os.environ.get("GQ_MODE") == "legacy"', ()),
    ('os.getenv("GQ_MODE", "modern") == "modern"', ()),
]
UNKNOWN = ["x > 2", "x % 2 == 0", "len(out) > 1", '_note(out, "probe")', '_quiet(out, "probe")', "not out",
           '(n := len(out)) > 0']
MAIN_HEAD = """\
import os
import sys
{imports}
from {P} import helpers
from {PP} import plat
from {PP}.plat import is_windows

_WIN = sys.platform == "win32"
_POSIX = os.name == "posix"
"""
MAIN_TOOLS = """

def _note(out, tag):
    out.append(tag)
    return True


def _quiet(out, tag):
    out.append(tag)
    return False
"""


# A program's own module-level names get its number as a suffix (describe_0042): names shared by a thousand
# unrelated files would make each of slimfork's "is this name used elsewhere?" questions read them all.
OWN_NAMES = re.compile(r"\b(describe|unused|compute|run|handle|shown|hidden|path|old|load|BACKENDS|HANDLERS|REGISTRY|"
                       r"register|VALUE|WIN_ONLY|_note|_quiet|_native|_WIN|_POSIX|detect_legacy_windows|"
                       r"windows_banner|Ops\d+|KINDS|STORES|ADAPTERS|create|get_store|register_backend|"
                       r"register_store|backend_\w+|twice|boost|Kind|Text|_probe|_PROBED|_make_adder|_cache|Store|"
                       r"flavour|separator|PLATFORM|h\d+|_win_h\d+|C\d+|[A-Z][a-z]+Handler)\b")


class Builder(Structures):
    """One program: its files, main's module-level code and body, the spec entries it needs."""

    def __init__(self, rng: random.Random, index: int, flags: Flags):
        self.rng, self.flags = rng, flags
        self.prog = Program(f"{PACKAGE}.s{index // SUITE:02d}.p{index:04d}")
        self.P = self.prog.name
        self.dir = self.P.replace(".", "/")
        self.imports: set[str] = set()
        self.top: list[str] = []  # main's module-level code after the head
        self.body: list[str] = [f"x = {rng.randrange(10)}"]
        self.helpers: list[str] = []
        self.n_helpers = 0
        self.own_plat = rng.random() < 0.25  # else the project's shared gq.plat
        self.plat_pkg = self.P if self.own_plat else PACKAGE

    # -- pieces ---------------------------------------------------------------------------------------------------
    def file(self, rel: str, text: str) -> None:
        self.prog.files[f"{self.dir}/{rel}"] = textwrap.dedent(text).lstrip("\n")

    def helper(self, used: bool = True) -> str:
        """A new function of helpers.py (maybe with its own platform branch); returns its call on x."""
        k = self.n_helpers = self.n_helpers + 1
        name = f"h{k}"
        a, b = self.rng.randrange(1, 9), self.rng.randrange(20)
        style = self.rng.choice([0, 0, 0, 1, 2, 3])  # most helpers have no platform branch
        if style == 0:
            text = f"def {name}(x):\n    return x * {a} + {b}\n"
        elif style == 1:
            text = (f"def {name}(x):\n    if sys.platform == \"win32\":\n        return _win_{name}(x)\n"
                    f"    return x - {a}\n\n\ndef _win_{name}(x):\n    import winreg\n\n"
                    f"    return winreg.HKEY_CURRENT_USER + x\n")
        elif style == 2:
            text = f"def {name}(x):\n    return [x] * {a % 3} if os.name == \"nt\" else ({b}, x)\n"
        else:
            dispatch = self.rng.choice([  # a private method picked by a branch, or by a name built at run time
                "        if WINDOWS:\n            return self._value_win()\n        return self._value_posix()\n",
                "        return getattr(self, f\"_value_{'win' if WINDOWS else 'posix'}\")()\n",
                "        return getattr(self, \"_value_\" + (\"win\" if WINDOWS else \"posix\"))()\n"
                if self.flags.folded_concat_getattr else "        return getattr(self, \"_value_%s\" % self.kind)()\n"])
            text = (f"class C{k}:\n    kind = 'win' if WINDOWS else 'posix'\n\n    def __init__(self, x):\n"
                    f"        self.x = x\n\n    def value(self):\n{dispatch}\n"
                    f"    def _value_win(self):\n        return 'win' + str(self.x)\n\n"
                    f"    def _value_posix(self):\n        return self.x * {a}\n\n\n"
                    f"def {name}(x):\n    return C{k}(x).value()\n")
        self.helpers.append(text)
        return f"helpers.{name}(x)" if used else ""

    def value(self) -> str:
        pick = self.rng.randrange(8)
        if pick >= 5:  # a helper reached otherwise than by a call of its name
            name = self.helper()[len("helpers."):-len("(x)")]
            if pick == 5:
                return f'getattr(helpers, "{name}")(x)'
            if pick == 6:
                self.imports.add("import functools")
                return f"functools.partial(helpers.{name}, x)()"
            self.top += ["", "", f"class Ops{self.n_helpers}:", f"    op = staticmethod(helpers.{name})"]
            return f"Ops{self.n_helpers}.op(x)"
        return self.helper() if pick == 0 else [f"{self.rng.randrange(100)}", '"lit"', "x", "len(out)"][pick - 1]

    def cond(self, depth: int = 0, known_bias: float = 0.6) -> str:
        r = self.rng.random()
        if depth >= 2 or r < 0.45:
            if self.rng.random() < known_bias:
                text, imports = self.rng.choice(KNOWN)
                self.imports.update(imports)
                return text
            return self.rng.choice(UNKNOWN)
        a, b = self.cond(depth + 1), self.cond(depth + 1)
        return self.rng.choice([f"not ({a})", f"({a} and {b})", f"({a} or {b})",
                                f"({a} if {self.cond(depth + 1)} else {b})"])

    def walrus_name(self, name: str) -> str:
        """A fresh target per walrus, unless the flag asks for one name bound several times."""
        self.n_walrus = getattr(self, "n_walrus", 0) + 1
        return name if self.flags.walrus_rebound else f"{name}{self.n_walrus}"

    def walrus_read_ok(self) -> bool:
        """Whether main may read a walrus target the facts decide (not in a file with a star import, unless the
        flag asks: the fold drops the binding there)."""
        return "all" not in self.prog.features or self.flags.walrus_with_star_import

    def statement(self) -> list[str]:
        kind = self.rng.randrange(11)
        if kind <= 2:  # an if/elif/else chain
            lines = [f"if {self.cond()}:", f"    out.append({self.value()})"]
            for _ in range(self.rng.randrange(3)):
                lines += [f"elif {self.cond()}:", f"    out.append({self.value()})"]
            if self.rng.random() < 0.6:
                lines += ["else:", f"    out.append({self.value()})"]
            return lines
        if kind == 3:
            return [f"out.append({self.value()} if {self.cond()} else {self.value()})"]
        if kind == 4:
            self.prog.features.add("walrus")
            known, _ = self.rng.choice([k for k in KNOWN if not k[1]])
            w = self.walrus_name("w")
            lines = [f"if ({w} := {known}):", f"    out.append({self.value()})"]
            return lines + ([f"out.append({w})"] if self.rng.random() < 0.5 and self.walrus_read_ok() else [])
        if kind == 5:
            return [f"flag = {self.cond()}", "out.append(bool(flag))"]
        if kind == 6:
            return [f"out.append([i for i in range(3) if {self.cond()}])"]
        if kind == 7:
            return [f"while {self.cond()}:", f"    out.append({self.value()})", "    break"]
        if kind == 8:
            self.prog.features.add("match")
            return ["match sys.platform:", '    case "win32" | "cygwin":', f"        out.append({self.value()})",
                    '    case "darwin":', "        out.append('mac')", "    case _:",
                    f"        out.append({self.value()})"]
        if kind == 9 and self.walrus_read_ok():
            self.prog.features.add("walrus-elif")
            m = self.walrus_name("m")
            lines = [f'if {self.cond()}:', f"    out.append({self.value()})",
                     f'elif ({m} := sys.platform) == "linux":', f"    out.append({m})"]
            return [f"{m} = None"] + lines + [f"out.append({m})"] if self.flags.walrus_rebound else lines
        return [f"assert {self.cond()} or True, 'never fails'", "out.append('asserted')"]

    # -- assembly -------------------------------------------------------------------------------------------------
    def build(self) -> Program:
        rng, prog = self.rng, self.prog
        structures = [self.impl_modules, self.try_import, self.lazy, self.unused_modules, self.star_all,
                      self.platform_definitions, self.module_getattr, self.subclass_registry, self.global_state,
                      lambda: self.names_registry(rng.random() < 0.5),
                      lambda: self.scanned_registry(rng.random() < 0.5),
                      lambda: self.class_registry(rng.random() < 0.5),
                      lambda: self.keyed_registries(rng.random() < 0.5)]
        if self.flags.outside_scan:
            structures.append(self.outside_scan)
        if self.flags.public_fact:
            structures.append(self.public_predicate)
        for make in rng.sample(structures, rng.randrange(1, 4)):
            make()
        for _ in range(rng.randrange(2, 6)):
            self.body += self.statement()
        for _ in range(rng.randrange(3)):
            self.helper(used=False)  # noise nothing calls
        if rng.random() < 0.3:
            self.top += ["", "", "def windows_banner():", '    return "C:\\\\> " + os.sep']  # public, unused
            self.body += ["if _WIN:", "    out.append(windows_banner())"]
        head = MAIN_HEAD.format(P=self.P, PP=self.plat_pkg, imports="\n".join(sorted(self.imports)))
        main = head + "\n".join(self.top) + "\n" + MAIN_TOOLS + "\n\ndef main():\n    out = []\n"
        main += "".join(f"    {line}\n" for line in self.body) + "    return out\n"
        self.file("main.py", main)
        if self.own_plat:
            self.file("plat.py", PLAT)
            for fn in ("is_windows", "is_mac", "is_linux"):
                if rng.random() < 0.7:
                    prog.functions[f"{self.P}.plat.{fn}"] = fn == "is_linux"
        self.file("helpers.py", f"import os\nimport sys\n\nfrom {self.plat_pkg}.plat import WINDOWS\n\n\n"
                  + "\n\n".join(self.helpers))
        if f"{self.dir}/__init__.py" not in prog.files:
            self.file("__init__.py", "")
        prog.roots.append(f"{self.P}.main" if rng.random() < 0.5 or prog.api else f"{self.P}.main:main")
        tag = "_" + self.P.rsplit(".p", 1)[1]
        prog.files = {rel: OWN_NAMES.sub(lambda m: m.group(0) + tag, text) for rel, text in prog.files.items()}
        prog.functions = {OWN_NAMES.sub(lambda m: m.group(0) + tag, k): v for k, v in prog.functions.items()}
        prog.api = [OWN_NAMES.sub(lambda m: m.group(0) + tag, n) for n in prog.api]
        prog.registries = [OWN_NAMES.sub(lambda m: m.group(0) + tag, r) for r in prog.registries]
        return prog


def generate(index: int, seed: int, flags: Flags = Flags()) -> Program:
    return Builder(random.Random(f"{seed}:{index}"), index, flags).build()


def write_project(root: Path, programs: list[Program]) -> Path:
    """The project holding every program, with its spec (folds Linux facts, prunes symbols); returns the spec."""
    (root / PACKAGE).mkdir(parents=True, exist_ok=True)
    (root / PACKAGE / "__init__.py").write_text("")
    (root / PACKAGE / "plat.py").write_text(PLAT)  # the predicates most programs share
    for prog in programs:
        suite = (root / prog.name.replace(".", "/")).parent
        suite.mkdir(exist_ok=True)
        (suite / "__init__.py").write_text("")
        for rel, text in prog.files.items():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text(text)
    roots = [r for p in programs for r in p.roots]
    functions = {f"{PACKAGE}.plat.is_windows": False, f"{PACKAGE}.plat.is_mac": False}  # is_linux: unknown
    functions |= {k: v for p in programs for k, v in p.functions.items()}
    spec = ['source = "."', f'packages = ["{PACKAGE}"]', "roots = [" + ", ".join(f'"{r}"' for r in roots) + "]", "",
            "[symbols]", "prune = true", "", "[facts]", 'sys_platform = "linux"', 'os_name = "posix"',
            'platform_system = "Linux"', "", "[facts.env]", 'GQ_MODE = "modern"', "", "[facts.functions]"]
    spec += [f'"{k}" = {str(v).lower()}' for k, v in sorted(functions.items())]
    spec.insert(spec.index("[facts.env]") - 1, f'env_bool_functions = ["{PACKAGE}.plat.get_bool_env_var"]')
    spec.insert(spec.index("[facts.env]") + 1, "GQ_FAST = false")
    spec += ["", "[checks]", 'skip = ["import-modules"]']  # the static checks; importing every module is slow
    for prog in programs:
        for reg in prog.registries:
            spec += ["", "[[registries]]", reg.rstrip("\n"), 'reason = "generated: the program uses these keys only"']
    path = root / "slimfork.toml"
    path.write_text("\n".join(spec) + "\n")
    return path
