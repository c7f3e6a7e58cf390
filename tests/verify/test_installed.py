"""Issue 31: the fork as a user installs it. A `[[checks.command]]` with `installed = true` runs the command with
the tree pip-installed into a scratch venv (its console scripts on PATH, from an empty folder, no PYTHONPATH to
the tree), differential against the original installed the same way; an unpacked wheel (a wheel source's
original) installs as that wheel. `slimfork installed` reports install size and import times, compared to nothing.

The projects are unpacked wheels written by hand (no build: fast); the one built from a pyproject.toml is slow."""

from __future__ import annotations

import base64
import hashlib
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from slimfork.errors import SlimforkError, SpecError
from slimfork.verify.checks.command import CommandCheck
from slimfork.verify.env import current_env
from slimfork.verify.installed import installable, installed
from slimfork.verify.measure import measure_installed
from slimfork.verify.spec import parse_checks
from slimfork.verify.tools import check_program
from slimfork.verify.tree import TreeLayout

LAYOUT = TreeLayout("", ("demo",))
PACKAGE = {
    "demo/__init__.py": "from importlib.metadata import version\n\n__version__ = version('demo')\n",
    "demo/cli.py": """
        import sys

        from packaging.version import Version  # the dependency, from the verification environment

        import demo


        def main():
            if sys.argv[1:] == ["--where"]:
                print("site-packages" if "site-packages" in demo.__file__ else "tree")
            elif sys.argv[1:] == ["extra"]:
                from demo import extra
                print(extra.NAME)
            else:
                print("demo", Version(demo.__version__).public)
        """,
    "demo/extra.py": "NAME = 'extra'\n",
}
METADATA = "Metadata-Version: 2.1\nName: demo\nVersion: {version}\nRequires-Dist: packaging>=20\n"
WHEEL = "Wheel-Version: 1.0\nGenerator: hand\nRoot-Is-Purelib: true\nTag: py3-none-any\n"


def write_wheel_tree(root: Path, version: str = "1.0", scripts: str = "demo = demo.cli:main",
                     left_out: tuple[str, ...] = ()) -> Path:
    """An unpacked wheel of `demo`; `left_out` files stay in the tree but not in its RECORD (not installed)."""
    info = f"demo-{version}.dist-info"
    files = {**{k: textwrap.dedent(v).lstrip() for k, v in PACKAGE.items()},
             f"{info}/METADATA": METADATA.format(version=version), f"{info}/WHEEL": WHEEL,
             f"{info}/entry_points.txt": f"[console_scripts]\n{scripts}\n"}
    record = []
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
        if rel not in left_out:
            digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
            record.append(f"{rel},sha256={digest},{len(text.encode())}")
    (root / info / "RECORD").write_text("\n".join(record + [f"{info}/RECORD,,"]) + "\n")
    return root


def command(argv, **extra):
    return parse_checks({"command": [{"name": "c", "argv": argv, "installed": True, **extra}]}).commands[0]


def check(argv, **extra) -> CommandCheck:
    return CommandCheck(LAYOUT, current_env(), command(argv, **extra), Path("."))


def test_an_unpacked_wheel_installs_as_that_wheel(tmp_path):
    tree = write_wheel_tree(tmp_path / "orig")
    assert installable(tree) == "wheel" and installable(tmp_path) is None
    with installed(tree, Path(sys.executable), compile=False) as inst:
        assert (inst.bin / "demo").is_file()
        assert inst.metadata() == {"name": "demo", "version": "1.0", "scripts": {"demo": "demo.cli:main"}}
        run = subprocess.run([str(inst.bin / "demo")], capture_output=True, text=True, cwd=inst.work)
        assert run.stdout == "demo 1.0\n"
    assert not inst.scratch.exists()


def test_the_command_runs_the_installed_console_script_not_the_tree(tmp_path):
    original = write_wheel_tree(tmp_path / "orig")
    where = check(["demo", "--where"])
    base = where.baseline(original)
    assert base.usable and base.data.stdout == "site-packages\n"
    assert "installed" in base.note and "files" in base.note  # the size, reported
    version = check(["python", "-c", "from importlib.metadata import version; print(version('demo'))"])
    assert version.baseline(original).data.stdout == "1.0\n"


def test_a_fork_whose_install_lacks_a_module_fails_though_the_tree_has_it(tmp_path):
    """On PYTHONPATH the fork's tree still has demo/extra.py; what pip installs does not: only installed sees it."""
    original = write_wheel_tree(tmp_path / "orig")
    fork = write_wheel_tree(tmp_path / "fork", left_out=("demo/extra.py",))
    on_path = CommandCheck(LAYOUT, current_env(), parse_checks(
        {"command": [{"name": "c", "argv": ["python", "-m", "demo.cli", "extra"]}]}).commands[0], Path("."))
    assert on_path.run(fork, on_path.baseline(original)).ok
    extra = check(["demo", "extra"])
    result = extra.run(fork, extra.baseline(original))
    assert not result.ok
    assert "exit code 1, the original's 0" in result.failures[0] and "cannot import name 'extra'" in result.failures[0]


def test_a_console_script_the_fork_does_not_install_fails_the_check(tmp_path):
    original = write_wheel_tree(tmp_path / "orig")
    fork = write_wheel_tree(tmp_path / "fork", scripts="other = demo.cli:main")
    version = check(["demo"])
    result = version.run(fork, version.baseline(original))
    assert not result.ok and "exit code 127" in result.failures[0] and "demo: command not found" in result.failures[0]


def test_a_tree_that_does_not_install(tmp_path):
    original = write_wheel_tree(tmp_path / "orig")
    (tmp_path / "empty").mkdir()
    version = check(["demo"])
    result = version.run(tmp_path / "empty", version.baseline(original))
    assert not result.ok and "the fork does not install: pip:" in result.failures[0]
    assert not version.baseline(tmp_path / "empty").usable


def test_the_preflight_does_not_look_for_an_installed_command_s_program():
    """`demo` exists only once the tree is installed: not an error before any work (a plain command's would be)."""
    check_program(command(["demo-not-on-path"]), Path("."), (), "checks.command[0]")
    with pytest.raises(SlimforkError):
        plain = parse_checks({"command": [{"argv": ["demo-not-on-path"]}]}).commands[0]
        check_program(plain, Path("."), (), "checks.command[0]")


def test_spec_keys():
    assert command(["demo"]).installed is True
    assert parse_checks({"command": [{"argv": ["demo"]}]}).commands[0].installed is False
    with pytest.raises(SpecError) as err:
        command(["demo"], cwd="sub")
    assert err.value.key == "checks.command[0].cwd"
    with pytest.raises(SpecError):
        parse_checks({"command": [{"argv": ["demo"], "installed": "yes"}]})


def test_measure_reports_size_and_import_times(tmp_path):
    original = write_wheel_tree(tmp_path / "orig")
    fork = write_wheel_tree(tmp_path / "fork", version="1.0+slimfork", left_out=("demo/extra.py",))
    found = measure_installed({"original": original, "fork": fork}, current_env(), ["demo.cli", "demo.extra"], runs=2)
    orig, small = found["original"], found["fork"]
    assert (orig.version, small.version) == ("1.0", "1.0+slimfork")
    assert orig.scripts == small.scripts == {"demo": "demo.cli:main"}
    assert orig.pyc_files == len(PACKAGE) and small.pyc_files == len(PACKAGE) - 1  # pip compiles what it installs
    extra = tmp_path / "orig" / "demo" / "extra.py"
    assert orig.files - small.files == 2 and orig.bytes - small.bytes > extra.stat().st_size
    assert len(orig.imports["demo.cli"].seconds) == 2 and orig.imports["demo.cli"].median is not None
    assert orig.imports["demo.extra"].median is not None
    assert small.imports["demo.extra"].median is None and "No module named 'demo.extra'" in small.imports["demo.extra"].error


def test_the_installed_command(tmp_path):
    original = write_wheel_tree(tmp_path / "orig")
    fork = write_wheel_tree(tmp_path / "fork", left_out=("demo/extra.py",))
    (tmp_path / "slimfork.toml").write_text('source = "orig"\nroots = ["demo.cli"]\n')

    def cli(*args):
        return subprocess.run([sys.executable, "-m", "slimfork", "installed", str(tmp_path / "slimfork.toml"), *args],
                              capture_output=True, text=True)

    ok = cli(str(fork), "--runs", "1", "--json")
    assert ok.returncode == 0, ok.stderr
    data = json.loads(ok.stdout)
    assert data["modules"] == ["demo.cli"] and data["original"]["files"] == data["fork"]["files"] + 2
    broken = cli(str(fork), "--import", "demo.extra", "--runs", "1")
    assert broken.returncode == 1 and "import demo.extra fails in the fork" in broken.stdout
    assert original.is_dir()


@pytest.mark.slow  # pip builds the trees (setuptools in an isolated build env, from the index)
def test_a_built_fork_against_the_wheel_it_came_from(tmp_path):
    """A wheel source's fork has a generated pyproject.toml: built by pip, compared with the original wheel."""
    original = write_wheel_tree(tmp_path / "orig")
    fork = write_wheel_tree(tmp_path / "fork")
    pyproject = textwrap.dedent("""
        [build-system]
        requires = ["setuptools>=68"]
        build-backend = "setuptools.build_meta"

        [project]
        name = "demo"
        version = "1.0+slimfork"
        dependencies = ["packaging>=20"]

        [tool.setuptools.packages.find]
        include = ["demo", "demo.*"]
        """)
    (fork / "pyproject.toml").write_text(pyproject + '\n[project.scripts]\ndemo = "demo.cli:main"\n')
    assert installable(fork) == "build"
    meta = check(["python", "-c", "from importlib.metadata import distribution as d; m = d('demo'); "
                  "print(m.version.split('+')[0], m.requires, sorted(m.entry_points.names))"])
    base = meta.baseline(original)
    assert base.data.stdout == "1.0 ['packaging>=20'] ['demo']\n"
    assert meta.run(fork, base).ok and check(["demo"]).run(fork, check(["demo"]).baseline(original)).ok
    (fork / "pyproject.toml").write_text(pyproject)  # the console script forgotten
    result = meta.run(fork, base)
    assert not result.ok and "stdout differs" in result.failures[0]
