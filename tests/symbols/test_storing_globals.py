"""``globals()`` that only binds names (mido's ``set_backend``: ``glob = globals()`` then ``glob[name] = ...``, or
``globals()[name] = value``) reads none of the module's names: the module no longer keeps every name for it. One
that reads (``globals().items()``, ``glob.get(...)``, ``glob`` passed on) still keeps every name."""

from __future__ import annotations

import ast

from slimfork.index.symbols import _storing_globals


def _calls(source: str) -> tuple[set[int], list[int]]:
    tree = ast.parse(source)
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "globals"]
    found = _storing_globals(tree)
    return found, [c.lineno for c in calls if id(c) in found]


def test_globals_that_only_stores_reads_nothing():
    source = (
        "def set_backend(backend):\n"
        "    glob = globals()\n"
        "    glob['backend'] = backend\n"
        "    for name in dir(backend):\n"
        "        glob[name] = getattr(backend, name)\n"
        "\n"
        "def register(name, value):\n"
        "    globals()[name] = value\n"
    )
    assert _calls(source)[1] == [2, 8]


def test_globals_that_reads_still_keeps_everything():
    source = (
        "def specs():\n"
        "    for name, spec in globals().items():\n"
        "        yield spec\n"
        "\n"
        "def lookup(name):\n"
        "    glob = globals()\n"
        "    glob['x'] = 1\n"
        "    return glob[name]\n"
        "\n"
        "def passed():\n"
        "    glob = globals()\n"
        "    return helper(glob)\n"
        "\n"
        "def rebound():\n"
        "    glob = globals()\n"
        "    glob = {}\n"
        "    glob['x'] = 1\n"
    )
    assert _calls(source)[1] == []


def test_the_module_keeps_only_what_is_read(tmp_path):
    from slimfork.api import shrink
    from tests.mapping.registrykit import write_project

    files = {
        "pyproject.toml": '[project]\nname = "gpkg"\nversion = "1.0"\n',
        "gpkg/__init__.py": "",
        "gpkg/app.py": """
            def used():
                return 1


            def unused():
                return 2


            class Backend:
                def open_input(self):
                    return "in"


            def set_backend(backend=None):
                glob = globals()
                backend = backend or Backend()
                glob['backend'] = backend
                for name in dir(backend):
                    if name.startswith('open'):
                        glob[name] = getattr(backend, name)


            set_backend()
        """,
        "gpkg/cli.py": "from gpkg import app\n\n\ndef main():\n    return app.used(), app.open_input()\n",
    }
    spec = 'source = "."\nroots = ["gpkg.cli"]\n\n[symbols]\npublic_api = "roots"\n'
    root = write_project(tmp_path, files, spec)
    shrink(root / "slimfork.toml", tmp_path / "fork", verify=False)
    text = (tmp_path / "fork/gpkg/app.py").read_text()
    assert "def unused" not in text and "def used" in text and "set_backend()" in text
    import subprocess
    import sys
    run = subprocess.run([sys.executable, "-c", "from gpkg import cli; print(cli.main())"], cwd=tmp_path / "fork",
                         capture_output=True, text=True)
    assert run.stdout.strip() == "(1, 'in')", run.stderr


def test_eval_with_a_namespace_of_its_own_reads_no_module_name():
    """cattrs' generated functions: ``globs = {}``, ``globs[k] = v``, ``eval(compile(script, ...), globs)``."""
    from slimfork.index.symbols import _own_namespace_evals

    source = (
        "def make(script, handler):\n"
        "    globs = {}\n"
        "    globs['h'] = handler\n"
        "    eval(compile(script, '', 'exec'), globs)\n"
        "    exec(script, {'a': 1})\n"
        "    return globs['fn']\n"
        "\n"
        "def reads(script, ns):\n"
        "    eval(script, ns)\n"          # a namespace from outside: unknown
        "    other = {}\n"
        "    other = ns\n"
        "    exec(script, other)\n"       # rebound to something else
        "    eval(script)\n"              # the module's own globals
        "    eval(script, globals())\n"
    )
    tree = ast.parse(source)
    found = _own_namespace_evals(tree)
    assert sorted(n.lineno for n in ast.walk(tree) if id(n) in found) == [4, 5]


def test_a_module_namespace_a_function_rebinds_is_not_its_own():
    from slimfork.index.symbols import _own_namespace_evals

    source = "NS = {}\n\ndef rebind(other):\n    global NS\n    NS = other\n\nexec('x = 1', NS)\nexec('y = 2', {})\n"
    tree = ast.parse(source)
    found = _own_namespace_evals(tree)
    assert sorted(n.lineno for n in ast.walk(tree) if id(n) in found) == [8]
