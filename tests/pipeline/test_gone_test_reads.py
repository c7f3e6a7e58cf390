"""What a test file reads at import time is a root of symbol pruning (its module level must import); but a test
file the fork removes anyway reads nothing in the fork. PyYAML's ``test_yaml_ext.py`` goes (a helper it imports
lost a name) and read ``yaml.dump`` at import, which kept the whole dumper (session 36's depth round). The stages
now run once more without the reads of the test files the last pass removed; fewer roots remove at least as much,
and a pass where such a file came back (its reads were needed) is not taken."""

from __future__ import annotations

from slimfork.api import analyse
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "pkg"\nversion = "1.0"\n',
    "src/pkg/__init__.py": "",
    "src/pkg/core.py": "from pkg import extra\n\n\ndef load():\n    return extra.load()\n",
    "src/pkg/extra.py": "from pkg import dumper\n\n\ndef load():\n    return 1\n\n\ndef dump():\n"
                        "    return dumper.Dumper()\n",
    "src/pkg/dumper.py": "class Dumper:\n    pass\n",
    "src/pkg/ext.py": "def speed():\n    return 2\n",
    "tests/test_core.py": "from pkg import core\n\n\ndef test_load():\n    assert core.load() == 1\n",
    "tests/test_ext.py": "from pkg import ext, extra\n\nold_dump = extra.dump\n\n\ndef test_speed():\n"
                         "    assert ext.speed() == 2\n",
}

SPEC = 'source = "."\npackages = ["pkg"]\nroots = ["pkg.core"]\n\n[symbols]\npublic_api = "roots"\n' \
       'package_api = false\n'


def _result(tmp_path, files):
    analysis = analyse(write_project(tmp_path, files, SPEC) / "slimfork.toml")
    stages = analysis.stages
    gone_tests = {r.path for r in stages.test_removals if r.symbol is None}
    pruned = {(p.module, n) for p in stages.symbols.pruned for n in p.names}
    return analysis.plan.removed_paths(), gone_tests, pruned


def test_the_reads_of_a_removed_test_file_keep_nothing(tmp_path):
    removed, gone_tests, pruned = _result(tmp_path, FILES)
    assert "tests/test_ext.py" in gone_tests and "tests/test_core.py" not in gone_tests
    assert ("pkg.extra", "dump") in pruned
    assert "src/pkg/dumper.py" in removed


def test_the_reads_of_a_kept_test_file_still_keep_what_they_read(tmp_path):
    files = dict(FILES)
    files["tests/test_ext.py"] = "from pkg import extra\n\nold_dump = extra.dump\n\n\ndef test_load():\n" \
                                 "    assert extra.load() == 1\n"
    removed, gone_tests, pruned = _result(tmp_path, files)
    assert "tests/test_ext.py" not in gone_tests
    assert ("pkg.extra", "dump") not in pruned and "src/pkg/dumper.py" not in removed
