"""`type_checking_imports = "ignore"`: a module that kept code imports only under `if TYPE_CHECKING:` (or `if False:`)
leaves the fork (that import never runs), the import stays as written, every check passes, and the report says why."""

from __future__ import annotations

import pytest
from tests.mapping.registrykit import run_cli, write_project

from slimfork.api import analyse, shrink

FILES = {
    "pkg/__init__.py": "",
    "pkg/heavy/__init__.py": "",
    "pkg/heavy/engine.py": "import pkg.heavy.kernels\n\n\nclass Engine:\n    pass\n",
    "pkg/heavy/kernels.py": "TABLE = [1, 2, 3]\n",
    "pkg/light.py": "class Light:\n    pass\n",
    "pkg/legacy.py": "class Legacy:\n    pass\n",
    "pkg/app.py": """
        from __future__ import annotations

        from typing import TYPE_CHECKING

        if TYPE_CHECKING:
            from pkg.heavy.engine import Engine
            from pkg.light import Light

        if False:  # never runs either (a fold leaves this of an arm whose names later code mentions)
            from pkg.legacy import Legacy


        def legacy():
            return Legacy()


        def describe(engine: Engine | None = None, light: "Light | None" = None) -> str:
            from pkg.light import Light

            return f"{Light.__name__} {engine is None}"
        """,
    "pkg/cli.py": """
        import sys

        from pkg.app import describe

        if __name__ == "__main__":
            print(describe(), sys.argv[1])
        """,
}
SPEC = """
source = "."
packages = ["pkg"]
roots = ["pkg.cli"]
"""


@pytest.mark.parametrize("setting", ["keep", "ignore"])
def test_type_only_imports(tmp_path, setting):
    root = write_project(tmp_path, FILES, SPEC + ("" if setting == "keep" else 'type_checking_imports = "ignore"\n'))
    plan = analyse(root / "slimfork.toml").plan
    removed = {r.path: r.reason for r in plan.removals}
    if setting == "keep":
        assert "pkg/heavy/engine.py" not in removed and "pkg/heavy/kernels.py" not in removed
        assert "pkg/legacy.py" not in removed
        return
    assert "TYPE_CHECKING or `if False:` (pkg.app)" in removed["pkg/heavy/engine.py"]
    assert "pkg/heavy/kernels.py" in removed and "pkg/light.py" not in removed  # light has a runtime import too
    assert "pkg/legacy.py" in removed
    result = shrink(root / "slimfork.toml", tmp_path / "fork")
    fork = result.out
    assert not (fork / "pkg/heavy/engine.py").exists() and not (fork / "pkg/heavy/kernels.py").exists()
    assert not (fork / "pkg/legacy.py").exists()
    assert (fork / "pkg/app.py").read_text() == (root / "pkg/app.py").read_text()  # the import stays as written
    assert run_cli(fork, "x").stdout == run_cli(root, "x").stdout == "Light True x\n"
    assert all(b.checks and all(c.ok for c in b.checks) and not b.restored for b in result.apply.batches)
    assert not [w for w in result.data["warnings"] if "heavy" in w], result.data["warnings"]


SYMBOL_FILES = {
    "pkg/__init__.py": "",
    "pkg/shapes.py": "class Square:\n    side = 2\n\n\nclass Circle:\n    radius = 1\n",
    "pkg/app.py": """
        from __future__ import annotations

        from typing import TYPE_CHECKING

        from pkg.shapes import Square

        if TYPE_CHECKING:
            from pkg.shapes import Circle


        def area(shape: Circle | None = None) -> int:
            return Square.side * Square.side


        if __name__ == "__main__":
            print(area())
        """,
}


@pytest.mark.parametrize("setting", ["keep", "ignore"])
def test_type_only_imports_keep_no_symbol(tmp_path, setting):
    """The same at symbol level: a class only an `if TYPE_CHECKING:` import names leaves the fork; the import
    stays as written (it never runs) and the imports check accepts the name it no longer finds."""
    option = 'type_checking_imports = "ignore"\n' if setting == "ignore" else ""
    spec = f'source = "."\npackages = ["pkg"]\nroots = ["pkg.app"]\n{option}[symbols]\npublic_api = "roots"\nprune = true\n'
    root = write_project(tmp_path, SYMBOL_FILES, spec)
    kept = analyse(root / "slimfork.toml").stages.symbols.reach.kept_names.get("pkg.shapes", set())
    assert "Square" in kept
    assert ("Circle" in kept) == (setting == "keep")
    if setting == "keep":
        return
    result = shrink(root / "slimfork.toml", tmp_path / "fork")
    shapes = (result.out / "pkg/shapes.py").read_text()
    assert "class Square" in shapes and "class Circle" not in shapes
    assert "from pkg.shapes import Circle" in (result.out / "pkg/app.py").read_text()
    assert all(b.checks and all(c.ok for c in b.checks) and not b.restored for b in result.apply.batches)
