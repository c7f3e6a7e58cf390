"""Scripts with test-like names outside test folders (mlx-vlm ``4e503d4a^``: ``scripts/test_apc_disk.py``, run as
``python scripts/test_apc_disk.py``, with a ``__main__`` block and no test function) were tests, so roots: never
reported, though the clean-up deleted eight of them. A file pytest would find no test in is a script (30); one
defining tests, or in a test folder, stays a test."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.audit.unused import script_named_like_test
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

MAIN = "\n\ndef main():\n    print(1)\n\n\nif __name__ == '__main__':\n    main()\n"
FILES = {
    "pyproject.toml": '[project]\nname = "mv"\nversion = "1"\n',
    "mv/__init__.py": "def f():\n    return 1\n",
    "mv/tests/test_f.py": "from mv import f\n\n\ndef test_f():\n    assert f()\n",
    "scripts/test_disk.py": "import mv" + MAIN,
    "scripts/test_cache.py": "import mv\n\n\ndef test_hash():\n    assert mv.f()\n" + MAIN,
    "scripts/test_case.py": "import unittest\n\n\nclass CacheCase(unittest.TestCase):\n    pass\n" + MAIN,
}


def test_a_test_named_script_that_defines_no_test_is_a_script(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-file"}
    assert found.get("scripts/test_disk.py") == 30
    assert "scripts/test_cache.py" not in found and "scripts/test_case.py" not in found


def test_what_stays_a_test(tmp_path):
    root = write_project(tmp_path, {**FILES, "mv/tests/test_main.py": "import mv" + MAIN,
                                    "scripts/conftest.py": "import mv" + MAIN}, "")
    assert script_named_like_test(root, "scripts/test_disk.py")
    assert not any(script_named_like_test(root, p) for p in ("scripts/test_cache.py", "scripts/test_case.py",
                                                               "mv/tests/test_main.py", "scripts/conftest.py"))


def test_a_test_named_file_running_code_at_its_top_level_is_a_script(tmp_path):
    """tutel ``1ed068d^``: ``test_baseline.py`` at the top, no test, no ``__main__`` block: it parses arguments and
    trains at its top level (launched with ``torch.distributed.launch``). A test module of only imports and
    constants stays a test."""
    root = write_project(tmp_path, {**FILES, "test_baseline.py": "import sys\nimport mv\n\nsteps = int(sys.argv[1])\n"
                                    "for i in range(steps):\n    print(mv.f())\n",
                                    "scripts/test_consts.py": "import mv\n\nSIZE = 3\n"}, "")
    assert script_named_like_test(root, "test_baseline.py")
    assert not script_named_like_test(root, "scripts/test_consts.py")
