"""`[symbols] public_methods = true`: a public method no kept code names (an attribute, a name, a word of a
string) leaves like an unused private one, and the modules only it imported leave the fork (sglang's
`ModelRunner.init_lora_manager` once LoRA is off). Kept whatever the names say: the methods of a class `keep`
names (an API called from outside the fork), the methods a library base calls (torch.nn's `forward`,
`extra_repr`), a method a computed lookup may build (listed as uncertain). Off by default."""

from __future__ import annotations

from tests.mapping.registrykit import run_cli, write_project

from slimfork.api import analyse, shrink
from slimfork.prune.methods import library_may_call
from slimfork.prune.report import symbols_markdown

FILES = {
    "pkg/__init__.py": "",
    "pkg/lora.py": "import pkg.lora_kernels\n\n\nclass LoraManager:\n    rank = 8\n",
    "pkg/lora_kernels.py": "TABLE = [1]\n",
    "pkg/runner.py": """
        from torch import nn

        from pkg.lora import LoraManager


        class Runner:
            def __init__(self):
                self.manager = None

            def init_manager(self):
                self.manager = LoraManager()

            def step(self, x):
                return self.forward_once(x) + self.on("start")

            def forward_once(self, x):
                return x + 1

            def on(self, event):
                return getattr(self, f"on_{event}")()

            def on_start(self):
                return 10

            def spelled(self):
                return 0


        class Api:
            def exported(self):
                return 1


        class Layer(nn.Module):
            def forward(self, x):
                return x

            def extra_repr(self):
                return "layer"

            def public_helper(self):
                return 2


        NAMES = ["spelled"]
        """,
    "torch/__init__.py": "",
    "torch/nn.py": "class Module:\n    pass\n",
    "pkg/cli.py": """
        import sys

        from pkg.runner import NAMES, Api, Layer, Runner

        if __name__ == "__main__":
            print(Runner().step(int(sys.argv[1])), Api, Layer, NAMES)
        """,
}
SPEC = """
source = "."
packages = ["pkg"]
roots = ["pkg.cli"]

[symbols]
public_api = "roots"
public_methods = true
keep = ["pkg.runner:Api"]
"""


def test_public_methods_no_kept_code_names_leave(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    analysis = analyse(root / "slimfork.toml")
    pruned = {n for p in analysis.stages.symbols.pruned for n in p.names}
    assert {"Runner.init_manager", "Layer.public_helper"} <= pruned
    assert not pruned & {"Runner.step", "Runner.forward_once", "Runner.on", "Runner.on_start", "Runner.spelled",
                         "Api.exported", "Layer.forward", "Layer.extra_repr"}
    assert {"pkg/lora.py", "pkg/lora_kernels.py"} <= {r.path for r in analysis.plan.removals}
    assert any("on_start" in u.why and "'on_'" in u.why for u in analysis.plan.uncertain)
    reasons = {p.names[0]: p.reason for p in analysis.stages.symbols.pruned if p.kind == "method"}
    assert reasons["Runner.init_manager"] == "a public method no kept code names"
    assert ", 2 public methods (4 lines)" in symbols_markdown(analysis.stages.symbols)

    result = shrink(root / "slimfork.toml", tmp_path / "fork")
    runner = (result.out / "pkg/runner.py").read_text()
    assert "init_manager" not in runner and "LoraManager" not in runner and "def exported" in runner
    assert run_cli(result.out, "1").stdout == run_cli(root, "1").stdout
    assert all(b.checks and all(c.ok for c in b.checks) and not b.restored for b in result.apply.batches)


def test_public_methods_stay_by_default(tmp_path):
    root = write_project(tmp_path, FILES, SPEC.replace("public_methods = true\n", ""))
    analysis = analyse(root / "slimfork.toml")
    assert not any(p.kind == "method" for p in analysis.stages.symbols.pruned)
    assert "pkg/lora.py" not in {r.path for r in analysis.plan.removals}


def test_a_library_base_may_call_its_own_public_names_only():
    assert library_may_call("forward", frozenset({"torch.nn.Module"}))
    assert not library_may_call("init_manager", frozenset({"torch.nn.Module"}))
    assert library_may_call("anything", frozenset({"thirdparty.Tokenizer"}))
    assert not library_may_call("anything", frozenset({"builtins.object"}))
