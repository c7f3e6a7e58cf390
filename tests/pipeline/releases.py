"""Two releases of a tiny package, as an upstream moves between versions: v2 renames a module, a root, a registry
module, a dict key, a platform predicate, a class and a folder, and stops importing a helper."""

from __future__ import annotations

import textwrap
from pathlib import Path

COMMON = {
    "src/pkg/__init__.py": "",
    "src/pkg/models/__init__.py": "",
    "src/pkg/models/llama.py": "NAME = 'llama'\n",
    "src/pkg/models/registry.py": """
        import importlib
        import pkgutil

        import pkg.models as models

        MODELS = [importlib.import_module(f"pkg.models.{m.name}") for m in pkgutil.iter_modules(models.__path__)]
        """,
    "src/pkg/rocm_ops.py": "OPS = 1\n",
}

V1 = {
    **COMMON,
    "src/pkg/models/deepseek_v3.py": "NAME = 'deepseek_v3'\n",
    "src/pkg/plat.py": "import os\n\n\ndef is_rocm():\n    return os.environ.get('DEV') == 'rocm'\n",
    "src/pkg/engine.py": "class CudaGraphRunner:\n    pass\n",
    "src/pkg/backends.py": "BACKENDS = {'triton': 'pkg.models.llama', 'fa3': 'pkg.models.llama', 'ascend': 'x'}\n",
    "src/pkg/helpers.py": "def helper():\n    return 1\n",
    "src/pkg/tools.py": "print('tools')\n",
    "src/pkg/legacy/__init__.py": "",
    "src/pkg/cli.py": """
        from pkg import helpers
        from pkg.backends import BACKENDS
        from pkg.engine import CudaGraphRunner
        from pkg.models import registry
        from pkg.plat import is_rocm

        if is_rocm():
            import pkg.rocm_ops


        def main(x=None):
            if isinstance(x, CudaGraphRunner):
                return 0
            return helpers.helper(), BACKENDS, registry
        """,
}

V2 = {
    **COMMON,
    "src/pkg/models/deepseek_v32.py": "NAME = 'deepseek_v32'\n",
    "src/pkg/plat.py": "import os\n\n\ndef is_hip_rocm():\n    return os.environ.get('DEV') == 'rocm'\n",
    "src/pkg/engine.py": "class CudaGraphRunnerV2:\n    pass\n",
    "src/pkg/backends.py": "BACKENDS = {'triton': 'pkg.models.llama', 'fa4': 'pkg.models.llama', 'ascend': 'x'}\n",
    "src/pkg/helpers.py": "def helper():\n    return 1\n",
    "src/pkg/toolbox.py": "print('tools')\n",
    "src/pkg/old_api/__init__.py": "",
    "src/pkg/cli.py": """
        from pkg.backends import BACKENDS
        from pkg.engine import CudaGraphRunnerV2
        from pkg.models import registry
        from pkg.plat import is_hip_rocm

        if is_hip_rocm():
            import pkg.rocm_ops


        def main(x=None):
            if isinstance(x, CudaGraphRunnerV2):
                return 0
            return BACKENDS, registry
        """,
}

# The profile written for v1.
PROFILE = """
source = "{source}"
roots = ["pkg.cli", "pkg.tools"]
drop = ["src/pkg/legacy"]
{extra}
[[registries]]
package = "pkg.models"
keep = ["llama", "deepseek_v3", "registry"]

[[registries]]
kind = "dict"
package = "pkg.backends.BACKENDS"
keep = ["triton", "fa3"]

[facts]
functions = {{ "pkg.plat.is_rocm" = false }}
never_instances = ["pkg.engine.CudaGraphRunner"]

[symbols]
prune = false
keep = ["pkg.engine:CudaGraphRunner"]
unneeded_effects = ["pkg.plat"]
"""


def write_release(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(textwrap.dedent(text).lstrip())
    return root


def write_spec(tmp_path: Path, name: str, source: str, profile: str = PROFILE, extra: str = "") -> Path:
    spec = tmp_path / f"{name}.toml"
    spec.write_text(profile.format(source=source, extra=extra))
    return spec


def releases(tmp_path: Path) -> tuple[Path, Path]:
    """Both releases under tmp_path, and the v1 profile pointed at each: (spec on v1, spec on v2)."""
    write_release(tmp_path / "v1", V1)
    write_release(tmp_path / "v2", V2)
    return write_spec(tmp_path, "on_v1", "v1"), write_spec(tmp_path, "on_v2", "v2")
