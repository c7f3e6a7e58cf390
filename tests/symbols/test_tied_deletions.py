"""``_hush_pyflakes = [SigningKey, ...]`` then ``del _hush_pyflakes`` (ecdsa 0.19.0's ``__init__``, to silence a
linter about re-exports): the ``del`` read the name, so the list stayed and held every name in it, and every
module they come from, under ``package_api = false``. A top-level ``del NAME`` now stays exactly when the name
does, when every binding of the name may be pruned; a binding kept for its effect keeps the ``del``."""

from __future__ import annotations

import subprocess
import sys

from tests.mapping.registrykit import write_project

from slimfork.api import analyse, shrink

INIT = "from pk.small import f\nfrom pk.big import g\n\n_hush = [f, g{extra}]\ndel _hush\n"
FILES = {
    "pk/small.py": "def f():\n    return 1\n",
    "pk/big.py": "def g():\n    return 2\n",
    "run.py": "from pk.small import f\n\nprint(f())\n",
}
SPEC = 'source = "."\nroots = ["pk.small"]\n[symbols]\npublic_api = "roots"\npackage_api = false\n'


def test_the_del_goes_with_its_binding_and_the_names_it_held(tmp_path):
    root = write_project(tmp_path, dict(FILES, **{"pk/__init__.py": INIT.format(extra="")}), SPEC)
    analysis = analyse(root / "slimfork.toml", jobs=1)
    assert "pk/big.py" in {r.path for r in analysis.plan.removals}
    out = shrink(root / "slimfork.toml", tmp_path / "fork").out
    init = (out / "pk/__init__.py").read_text()
    assert "_hush" not in init and "pk.big" not in init
    assert subprocess.run([sys.executable, "run.py"], cwd=out, capture_output=True, text=True).stdout == "1\n"


def test_a_binding_kept_for_its_effect_keeps_the_del(tmp_path):
    init = INIT.format(extra=", print('loaded')")
    root = write_project(tmp_path, dict(FILES, **{"pk/__init__.py": init}), SPEC)
    analysis = analyse(root / "slimfork.toml", jobs=1)
    assert "pk/big.py" not in {r.path for r in analysis.plan.removals}
    symbols = analysis.stages.symbols
    assert symbols is not None and "del _hush" in (symbols.contents.get("pk/__init__.py") or init.encode()).decode()


def test_a_bare_name_statement_goes_with_the_name(tmp_path):
    """mutagen 1.47.0's ``__init__.py`` imports ``File`` and lists it bare (``File``, for Sphinx): the statement read
    the name, so ``File`` and every format it imports stayed in a fork of one format. Reading a global runs
    nothing: the statement stays exactly when the name does."""
    init = '"""Docs."""\nfrom pk.small import f\nfrom pk.big import g\n\nf\n"""f\'s docs."""\ng\n'
    root = write_project(tmp_path, dict(FILES, **{"pk/__init__.py": init}), SPEC)
    analysis = analyse(root / "slimfork.toml", jobs=1)
    assert "pk/big.py" in {r.path for r in analysis.plan.removals}
    out = shrink(root / "slimfork.toml", tmp_path / "fork").out
    init = (out / "pk/__init__.py").read_text()
    assert "pk.big" not in init and "\ng\n" not in init
    assert subprocess.run([sys.executable, "run.py"], cwd=out, capture_output=True, text=True).stdout == "1\n"
