"""A decorator registry's cut key takes its helper with it (``create_x_backend``), and a module that only the cut
keys reached imports that helper inside a function (sglang's ``dots_hybrid_backend`` importing
``create_dsa_backend`` from the attention registry): the module's deletion goes with the folded files, so the
folded batch passes the imports check and nothing is restored."""

from __future__ import annotations

from tests.mapping.registrykit import run_cli, write_project

from slimfork.api import shrink

FILES = {
    "pkg/__init__.py": "",
    "pkg/registry.py": """
        BACKENDS = {}


        def register_backend(name):
            def wrap(fn):
                BACKENDS[name] = fn
                return fn
            return wrap


        def create(name):
            if name not in BACKENDS:
                raise ValueError(f"unknown backend {name}")
            return BACKENDS[name]()
        """,
    "pkg/backends.py": """
        from pkg.registry import register_backend


        @register_backend("fast")
        def create_fast_backend():
            from pkg.impl_fast import Fast
            return Fast()


        @register_backend("x")
        def create_x_backend():
            from pkg.impl_x import X
            return X()


        @register_backend("hybrid")
        def create_hybrid_backend():
            from .hybrid import Hybrid
            return Hybrid()
        """,
    "pkg/impl_fast.py": "class Fast:\n    name = 'fast'\n",
    "pkg/impl_x.py": "class X:\n    name = 'x'\n",
    "pkg/hybrid.py": """
        from pkg.hybrid_parts import Parts


        class Hybrid:
            def __init__(self):
                from .backends import create_x_backend

                self.name = "hybrid of " + create_x_backend().name + Parts.suffix
        """,
    "pkg/hybrid_parts.py": "class Parts:\n    suffix = ''\n",
    "pkg/cli.py": """
        import sys

        import pkg.backends  # noqa: F401  (registers)
        from pkg.registry import create

        if __name__ == "__main__":
            print(create(sys.argv[1]).name)
        """,
}
SPEC = """
source = "."
packages = ["pkg"]
roots = ["pkg.cli"]

[[registries]]
kind = "decorator"
package = "pkg.registry.register_backend"
keep = ["fast"]
reason = "one backend is deployed"
"""


def test_a_module_importing_a_cut_helper_leaves_with_the_folded_files(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    assert run_cli(root, "hybrid").stdout == "hybrid of x\n"
    result = shrink(root / "slimfork.toml", tmp_path / "fork")
    fork = result.out
    backends = (fork / "pkg/backends.py").read_text()
    assert "create_x_backend" not in backends and "create_hybrid_backend" not in backends
    assert "def create_fast_backend" in backends
    for gone in ("pkg/hybrid.py", "pkg/impl_x.py", "pkg/hybrid_parts.py"):
        assert not (fork / gone).exists(), gone
    assert run_cli(fork, "fast").stdout == "fast\n"
    assert run_cli(fork, "x").stderr.splitlines()[-1] == "ValueError: unknown backend x"
    batches = {b.name: b for b in result.apply.batches}
    assert not result.apply.restored and not result.data["batches"]["batches"][0]["restored"]
    assert all(b.checks and all(c.ok for c in b.checks) for b in batches.values())
    folded = {e["path"]: e for e in batches["folded"].removed}
    assert folded["pkg/hybrid.py"]["action"] == "delete"
    assert "deleted with the folded files: it imports create_x_backend, which the rewrite of pkg/backends.py " \
           "removes" in folded["pkg/hybrid.py"]["reason"]
    # what the moved module imports is deleted later, as planned; nothing imports it earlier than planned
    assert "pkg/hybrid_parts.py" not in folded and "pkg/impl_x.py" not in folded


def test_a_module_only_pruned_code_imported_leaves_with_the_folded_files_too(tmp_path):
    """The same importer, kept until symbol pruning: ``pkg/util.py`` imports ``Hybrid`` at module level for a
    function nothing kept calls, so ``pkg/hybrid.py`` leaves in the symbol batch, the last one (as sglang's
    ``dots_hybrid_backend`` did, imported by the config of a model left out). It goes with the folded files
    instead, and ``util.py``'s pruning is applied there too (it stops importing it)."""
    files = dict(FILES)
    files["pkg/util.py"] = """
        from pkg.hybrid import Hybrid


        def describe():
            return "util"


        def make_hybrid():
            return Hybrid()


        def make_extra():
            return 2
        """
    files["pkg/other.py"] = """
        from pkg.util import make_extra


        def used():
            return 1


        def unused():
            return make_extra()
        """
    files["pkg/cli.py"] = FILES["pkg/cli.py"].replace("from pkg.registry import create",
                                                      "from pkg.registry import create\n        from pkg.util import describe\n        from pkg.other import used")
    root = write_project(tmp_path, files, SPEC + "\n[symbols]\npublic_api = \"roots\"\n")
    result = shrink(root / "slimfork.toml", tmp_path / "fork")
    assert not result.apply.restored
    batches = {b.name: b for b in result.apply.batches}
    assert all(b.checks and all(c.ok for c in b.checks) for b in batches.values())
    folded = {e["path"]: e for e in batches["folded"].removed}
    assert folded["pkg/hybrid.py"]["action"] == "delete"
    assert "symbol pruning applied early" in folded["pkg/util.py"]["reason"]
    # other.py imports make_extra, which util.py's early pruning removes: its pruning comes early too
    assert "it imports make_extra from pkg/util.py" in folded["pkg/other.py"]["reason"]
    fork = result.out
    assert not (fork / "pkg/hybrid.py").exists()
    assert "make_hybrid" not in (fork / "pkg/util.py").read_text()
    assert run_cli(fork, "fast").stdout == "fast\n"
