"""A module whose loading only computes values (an env flag read through a helper, a compiled regex built from an
f-string or a joined list, an `if __name__ == "__main__":` or `if False:` block) has no effect worth keeping: once nothing kept
uses what it defines, it leaves. `[symbols] pure_calls` declares the package's own helpers of that kind (globs: `envs.*.get`); a call
the spec does not declare, or one inside a comprehension, keeps its module (unknown means keep)."""

from __future__ import annotations

from tests.mapping.registrykit import run_cli, write_project

from slimfork.api import analyse, shrink

FILES = {
    "pkg/__init__.py": "",
    "pkg/flags.py": """
        import os


        def get_flag(name, default):
            return os.environ.get(name, default) == "1"


        class _Var:
            def __init__(self, name):
                self.name = name

            def get(self):
                return get_flag(self.name, "0")


        class _Envs:
            def __getattr__(self, name):
                return _Var(name)


        envs = _Envs()
        """,
    "pkg/registry.py": "SEEN = []\n\n\ndef register(name):\n    SEEN.append(name)\n    return name\n",
    "pkg/configs/__init__.py": """
        from pkg.configs.a import A
        from pkg.configs.b import B
        from pkg.configs.c import C
        from pkg.configs.d import D
        from pkg.configs.e import E
        """,
    "pkg/configs/a.py": """
        from pkg.flags import envs, get_flag

        _USE_X = get_flag("PKG_X", "0")
        _USE_Y = envs.PKG_Y.get()


        class A:
            pass
        """,
    "pkg/configs/b.py": """
        import re

        NAMES = ["tool", "arg"]
        _RE = re.compile(r"^<(" + "|".join(NAMES) + r")>$")
        _END = re.compile(rf"{re.escape('</')}(.*?)>")


        class B:
            pass
        """,
    "pkg/configs/c.py": """
        if False:  # what a fold leaves of an arm whose names code after it mentions: it never runs
            from pkg.registry import register

            register("c")


        class C:
            pass


        if __name__ == "__main__":
            print(C())
        """,
    "pkg/configs/d.py": """
        from pkg.registry import register

        NAMES = [register(n) for n in ("d1", "d2")]


        class D:
            pass
        """,
    "pkg/configs/e.py": "class E:\n    name = 'e'\n",
    "pkg/cli.py": """
        from pkg.configs import E
        from pkg.registry import SEEN

        if __name__ == "__main__":
            print(E.name, SEEN)
        """,
}
SPEC = """
source = "."
packages = ["pkg"]
roots = ["pkg.cli"]

[symbols]
public_api = "roots"
package_api = false
"""


def _removed(root):
    analysis = analyse(root / "slimfork.toml")
    return {r.path for r in analysis.plan.removals}, analysis.stages.symbols


def test_modules_that_only_compute_values_leave(tmp_path):
    removed, symbols = _removed(write_project(tmp_path, FILES, SPEC))
    assert {"pkg/configs/b.py", "pkg/configs/c.py"} <= removed
    assert "pkg/configs/a.py" not in removed  # get_flag is the package's own: it may do anything
    kept_by = symbols.reach.first_use  # the imports that load them stay (test_effectful_imports.py)
    assert "its value runs code at import" in kept_by[("pkg.configs", "A")]
    assert "pkg/configs/d.py" not in removed and "pkg.configs.d, whose loading has effects" in \
        kept_by[("pkg.configs", "D")]  # a registering comprehension


def test_declared_pure_calls_let_their_module_leave(tmp_path):
    root = write_project(tmp_path, FILES, SPEC + 'pure_calls = ["get_flag", "register", "envs.*.get", "_Envs"]\n')
    removed, symbols = _removed(root)
    assert "pkg/configs/a.py" in removed and "pkg.configs.a" not in symbols.protected
    assert "pkg/configs/d.py" not in removed  # in a comprehension: more than the declared calls runs
    result = shrink(root / "slimfork.toml", tmp_path / "fork")
    init = (result.out / "pkg/configs/__init__.py").read_text()
    assert "from pkg.configs.a import A" not in init and "from pkg.configs.e import E" in init
    assert run_cli(result.out, "x").stdout == run_cli(root, "x").stdout == "e ['d1', 'd2']\n"
    assert all(b.checks and all(c.ok for c in b.checks) and not b.restored for b in result.apply.batches)
