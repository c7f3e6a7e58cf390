"""Minimal reproductions of what the program generator found slimfork getting wrong (or was known to, issue 25).
Each construct still broken (strict xfail) is kept out of the 1,000-program equivalence test by a
``generator.Flags`` field of the same name; when a fix lands, its test here passes (the strict xfail then fails):
remove the mark and turn the flag on in test_equivalence.py (FLAGS)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from slimfork.api import shrink

# What outside code sees: main()'s result (or the exception), and the public functions pkg.main defines.
OBSERVE = """
import json
try:
    import pkg.main as m
    result = {"out": repr(m.main())}
    result["api"] = sorted(n for n, v in vars(m).items() if not n.startswith("_") and callable(v)
                           and getattr(v, "__module__", None) == "pkg.main")
except Exception as exc:
    result = {"exc": f"{type(exc).__name__}: {exc}"}
print(json.dumps(result))
"""


def _observe(tree) -> dict:
    proc = subprocess.run([sys.executable, "-c", OBSERVE], cwd=tree, capture_output=True, text=True, timeout=60,
                          env={"PYTHONPATH": str(tree), "PYTHONDONTWRITEBYTECODE": "1"})
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


CASES = [
    # Fixed on main (soundness): regressions now, and on in the 1,000-program test.
    "relative_lazy",  # import_module(_LAZY[name], __name__), {'heavy': '.heavy'}; import_module('.dyn', __package__)
    "outside_scan",  # `pkgutil.iter_modules(models.__path__, ...)` of another package
    "public_fact",  # fixed on main (publicapi): a fact on a public root function keeps it
    "folded_concat_getattr",  # fixed (s29): getattr(self, <computed>) keeps the class's methods
    pytest.param("walrus_rebound", marks=pytest.mark.xfail(strict=True, reason=(
        "the fold deletes the walrus of `elif (m := sys.platform) == 'linux':` (an arm the facts always take; "
        "`if` too) when m is also assigned elsewhere in the function (`m = None` before): reads of m in the arm "
        "and after it get the old value (None instead of 'linux'); no check sees it, m stays defined"))),
    pytest.param("walrus_with_star_import", marks=pytest.mark.xfail(strict=True, reason=(
        "in a module with a star import (`from pkg.api import *`), the fold replaces `if (w := <always true>): "
        "body` by `body`, dropping the binding of w that code after the if reads (NameError; without the star "
        "import it keeps `if (w := True):`), and the star import hides the undefined name from pyflakes"))),
]


@pytest.mark.parametrize("name", CASES)
def test_the_fork_behaves_like_the_original(copy_fixture, tmp_path, name):
    root = copy_fixture("genequiv", name)
    result = shrink(root / "slimfork.toml", tmp_path / "fork")
    assert _observe(result.out) == _observe(root)
