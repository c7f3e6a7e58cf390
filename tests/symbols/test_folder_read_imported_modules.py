"""A folder read by its path (``DATADIR = Path(__file__).parent / "data"``, then ``DATADIR / "x.json"``) reads data
files: a module there that kept code imports as code has no name looked up by the read. mimesis 22.2.0's
``datasets/__init__.py`` star-imports every locale table, ``constants.py`` reads the folder for its JSON files, and
every name of every table stayed (45,509 lines; a hand fork keeps the six tables ``person.py`` imports). A module
only the read reaches may be a template the reader copies or runs: it stays whole."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

FILES = {
    "pkg/__init__.py": "",
    "pkg/data/__init__.py": "from .int.people import *\nfrom .int.money import *\n",
    "pkg/data/int/__init__.py": "",
    "pkg/data/int/people.py": "NAMES = ('ann', 'bob')\nTITLES = ('dr', 'mr')\n",
    "pkg/data/int/money.py": "CURRENCIES = ('eur', 'usd')\n",
    "pkg/data/template.py": "GREETING = 'hello'\nUNUSED = 1\n",
    "pkg/data/x.json": '{"a": 1}\n',
    "pkg/const.py": "from pathlib import Path\n\nDATADIR = Path(__file__).parent / 'data'\n",
    "pkg/user.py": "import json\n\nfrom pkg.const import DATADIR\nfrom pkg.data import NAMES\n\n\ndef person():\n"
                   "    return NAMES[0], json.loads((DATADIR / 'x.json').read_text())\n",
}
SPEC = 'source = "."\nroots = ["pkg.user:person"]\n[symbols]\npublic_api = "roots"\npackage_api = false\n'


def test_a_folder_read_looks_no_name_up_in_imported_modules(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert "TITLES" not in (fork / "pkg/data/int/people.py").read_text()
    assert "money" not in (fork / "pkg/data/__init__.py").read_text()
    assert not (fork / "pkg/data/int/money.py").exists()  # emptied, only the read reaches it (session 46: it goes)
    assert (fork / "pkg/data/template.py").read_text() == FILES["pkg/data/template.py"]  # only the read reaches it
    done = subprocess.run([sys.executable, "-c", "from pkg.user import person; print(person())"], cwd=fork,
                          capture_output=True, text=True)
    assert done.returncode == 0 and "('ann', {'a': 1})" in done.stdout, done.stderr[-2000:]
