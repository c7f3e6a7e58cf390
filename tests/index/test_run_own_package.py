"""``subprocess.run([sys.executable, "-m", __package__])``: kept code runs its own package as a program, so the
package's ``__main__.py`` stays. Before (session 40), only a literal or an f-string after ``-m`` was read: the
fork lost ``__main__.py`` and the child printed nothing, exit 0, both ``[symbols]`` modes."""

from __future__ import annotations

import pytest

from slimfork.api import analyse
from tests.mapping.registrykit import write_project


@pytest.mark.parametrize("own", ["__package__", "__spec__.parent", "__name__.rpartition('.')[0]"])
def test_the_own_package_main_stays(tmp_path, own):
    files = {"pkg/__init__.py": "", "pkg/__main__.py": "print('main')\n",
             "pkg/app.py": f"import subprocess, sys\n\n\ndef main():\n    subprocess.run([sys.executable, '-m', {own}])\n"}
    root = write_project(tmp_path, files, 'source = "."\nroots = ["pkg.app:main"]\ntests = []\n\n[symbols]\n')
    kept = {k.path for k in analyse(root / "slimfork.toml", jobs=1).plan.kept}
    assert "pkg/__main__.py" in kept
