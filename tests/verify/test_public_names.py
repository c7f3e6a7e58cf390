"""The import-modules check reads the public names the plan promises off every module it imports again: a name
the original's module gives at run time (``getattr``: a module ``__getattr__``'s lazy names count) and the fork's
does not fails the check, on the module's file. Names the original lacks too, and modules that fail in the
original, are not counted. (Earlier versions deleted a public function of a kept module and exited 0.)"""

from __future__ import annotations

from pathlib import Path

from slimfork.verify.checks.import_modules import ImportModulesCheck
from slimfork.verify.env import current_env
from slimfork.verify.spec import ImportModulesSpec
from slimfork.verify.tree import TreeLayout

LAYOUT = TreeLayout("", ("pkg",))
FILES = {
    "pkg/__init__.py": "",
    "pkg/mod.py": "def f():\n    return 1\n\n\ndef g():\n    return 2\n",
    "pkg/lazy.py": "def __getattr__(name):\n    if name == 'later':\n        return 3\n    raise AttributeError(name)\n",
    "pkg/broken.py": "import not_installed_dependency_xyz\n\nX = 1\n",
    "pkg/cond.py": "import sys\nif sys.version_info < (3,):\n    OLD = 1\nNEW = 2\n",
}
PROMISED = {"pkg.mod": ("f", "g"), "pkg.lazy": ("later",), "pkg.broken": ("X",), "pkg.cond": ("NEW", "OLD")}


def _trees(tmp_path: Path) -> tuple[Path, Path]:
    for tree in ("original", "fork"):
        for rel, text in FILES.items():
            (tmp_path / tree / rel).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / tree / rel).write_text(text)
    return tmp_path / "original", tmp_path / "fork"


def _check(promised=PROMISED) -> ImportModulesCheck:
    return ImportModulesCheck(LAYOUT, current_env(), ImportModulesSpec(jobs=1), promised)


def test_a_lost_public_name_fails_on_its_file(tmp_path):
    original, fork = _trees(tmp_path)
    check = _check()
    baseline = check.baseline(original)
    assert check.run(fork, baseline).ok
    (fork / "pkg/mod.py").write_text("def g():\n    return 2\n")  # a broken cut deleted f
    result = check.run(fork, baseline)
    assert result.failures == ("pkg/mod.py: pkg.mod lost public name 'f'",)
    assert result.paths == ("pkg/mod.py",)
    assert _check({}).run(fork, baseline).ok  # nothing promised: nothing to lose


def test_a_lazy_name_counts_and_names_the_original_lacks_are_not_counted(tmp_path):
    original, fork = _trees(tmp_path)
    check = _check()
    baseline = check.baseline(original)
    # pkg.cond never binds OLD on Python 3, in the original either; the lazy name moved into __getattr__'s dict
    (fork / "pkg/cond.py").write_text("import sys\nNEW = 2\n")
    (fork / "pkg/lazy.py").write_text("def __getattr__(name):\n    return {'later': 3}[name]\n")
    result = check.run(fork, baseline)
    assert result.ok, result.failures
    assert result.detail.startswith("2 imported")
    (fork / "pkg/lazy.py").write_text("def __getattr__(name):\n    raise AttributeError(name)\n")
    assert check.run(fork, baseline).failures == ("pkg/lazy.py: pkg.lazy lost public name 'later'",)


def test_a_module_failing_in_the_original_is_not_checked(tmp_path):
    original, fork = _trees(tmp_path)
    check = _check()
    baseline = check.baseline(original)
    assert not baseline.data["outcomes"]["pkg.broken"].ok
    (fork / "pkg/broken.py").write_text("import not_installed_dependency_xyz\n")
    assert check.run(fork, baseline).ok


def test_the_baseline_says_which_modules_are_not_checked(tmp_path):
    original, _ = _trees(tmp_path)
    check = ImportModulesCheck(LAYOUT, current_env(), ImportModulesSpec(exclude=("pkg.cond",), jobs=1), PROMISED)
    note = check.baseline(original).note
    assert "the promised public names of 2 modules are checked, not those of 1 outside the selection (pkg.cond) " \
           "nor of 1 failing in the original" in note, note
