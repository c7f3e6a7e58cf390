"""The import-modules check and a package's lazy names (PEP 562): the baseline resolves the names a module
``__dir__`` lists beyond its namespace (a short list), so the files they load count among the module's own; a fork
that removes one imports the module again and asks those names, and one that no longer resolves fails the check.
Before, ``pkg/__init__.py`` loaded no ``_heavy.py``, so a fork without it passed (session 39's known gap: exit 0 in
checked mode too)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from slimfork.api import shrink
from slimfork.verify.checks.import_modules import ImportModulesCheck
from slimfork.verify.env import current_env
from slimfork.verify.spec import ImportModulesSpec
from slimfork.verify.tree import TreeLayout
from tests.mapping.registrykit import write_project

INIT = ("import importlib\n_NAMES = {'Heavy': 'yvaeh_.gkp'}\n\n\ndef __getattr__(name):\n    if name in _NAMES:\n"
        "        return getattr(importlib.import_module(_NAMES[name][::-1]), name)\n    raise AttributeError(name)\n\n\n"
        "def __dir__():\n    return list(_NAMES)\n")
FILES = {"pkg/__init__.py": INIT, "pkg/_heavy.py": "class Heavy:\n    v = 'heavy'\n"}


def _tree(root: Path) -> Path:
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def test_a_lazy_name_dir_lists_fails_when_its_module_goes(tmp_path):
    original, fork = _tree(tmp_path / "original"), _tree(tmp_path / "fork")
    check = ImportModulesCheck(TreeLayout("", ("pkg",)), current_env(), ImportModulesSpec(jobs=1), {})
    baseline = check.baseline(original)
    outcome = baseline.data["outcomes"]["pkg"]
    assert outcome.dir_names == ("Heavy",) and "pkg/_heavy.py" in outcome.loaded
    assert check.run(fork, baseline).ok
    (fork / "pkg/_heavy.py").unlink()
    result = check.run(fork, baseline)
    assert "pkg/__init__.py: pkg lost public name 'Heavy'" in result.failures, result.failures


def test_checked_shrink_keeps_what_a_lazy_name_loads(tmp_path):
    """``outside_imports`` wrongly says the lazy names load code outside the project: the plan removes
    ``_heavy`` (only ``legacy.py``, which no root reaches, imports it); the checked run puts it back."""
    files = {**FILES, "pkg/legacy.py": "from ._heavy import Heavy\nOLD = Heavy\n",
             "pkg/app.py": "def main():\n    from pkg import Heavy\n    return Heavy.v\n"}
    root = write_project(tmp_path, files, 'source = "."\nroots = ["pkg.app:main"]\ntests = []\n'
                                          'outside_imports = ["pkg"]\n')
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1)
    done = subprocess.run([sys.executable, "-c", "from pkg.app import main; print(main())"], cwd=fork,
                          capture_output=True, text=True)
    assert done.stdout.strip() == "heavy", done.stderr[-2000:]
    assert not (fork / "pkg/legacy.py").exists()


def test_a_long_lazy_table_is_resolved_too(tmp_path):
    """A ``__dir__`` listing 40 lazy names (more than the 32 the baseline once stopped at: it then resolved none,
    and a fork without the module the 40th name loads passed the check, session 40's leftover)."""
    names = {f"Name{i:02d}": f"pkg._m{i:02d}" for i in range(40)}
    init = ("import importlib\n_NAMES = " + repr({k: v[::-1] for k, v in names.items()}) + "\n\n\n"
            "def __getattr__(name):\n    if name in _NAMES:\n"
            "        return getattr(importlib.import_module(_NAMES[name][::-1]), name)\n"
            "    raise AttributeError(name)\n\n\ndef __dir__():\n    return list(_NAMES)\n")
    files = {"pkg/__init__.py": init, **{v.replace(".", "/") + ".py": f"class {k}:\n    pass\n"
                                         for k, v in names.items()}}
    for side in ("original", "fork"):
        for rel, text in files.items():
            (tmp_path / side / rel).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / side / rel).write_text(text)
    check = ImportModulesCheck(TreeLayout("", ("pkg",)), current_env(), ImportModulesSpec(jobs=1), {})
    baseline = check.baseline(tmp_path / "original")
    outcome = baseline.data["outcomes"]["pkg"]
    assert len(outcome.dir_names) == 40 and outcome.dir_skipped == 0 and "pkg/_m39.py" in outcome.loaded
    (tmp_path / "fork/pkg/_m39.py").unlink()
    result = check.run(tmp_path / "fork", baseline)
    assert "pkg/__init__.py: pkg lost public name 'Name39'" in result.failures, result.failures
