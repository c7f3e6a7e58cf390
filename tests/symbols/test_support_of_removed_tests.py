"""deepdiff 9.1.0, sliced to ``DeepHash``: ``tests/test_command.py`` imports ``deepdiff.commands`` (the CLI, which no
root reaches) and ``deepdiff.helper`` (reached), so symbol pruning kept all of ``commands`` as the tests' support,
and through its imports ``DeepDiff`` and ``Delta``; then the tests stage removed that test file with the module.
A test file a pass removed whole brings no support to the next pass; and a module a test function imports inside
itself is what that test tests (it leaves with it), no support of other tests."""

from __future__ import annotations

from tests.mapping.registrykit import write_project

from slimfork.api import analyse

FILES = {
    "pyproject.toml": '[project]\nname = "pkg"\nversion = "1.0"\n',
    "pkg/__init__.py": "from .core import hash_it\nfrom .diff import Diff\n",
    "pkg/core.py": "FAST = True\n\n\ndef hash_it(x):\n    return hash(x)\n",
    "pkg/diff.py": "class Diff:\n    def __call__(self, a, b):\n        return a != b\n",
    "pkg/cli.py": "from pkg import Diff\n\n\ndef main(a, b):\n    return Diff()(a, b)\n",
    "pkg/ops.py": "from pkg import Diff\n\n\nclass Operator(Diff):\n    pass\n",
    "tests/test_cli.py": '''
        import pytest

        from pkg.cli import main
        from pkg.core import FAST


        @pytest.mark.skipif(not FAST, reason="slow")
        def test_main():
            assert main(1, 2)
        ''',
    "tests/test_core.py": '''
        from pkg.core import hash_it


        def test_hash():
            assert hash_it(1) == hash(1)


        def test_operator():
            from pkg.ops import Operator
            assert Operator()(1, 2)
        ''',
}
SPEC = """
source = "."
packages = ["pkg"]
roots = ["pkg:hash_it"]
tests = ["tests"]

[symbols]
public_api = "roots"
package_api = false
"""


def test_support_of_a_removed_test_file_keeps_nothing(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    analysis = analyse(root / "slimfork.toml", jobs=1)
    removed = analysis.plan.removed_paths()
    assert {"pkg/cli.py", "pkg/ops.py", "pkg/diff.py"} <= removed, removed
    tests = {(r["path"], r["test"]) for r in analysis.stages.data["tests"]["removed"]}
    assert ("tests/test_cli.py", None) in tests and ("tests/test_core.py", "test_operator") in tests
