"""Import-loop registries (``kind = "mapping"`` on a tuple, list or set of names): ``for name in GROUPS:
import_module(f"{__name__}.{name}")`` loads every listed submodule; the names the spec does not keep are deleted
from the literal, so their modules (and what only they imported) leave the fork, and a removed name fails like a
name the package never had (sglang's ``sglang.kernels.ops._GROUPS`` has this shape)."""

from __future__ import annotations

import textwrap

import pytest

from tests.mapping.registrykit import run_cli, write_project

from slimfork.api import shrink
from slimfork.errors import SpecError

FILES = {
    "pkg/__init__.py": "",
    "pkg/ops/__init__.py": """
        from importlib import import_module

        _GROUPS = {literal}

        for _group in _GROUPS:
            import_module(f"{{__name__}}.{{_group}}")

        __all__ = list(_GROUPS)
        """,
    "pkg/ops/norm.py": "NAME = 'norm'\n",
    "pkg/ops/gemm.py": "NAME = 'gemm'\n",
    "pkg/ops/diffusion.py": "from pkg.ops import diffusion_helpers\n\nNAME = diffusion_helpers.NAME\n",
    "pkg/ops/diffusion_helpers.py": "NAME = 'diffusion'\n",
    "pkg/cli.py": """
        import sys

        import pkg.ops

        if __name__ == "__main__":
            print(getattr(pkg.ops, sys.argv[1]).NAME if sys.argv[1] in pkg.ops.__all__ else "unknown group")
        """,
}
TUPLE = '(\n    "norm",\n    "diffusion",  # image models\n    "gemm",\n)'
SPEC = """
source = "."
packages = ["pkg"]
roots = ["pkg.cli"]

[[registries]]
kind = "mapping"
package = "pkg.ops"
variable = "_GROUPS"
keep = {keep}
reason = "text models only"
"""


def _project(tmp_path, literal=TUPLE, keep='["norm", "gemm"]'):
    files = dict(FILES)
    files["pkg/ops/__init__.py"] = textwrap.dedent(FILES["pkg/ops/__init__.py"]).format(literal=literal)
    return write_project(tmp_path, files, SPEC.format(keep=keep))


@pytest.mark.parametrize("literal", [TUPLE, '["norm", "diffusion", "gemm"]', '{"norm", "diffusion", "gemm"}'])
def test_unkept_names_leave_the_loop_and_their_modules_the_fork(tmp_path, literal):
    root = _project(tmp_path, literal)
    assert run_cli(root, "diffusion").stdout == "diffusion\n"
    result = shrink(root / "slimfork.toml", tmp_path / "fork")
    fork = result.out
    init = (fork / "pkg/ops/__init__.py").read_text()
    assert '"norm"' in init and '"gemm"' in init and "diffusion" not in init
    if literal == TUPLE:
        assert '_GROUPS = (\n    "norm",\n    "gemm",\n)' in init  # one entry per line, as written
    assert not (fork / "pkg/ops/diffusion.py").exists() and not (fork / "pkg/ops/diffusion_helpers.py").exists()
    assert run_cli(fork, "norm").stdout == "norm\n" and run_cli(fork, "gemm").stdout == "gemm\n"
    assert run_cli(fork, "diffusion").stdout == run_cli(root, "nope").stdout == "unknown group\n"
    (entry,) = result.data["mapping_registries"]
    assert entry["kept"] == ["norm", "gemm"] and entry["removed"] == ["diffusion"]
    assert all(batch.checks and all(c.ok for c in batch.checks) for batch in result.apply.batches)


def test_one_kept_name_stays_a_tuple(tmp_path):
    root = _project(tmp_path, '("norm", "diffusion")', '["norm"]')
    fork = shrink(root / "slimfork.toml", tmp_path / "fork").out
    assert '_GROUPS = ("norm",)' in (fork / "pkg/ops/__init__.py").read_text()
    assert run_cli(fork, "norm").stdout == "norm\n"


def test_a_name_that_is_not_a_string_is_a_spec_error(tmp_path):
    root = _project(tmp_path, '("norm", OTHER)')
    with pytest.raises(SpecError) as err:
        shrink(root / "slimfork.toml", tmp_path / "fork", dry_run=True)
    assert err.value.key == "registries[0].variable" and "not 'string'" in str(err.value)
