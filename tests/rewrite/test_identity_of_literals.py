"""An env fact folded into an identity test (session 29's adversarial round, Q1): `os.environ.get("X") is None`
folds to False (a known value is never None), and no fold writes `'0' is other`, which Python warns about
(a SyntaxError under `-W error` or pytest's `filterwarnings = error`)."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "q"\nversion = "1.0"\n',
    "src/q/__init__.py": "",
    "src/q/app.py": """
        import os

        from q import other


        def flags():
            return os.environ.get("Q_DEBUG") is None, os.environ.get("Q_DEBUG") is not None, other.flag()
    """,
    "src/q/other.py": """
        import os

        SENTINEL = object()


        def flag():
            return os.environ.get("Q_DEBUG", SENTINEL) is SENTINEL
    """,
}
SPEC = 'source = "."\nroots = ["q.app"]\n\n[facts.env]\nQ_DEBUG = false\n'


def test_identity_with_a_folded_env_value(tmp_path):
    result = shrink(write_project(tmp_path, FILES, SPEC) / "slimfork.toml", tmp_path / "fork", verify=False)
    assert "return False, True, other.flag()" in (result.out / "src/q/app.py").read_text()
    assert "is SENTINEL" in (result.out / "src/q/other.py").read_text()  # left as written, not '0' is SENTINEL
    run = subprocess.run([sys.executable, "-W", "error", "-c", "import q.app, q.other"], capture_output=True,
                         text=True, cwd=result.out / "src")
    assert run.returncode == 0, run.stderr
