"""jaraco.text 4.0.0 (session 34): ``jaraco/text/to-dvorak.py`` (a name no import statement can write, run as
``python -m jaraco.text.to-dvorak`` and imported by pytest's ``--doctest-modules``) does ``from . import layouts``.
It was kept as "a Python file outside the analysed packages" while the fork removed ``layouts``: the fork's doctest
run failed to collect it. Such a file now follows its imports, relative ones resolved against the package whose
folder holds it, as a script outside the packages does: it leaves with the module it imports."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "jt"\nversion = "1.0"\n',
    "jt/__init__.py": "def upper(s):\n    return s.upper()\n",
    "jt/text/__init__.py": "",
    "jt/text/layouts.py": "def to_dvorak(s):\n    return s[::-1]\n",
    "jt/text/to-dvorak.py": "import sys\n\nfrom . import layouts\n\nprint(layouts.to_dvorak(sys.argv[1]))\n",
    "jt/text/deep-up.py": "from .. import upper\n\nprint(upper('x'))\n",
    "jt/text/guarded-dvorak.py": "try:\n    from .layouts import to_dvorak\nexcept ImportError:\n    to_dvorak = None\n",
    "jt/text/show.py": "from jt import upper\n",
}


def test_a_file_with_no_module_name_leaves_with_what_its_relative_import_names(tmp_path):
    spec = 'source = "."\nroots = ["jt", "jt.text"]\ntests = []\n'
    result = shrink(write_project(tmp_path, FILES, spec) / "slimfork.toml", tmp_path / "fork", verify=False)
    fork = result.out
    assert not (fork / "jt/text/layouts.py").exists()
    assert not (fork / "jt/text/to-dvorak.py").exists()
    assert (fork / "jt/text/deep-up.py").is_file() and (fork / "jt/text/guarded-dvorak.py").is_file()
    why = {r["path"]: r["reason"] for r in result.data["removed"]}
    assert "in jt.text with no module name" in why["jt/text/to-dvorak.py"]
    assert "jt.text.layouts, which the fork removes" in why["jt/text/to-dvorak.py"]
    for name in ("jt.text.deep-up", "jt.text.guarded-dvorak"):
        run = subprocess.run([sys.executable, "-m", name], cwd=fork, capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--doctest-modules",
                           "--import-mode", "importlib", "jt"], cwd=fork, capture_output=True, text=True)
    assert "error" not in done.stdout.lower(), done.stdout[-2000:]


def test_the_file_stays_with_the_module_it_imports(tmp_path):
    spec = 'source = "."\nroots = ["jt.text.layouts"]\ntests = []\n'
    result = shrink(write_project(tmp_path, FILES, spec) / "slimfork.toml", tmp_path / "fork", verify=False)
    assert (result.out / "jt/text/to-dvorak.py").is_file()
    run = subprocess.run([sys.executable, "-m", "jt.text.to-dvorak", "abc"], cwd=result.out, capture_output=True,
                         text=True)
    assert run.returncode == 0 and run.stdout.strip() == "cba", run.stderr
