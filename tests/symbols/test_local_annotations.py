"""The annotation of a function-local assignment is never evaluated (PEP 526): a class named only there is not
used; when the prune removes its import, the annotation goes with it and the statement stays an assignment. A
class-level or parameter annotation is evaluated, so what it names stays."""

from __future__ import annotations

import ast

from tests.mapping.registrykit import run_cli, write_project

from slimfork.api import analyse, shrink
from slimfork.rewrite.annotations import drop_local_annotations

FILES = {
    "pkg/__init__.py": "",
    "pkg/lora.py": "class LoraManager:\n    pass\n",
    "pkg/config.py": "class Config:\n    size = 1\n\n\nclass Options:\n    pass\n",
    "pkg/runner.py": """
        from dataclasses import dataclass
        from typing import Optional

        from pkg.config import Config, Options
        from pkg.lora import LoraManager


        @dataclass
        class Settings:
            config: Config


        class Runner:
            def __init__(self, options: Options = None):
                # the adapters, when LoRA is on
                self.manager: Optional[LoraManager] = None
                count: "LoraManager" = 0
                self.count = count

            def step(self, n):
                return n + 1
        """,
    "pkg/cli.py": """
        import sys

        from pkg.config import Config
        from pkg.runner import Runner, Settings

        if __name__ == "__main__":
            print(Runner().step(int(sys.argv[1])), Settings(Config()).config.size)
        """,
}
SPEC = """
source = "."
packages = ["pkg"]
roots = ["pkg.cli"]

[symbols]
public_api = "roots"
"""


def test_a_class_named_only_by_local_annotations_leaves_with_them(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    analysis = analyse(root / "slimfork.toml")
    assert "pkg/lora.py" in {r.path for r in analysis.plan.removals}
    assert "pkg/config.py" not in {r.path for r in analysis.plan.removals}

    result = shrink(root / "slimfork.toml", tmp_path / "fork")
    runner = (result.out / "pkg/runner.py").read_text()
    assert "LoraManager" not in runner and not (result.out / "pkg/lora.py").exists()
    assert "        # the adapters, when LoRA is on\n        self.manager = None\n" in runner
    assert "        count = 0\n" in runner
    assert "config: Config" in runner and "options: Options = None" in runner  # evaluated annotations stay
    assert run_cli(result.out, "1").stdout == run_cli(root, "1").stdout == "2 1\n"
    assert all(b.checks and all(c.ok for c in b.checks) and not b.restored for b in result.apply.batches)


def test_only_function_local_annotations_with_a_value_are_dropped():
    src = (b"def f(self):\n    self.x: Optional[T] = None\n    (y): T = 1\n    z: (T) = (1 +\n        2)\n"
           b"    w: U = 3\n    q: T\n\n\nclass C:\n    a: T = 1\n")
    new, changed = drop_local_annotations(src, {"T"})
    assert changed == 3
    assert new == (b"def f(self):\n    self.x = None\n    (y) = 1\n    z = (1 +\n        2)\n"
                   b"    w: U = 3\n    q: T\n\n\nclass C:\n    a: T = 1\n")
    ast.parse(new)
