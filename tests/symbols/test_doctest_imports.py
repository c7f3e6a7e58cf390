"""Pitfall 15, across modules: ``>>> from pkg.fmt import pretty`` in a kept module's docstring (run by
``doctest.testmod`` or ``--doctest-modules``) imports ``pretty`` from ``pkg.fmt``: the symbol prune keeps that
name, not only the module; ``>>> import pkg.text`` then ``pkg.text.upper(...)`` keeps what the chain reads."""

from __future__ import annotations

import subprocess
import sys

from tests.mapping.registrykit import write_project

from slimfork.api import shrink

FILES = {
    "pkg/__init__.py": "",
    "pkg/core.py": '''
        """Core.

        >>> from pkg.fmt import (
        ...     pretty,
        ... )
        >>> pretty(add(1, 2))
        '<3>'
        """


        def add(a, b):
            """
            >>> import pkg.text
            >>> pkg.text.upper("a")
            'A'
            >>> from .fmt import plain
            >>> plain(1)
            '1'
            """
            return a + b
        ''',
    "pkg/fmt.py": "def pretty(x):\n    return f'<{x}>'\n\n\ndef plain(x):\n    return str(x)\n\n\n"
                  "def unused(x):\n    return x\n",
    "pkg/text.py": "def upper(s):\n    return s.upper()\n\n\ndef lower(s):\n    return s.lower()\n",
}
SPEC = """
source = "."
packages = ["pkg"]
roots = ["pkg.core"]
tests = []

[symbols]
public_api = "roots"
"""


def test_a_doctest_import_keeps_the_name_it_imports(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    fmt, text = (fork / "pkg/fmt.py").read_text(), (fork / "pkg/text.py").read_text()
    assert "def pretty" in fmt and "def plain" in fmt and "def unused" not in fmt
    assert "def upper" in text and "def lower" not in text
    done = subprocess.run([sys.executable, "-c", "import doctest, pkg.core; r = doctest.testmod(pkg.core); "
                           "assert r.attempted == 6 and not r.failed, r"], cwd=fork, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
