"""``slimfork weigh``: each kept module's retained lines (its own and those of the modules only reachable
through it) and the imports that keep it, heaviest first."""

from __future__ import annotations

import json

from tests.mapping.registrykit import write_project

from slimfork.cli import main
from slimfork.graph.weigh import dominators

FILES = {
    "pkg/__init__.py": "",
    "pkg/cli.py": "import pkg.server\nimport pkg.shared\n",
    "pkg/server.py": """
        import pkg.shared


        def start(mode):
            if mode == "video":
                import pkg.video

                return pkg.video.run()
            return pkg.shared.VALUE
        """,
    "pkg/video.py": "import pkg.codec\nimport pkg.shared\n\n\ndef run():\n    return pkg.codec.decode()\n",
    "pkg/codec.py": "".join(f"X{i} = {i}\n" for i in range(40)) + "\n\ndef decode():\n    return X1\n",
    "pkg/shared.py": "VALUE = 1\n",
}
SPEC = 'source = "."\npackages = ["pkg"]\nroots = ["pkg.cli"]\n'


def test_retained_lines_follow_the_only_path_to_a_module(tmp_path, capsys):
    root = write_project(tmp_path, FILES, SPEC)
    assert main(["weigh", str(root / "slimfork.toml"), "--json", "--top", "50"]) == 0
    weights = {w["module"]: w for w in json.loads(capsys.readouterr().out)}
    video, codec = weights["pkg.video"], weights["pkg.codec"]
    assert codec["retained"] == codec["lines"] == 44
    assert video["retained"] == video["lines"] + 44 and video["modules"] == 2  # shared is reached otherwise
    assert weights["pkg.shared"]["retained"] == 1
    assert [(i["module"], i["line"]) for i in video["importers"]] == [("pkg.server", 6)]
    assert "inside a function" in video["importers"][0]["how"] and 'mode == "video"' in video["importers"][0]["how"]
    assert weights["pkg.cli"]["importers"][0]["how"].startswith("root:")
    ranked = list(weights)
    assert ranked.index("pkg.server") < ranked.index("pkg.video") < ranked.index("pkg.codec")


def test_the_table_and_the_filter(tmp_path, capsys):
    root = write_project(tmp_path, FILES, SPEC)
    assert main(["weigh", str(root / "slimfork.toml"), "--min-importers", "1", "--top", "3"]) == 0
    out = capsys.readouterr().out
    assert [line.split()[-4] for line in out.splitlines() if "lines in" in line] == \
        ["pkg.cli", "pkg.server", "pkg.video"]  # pkg.shared has two importers
    assert "pkg/server.py:6  import (inside a function" in out.split("pkg.video")[1]  # what keeps it, under it
    assert main(["weigh", str(root / "slimfork.toml"), "--top", "0"]) == 2
    assert "--top" in capsys.readouterr().err


def test_a_diamond_has_no_dominator_but_the_top():
    class Edge:
        def __init__(self, target):
            self.target, self.kind, self.detail, self.line = target, "import", "", 1

    class Root:
        module = "a"

    class Graph:
        roots = [Root()]
        edges = {"a": [Edge("b"), Edge("c")], "b": [Edge("d")], "c": [Edge("d")], "d": [Edge("a")]}
        reached = dict.fromkeys("abcd")

    assert dominators(Graph()) == {"a": "<roots>", "b": "a", "c": "a", "d": "a"}


def test_reexports_of_a_package_init_name_the_spec_line_that_cuts_them(tmp_path, capsys):
    """A package ``__init__`` importing every submodule for re-export keeps them all as the package's API; weigh
    says how much that holds and the ``[symbols]`` line that lets it go, and applying the line cuts it."""
    from slimfork.api import analyse

    files = {
        "pkg/__init__.py": "from pkg.fmt import pretty\nfrom pkg.style import parse\n\n__all__ = [\"parse\", \"pretty\"]\n",
        "pkg/style.py": "def parse(text):\n    return text.split()\n",
        "pkg/fmt.py": "".join(f"X{i} = {i}\n" for i in range(30)) + "\n\ndef pretty(x):\n    return str(x)\n",
        "pkg/cli.py": "import sys\n\nfrom pkg.style import parse\n\nprint(parse(sys.argv[1]))\n",
    }
    spec = SPEC + "\n[symbols]\n"
    root = write_project(tmp_path, files, spec)
    assert main(["weigh", str(root / "slimfork.toml")]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "Up to 34 lines in 1 modules (pkg.fmt) are kept only because a package __init__ imports them (pkg)" in text
    assert "'public_api = \"roots\"' and 'package_api = false' in the spec" in text
    assert "pkg/fmt.py" not in {r.path for r in analyse(root / "slimfork.toml").plan.removals}
    (root / "slimfork.toml").write_text(spec + 'public_api = "roots"\npackage_api = false\n')
    assert "pkg/fmt.py" in {r.path for r in analyse(root / "slimfork.toml").plan.removals}
    assert main(["weigh", str(root / "slimfork.toml")]) == 0
    assert "kept only because" not in capsys.readouterr().out


def test_modules_only_type_checking_imports_keep_name_the_spec_line(tmp_path, capsys):
    """A module only ``if TYPE_CHECKING:`` imports reach stays by default (elementpath's ``xpath_tokens`` kept
    5,508 lines of XPath 3 for a root ``elementpath.xpath1``); weigh says so and names the line that cuts it."""
    from slimfork.api import analyse

    files = {
        "pkg/__init__.py": "",
        "pkg/tokens.py": "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from pkg.xpath3 import P3\n\n\n"
                         "def f(p: 'P3') -> int:\n    return 1\n",
        "pkg/xpath3.py": "".join(f"X{i} = {i}\n" for i in range(20)) + "\n\nclass P3:\n    pass\n",
        "pkg/cli.py": "from pkg.tokens import f\n\nprint(f(None))\n",
    }
    root = write_project(tmp_path, files, SPEC)
    assert main(["weigh", str(root / "slimfork.toml")]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "Up to 24 lines in 1 modules (pkg.xpath3) are kept only by imports under 'if TYPE_CHECKING:' " \
           "(pkg.tokens)" in text and "'type_checking_imports = \"ignore\"' in the spec" in text
    (root / "slimfork.toml").write_text(SPEC + 'type_checking_imports = "ignore"\n')
    assert "pkg/xpath3.py" in {r.path for r in analyse(root / "slimfork.toml").plan.removals}
    assert main(["weigh", str(root / "slimfork.toml")]) == 0
    assert "TYPE_CHECKING:'" not in capsys.readouterr().out


def test_packages_only_the_build_list_keeps_name_the_list(tmp_path, capsys):
    """A package a list the fork cannot cut names (``setup.cfg`` lists ``pk.extra``, and ``setup.py`` computes its
    own ``packages``) keeps ``pk.extra`` and what only it imports (setuptools fails on a listed folder the fork
    lacks; toolz 1.0.0 lists ``tlz``); weigh says how much and names the file. A literal list is cut instead
    (session 41, source/listed_cuts.py): nothing is held."""
    from slimfork.api import analyse

    setup = "from setuptools import setup\n\nPKGS = ['pk', 'pk.extra']\nsetup(name='pk', packages=PKGS)\n"
    files = {
        "setup.py": setup,
        "setup.cfg": "[options]\npackages =\n    pk\n    pk.extra\n",
        "pk/__init__.py": "",
        "pk/core.py": "def f():\n    return 1\n",
        "pk/extra/__init__.py": "from pk.heavy import H\n",
        "pk/heavy.py": "".join(f"H{i} = {i}\n" for i in range(20)) + "H = 1\n",
    }
    spec = 'source = "."\nroots = ["pk.core"]\n'
    root = write_project(tmp_path, files, spec)
    assert main(["weigh", str(root / "slimfork.toml")]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "Up to 22 lines in 2 modules (pk.extra, pk.heavy) are kept only because the build configuration lists " \
           "pk.extra by name in its packages (setup.py, setup.cfg)" in text
    (root / "setup.py").write_text("from setuptools import setup\n\nsetup(name='pk', packages=['pk', 'pk.extra'])\n")
    assert {"pk/extra/__init__.py", "pk/heavy.py"} <= {r.path for r in analyse(root / "slimfork.toml").plan.removals}
    assert main(["weigh", str(root / "slimfork.toml")]) == 0
    assert "build configuration lists" not in capsys.readouterr().out


def test_star_imports_of_api_modules_name_the_spec_line_that_cuts_them(tmp_path, capsys):
    """Under the default ``public_api = "kept"`` a kept public module's star import re-exports everything its
    source exports (PyYAML's ``loader``, voluptuous' ``util``); weigh says how much only such star imports keep and
    names ``public_api = "roots"``, and applying it cuts them: a star import that is no API keeps only what its
    consumers use."""
    from slimfork.api import analyse

    files = {
        "pkg/__init__.py": "",
        "pkg/shapes.py": "from pkg.extra import *\n\n\ndef area():\n    return 1\n",
        "pkg/extra.py": "".join(f"X{i} = {i}\n" for i in range(20)) + "\n\ndef perimeter():\n    return 2\n",
        "pkg/cli.py": "from pkg.shapes import area\n\nprint(area())\n",
    }
    spec = SPEC + "\n[symbols]\n"
    root = write_project(tmp_path, files, spec)
    assert main(["weigh", str(root / "slimfork.toml")]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "Up to 24 lines in 1 modules (pkg.extra) are kept only by star imports of modules whose public names " \
           "are the fork's API (pkg.shapes)" in text and "'public_api = \"roots\"' in the spec" in text
    assert "pkg/extra.py" not in {r.path for r in analyse(root / "slimfork.toml").plan.removals}
    (root / "slimfork.toml").write_text(spec + 'public_api = "roots"\n')
    assert "pkg/extra.py" in {r.path for r in analyse(root / "slimfork.toml").plan.removals}
    assert main(["weigh", str(root / "slimfork.toml")]) == 0
    assert "star imports" not in capsys.readouterr().out
