"""Native sources follow their builders: setup.py and CMakeLists.txt folded with the platform facts."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from slimfork.facts.model import FUNCTION, NAME, Fact, FactSet
from slimfork.kernels.builders import NATIVE_SUFFIXES, plan_builders


def _facts(sys_platform: str, os_name: str, system: str | None = None) -> FactSet:
    facts = [Fact(NAME, "sys.platform", sys_platform, "facts.sys_platform"),
             Fact(NAME, "os.name", os_name, "facts.os_name")]
    if system:
        facts.append(Fact(FUNCTION, "platform.system", system, "facts.platform_system"))
    return FactSet(facts=facts)


def _plan(root: Path, facts: FactSet):
    files = sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())
    native = [f for f in files if f.endswith(NATIVE_SUFFIXES)]
    plan = plan_builders(root, files, native, facts)
    return {r.path: r.reason for r in plan.removals}, plan


def _line(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def test_linux_facts_drop_what_only_other_platform_branches_build(copy_fixture):
    root = copy_fixture("kernels", "cext")
    removed, plan = _plan(root, _facts("linux", "posix", "Linux"))
    setup = root / "setup.py"
    assert set(removed) == {"src/arch/windows/name.c", "src/arch/windows/winonly.h", "src/cext/_core_windows.c",
                            "src/arch/osx/name.c", "cmake/src/win/backend.c", "cmake/src/win/win.h",
                            "cmake/src/mac/backend.c"}
    assert removed["src/arch/windows/name.c"] == \
        f"native source only the branch `if WINDOWS:` of setup.py:{_line(setup, 'if WINDOWS:')} builds"
    assert removed["src/arch/osx/name.c"] == \
        f"native source only the branch `elif MACOS:` of setup.py:{_line(setup, 'elif MACOS:')} builds"
    assert "included by src/arch/windows/name.c" in removed["src/arch/windows/winonly.h"]
    assert "`if(WIN32)` block of cmake/CMakeLists.txt:6" in removed["cmake/src/win/backend.c"]
    assert "`elseif(APPLE)` block" in removed["cmake/src/mac/backend.c"]
    # what a live branch builds, what a live source includes, and what no builder names stay
    assert "src/arch/linux/linux_names.h" not in removed and "src/include/arch.h" not in removed
    assert "src/tools/bench.c" not in removed and "cmake/src/extra/extra.c" not in removed
    by_path = {b.path: b for b in plan.builders}
    assert by_path["setup.py"].conditions_folded == 3 and not by_path["setup.py"].unknown


def test_other_facts_keep_their_own_platform(copy_fixture):
    root = copy_fixture("kernels", "cext")
    removed, _ = _plan(root, _facts("darwin", "posix"))
    assert "src/arch/osx/name.c" not in removed and "cmake/src/mac/backend.c" not in removed
    assert {"src/arch/linux/name.c", "src/arch/linux/linux_names.h", "cmake/src/posix/backend.c"} <= set(removed)
    removed, _ = _plan(root, _facts("win32", "nt"))
    assert "src/arch/windows/winonly.h" not in removed and "src/arch/linux/name.c" in removed


def test_unknown_keeps(copy_fixture):
    root = copy_fixture("kernels", "cext")
    assert _plan(root, FactSet())[0] == {}  # no platform fact: nothing decided
    setup = root / "setup.py"
    text = setup.read_text()
    # a computed piece keeps every file the pattern could match
    setup.write_text(text.replace('glob.glob("src/arch/linux/*.c")',
                                  'glob.glob(os.path.join("src", "arch", sys.platform[:5], "*.c"))'))
    removed, _ = _plan(root, _facts("linux", "posix"))
    assert {p for p in removed if p.startswith("src/")} == {"src/cext/_core_windows.c"}  # named only there
    # a listing the analysis cannot read keeps every native file below the builder
    setup.write_text(text.replace('glob.glob("src/arch/linux/*.c")', "glob.glob(os.environ['PATTERN'])"))
    removed, plan = _plan(root, _facts("linux", "posix"))
    assert not any(p.startswith("src/") for p in removed)
    assert "lists files at run time" in plan.builders[1].unknown[0]


def test_the_fork_still_builds(copy_fixture, tmp_path):
    from slimfork.api import shrink

    root = copy_fixture("kernels", "cext")
    out = tmp_path / "fork"
    result = shrink(root / "slimfork.toml", out=out, verify=False)
    assert not (out / "src/arch/windows").exists() and not (out / "src/arch/osx").exists()
    assert (out / "src/arch/linux/name.c").is_file()
    report = (tmp_path / "fork.report" / "report.md").read_text()
    assert "Native sources of other platforms" in report and "`if WINDOWS:` of setup.py" in report
    folded = (out / "setup.py").read_text()
    assert "WINDOWS" not in folded and "MACOS" not in folded and "sys.exit" not in folded
    assert 'sources += glob.glob("src/arch/linux/*.c")' in folded
    shutil.rmtree(out / "cmake")  # not part of the Python build
    subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=out, check=True,
                   capture_output=True)
    run = subprocess.run([sys.executable, "-c", "import cext; print(cext.arch_name())"], cwd=out / "src",
                         capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "linux"
    assert result is not None


@pytest.mark.skipif(shutil.which("cmake") is None, reason="cmake is not installed")
def test_the_cmake_fork_still_builds(copy_fixture, tmp_path):
    root = copy_fixture("kernels", "cext")
    removed, _ = _plan(root, _facts("linux", "posix"))
    for rel in removed:
        (root / rel).unlink()
    build = tmp_path / "build"
    subprocess.run(["cmake", "-S", str(root / "cmake"), "-B", str(build)], check=True, capture_output=True)
    subprocess.run(["cmake", "--build", str(build)], check=True, capture_output=True)
    assert subprocess.run([str(build / "demo")], capture_output=True, text=True).stdout.strip() == "posix"


def test_a_module_setup_py_imports_stays(copy_fixture):
    from slimfork.api import analyse

    root = copy_fixture("kernels", "cext")
    (root / "src/cext/__init__.py").write_text("from cext._core import arch_name\n\n__all__ = ['arch_name']\n")
    with (root / "src/cext/_flags.py").open("a") as f:
        f.write('VERSION = "1.0"\n')
    setup = root / "setup.py"
    setup.write_text(setup.read_text().replace("WINDOWS  # noqa", "WINDOWS, VERSION  # noqa")
                     .replace('version="1.0"', "version=VERSION"))
    analysis = analyse(root / "slimfork.toml")
    # setup.py is a root (pip runs it to build the fork): the flags module it takes VERSION from stays, where it
    # used to go with only a warning that the build would fail
    assert "src/cext/_flags.py" not in analysis.plan.removed_paths()
    assert analysis.graph.reached["cext._flags"].via == "setup"
    assert not [w for w in analysis.plan.warnings if "setup.py imports" in w]
    assert "src/arch/windows/name.c" in analysis.plan.removed_paths()  # still decided with the flags' values


@pytest.mark.slow
def test_psutil_keeps_only_what_its_linux_branch_builds_and_still_builds(tmp_path):
    from slimfork.api import shrink

    spec = tmp_path / "psutil.toml"
    spec.write_text('source = "pypi:psutil==7.2.2"\ndist = "sdist"\nroots = ["psutil.**"]\n'
                    '[facts]\nsys_platform = "linux"\nos_name = "posix"\n')
    out = tmp_path / "fork"
    shrink(spec, out=out, verify=False)
    native = {p.relative_to(out).as_posix() for p in out.rglob("*.c")}
    assert "psutil/_psutil_linux.c" in native and "psutil/arch/linux/proc.c" in native
    assert not any(p.startswith(("psutil/arch/windows/", "psutil/arch/osx/", "psutil/arch/freebsd/"))
                   or p.endswith(("_windows.c", "_osx.c", "_bsd.c")) for p in native)
    setup = (out / "setup.py").read_text()
    assert "if WINDOWS" not in setup and "elif MACOS" not in setup and "glob.glob(\"psutil/arch/linux/*.c\")" in setup
    subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=out, check=True,
                   capture_output=True)
    run = subprocess.run([sys.executable, "-c", "import psutil; print(psutil.Process().pid > 0, psutil.cpu_count())"],
                         cwd=out, capture_output=True, text=True, check=True)
    assert run.stdout.startswith("True")


@pytest.mark.parametrize("condition, linux, windows", [
    ("WIN32", "false", "true"),
    ("UNIX AND NOT APPLE", "true", "false"),
    ("NOT MSVC", "true", "unknown"),  # Windows may be MinGW
    ('CMAKE_SYSTEM_NAME STREQUAL "Linux"', "true", "false"),
    ("${CMAKE_SYSTEM_NAME} MATCHES Darwin OR WIN32", "false", "true"),
    ("WIN32 OR USE_FOO", "unknown", "true"),
    ("NOT (WIN32 OR UNIX)", "unknown", "unknown"),  # parentheses are not read
])
def test_cmake_conditions(condition, linux, windows):
    from slimfork.kernels.cmake import _commands, _condition, platform_values

    [(name, args, line)] = list(_commands(f"# a comment\nif({condition})"))
    assert (name, line) == ("if", 2)
    assert _condition(args, platform_values("linux", None, "posix")).value == linux
    assert _condition(args, platform_values("win32", None, "nt")).value == windows


def test_a_local_name_hides_the_flag(copy_fixture):
    root = copy_fixture("kernels", "cext")
    setup = root / "setup.py"
    setup.write_text(setup.read_text().replace('sources = ["src/cext/_core.c"]\n', '''sources = ["src/cext/_core.c"]


def extra(WINDOWS):
    if WINDOWS:
        return ["src/cext/_core_windows.c"]
    return []
'''))
    removed, _ = _plan(root, _facts("linux", "posix"))
    assert "src/cext/_core_windows.c" not in removed and "src/arch/windows/name.c" in removed


def test_plan_counts_native_lines_apart_from_python(copy_fixture, capsys):
    from slimfork.cli import main

    root = copy_fixture("kernels", "cext")
    assert main(["plan", str(root / "slimfork.toml")]) == 0
    summary = capsys.readouterr().out.replace("\n", " ")
    assert " 0 of " in summary and "Python lines removed (and " in summary and "lines of other files)" in summary


def _suite(tree: Path) -> str:
    """Build the extension in place and run the project's own tests against it: the summary line."""
    subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=tree, check=True,
                   capture_output=True)
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "tests"], cwd=tree,
                         capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(tree / "pkg")})
    return run.stdout.strip().splitlines()[-1]


@pytest.mark.slow
def test_setproctitle_linux_fork_folds_setup_py_and_c_and_passes_its_suite(tmp_path):
    from slimfork.api import shrink
    from slimfork.spec.load import load_spec

    profile = Path(__file__).parents[2] / "profiles" / "setproctitle-linux.toml"
    result = shrink(load_spec(profile), tmp_path / "fork", jobs=1)
    fork = tmp_path / "fork"
    assert not (fork / "src/darwin_set_process_name.c").exists() and (fork / "src/spt_status.c").exists()
    setup, status = (fork / "setup.py").read_text(), (fork / "src/spt_status.c").read_text()
    assert "darwin" not in setup and 'define_macros["HAVE_SYS_PRCTL_H"] = 1' in setup
    directives = [line for line in status.splitlines() if line.startswith("#")]
    named = {word for d in directives for word in re.findall(r"\w+", d)}
    assert not named & {"__darwin__", "_WIN32", "WIN32", "BSD", "HAVE_SETPROCTITLE"}  # PS_USE_WIN32 stays: derived
    assert "#include <sys/prctl.h>          /* for Linux >= 2.6.9 */" in directives
    assert result.apply is not None and result.apply.restored == []
    original = tmp_path / "original"
    shutil.copytree(result.analysis.tree.root, original)
    before, after = _suite(original), _suite(fork)
    assert "passed" in before and "failed" not in before
    assert after.split(" in ")[0] == before.split(" in ")[0]  # "25 passed, 3 skipped" in both
