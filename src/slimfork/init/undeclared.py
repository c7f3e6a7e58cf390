"""Modules the tests import at their top level that no drafted requirement provides: parameterized 0.9.0's
``parameterized/test.py`` imports ``mock``, which nothing in the project declares, and the accepted draft's
checked run found out only after building its venv (the import and pytest checks could not import the test). The
draft names each in a note (not a requirement: the distribution's name may differ, and pip stops on a wrong one)."""

from __future__ import annotations

import ast
import re
import sys

from slimfork.init.project import Project
from slimfork.source.test_folders import is_test_file

# import names whose distribution is named otherwise, common enough to tell apart without a lookup
# (beyond a name that is a part of the distribution's, ``rpds`` of rpds-py, ``zope`` of zope.testing, or ``py`` and it)
_DISTRIBUTIONS = {"attr": "attrs", "pil": "pillow", "sklearn": "scikit-learn", "bs4": "beautifulsoup4",
                  "git": "gitpython", "crypto": "pycryptodome", "cv2": "opencv-python", "skimage": "scikit-image",
                  "pkg_resources": "setuptools", "_pytest": "pytest", "google": "protobuf", "pyximport": "cython"}


def undeclared_imports(project: Project, tests: list[str], requirements: list[str]) -> list[tuple[str, str]]:
    """(module, first place ``path:line``) for each top-level module the tests import unconditionally (a plain
    statement at the top of a test module or a ``conftest.py``, not inside ``try``) that is neither the standard library's, nor the
    tree's own (a package, module or file anywhere in the tree), nor named by a line of ``requirements``."""
    named = {_norm(re.split(r"[\s<>=!~;\[(@]", line.strip(), maxsplit=1)[0]) for line in requirements}
    own = {_norm(part.removesuffix(".py")) for rel in project.index.files for part in rel.split("/")}
    own |= {_norm(p) for p in project.tree.packages}
    found: dict[str, str] = {}
    for rel in sorted(project.index.files):
        if not is_test_file(rel) or not any(
                rel == t or rel.startswith(t.rstrip("/") + "/") for t in tests):  # test data (packages tests build)
            continue
        for node in (project.parse(rel) or ast.Module(body=[], type_ignores=[])).body:
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module] if isinstance(node, ast.ImportFrom) and node.module and not node.level else []
            for name in names:
                top = name.split(".")[0]
                key = _norm(top)
                if (top in sys.stdlib_module_names or key in own or top in found or _provided(key, named)):
                    continue
                found[top] = f"{rel}:{node.lineno}"
    return sorted(found.items())


def _provided(module: str, named: set[str]) -> bool:
    return _norm(_DISTRIBUTIONS.get(module, module)) in named or any(
        module in name.split("_") or name == "py" + module or name.replace("_", "").endswith(module.replace("_", ""))
        for name in named)  # requests-wsgi-adapter's wsgiadapter


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()
