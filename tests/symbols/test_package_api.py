"""`[symbols] package_api = false`: a package `__init__` is pruned like any module. Its imports of submodules'
names that no kept code uses go, and the submodules only they loaded leave the fork; a name kept code imports
from the package (a re-export), a name in a literal `__all__`, and an import whose module registers something
when loaded stay. The default (`true`) keeps everything an `__init__` binds, as the package's API."""

from __future__ import annotations

from tests.mapping.registrykit import run_cli, write_project

from slimfork.api import analyse, shrink

FILES = {
    "pkg/__init__.py": "",
    "pkg/quant/__init__.py": """
        from pkg.quant import plugin  # noqa: F401  (registers on import)
        from pkg.quant.base import REGISTERED, helper
        from pkg.quant.fp8 import Fp8Config
        from pkg.quant.npu import NpuConfig
        from pkg.quant.public import Exported

        __all__ = [
            "get",
            "Exported",  # the public class
            "NpuConfig",
        ]

        METHODS = {"fp8": Fp8Config}


        def get(name):
            if name not in METHODS:
                raise ValueError(f"unknown method {name}")
            return METHODS[name]
        """,
    "pkg/quant/base.py": "REGISTERED = []\n\n\ndef helper():\n    return 'helped'\n",
    "pkg/quant/plugin.py": "from pkg.quant.base import REGISTERED\n\nREGISTERED.append('plugin')\n",
    "pkg/quant/fp8.py": "class Fp8Config:\n    name = 'fp8'\n",
    "pkg/quant/npu.py": "import pkg.quant\nimport pkg.quant.npu_kernels\n\n\nclass NpuConfig:\n    name = 'npu'\n\n"
                        "    def methods(self):\n        return pkg.quant.METHODS\n",
    "pkg/quant/npu_kernels.py": "TABLE = [1]\n",
    "pkg/quant/public.py": "class Exported:\n    pass\n",
    "pkg/cli.py": """
        import sys

        from pkg.quant import *  # noqa: F403  (every name __all__ lists must exist)
        from pkg.quant import REGISTERED, get, helper

        if __name__ == "__main__":
            print(get(sys.argv[1]).name, helper(), REGISTERED)
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


def test_package_init_names_nothing_uses_leave(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    assert run_cli(root, "fp8").stdout == "fp8 helped ['plugin']\n"
    analysis = analyse(root / "slimfork.toml")
    removed = {r.path for r in analysis.plan.removals}
    assert {"pkg/quant/npu.py", "pkg/quant/npu_kernels.py", "pkg/quant/public.py"} <= removed
    assert not removed & {"pkg/quant/plugin.py", "pkg/quant/fp8.py", "pkg/quant/base.py"}

    result = shrink(root / "slimfork.toml", tmp_path / "fork")
    init = (result.out / "pkg/quant/__init__.py").read_text()
    assert "NpuConfig" not in init and "Exported" not in init and '__all__ = [\n    "get",\n]\n' in init
    assert "from pkg.quant import plugin" in init
    assert "from pkg.quant.base import REGISTERED, helper" in init
    assert run_cli(result.out, "fp8").stdout == run_cli(root, "fp8").stdout
    assert run_cli(result.out, "npu").stderr.splitlines()[-1] == "ValueError: unknown method npu"
    assert all(b.checks and all(c.ok for c in b.checks) and not b.restored for b in result.apply.batches)


def test_package_api_is_kept_by_default(tmp_path):
    root = write_project(tmp_path, FILES, SPEC.replace("package_api = false\n", ""))
    analysis = analyse(root / "slimfork.toml")
    assert "pkg/quant/npu.py" not in {r.path for r in analysis.plan.removals}
    assert "a package __init__" in analysis.stages.symbols.reach.keep_all["pkg.quant"]


def test_a_name_that_shadows_its_submodule_stays(tmp_path):
    """``from pkg.ops import align`` where ``pkg/ops/__init__.py`` binds ``align`` from ``pkg/ops/align.py``: the
    package's attribute is the function, not the submodule, so the ``__init__``'s import stays (without it the
    importer would get the module object)."""
    files = {
        "pkg/__init__.py": "",
        "pkg/ops/__init__.py": "from pkg.ops.align import align\nfrom pkg.ops.pad import pad\n\n"
                               "__all__ = [\"align\", \"pad\"]\n",
        "pkg/ops/align.py": "def align(n):\n    return n + n % 2\n",
        "pkg/ops/pad.py": "def pad(n):\n    return n\n",
        "pkg/cli.py": "import sys\n\nfrom pkg.ops import align\n\nprint(align(int(sys.argv[1])))\n",
    }
    root = write_project(tmp_path, files, SPEC)
    analysis = analyse(root / "slimfork.toml")
    assert "pkg/ops/pad.py" in {r.path for r in analysis.plan.removals}
    assert analysis.stages.symbols.failures == []
    result = shrink(root / "slimfork.toml", tmp_path / "fork")
    init = (result.out / "pkg/ops/__init__.py").read_text()
    assert init == "from pkg.ops.align import align\n\n__all__ = [\"align\"]\n"
    assert run_cli(result.out, "3").stdout == run_cli(root, "3").stdout == "4\n"
