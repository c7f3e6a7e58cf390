"""A package's submodule passed on whole (``inspect.getmembers(pkg.ops, inspect.ismodule)``, ``vars(pkg.ops)``) is
a module object used as a value: every name of it stays. Before (session 43), under ``public_api = "roots"`` +
``package_api = false`` the chain ``pkg.ops`` counted as a read of nothing: ``from . import add, mul`` in
``pkg/ops/__init__.py`` went with both modules and ``main()`` answered ``[]`` instead of ``['add', 'mul']``,
exit 0. A chain read through (``pkg.ops.add.run``) still keeps only what it reads."""

from __future__ import annotations

import pytest

from tests.soundness.soundkit import shrink_and_run_main

OPS = {"pkg/__init__.py": "", "pkg/ops/__init__.py": "from . import add, mul\n",
       "pkg/ops/add.py": "def run(a, b):\n    return a + b\n", "pkg/ops/mul.py": "def run(a, b):\n    return a * b\n"}


@pytest.mark.parametrize("mode", ["default", "roots"])
def test_a_submodule_passed_whole_keeps_its_names(tmp_path, mode):
    app = ("import inspect\nimport pkg.ops\n\n\ndef main():\n"
           "    return sorted(n for n, _ in inspect.getmembers(pkg.ops, inspect.ismodule))\n")
    fork, done = shrink_and_run_main(tmp_path, {**OPS, "pkg/app.py": app}, mode)
    assert done.stdout.strip() == "['add', 'mul']", done.stderr[-2000:]


def test_a_chain_read_through_keeps_only_what_it_reads(tmp_path):
    app = "import pkg.ops.add\n\n\ndef main():\n    return pkg.ops.add.run(2, 3)\n"
    fork, done = shrink_and_run_main(tmp_path, {**OPS, "pkg/app.py": app}, "roots")
    assert done.stdout.strip() == "5", done.stderr[-2000:]
    assert not (fork / "pkg/ops/mul.py").exists()
