"""Session 47 (Triton-distributed ``e01988e1^``): a code generator writes Triton code in f-strings
(``f"...\\n    scoreboard.wait_deps(task_base_info)\\n..."``, ``f"profiler = Profiler.create(buf, 0, ...)"``) and an
AOT tool's default kernel is ``f"{str(Path(__file__))}:add_kernel"``; the three ``@triton.jit`` functions were
"no reference to it outside its own body" at 80. A name generated code calls, and the name after a path's colon,
count as named in a string; a name only a docstring shows stays unused."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

KERNELS = """
import triton
from pathlib import Path


class Scoreboard:
    @triton.jit
    def wait_deps(self, info):
        pass


@triton.jit
def add_kernel(x):
    pass


@triton.jit
def old_kernel(x):
    \"\"\"Call as old_kernel[grid](x).\"\"\"
    pass


def default_kernel() -> str:
    return f"{str(Path(__file__))}:add_kernel"
"""
GENERATOR = '''
def generate(n: int) -> str:
    return f"""
def megakernel(info):
    scoreboard = Scoreboard(n={n})
    scoreboard.wait_deps(info)
"""
'''
FILES = {
    "pyproject.toml": "[project]\nname = 'mk'\n",
    "mk/__init__.py": "from mk.kernels import default_kernel\nfrom mk.gen import generate\n",
    "mk/kernels.py": KERNELS,
    "mk/gen.py": GENERATOR,
    "tests/test_mk.py": "from mk import generate\n\n\ndef test_gen():\n    assert generate(1)\n",
}


def test_names_generated_code_calls_are_used(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    unused = {f.subject.rsplit("::", 1)[-1] for f in result.findings if f.kind == "unused-kernel"}
    assert "old_kernel" in unused, unused
    assert not {"add_kernel", "Scoreboard.wait_deps", "wait_deps"} & unused, unused
