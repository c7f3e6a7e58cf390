"""Fold the platform facts into a ``setup.py`` itself, with the same fold as the package's modules.

setup.py is outside the analysed packages, and often imports its flags from a project module by a name only a
``sys.path`` insert makes work (``from _common import LINUX``). Both are copied into a scratch folder under the
module names setup.py uses, so the fold derives the flags from that module's own code; only setup.py's result is
kept (with the fold's safety checks: it parses, names stay defined, a second run changes nothing).
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from slimfork.rewrite import fold_tree


def fold_setup_py(root: Path, rel: str, flag_modules: dict[str, str], facts):
    """(the folded bytes or None, the FileFold of setup.py or None)."""
    scratch = Path(tempfile.mkdtemp(prefix="slimfork-setup-"))
    try:
        modules = {"setup.py": "setup"}
        shutil.copyfile(Path(root) / rel, scratch / "setup.py")
        for path, dotted in flag_modules.items():
            target = scratch / (dotted.replace(".", "/") + ".py")
            if target.name == "setup.py" or dotted == "setup":
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(Path(root) / path, target)
            modules[target.relative_to(scratch).as_posix()] = dotted
        report = fold_tree(scratch, modules, facts, jobs=1)
        fold = next((f for f in report.files if f.path == "setup.py"), None)
        if fold is not None and fold.changed:
            return (scratch / "setup.py").read_bytes(), fold
        return None, fold
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
