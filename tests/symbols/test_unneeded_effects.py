"""`[symbols] unneeded_effects`: a module whose loading has effects (a registration) normally stays once kept code
loaded it, even when nothing kept uses what it defines. The spec may say those effects are not needed (sglang's
`configs/__init__` imports the config of every model, each registering itself with transformers): such a
module then leaves like any other, with its registration."""

from __future__ import annotations

import pytest
from tests.mapping.registrykit import run_cli, write_project

from slimfork.api import analyse, shrink
from slimfork.errors import SpecError

FILES = {
    "pkg/__init__.py": "",
    "pkg/registry.py": "CONFIGS = {}\n\n\ndef register(name, cls):\n    CONFIGS[name] = cls\n",
    "pkg/configs/__init__.py": """
        from pkg.configs.llama import LlamaConfig
        from pkg.configs.vision import VisionConfig

        __all__ = ["LlamaConfig", "VisionConfig"]
        """,
    "pkg/configs/llama.py": "class LlamaConfig:\n    name = 'llama'\n",
    "pkg/configs/vision.py": """
        from pkg.registry import register


        class VisionConfig:
            name = 'vision'


        register("vision", VisionConfig)
        """,
    "pkg/cli.py": """
        from pkg.configs import LlamaConfig
        from pkg.registry import CONFIGS

        if __name__ == "__main__":
            print(LlamaConfig.name, sorted(CONFIGS))
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


def test_a_module_with_effects_stays_by_default(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    analysis = analyse(root / "slimfork.toml")
    assert "pkg/configs/vision.py" not in {r.path for r in analysis.plan.removals}
    assert analysis.stages.symbols.reach.first_use[("pkg.configs", "VisionConfig")] == \
        "loads pkg.configs.vision, whose loading has effects (line 8: register('vision', VisionConfig))"


def test_declared_unneeded_effects_leave_with_their_module(tmp_path):
    root = write_project(tmp_path, FILES, SPEC + 'unneeded_effects = ["pkg.configs.*"]\n')
    analysis = analyse(root / "slimfork.toml")
    assert "pkg/configs/vision.py" in {r.path for r in analysis.plan.removals}
    result = shrink(root / "slimfork.toml", tmp_path / "fork")
    init = (result.out / "pkg/configs/__init__.py").read_text()
    assert "VisionConfig" not in init and "LlamaConfig" in init
    assert run_cli(result.out, "x").stdout == "llama []\n"  # the registration went with the module
    assert run_cli(root, "x").stdout == "llama ['vision']\n"
    assert all(b.checks and all(c.ok for c in b.checks) and not b.restored for b in result.apply.batches)


def test_a_pattern_that_is_not_a_module_name_is_a_spec_error(tmp_path):
    root = write_project(tmp_path, FILES, SPEC + 'unneeded_effects = ["pkg/configs"]\n')
    with pytest.raises(SpecError, match="not a dotted module name") as error:
        analyse(root / "slimfork.toml")
    assert error.value.key == "symbols.unneeded_effects[0]"


HOOKED = {
    "pkg/__init__.py": "",
    "pkg/base.py": "REGISTRY = {}\n\n\nclass Base:\n    def __init_subclass__(cls):\n"
                   "        REGISTRY[cls.__name__] = cls\n",
    "pkg/providers/__init__.py": "from pkg.providers.person import Person\nfrom pkg.providers.food import Food\n",
    "pkg/providers/person.py": "from pkg.base import Base\n\n\nclass Person(Base):\n    pass\n",
    "pkg/providers/food.py": "from pkg.base import Base\n\n\nclass Food(Base):\n    pass\n",
    "tests/__init__.py": "",
    "tests/test_providers.py": "from pkg.providers import Food, Person\n\n\ndef test_person():\n"
                               "    assert Person()\n\n\ndef test_food():\n    assert Food()\n",
}


def test_declared_unneeded_effects_free_the_classes_a_subclass_hook_registers(tmp_path):
    """mimesis 22.2.0: every provider registers itself through ``BaseProvider.__init_subclass__``, and a test's
    ``from pkg.providers import Food`` kept the re-export of the registered (so kept) class, and with it its
    module, though the spec said the providers' registrations are not needed."""
    spec = 'source = "."\nroots = ["pkg.providers.person:Person"]\ntests = ["tests"]\n\n[symbols]\n' \
           'public_api = "roots"\npackage_api = false\n'
    kept = analyse(write_project(tmp_path / "a", HOOKED, spec) / "slimfork.toml")
    assert "pkg/providers/food.py" not in {r.path for r in kept.plan.removals}
    freed = analyse(write_project(tmp_path / "b", HOOKED, spec + 'unneeded_effects = ["pkg.providers.*"]\n')
                    / "slimfork.toml")
    assert "pkg/providers/food.py" in {r.path for r in freed.plan.removals}
