"""pydash 8.1.0 runs ``--doctest-modules`` over ``src/``: every function's docstring is a test. The doctests of the
functions symbol pruning removed (and of a module the fork drops) were counted "not run in the fork", so the
pytest check put every edit back; they are tests of removed code and leave with it. The doctest of kept code
still runs and must pass."""

from __future__ import annotations

from tests.mapping.registrykit import write_project

from slimfork.api import shrink

FILES = {
    "pyproject.toml": '[project]\nname = "pkg"\nversion = "1.0"\n\n[tool.pytest.ini_options]\n'
                      'addopts = "--doctest-modules"\ntestpaths = ["pkg", "tests"]\n',
    "pkg/__init__.py": "from .strings import camel\n",
    "pkg/strings.py": '''
        def camel(text):
            """Camel case.

            >>> camel("a_b")
            'AB'
            """
            return text.title().replace("_", "")


        def kebab(text):
            """Kebab case.

            >>> kebab("a_b")
            'a-b'
            """
            return text.replace("_", "-")
        ''',
    "pkg/extra.py": '''
        def shout(text):
            """>>> shout("a")
            'A!'
            """
            return text.upper() + "!"
        ''',
    "tests/test_strings.py": "from pkg import camel\n\n\ndef test_camel():\n    assert camel('x_y') == 'XY'\n",
}
SPEC = """
source = "."
packages = ["pkg"]
roots = ["pkg:camel"]
tests = ["tests"]

[symbols]
public_api = "roots"
package_api = false
"""


def test_doctests_of_pruned_functions_and_removed_modules_leave_with_them(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    result = shrink(root / "slimfork.toml", tmp_path / "fork")
    strings = (result.out / "pkg/strings.py").read_text()
    assert "def camel" in strings and "def kebab" not in strings
    assert not (result.out / "pkg/extra.py").exists()
    restored = [r for b in result.data["batches"]["batches"] for r in b.get("restored", [])]
    assert not restored, restored
