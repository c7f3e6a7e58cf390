"""What pip reads to build the fork stays. Found on coverage 7.17.5 (root coverage.cmdline): its setup.py opens
"coverage/pth_file.py" to write the .pth file it installs, and nothing imports that module, so the fork could not
be built. setup.py is a root (what it imports stays) and a literal path to a .py file names that file; the module a
pyproject reads the version from (`[tool.setuptools.dynamic] version = {attr = ...}`, hatch's or pdm's
`[tool.*.version] path`) is a root too."""

from __future__ import annotations

from tests.mapping.registrykit import write_project

from slimfork.api import analyse

FILES = {
    "pyproject.toml": """
        [build-system]
        requires = ["setuptools"]
        build-backend = "setuptools.build_meta"

        [project]
        name = "bpkg"
        dynamic = ["version"]

        [tool.setuptools.dynamic]
        version = {attr = "bpkg.about.__version__"}
        """,
    "setup.py": """
        from setuptools import setup

        from bpkg.buildhelp import banner

        with open("bpkg/_pth.py", encoding="utf-8") as f:
            code = f.read()
        setup(data_files=[(".", [banner(code)])])
        """,
    "bpkg/__init__.py": "",
    "bpkg/core.py": "def run():\n    return 1\n",
    "bpkg/about.py": '__version__ = "1.0"\n',
    "bpkg/_pth.py": "import os\n",
    "bpkg/buildhelp.py": "def banner(code):\n    return code\n",
    "bpkg/unused.py": "X = 1\n",
}


def test_build_script_and_version_source_keep_what_they_read(tmp_path):
    project = write_project(tmp_path, FILES, 'source = "."\nroots = ["bpkg.core"]\n')
    analysis = analyse(project / "slimfork.toml", jobs=1)
    kept = {k.path: k.reason for k in analysis.plan.kept}
    assert "the path 'bpkg/_pth.py' names its file" in kept["bpkg/_pth.py"]
    assert kept["bpkg/buildhelp.py"].startswith("imported by setup (setup.py:")
    assert "version source" in kept["bpkg/about.py"]
    assert "pip runs" in analysis.graph.reached["setup"].root_reason
    assert {r.path for r in analysis.plan.removals if r.kind == "unreachable"} == {"bpkg/unused.py"}


def test_a_setup_cfg_version_attr_keeps_its_module_and_the_name(tmp_path):
    """``[metadata] version = attr: cpkg._meta.__version__`` in setup.cfg: setuptools reads the module to build the
    fork; with ``package_api = false`` it was removed and ``pip install`` of the fork failed (lead's adversarial
    round, session 36)."""
    files = {
        "pyproject.toml": '[build-system]\nrequires = ["setuptools>=61"]\nbuild-backend = "setuptools.build_meta"\n',
        "setup.cfg": "[metadata]\nname = cpkg\nversion = attr: cpkg._meta.__version__\n\n[options]\npackages = find:\n",
        "cpkg/__init__.py": "from ._meta import __version__\n",
        "cpkg/_meta.py": '__version__ = "1.3"\n',
        "cpkg/core.py": "def run():\n    return 1\n",
    }
    spec = 'source = "."\nroots = ["cpkg.core"]\n\n[symbols]\npublic_api = "roots"\npackage_api = false\n'
    analysis = analyse(write_project(tmp_path, files, spec) / "slimfork.toml", jobs=1)
    kept = {k.path: k.reason for k in analysis.plan.kept}
    assert "version source of setup.cfg" in kept["cpkg/_meta.py"]
    assert not [r for r in analysis.plan.removals if r.path == "cpkg/_meta.py"]


def test_a_cffi_build_script_named_with_its_object_is_kept_by_setup(tmp_path):
    """bcrypt 3.2.2's ``cffi_modules=["src/build_bcrypt.py:ffi"]``: setup.py names the script cffi runs to build the
    extension, with the object after a colon; the audit called it a file nothing reaches, and the C sources it
    names kernels nothing loads."""
    files = {
        "setup.py": 'from setuptools import setup\nsetup(name="bpkg", cffi_modules=["bpkg/_build_ffi.py:ffi"])\n',
        "bpkg/__init__.py": "",
        "bpkg/_build_ffi.py": "import cffi\nffi = cffi.FFI()\n",
    }
    project = write_project(tmp_path, files, 'source = "."\nroots = ["bpkg"]\n')
    kept = {k.path: k.reason for k in analyse(project / "slimfork.toml", jobs=1).plan.kept}
    assert "the path 'bpkg/_build_ffi.py' names its file" in kept["bpkg/_build_ffi.py"]


def test_a_file_hatch_force_includes_stays(tmp_path):
    """jupyter_core 5.9.1's ``[tool.hatch.build.force-include] "./jupyter.py" = "jupyter.py"``: nothing imports
    jupyter.py (``python -m jupyter``), the plan removed it, and the fork's build stopped ("Forced include not
    found") until the install check put it back."""
    files = {"pyproject.toml": '[project]\nname = "hpkg"\nversion = "1.0"\n'
                               '[tool.hatch.build.force-include]\n"./launch.py" = "launch.py"\n'
                               '[tool.hatch.build.targets.sdist.force-include]\n"tools/gen.py" = "gen.py"\n',
             "launch.py": "if __name__ == '__main__':\n    from hpkg.cli import main\n    main()\n",
             "tools/gen.py": "X = 1\n", "hpkg/__init__.py": "", "hpkg/core.py": "",
             "hpkg/cli.py": "def main():\n    pass\n", "hpkg/unused.py": "Y = 1\n"}
    project = write_project(tmp_path, files, 'source = "."\nroots = ["hpkg.core"]\n')
    analysis = analyse(project / "slimfork.toml", jobs=1)
    kept = {k.path: k.reason for k in analysis.plan.kept}
    assert kept["launch.py"] == ("launch.py: force-included by [tool.hatch.build] (pyproject.toml): the build "
                                 "stops without it")
    assert "tools/gen.py" in kept and kept["hpkg/cli.py"].startswith("imported by launch")
    assert "hpkg/unused.py" not in kept
