"""The multi-module structures of a generated program (a mixin of ``generator.Builder``): platform-only modules,
lazy imports, registries of several kinds, star imports, platform-defined code, and the constructs behind flags."""

from __future__ import annotations


class Structures:
    """Each method adds files to the program, code to its main module (``top``) and ``main()`` (``body``), and the
    spec entries it needs; ``self`` is a ``generator.Builder``."""

    def impl_modules(self) -> None:
        """Platform-only modules chosen at main's module level, or by an import inside a function."""
        self.prog.features.add("platform-modules")
        self.file("winimpl.py", """
            import msvcrt


            def describe(x):
                return ("win", msvcrt.getwch, x)
            """)
        self.file("posiximpl.py", """
            import os


            def describe(x):
                return ("posix", os.sep, x)


            def unused(x):
                return x
            """)
        if self.rng.random() < 0.5:
            test = self.rng.choice(['sys.platform == "win32"', "_WIN", 'os.name == "nt"', "plat.is_windows()"])
            self.top += ["", f"if {test}:", f"    from {self.P} import winimpl as impl", "else:",
                         f"    from {self.P} import posiximpl as impl"]
            self.body.append("out.append(impl.describe(x))")
        else:
            self.top += ["", "", "def _native(x):", "    if plat.WINDOWS:",
                         f"        from {self.P}.winimpl import describe",
                         "    else:", f"        from {self.P}.posiximpl import describe", "    return describe(x)"]
            self.body.append("out.append(_native(x))")

    def try_import(self) -> None:
        self.prog.features.add("try-import")
        self.top += ["", "try:", "    import msvcrt", "except ImportError:", "    msvcrt = None"]
        self.body.append("out.append(msvcrt is None)")

    def lazy(self) -> None:
        """A package __init__ that loads submodules on attribute access, and import_module inside functions."""
        self.prog.features.add("lazy")
        rel = self.flags.relative_lazy and self.rng.random() < 0.5
        if rel:
            self.prog.features.add("relative-lazy")
        target = (lambda m: f".{m}") if rel else (lambda m: f"{self.P}.{m}")
        call = "import_module(_LAZY[name], __name__)" if rel else "import_module(_LAZY[name])"
        self.file("__init__.py", f"""
            from importlib import import_module

            _LAZY = {{"heavy": "{target('heavy')}", "extra": "{target('extra')}"}}


            def __getattr__(name):
                if name in _LAZY:
                    return {call}
                raise AttributeError(name)
            """)
        self.file("heavy.py", f"VALUE = {self.rng.randrange(100)}\n\n\ndef compute(x):\n    return VALUE + x\n")
        self.file("extra.py", "def compute(x):\n    return -x\n")
        self.file("dyn.py", "def compute(x):\n    return ('dyn', x)\n")
        self.body.append(f"import {self.P} as pkg")
        self.body.append("out.append(pkg.heavy.compute(x))")
        if self.rng.random() < 0.5:
            self.body.append(f"from {self.P} import extra")
            self.body.append("out.append(extra.compute(x))")
        self.imports.add("import importlib")
        dyn = '".dyn", __package__' if rel and self.rng.random() < 0.5 else f'"{self.P}.dyn"'
        self.body.append(f"out.append(importlib.import_module({dyn}).compute(x))")

    def names_registry(self, declared: bool) -> None:
        """A dict of names -> module strings, loaded with import_module."""
        self.prog.features.add("names-registry" + ("-declared" if declared else ""))
        keys = ["alpha", "beta", "gamma", "delta"][: self.rng.randrange(2, 5)]
        for k in keys:
            self.file(f"backends/{k}.py", f"def run(x):\n    return ('{k}', x * {self.rng.randrange(1, 5)})\n")
        self.file("backends/__init__.py", "")
        table = ", ".join(f'"{k}": "{self.P}.backends.{k}"' for k in keys)
        self.file("registry.py", f"""
            from importlib import import_module

            BACKENDS = {{{table}}}


            def load(name):
                return import_module(BACKENDS[name])
            """)
        self.body.append(f"from {self.P}.registry import BACKENDS, load")
        if declared:
            kept = self.rng.sample(keys, self.rng.randrange(1, len(keys)))
            self.prog.registries.append(f'kind = "mapping"\npackage = "{self.P}.registry"\nvariable = "BACKENDS"\n'
                                        f"keep = {sorted(kept)!r}\n".replace("'", '"'))
            self.body += [f"for k in {sorted(kept)!r}:", "    out.append(load(k).run(x))"]
        else:
            self.body += ["for k in sorted(BACKENDS):", "    out.append(load(k).run(x))"]

    def scanned_registry(self, declared: bool) -> None:
        """Decorator registration in plugin modules that the package loads by scanning its own directory."""
        self.prog.features.add("scanned-registry" + ("-declared" if declared else ""))
        keys = ["csv", "json", "xml", "yaml"][: self.rng.randrange(2, 5)]
        self.file("plugins/base.py", """
            REGISTRY = {}


            def register(name):
                def deco(fn):
                    REGISTRY[name] = fn
                    return fn

                return deco
            """)
        scan = ("for _, _name, _ in pkgutil.iter_modules(__path__):\n"
                "    if _name != \"base\":\n        import_module(f\"{__name__}.{_name}\")\n")
        self.file("plugins/__init__.py", "import pkgutil\nfrom importlib import import_module\n\n"
                  f"from {self.P}.plugins.base import REGISTRY\n\n" + scan)
        for k in keys:
            self.file(f"plugins/{k}.py", f"""
                from {self.P}.plugins.base import register


                @register("{k}")
                def handle(x):
                    return "{k}" + str(x)
                """)
        self.body.append(f"from {self.P}.plugins import REGISTRY")
        if declared:
            kept = self.rng.sample(keys, self.rng.randrange(1, len(keys)))
            self.prog.registries.append(f'package = "{self.P}.plugins"\nkeep = {sorted(kept)!r}\n'.replace("'", '"'))
            self.body += [f"for k in {sorted(kept)!r}:", "    out.append(REGISTRY[k](x))"]
        else:
            self.body += ["for k in sorted(REGISTRY):", "    out.append(REGISTRY[k](x))"]

    def outside_scan(self) -> None:
        """A module that scans another package's directory (class 2 of issue 25)."""
        self.prog.features.add("outside-scan")
        keys = ["one", "two"]
        self.file("models/__init__.py", "")
        for k in keys:
            self.file(f"models/{k}.py", f"NAME = \"{k}\"\n")
        self.file("loader.py", f"""
            import pkgutil
            from importlib import import_module

            from {self.P} import models


            def load():
                found = []
                for _, name, _ in pkgutil.iter_modules(models.__path__, models.__name__ + "."):
                    found.append(import_module(name).NAME)
                return sorted(found)
            """)
        self.body += [f"from {self.P}.loader import load", "out.append(load())"]

    def class_registry(self, declared: bool) -> None:
        """A dict of classes imported from sibling modules."""
        self.prog.features.add("class-registry" + ("-declared" if declared else ""))
        keys = ["fast", "slow", "safe"][: self.rng.randrange(2, 4)]
        for k in keys:
            self.file(f"h_{k}.py", f"class {k.title()}Handler:\n    def handle(self, x):\n        return '{k}', x\n")
        imports = "".join(f"from {self.P}.h_{k} import {k.title()}Handler\n" for k in keys)
        table = "".join(f'    "{k}": {k.title()}Handler,\n' for k in keys)
        self.file("handlers.py", imports + f"\nHANDLERS = {{\n{table}}}\n")
        self.body.append(f"from {self.P}.handlers import HANDLERS")
        if declared:
            kept = self.rng.sample(keys, self.rng.randrange(1, len(keys)))
            self.prog.registries.append(f'kind = "dict"\npackage = "{self.P}.handlers.HANDLERS"\n'
                                        f"keep = {sorted(kept)!r}\n".replace("'", '"'))
            self.body += [f"for k in {sorted(kept)!r}:", "    out.append(HANDLERS[k]().handle(x))"]
        else:
            self.body += ["for k in sorted(HANDLERS):", "    out.append(HANDLERS[k]().handle(x))"]

    def unused_modules(self) -> None:
        self.prog.features.add("unused-modules")
        self.file("legacy.py", "import msvcrt\n\n\ndef old():\n    return msvcrt\n")
        self.file("winonly.py", "def path(x):\n    return 'C:\\\\' + str(x)\n")
        self.body += ["if sys.platform == \"win32\":", f"    from {self.P}.winonly import path",
                      "    out.append(path(x))"]

    def star_all(self) -> None:
        self.prog.features.add("all")
        self.file("api.py", """
            __all__ = ["shown", "WIN_ONLY"]

            import sys

            WIN_ONLY = sys.platform == "win32"


            def shown(x):
                return ("shown", x)


            def hidden(x):
                return x
            """)
        self.top += ["", f"from {self.P}.api import *  # noqa: F403"]
        self.body.append("out.append((shown(x), WIN_ONLY))  # noqa: F405")

    def platform_definitions(self) -> None:
        """Definitions that differ by platform: module-level functions, class bodies, an alias of sys.platform."""
        self.prog.features.add("platform-definitions")
        self.file("paths.py", """
            import os
            import sys

            PLATFORM = sys.platform

            if sys.platform == "win32":
                def separator():
                    return "\\\\"
            elif os.name == "posix":
                def separator():
                    return "/"
            else:
                def separator():
                    return "?"


            class Store:
                if os.name == "nt":
                    root = "C:"

                    def where(self):
                        return self.root + separator()
                else:
                    root = "/var"

                    def where(self):
                        return self.root + separator() + PLATFORM[:3]

                def _legacy(self):
                    return "legacy"


            def flavour(debug=os.environ.get("GQ_DEBUG") == "1"):
                if PLATFORM == "win32" or debug:
                    return "odd"
                return "plain"
            """)
        self.body += [f"from {self.P}.paths import Store, flavour, separator",
                      "out.append((separator(), Store().where(), flavour()))"]

    def module_getattr(self) -> None:
        """A plain module with a __getattr__ that picks its platform's implementation when first asked."""
        self.prog.features.add("module-getattr")
        self.file("compat.py", f"""
            import sys

            _cache = {{}}


            def __getattr__(name):
                if name != "backend":
                    raise AttributeError(name)
                if "backend" not in _cache:
                    if sys.platform == "win32":
                        from {self.P} import winimpl as chosen
                    else:
                        from {self.P} import posiximpl as chosen
                    _cache["backend"] = chosen
                return _cache["backend"]
            """)
        if "platform-modules" not in self.prog.features:
            self.impl_modules()
        self.body += [f"from {self.P} import compat", "out.append(compat.backend.describe(x))"]

    def subclass_registry(self) -> None:
        """Subclasses register themselves through __init_subclass__; main lists the registry."""
        self.prog.features.add("subclass-registry")
        self.file("kinds.py", """
            import sys

            KINDS = {}


            class Kind:
                def __init_subclass__(cls, **kw):
                    super().__init_subclass__(**kw)
                    KINDS[cls.__name__.lower()] = cls


            class Text(Kind):
                def size(self):
                    return 1


            if sys.platform == "win32":
                class Registry(Kind):
                    def size(self):
                        return 2


            class _Binary(Kind):
                def size(self):
                    return 3
            """)
        self.body += [f"from {self.P}.kinds import KINDS",
                      "out.append(sorted((k, c().size()) for k, c in KINDS.items()))"]

    def global_state(self) -> None:
        """A memoised platform probe behind `global`, and a closure over a platform flag."""
        self.prog.features.add("global-state")
        self.top += ["", "", "_PROBED = None", "", "", "def _probe():", "    global _PROBED",
                     "    if _PROBED is None:", "        _PROBED = 'nt' if os.name == 'nt' else sys.platform[:5]",
                     "    return _PROBED", "", "", "def _make_adder(step):",
                     "    bonus = 100 if _WIN else 0", "", "    def add(v):", "        return v + step + bonus", "",
                     "    return add"]
        self.body += ["out.append((_probe(), _probe(), _make_adder(x)(1)))"]

    def public_predicate(self) -> None:
        """A public predicate of the root module, folded by a fact, then read by outside code (class 3)."""
        self.prog.features.add("public-fact")
        self.top += ["", "", "def detect_legacy_windows():", '    return sys.platform == "win32"']
        self.body += ["if detect_legacy_windows():", "    out.append('legacy')"]
        self.prog.functions[f"{self.P}.main.detect_legacy_windows"] = False
        self.prog.api.append("detect_legacy_windows")

    def keyed_registries(self, declared: bool) -> None:
        """Registrations by decorator, by a call naming a module, arms of an if-chain and an __init__ importing
        submodules so they register: the spec's kinds "decorator", "call", "if-chain" and "imports"."""
        self.prog.features.add("keyed-registries" + ("-declared" if declared else ""))
        P, rng = self.P, self.rng
        self.file("reg.py", """
            from importlib import import_module

            BACKENDS = {}
            STORES = {}


            def register_backend(name):
                def deco(fn):
                    BACKENDS[name] = fn
                    return fn

                return deco


            def register_store(name, module, attr):
                STORES[name] = (module, attr)


            def get_store(name):
                module, attr = STORES[name]
                return getattr(import_module(module), attr)
            """)
        self.file("shared.py", "def twice(x):\n    return 2 * x\n")
        self.file("rocm.py", "def boost(x):\n    return x + 1000\n")
        backends = ["fa3", "aiter", "triton"]
        stores = ["file", "eic", "nixl"]
        text = f"from {P}.reg import register_backend, register_store\n"
        for k in backends:
            uses = f"from {P} import shared\n\n    return shared.twice(x)" if k != "aiter" else \
                f"from {P} import rocm, shared\n\n    return shared.twice(rocm.boost(x))"
            text += f'\n\n@register_backend("{k}")\ndef backend_{k}(x):\n    {uses}\n'
        text += "\n\n" + "".join(f'register_store("{k}", "{P}.stores.{k}", "Store")\n' for k in stores)
        self.file("attention.py", text)
        self.file("stores/__init__.py", "")
        for k in stores:
            self.file(f"stores/{k}.py", f'class Store:\n    kind = "{k}"\n')
        self.file("grammar.py", f"""
            def create(name):
                if name == "xgrammar":
                    from {P}.shared import twice

                    return ("xgrammar", twice(3))
                elif name in ("outlines", "llguidance"):
                    from {P}.rocm import boost

                    return ("outlines", boost(3))
                elif name == "none":
                    return None
                else:
                    raise ValueError(name)
            """)
        adapters = ["whisper", "qwen"]
        self.file("adapters/__init__.py", "".join(f"from {P}.adapters import {k}  # noqa: F401\n"
                                                   for k in ["base"] + adapters))
        self.file("adapters/base.py", "ADAPTERS = {}\n")
        for k in adapters:
            self.file(f"adapters/{k}.py", f'from {P}.adapters.base import ADAPTERS\n\nADAPTERS["{k}"] = "{k[0]}"\n')
        keys = {"backends": backends, "stores": stores, "grammars": ["xgrammar", "outlines", "llguidance", "none"],
                "adapters": adapters}
        used = {kind: sorted(rng.sample(ks, rng.randrange(1, len(ks)))) if declared else ks
                for kind, ks in keys.items()}
        if declared:
            self.prog.registries += [
                f'kind = "decorator"\npackage = "{P}.reg.register_backend"\nkeep = {used["backends"]!r}\n',
                f'kind = "call"\npackage = "{P}.reg.register_store"\nkeep = {used["stores"]!r}\n',
                f'kind = "if-chain"\npackage = "{P}.grammar.create"\nvariable = "name"\nkeep = {used["grammars"]!r}\n',
                f'kind = "imports"\npackage = "{P}.adapters"\nkeep = {["base"] + used["adapters"]!r}\n']
            self.prog.registries[-4:] = [r.replace("'", '"') for r in self.prog.registries[-4:]]
        self.body += [f"from {P} import attention  # noqa: F401", f"from {P}.reg import BACKENDS, get_store",
                      f"from {P}.grammar import create", f"import {P}.adapters  # noqa: F401",
                      f"from {P}.adapters.base import ADAPTERS",
                      f"out.append([BACKENDS[k](x) for k in {used['backends']!r}])",
                      f"out.append([get_store(k).kind for k in {used['stores']!r}])",
                      f"out.append([create(k) for k in {used['grammars']!r}])",
                      f"out.append(sorted((k, v) for k, v in ADAPTERS.items() if k in {used['adapters']!r}))"]
