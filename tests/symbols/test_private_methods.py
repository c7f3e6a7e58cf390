"""Unused private methods leave with symbol pruning: a dict registry built in a method maps keys to bound
methods (sglang's DraftBackendFactory); once the unlisted keys are cut, their `_create_*` methods are named
nowhere, so they go, and the backends only they imported leave the fork. A method a computed lookup may reach, a
hook a library calls (torch.nn's, or any of a class deriving from a library class), one named in a string and one
with a registering decorator stay."""

from __future__ import annotations

from tests.mapping.registrykit import run_cli, write_project

from slimfork.api import analyse, shrink

FILES = {
    "pkg/__init__.py": "",
    "pkg/backends/__init__.py": "",
    "pkg/backends/fast.py": "class Fast:\n    name = 'fast'\n",
    "pkg/backends/amd.py": "import pkg.backends.amd_kernels\n\n\nclass Amd:\n    name = 'amd'\n",
    "pkg/backends/amd_kernels.py": "TABLE = [1]\n",
    "pkg/backends/npu.py": "class Npu:\n    name = 'npu'\n",
    "pkg/plugins.py": "HANDLERS = {}\n\n\ndef handler(fn):\n    HANDLERS[fn.__name__] = fn\n    return fn\n",
    "pkg/factory.py": """
        import thirdparty
        from torch import nn

        from pkg.plugins import handler


        class Factory:
            \"\"\"Makes backends.\"\"\"

            def create(self, kind):
                backends = {
                    "fast": self._create_fast,
                    "amd": self._create_amd,
                    "npu": self._create_npu,
                }
                if kind not in backends:
                    raise ValueError(f"unknown backend {kind}")
                return backends[kind]()

            def _create_fast(self):
                from pkg.backends.fast import Fast

                return Fast()

            def _create_amd(self):
                from pkg.backends.amd import Amd

                return Amd()

            @staticmethod
            def _create_npu():
                from pkg.backends.npu import Npu

                return Npu()

            def _unused_helper(self):
                return 1

            @handler
            def _registered(self):
                return 2

            def _named_in_a_string(self):
                return 3

            def _on_start(self):
                return 4

            def dispatch(self, event):
                return getattr(self, f"_on_{event}")()


        class Module(nn.Module):
            def _load_from_state_dict(self, state):  # a hook torch.nn calls
                return state

            def _never_called(self):
                return 5


        class Tokenizer(thirdparty.Tokenizer):
            def _tokenize(self, text):  # the library's base class calls it
                return text.split()


        class OnlyUnused:
            def _a(self):
                return 1

            def _b(self):
                return 2


        SPELLED = "pkg.factory.Factory._named_in_a_string"
        """,
    "torch/__init__.py": "",
    "torch/nn.py": "class Module:\n    pass\n",
    "thirdparty.py": "class Tokenizer:\n    def tokenize(self, text):\n        return self._tokenize(text)\n",
    "pkg/cli.py": """
        import sys

        from pkg.factory import SPELLED, Factory, Module, OnlyUnused, Tokenizer

        if __name__ == "__main__":
            print(Factory().create(sys.argv[1]).name, Factory().dispatch("start"), SPELLED, Module, OnlyUnused,
                  Tokenizer().tokenize("a b"))
        """,
}
SPEC = """
source = "."
packages = ["pkg"]
roots = ["pkg.cli"]

[symbols]

[[registries]]
kind = "dict"
package = "pkg.factory.Factory.create"
keep = ["fast"]
reason = "an NVIDIA deployment"
"""


def test_cut_registry_methods_leave_with_what_only_they_imported(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    assert run_cli(root, "amd").stdout.startswith("amd 4 ")
    analysis = analyse(root / "slimfork.toml")
    pruned = {n for p in analysis.stages.symbols.pruned for n in p.names}
    assert {"Factory._create_amd", "Factory._create_npu", "Factory._unused_helper", "Module._never_called"} <= pruned
    assert not pruned & {"Factory._create_fast", "Factory._registered", "Factory._named_in_a_string",
                         "Factory._on_start", "Module._load_from_state_dict", "Tokenizer._tokenize"}
    assert len(pruned & {"OnlyUnused._a", "OnlyUnused._b"}) == 1  # a class body keeps one statement
    removed = {r.path for r in analysis.plan.removals}
    assert {"pkg/backends/amd.py", "pkg/backends/amd_kernels.py", "pkg/backends/npu.py"} <= removed
    assert "pkg/backends/fast.py" not in removed
    assert any("_on_start" in u.why and "'_on_'" in u.why for u in analysis.plan.uncertain)

    result = shrink(root / "slimfork.toml", tmp_path / "fork")
    fork = result.out
    factory = (fork / "pkg/factory.py").read_text()
    assert "_create_amd" not in factory and "def _create_fast" in factory and '"fast": self._create_fast' in factory
    assert "    def _registered(self):" in factory and "def _load_from_state_dict" in factory
    assert "def _tokenize" in factory and "_never_called" not in factory
    assert "\n\n\n    def" not in factory  # blank lines do not add up where methods went
    assert "class OnlyUnused:\n    def _" in factory  # nor stay under the header when the first method went
    assert run_cli(fork, "fast").stdout == run_cli(root, "fast").stdout
    assert run_cli(fork, "amd").stderr.splitlines()[-1] == "ValueError: unknown backend amd"
    assert all(b.checks and all(c.ok for c in b.checks) and not b.restored for b in result.apply.batches)


def test_methods_false_keeps_them(tmp_path):
    root = write_project(tmp_path, FILES, SPEC.replace("[symbols]\n", "[symbols]\nmethods = false\n"))
    pruned = {n for p in analyse(root / "slimfork.toml").stages.symbols.pruned for n in p.names}
    assert not any("." in n for n in pruned)
