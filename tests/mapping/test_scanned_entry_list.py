"""A list registry in a module that a directory scan finds (sglang's ``EntryClass = [DeepseekV2ForCausalLM,
DeepseekV3ForCausalLM, DeepseekV32ForCausalLM]`` in ``srt/models/deepseek_v2.py``, read by ``ModelRegistry`` with
``getattr(module, "EntryClass")``): the cut list stays although no code names it, the cut entry and what only it
used leave, and the kept entry is still registered in the fork."""

from __future__ import annotations

from tests.mapping.registrykit import run_cli, write_project

from slimfork.api import shrink

FILES = {
    "pkg/__init__.py": "",
    "pkg/models/__init__.py": "",
    "pkg/registry.py": """
        import importlib
        import pkgutil

        import pkg.models


        def load():
            found = {}
            for _, name, _ in pkgutil.iter_modules(pkg.models.__path__, "pkg.models."):
                module = importlib.import_module(name)
                for cls in getattr(module, "EntryClass", []):
                    found[cls.__name__] = cls
            return found
        """,
    "pkg/models/alpha.py": """
        from pkg.common import legacy_weights, shared


        def _only_old():
            return legacy_weights()


        def describe():
            return "alpha models"


        class Alpha:
            size = shared()


        class AlphaOld:
            size = _only_old()


        EntryClass = [Alpha, AlphaOld]
        """,
    "pkg/common.py": "def shared():\n    return 1\n\n\ndef legacy_weights():\n    return 2\n",
    "pkg/models/beta.py": "class Beta:\n    pass\n\n\nEntryClass = [Beta]\n",
    "pkg/cli.py": """
        import sys

        from pkg.registry import load

        if __name__ == "__main__":
            print(sys.argv[1] in load())
        """,
}
SPEC = """
source = "."
packages = ["pkg"]
roots = ["pkg.cli"]

[symbols]
public_api = "roots"

[[registries]]
package = "pkg.models"
keep = ["alpha"]
reason = "the alpha family only"

[[registries]]
kind = "dict"
package = "pkg.models.alpha.EntryClass"
keep = ["Alpha"]
reason = "the old alpha model is not deployed"

[[checks.command]]
name = "Alpha registered"
argv = ["python", "-m", "pkg.cli", "Alpha"]
match = "stdout"
"""


def test_a_scanned_modules_cut_entry_list_stays_and_its_kept_entry_is_registered(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    assert run_cli(root, "AlphaOld").stdout == "True\n"
    result = shrink(root / "slimfork.toml", tmp_path / "fork")
    fork = result.out
    alpha = (fork / "pkg/models/alpha.py").read_text()
    assert "EntryClass = [Alpha]\n" in alpha
    assert "class AlphaOld" not in alpha and "_only_old" not in alpha  # the cut entry and its private helper
    assert "def describe" in alpha  # a public name of a module looked up at run time stays
    assert "legacy_weights" not in (fork / "pkg/common.py").read_text()
    assert not (fork / "pkg/models/beta.py").exists()
    assert run_cli(fork, "Alpha").stdout == "True\n"
    assert run_cli(fork, "AlphaOld").stdout == "False\n"  # as for a model the registry never had
    assert not result.apply.restored
