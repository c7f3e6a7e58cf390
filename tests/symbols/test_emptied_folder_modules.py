"""A module symbol pruning empties that only a folder read still reaches goes (mimesis 22.2.0's locale tables,
``datasets/int/common.py``: the star import that loaded them went, ``DATADIR = Path(__file__).parent / "datasets"``
reads the folder for JSON files, and nine docstring-only files stayed). One a kept file names by its file name
(the reader may open or list it) stays, and so does one only the read reaches (a template: nothing emptied it)."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

FILES = {
    "pkg/__init__.py": "",
    "pkg/data/__init__.py": "from .int.people import *\nfrom .int.money import *\nfrom .int.units import *\n",
    "pkg/data/int/__init__.py": "",
    "pkg/data/int/people.py": '"""People."""\nNAMES = ("ann", "bob")\n',
    "pkg/data/int/money.py": '"""Money."""\nCURRENCIES = ("eur", "usd")\n',
    "pkg/data/int/units.py": '"""Units."""\nUNITS = ("m", "kg")\n',
    "pkg/data/template.py": "GREETING = 'hello'\n",
    "pkg/data/x.json": '{"a": 1}\n',
    "pkg/const.py": "from pathlib import Path\n\nDATADIR = Path(__file__).parent / 'data'\n",
    "pkg/user.py": "import json\n\nfrom pkg.const import DATADIR\nfrom pkg.data import NAMES\n\n\ndef person():\n"
                   "    return NAMES[0], json.loads((DATADIR / 'x.json').read_text())\n\n\n"
                   "def sizes():\n    return (DATADIR / 'int' / 'units.py').stat().st_size\n",
}
SPEC = 'source = "."\nroots = ["pkg.user:person", "pkg.user:sizes"]\n[symbols]\npublic_api = "roots"\n' \
       'package_api = false\n'


def test_an_emptied_module_only_a_folder_read_reaches_goes(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    result = shrink(root / "slimfork.toml", out=tmp_path / "fork", jobs=1, verify=False)
    fork = result.out
    assert not (fork / "pkg/data/int/money.py").exists()
    assert (fork / "pkg/data/int/units.py").exists()  # "units.py" is named by a kept file
    assert (fork / "pkg/data/template.py").read_text() == FILES["pkg/data/template.py"]
    why = [r.reason for r in result.analysis.stages.plan.removals if r.path == "pkg/data/int/money.py"]
    assert why and "read of its folder" in why[0] and "pkg.const" in why[0]
    done = subprocess.run([sys.executable, "-c", "from pkg.user import person; print(person())"], cwd=fork,
                          capture_output=True, text=True)
    assert done.returncode == 0 and "('ann', {'a': 1})" in done.stdout, done.stderr[-2000:]
