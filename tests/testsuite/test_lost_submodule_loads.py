"""A kept test that reads a submodule of another package as an attribute chain (``click.testing.CliRunner()`` after
``import click``) relied on a removed test file's ``from click.testing import ...`` loading it (session 39:
cookiecutter 2.6.0's fork failed 6 tests of tests/test_prompt.py and test_read_user_dict.py once tests/test_cli.py
left with the CLI). The fork's kept file imports the submodule itself now; a file that imports it already, a
submodule a kept file still loads, and one the reader never reads stay as they were."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from slimfork.testsuite.loads import add_loads, lost_loads, needed_loads
from tests.mapping.registrykit import write_project

EXT = {  # a package outside the project whose __init__ does not import its submodule `testing`
    "extlib/__init__.py": "",
    "extlib/testing.py": "class Runner:\n    def run(self, f, *a):\n        return f(*a)\n",
}

FILES = {
    "pyproject.toml": '[project]\nname = "cpkg"\nversion = "1.0"\n',
    "cpkg/__init__.py": "",
    "cpkg/core.py": "def add(a, b):\n    return a + b\n",
    "cpkg/cli.py": "import sys\n\nfrom cpkg.core import add\n\n\ndef main(argv):\n    print(add(*map(int, argv)))\n",
    "tests/__init__.py": "",
    "tests/test_cli.py": """
        from extlib.testing import Runner

        from cpkg import cli


        def test_main(capsys):
            Runner().run(cli.main, ["1", "2"])
            assert capsys.readouterr().out == "3\\n"
    """,
    "tests/test_prompt.py": '''
        """Prompts."""
        from __future__ import annotations

        import extlib

        from cpkg.core import add


        def test_add():
            assert extlib.testing.Runner().run(add, 1, 2) == 3
    ''',
    "tests/test_plain.py": """
        import extlib

        from cpkg.core import add


        def test_plain():
            assert add(2, 2) == 4 and extlib is not None
    """,
}


def test_a_kept_test_imports_the_submodule_only_a_removed_file_loaded(tmp_path):
    ext = tmp_path / "ext"
    for rel, text in EXT.items():
        (ext / rel).parent.mkdir(parents=True, exist_ok=True)
        (ext / rel).write_text(text)
    spec = 'source = "."\nroots = ["cpkg.core"]\ntests = ["tests"]\n[symbols]\npublic_api = "roots"\n' \
           'package_api = false\n'
    root = write_project(tmp_path / "proj", FILES, spec)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert not (fork / "cpkg/cli.py").exists() and not (fork / "tests/test_cli.py").exists()
    prompt = (fork / "tests/test_prompt.py").read_text()
    assert "    import extlib.testing\n" in prompt and prompt.index("from __future__") < prompt.index("extlib.testing")
    assert (fork / "tests/test_plain.py").read_text() == (root / "tests/test_plain.py").read_text()
    env = {"PYTHONPATH": str(ext), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                          capture_output=True, text=True, env=env)
    assert done.returncode == 0 and "2 passed" in done.stdout, done.stdout[-2000:]


def test_what_counts_as_lost_and_needed():
    gone = {"t/gone.py": b"import a.b.c\nfrom unittest import mock\nfrom x.y import Thing\nmock.patch\n"}
    cut = {"t/cut.py": (b"import p.q\nimport r.s\n", b"import r.s\n")}
    kept = {"t/keep.py": b"import a.b\n"}
    lost = lost_loads(gone, cut, kept)
    assert set(lost) == {"a.b.c", "unittest.mock", "x.y", "p.q"}  # a.b: kept loads it; Thing: never read as one
    reader = b"import a\nimport unittest\nimport x.y\nimport p\n\ndef f():\n    return a.b.c.d, unittest.mock.ANY, " \
             b"x.y.z, p.q\n"
    assert needed_loads(reader, lost) == {"a.b.c": "t/gone.py", "unittest.mock": "t/gone.py", "p.q": "t/cut.py"}
    assert needed_loads(b"import os\nos.path.join\n", lost_loads({"g.py": b"import os.path\n"}, {}, {})) == {}
    out = add_loads(b'"""Doc."""\n\n@deco\ndef f():\n    pass\n', {"a.b.c": "t/gone.py"})
    assert out.startswith(b'"""Doc."""\n\ntry:  # slimfork: t/gone.py') and b"    import a.b.c\n" in out
    assert out.index(b"import a.b.c") < out.index(b"@deco")
