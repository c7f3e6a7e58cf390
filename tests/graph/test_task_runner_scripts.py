"""A Python file outside the packages that the fork keeps as written runs what it names with ``-m``, as a Makefile
does: invoke's ``tasks.py`` (``c.run("python -m pkg.tools.gen")``), a ``noxfile.py`` (``session.run("python", "-m",
"pkg.tools.gen")``). Before, only non-Python files were read for ``-m``: the tool left the fork while the task
file stayed, and running the task failed with ModuleNotFoundError, exit 0 (session 42, both `[symbols]` modes).
So does any kept text file that is no prose, whatever its name (a lowercase ``makefile``, a systemd unit)."""

from __future__ import annotations

import pytest

from tests.soundness.soundkit import shrink_and_run_main

RUNNERS = {
    "tasks.py": 'from invoke import task\n\n\n@task\ndef gen(c):\n    c.run("python -m pkg.tools.gen")\n',
    "noxfile.py": 'import nox\n\n\n@nox.session\ndef gen(session):\n    session.run("python", "-m", "pkg.tools.gen")\n',
}
FILES = {"pkg/__init__.py": "", "pkg/app.py": "def main():\n    return 'app'\n", "pkg/tools/__init__.py": "",
         "pkg/tools/gen.py": "print('generated')\n"}


@pytest.mark.parametrize("mode", ["default", "roots"])
@pytest.mark.parametrize("runner", sorted(RUNNERS))
def test_a_task_file_keeps_the_module_it_runs(tmp_path, runner, mode):
    fork, done = shrink_and_run_main(tmp_path, {**FILES, runner: RUNNERS[runner]}, mode)
    assert done.stdout.strip() == "app", done.stderr[-2000:]
    assert (fork / runner).exists() and (fork / "pkg/tools/gen.py").exists()


def test_a_dropped_task_file_keeps_nothing(tmp_path):
    fork, _ = shrink_and_run_main(tmp_path, {**FILES, "tasks.py": RUNNERS["tasks.py"]}, "default",
                                  extra='drop = ["tasks.py"]')
    assert not (fork / "tasks.py").exists() and not (fork / "pkg/tools/gen.py").exists()


def test_a_test_running_a_module_is_no_root(tmp_path):
    test = "import subprocess, sys\n\n\ndef test_gen():\n    subprocess.run([sys.executable, '-m', 'pkg.tools.gen'])\n"
    fork, _ = shrink_and_run_main(tmp_path, {**FILES, "tests/test_gen.py": test}, "default")
    assert not (fork / "pkg/tools/gen.py").exists()


RUN_FILES = {
    "makefile": "gen:\n\tpython -m pkg.tools.gen\n",
    "GNUmakefile": "gen:\n\tpython -m pkg.tools.gen\n",
    "mk/gen.mk": "gen:\n\tpython -m pkg.tools.gen\n",
    "Justfile": "gen:\n    python -m pkg.tools.gen\n",
    "Dockerfile.dev": 'CMD ["python", "-m", "pkg.tools.gen"]\n',
    "Jenkinsfile": "stage('gen') { steps { sh 'python -m pkg.tools.gen' } }\n",
    "deploy/gen.service": "[Service]\nExecStart=/usr/bin/env python -m pkg.tools.gen\n",
    "deploy/crontab": "0 * * * * python -m pkg.tools.gen\n",
    "scripts/gen.bat": "@echo off\r\npython -m pkg.tools.gen\r\n",
    ".envrc": "export GEN='python -m pkg.tools.gen'\n",
}


@pytest.mark.parametrize("name", sorted(RUN_FILES))
def test_any_kept_text_file_running_a_module_keeps_it(tmp_path, name):
    """Session 42: only a fixed list of names and suffixes was read (``Makefile``, ``.sh``, ``.yml``...): a
    lowercase ``makefile``, a ``.mk`` include, a ``Justfile``, ``Dockerfile.dev``, a systemd unit, a ``.bat``
    script ran a module the fork removed."""
    from slimfork.api import analyse
    from tests.mapping.registrykit import write_project

    project = write_project(tmp_path, {**FILES, name: RUN_FILES[name]}, 'source = "."\nroots = ["pkg.app:main"]\n')
    removed = {r.path for r in analyse(project / "slimfork.toml", jobs=1).plan.removals}
    assert "pkg/tools/gen.py" not in removed


def test_prose_running_a_module_keeps_nothing(tmp_path):
    from slimfork.api import analyse
    from tests.mapping.registrykit import write_project

    files = {**FILES, "README.md": "Run `python -m pkg.tools.gen`.\n"}
    project = write_project(tmp_path, files, 'source = "."\nroots = ["pkg.app:main"]\n')
    removed = {r.path for r in analyse(project / "slimfork.toml", jobs=1).plan.removals}
    assert "pkg/tools/gen.py" in removed


CODE_RUNS = {
    "Makefile": "gen:\n\tpython -c 'import pkg.tools.gen as g; g.main()'\n",
    "scripts/gen.sh": '#!/bin/sh\npython -c "from pkg.tools import gen; gen.main()"\n',
    "tox.ini": '[testenv:gen]\ncommands =\n    python -c "import pkg.tools.gen; pkg.tools.gen.main()"\n',
    "noxfile.py": 'import nox\n\n\n@nox.session\ndef gen(session):\n'
                  '    session.run("python", "-c", "from pkg.tools.gen import main; main()")\n',
}


@pytest.mark.parametrize("mode", ["default", "roots"])
@pytest.mark.parametrize("name", sorted(CODE_RUNS))
def test_code_run_with_python_dash_c_keeps_what_it_imports(tmp_path, name, mode):
    """Session 43: ``python -c "from pkg.tools import gen; gen.main()"`` in a Makefile, a shell script, tox or a
    noxfile kept nothing (only ``-m`` was read): the tool left the fork and the command failed, exit 0."""
    files = {**FILES, "pkg/tools/gen.py": "def main():\n    print('generated')\n", name: CODE_RUNS[name]}
    fork, done = shrink_and_run_main(tmp_path, files, mode)
    assert done.stdout.strip() == "app", done.stderr[-2000:]
    gen = fork / "pkg/tools/gen.py"
    assert gen.exists() and "def main" in gen.read_text()
