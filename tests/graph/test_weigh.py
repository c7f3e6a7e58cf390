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
