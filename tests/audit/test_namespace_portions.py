"""A PEP 420 namespace package (jaraco.classes 3.4.0's ``jaraco/``, no ``__init__.py``) imports none of its
portions, so the audit's root ``jaraco`` reached nothing: the whole library was one finding, "folder jaraco/ ...
is not reached from the roots", and jaraco.context 6.1.2's test of it an orphaned test. Its regular packages are
roots; a module nothing imports in one is public API (40), as in a regular package, tests or none (doctest-only
jaraco.classes: the build's ``top_level.txt`` names the library)."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "setup.cfg": "[metadata]\nname = ns.things\n[options]\npackages = find_namespace:\n",
    "ns.things.egg-info/top_level.txt": "ns\n",
    "ns/things/__init__.py": "",
    "ns/things/meta.py": "def leaf():\n    return 1\n",
    "ns/things/core.py": "from ns.things import meta\n\nLEAF = meta.leaf()\n",
    "ns/run_me.py": "print('a loose script in the namespace folder')\n",
}


def _found(tmp_path, files):
    result = run_audit(open_tree(write_project(tmp_path, files, "")))[0]
    return {f.path: (f.kind, f.confidence, f.reason) for f in result.findings}


def test_a_namespace_packages_portions_are_roots(tmp_path):
    found = _found(tmp_path, FILES)
    assert "ns/" not in found and "ns/things/" not in found, found
    assert found["ns/things/core.py"][1] == 40 and "public module" in found["ns/things/core.py"][2], found
    assert all(confidence <= 40 for path, (_, confidence, _) in found.items() if path.startswith("ns/things")), found


def test_the_tests_of_a_portion_are_no_orphans(tmp_path):
    found = _found(tmp_path, {**FILES, "tests/test_core.py": "from ns.things import core\n\n\ndef test_x():\n"
                                                             "    assert core\n"})
    assert not any(kind == "orphaned-test" for kind, _, _ in found.values()), found
    assert "ns/" not in found and "ns/things/" not in found, found
    assert all(confidence <= 40 for path, (_, confidence, _) in found.items() if path.startswith("ns/things")), found
