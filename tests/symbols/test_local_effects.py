"""Loading a module whose import-time code only fills its own tables (``TABLE.update({...})`` under a version
check) or builds instances of its own plain classes (``SECTIONS = [Section("Args", "param")]``) has no effect
outside the module: when pruned code was its only importer, it leaves the fork (docstring_parser's ``attrdoc`` and
``numpydoc`` stayed "for their effects" with a root ``docstring_parser.google``). A module whose import-time code
changes another module's table, or builds an instance of a class whose ``__init__`` registers it, stays."""

from __future__ import annotations

from tests.mapping.registrykit import write_project

from slimfork.api import analyse, shrink

import subprocess
import sys

FILES = {
    "pkg/__init__.py": "from pkg.parser import parse\n\n__all__ = [\"parse\"]\n",
    "pkg/common.py": "REGISTRY = {}\n\n\ndef split(text):\n    return text.split()\n",
    "pkg/google.py": "from pkg.common import split\n\n\ndef parse(text):\n    return split(text)[0]\n",
    "pkg/parser.py": "from pkg import attrs, numpy_style\n\n\ndef parse(text):\n"
                     "    return attrs.ATTR[0] + numpy_style.SECTIONS[0].title + text\n",
    "pkg/attrs.py": """
        import sys

        ATTR = {0: "value"}

        if sys.version_info[:2] <= (3, 7):
            ATTR.update({1: "n", 2: "s"})
        ATTR[3] = "x"
        """,
    "pkg/numpy_style.py": """
        class Section:
            \"\"\"A section.\"\"\"

            def __init__(self, title, key=None):
                self.title = title
                self.key = key

            def parse(self, text):
                return text


        class ParamSection(Section):
            def __init__(self, title, key):
                super().__init__(title, key=key)


        SECTIONS = [Section("Args"), ParamSection("Parameters", "param")]
        """,
    "pkg/cli.py": "import sys\n\nfrom pkg.google import parse\n\nprint(parse(sys.argv[1]))\n",
}
SPEC = """
source = "."
packages = ["pkg"]
roots = ["pkg.google", "pkg.cli"]

[symbols]
public_api = "roots"
package_api = false
"""


def test_own_tables_and_plain_instances_are_no_effects(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    analysis = analyse(root / "slimfork.toml")
    removed = {r.path for r in analysis.plan.removals}
    assert {"pkg/attrs.py", "pkg/numpy_style.py", "pkg/parser.py"} <= removed
    result = shrink(root / "slimfork.toml", tmp_path / "fork")
    assert "parser" not in (result.out / "pkg/__init__.py").read_text()
    run = [sys.executable, "-m", "pkg.cli", "a b"]
    assert subprocess.run(run, cwd=result.out, capture_output=True, text=True).stdout == "a\n"


def test_other_tables_and_registering_classes_stay(tmp_path):
    files = dict(FILES)
    files["pkg/attrs.py"] = ("import sys\n\nfrom pkg.common import REGISTRY\n\nATTR = {0: 'value'}\n\n"
                             "if sys.version_info[:2] >= (3, 0):\n    REGISTRY.update({1: 'n'})\n")
    files["pkg/numpy_style.py"] = ("from pkg.common import REGISTRY\n\n\nclass Section:\n"
                                   "    def __init__(self, title):\n        self.title = title\n"
                                   "        REGISTRY[title] = self\n\n\nSECTIONS = [Section('Args')]\n")
    root = write_project(tmp_path, files, SPEC)
    analysis = analyse(root / "slimfork.toml")
    removed = {r.path for r in analysis.plan.removals}
    assert not removed & {"pkg/attrs.py", "pkg/numpy_style.py", "pkg/parser.py"}


def test_a_registration_inside_a_block_is_an_effect(tmp_path):
    """``try: X = register("p")`` or the same under an ``if``: the call runs at import and may register, so the
    module whose only importer symbol pruning removes stays (it left the fork: the block counted as harmless)."""
    files = {
        "pkg/__init__.py": "",
        "pkg/reg.py": "REG = {}\n\n\ndef register(name):\n    REG[name] = 1\n    return name\n",
        "pkg/plugin.py": "import sys\n\nfrom pkg.reg import register\n\ntry:\n    X = register('p')\n"
                         "except ImportError:\n    X = None\nif sys.version_info >= (3, 0):\n    Y = register('q')\n",
        "pkg/core.py": "from pkg import plugin\nfrom pkg.reg import REG\n\n\ndef get():\n    return sorted(REG)\n",
        "pkg/cli.py": "from pkg.core import get\n\nprint(get())\n",
    }
    root = write_project(tmp_path, files, SPEC.replace('"pkg.google", ', ""))
    analysis = analyse(root / "slimfork.toml")
    assert "pkg/plugin.py" not in {r.path for r in analysis.plan.removals}
    result = shrink(root / "slimfork.toml", tmp_path / "fork")
    run = [sys.executable, "-m", "pkg.cli"]
    assert subprocess.run(run, cwd=result.out, capture_output=True, text=True).stdout == "['p', 'q']\n"
