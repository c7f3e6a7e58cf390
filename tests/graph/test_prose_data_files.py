"""A ``.txt`` file of sentences in a package folder is documentation: the modules its examples name stay only if
something else keeps them (SQLAlchemy 2.1.9's ``dialects/type_migration_guidelines.txt`` holds ``from
sqlalchemy.dialects.postgresql import base as pg`` and kept every dialect of a SQLite fork). A list of names the
package reads stays a list whatever its comments say, and a ``.txt`` file of Python code still imports."""

from __future__ import annotations

from slimfork.api import analyse
from tests.mapping.registrykit import write_project

PROSE = """Dialect type guidelines
=======================

1. Each dialect keeps its types in its own types module, and the base module imports them.

2. The names of types within dialects are important, since users import them by name from the package:

   from pkg.dialects.pg import base as pg

   where the INTEGER and VARCHAR types come from the generic types of the package itself.

3. A type that needs no special behaviour or arguments should not be subclassed in a dialect.
"""
FILES = {
    "pkg/__init__.py": "",
    "pkg/core.py": "X = 1\n",
    "pkg/dialects/__init__.py": "",
    "pkg/dialects/guidelines.txt": PROSE,
    "pkg/dialects/pg.py": "Y = 2\n",
    "pkg/plugins/__init__.py": "import pathlib\n\n"
                               "NAMES = (pathlib.Path(__file__).parent / 'enabled.txt').read_text()\n",
    "pkg/plugins/enabled.txt": "# The plugins enabled by default when the package starts, one name per line\n"
                               "pkg.plugins.alpha  # the alpha plugin, which every deployment needs to have\n",
    "pkg/plugins/alpha.py": "Z = 3\n",
    "pkg/boot/__init__.py": "exec(open(__file__[:-11] + 'boot.txt').read())\n",
    "pkg/boot/boot.txt": "# run at start: imports the hooks this package always needs at its start\n"
                         "from pkg.hooks import setup as the_setup_hook_this_package_needs\n",
    "pkg/hooks.py": "def setup():\n    pass\n",
}
SPEC = 'source = "."\nroots = ["pkg.core", "pkg.dialects", "pkg.plugins", "pkg.boot"]\ntests = []\n'


def test_prose_names_nothing_but_lists_and_code_do(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    removed = {r.module for r in analyse(root / "slimfork.toml").plan.removals if r.module}
    assert "pkg.dialects.pg" in removed
    assert not {"pkg.plugins.alpha", "pkg.hooks"} & removed
