"""A command check is not run again on a tree in which everything its run read is as it was (verify/reads.py):
the files its Python processes opened or stat-ed, the folders they listed, the modules they looked for and did not
find. A run that starts a program that is not Python is not traced whole, so it always runs again."""

from __future__ import annotations

import os
import shutil
import textwrap
from pathlib import Path

from slimfork.verify.checks.command import CommandCheck
from slimfork.verify.env import current_env
from slimfork.verify.spec import CommandSpec
from slimfork.verify.tree import TreeLayout

LAYOUT = TreeLayout("", ("app",))

CLI = """
    import os, pathlib, subprocess, sys
    from app import core
    try:
        from app import plugin_extra
    except ImportError:
        plugin_extra = None
    print(core.VALUE, plugin_extra)
    print(pathlib.Path(core.__file__).with_name("motd.txt").read_text().strip())
    print("flag" if os.path.exists(os.path.join(os.path.dirname(core.__file__), "flag")) else "no flag")
    print(sorted(n for n in os.listdir(os.path.join(os.path.dirname(core.__file__), "plugins"))))
    print(subprocess.run([sys.executable, "-c", "import app.helper; print(app.helper.X)"],
                         capture_output=True, text=True).stdout.strip())
"""


def _project(root: Path) -> Path:
    files = {"app/__init__.py": "", "app/core.py": "VALUE = 1\n", "app/motd.txt": "hello\n", "app/flag": "",
             "app/unused.py": "Z = 0\n", "app/helper.py": "X = 'child'\n", "app/cli.py": textwrap.dedent(CLI),
             "app/plugins/a.py": "", "app/plugins/b.py": "", "app/deep/other.py": ""}
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def _pair(tmp_path: Path) -> tuple[CommandCheck, object, Path, Path]:
    original = _project(tmp_path / "original")
    spec = CommandSpec("cli", ("python", "-m", "app.cli"), match="stdout")
    check = CommandCheck(LAYOUT, current_env(), spec, tmp_path)
    baseline = check.baseline(original)
    assert baseline.usable, baseline.note
    return check, baseline, original, tmp_path / "fork"


def _fork(original: Path, fork: Path, changes: dict[str, str | None]) -> Path:
    shutil.rmtree(fork, ignore_errors=True)
    shutil.copytree(original, fork)
    for rel, text in changes.items():
        if text is None:
            (fork / rel).unlink()
        else:
            (fork / rel).parent.mkdir(parents=True, exist_ok=True)
            (fork / rel).write_text(text)
    return fork


def test_a_fork_that_changes_nothing_the_run_read_is_not_run_again(tmp_path):
    check, baseline, original, fork = _pair(tmp_path)
    result = check.run(_fork(original, fork, {"app/unused.py": None, "app/deep/other.py": None}), baseline)
    assert result.ok and result.detail.endswith("the original's run read are unchanged: not run")


def test_each_kind_of_read_makes_the_check_run_again(tmp_path):
    check, baseline, original, fork = _pair(tmp_path)
    reads = {
        "app/core.py": "VALUE = 2\n",  # imported
        "app/motd.txt": "bye\n",  # opened as data
        "app/flag": None,  # only stat-ed (os.path.exists)
        "app/plugins/b.py": None,  # its folder listed
        "app/plugin_extra.py": "",  # looked for as a module, not found in the original
        "app/helper.py": "X = 'other'\n",  # imported by a Python child process
    }
    for rel, text in reads.items():
        result = check.run(_fork(original, fork, {rel: text}), baseline)
        assert "not run" not in result.detail, rel
        assert not result.ok, rel


def test_a_tree_that_passed_stands_for_the_next_one_that_reads_the_same(tmp_path):
    check, baseline, original, fork = _pair(tmp_path)
    first = check.run(_fork(original, fork, {"app/core.py": "VALUE = 1  # same value\n"}), baseline)
    assert first.ok and "not run" not in first.detail
    again = check.run(_fork(original, fork, {"app/core.py": "VALUE = 1  # same value\n", "app/unused.py": None}),
                      baseline)
    assert again.ok and again.detail.endswith("are as in a tree that passed: not run")


def test_a_run_that_starts_a_program_other_than_python_always_runs_again(tmp_path):
    original = _project(tmp_path / "original")
    (original / "app/cli.py").write_text("import subprocess\nfrom app import core\n"
                                         "print(core.VALUE, subprocess.run(['sh', '-c', 'echo shell']).returncode)\n")
    spec = CommandSpec("cli", ("python", "-m", "app.cli"), match="stdout")
    check = CommandCheck(LAYOUT, current_env(), spec, tmp_path)
    baseline = check.baseline(original)
    assert "not Python" in baseline.data.reads and "sh" in baseline.data.reads
    result = check.run(_fork(original, tmp_path / "fork", {"app/unused.py": None}), baseline)
    assert result.ok and "not run" not in result.detail


def test_the_verify_stubs_still_load_under_the_tracer(tmp_path):
    """The tracer's sitecustomize comes first on the path and runs the stubs' sitecustomize after it."""
    original = _project(tmp_path / "original")
    (original / "app/cli.py").write_text("import not_installed_anywhere as n\nprint(n.__name__)\n")
    spec = CommandSpec("cli", ("python", "-m", "app.cli"), match="stdout", stubs=("not_installed_anywhere",))
    check = CommandCheck(LAYOUT, current_env(), spec, tmp_path)
    baseline = check.baseline(original)
    assert baseline.usable and baseline.data.stdout.strip() == "not_installed_anywhere", baseline.note


def test_an_installed_command_maps_what_it_read_in_the_install_back_to_the_tree(tmp_path):
    """`installed = true`: the run reads the scratch install's files; each is the tree's file at the same place, so
    the read set names tree paths. Metadata (the dist-info) counts whole: a changed version runs again."""
    from tests.verify.test_installed import check, write_wheel_tree

    original = write_wheel_tree(tmp_path / "orig")
    version = check(["demo"])
    baseline = version.baseline(original)
    assert baseline.usable and baseline.data.stdout == "demo 1.0\n"
    assert any(rel == "demo/cli.py" for rel, _ in baseline.data.reads.paths)
    fork = write_wheel_tree(tmp_path / "fork")
    (fork / "demo/extra.py").unlink()  # the dist-info's RECORD still lists it, as in a fork's batches
    result = version.run(fork, baseline)
    assert result.ok and result.detail.endswith("the original's run read are unchanged: not run")
    newer = write_wheel_tree(tmp_path / "newer", version="1.1")
    result = version.run(newer, baseline)
    assert not result.ok and "not run" not in result.detail


def test_the_tracer_changes_nothing_a_run_prints(tmp_path):
    """At exit the tracer reads each module's own dict: a lazy module's __getattr__ (transformers') is not asked
    for ``__file__``, which imported at exit and made sglang's commands twice as slow; a module-like object whose
    ``__path__`` is not a list (torch's ``_ClassNamespace``) does not break the trace."""
    original = _project(tmp_path / "original")
    (original / "app/cli.py").write_text(textwrap.dedent("""
        import sys, types

        class Lazy(types.ModuleType):
            def __getattr__(self, name):
                print("asked for", name)
                raise AttributeError(name)

        class Odd(types.ModuleType):
            __path__ = 3

        sys.modules["app.lazy"], sys.modules["app.odd"] = Lazy("app.lazy"), Odd("app.odd")
        from app import core
        print(core.VALUE)
        """))
    spec = CommandSpec("cli", ("python", "-m", "app.cli"), match="both")
    check = CommandCheck(LAYOUT, current_env(), spec, tmp_path)
    baseline = check.baseline(original)
    assert baseline.usable and baseline.data.stdout == "1\n" and baseline.data.stderr == ""
    assert any(rel == "app/core.py" for rel, _ in baseline.data.reads.paths)


def test_a_path_seen_through_a_symlink_is_the_tree_s(tmp_path):
    """A process may see the tree or its scratch install through a symlink (macOS's /tmp is one): the read is
    still the tree's, never dropped as a path outside it."""
    from slimfork.verify.reads import _Mapper

    tree = _project(tmp_path / "real")
    (tmp_path / "link").symlink_to(tree)
    mapper = _Mapper(tree.resolve(), "", None)
    assert mapper.rel(str(tmp_path / "link" / "app" / "core.py")) == "app/core.py"
    assert mapper.rel(str(tmp_path / "elsewhere.py")) is None


def test_the_wrapped_stat_answers_os_capability_sets_as_the_real_one(tmp_path):
    original = _project(tmp_path / "original")
    (original / "app/cli.py").write_text("import os, shutil\nprint(os.stat in os.supports_follow_symlinks, "
                                         "os.lstat in os.supports_dir_fd, shutil._use_fd_functions)\n")
    check = CommandCheck(LAYOUT, current_env(), CommandSpec("cli", ("python", "-m", "app.cli"), match="stdout"),
                         tmp_path)
    import shutil as here

    expected = f"{os.stat in os.supports_follow_symlinks} {os.lstat in os.supports_dir_fd} {here._use_fd_functions}"
    assert check.baseline(original).data.stdout.strip() == expected
