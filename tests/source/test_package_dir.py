"""The folder the build configuration declares for the packages is the Python root (setproctitle keeps its
package in pkg/setproctitle, declared by setup.py's package_dir): the draft roots the package, not the folder."""

from __future__ import annotations

import pytest

from slimfork.init.draft import draft_spec
from slimfork.source.layout import open_tree
from slimfork.source.package_dir import declared_python_root


def _project(tmp_path, files: dict[str, str]):
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path


@pytest.mark.parametrize("config, text, folder", [
    ("setup.py", 'from setuptools import setup\nsetup(name="p", package_dir={"p": "pkg/p"}, packages=["p"])\n', "pkg"),
    ("setup.py", 'from setuptools import setup\nsetup(name="p", package_dir={"": "lib"})\n', "lib"),
    # mlx: the mapping bound to a name first
    ("setup.py", 'from setuptools import setup\npackage_dir = {"": "python"}\nsetup(name="p", package_dir=package_dir)\n',
     "python"),
    ("setup.cfg", "[options]\npackage_dir =\n    =lib\n", "lib"),
    ("pyproject.toml", '[tool.setuptools.package-dir]\n"" = "lib"\n', "lib"),
    ("pyproject.toml", '[tool.hatch.build.targets.wheel]\npackages = ["lib/p"]\n', "lib"),
    ("pyproject.toml", '[tool.poetry]\npackages = [{include = "p", from = "lib"}]\n', "lib"),
    # cbor2 6.3.0: setuptools maps the packages `find` finds under `where` to that folder
    ("pyproject.toml", '[tool.setuptools.packages.find]\nwhere = ["python"]\n', "python"),
])
def test_declared_folder(tmp_path, config, text, folder):
    root = _project(tmp_path, {config: text, f"{folder}/p/__init__.py": "X = 1\n"})
    assert declared_python_root(root) == folder
    tree = open_tree(root)
    assert tree.python_root == root / folder and tree.packages == ["p"]


def test_a_name_bound_to_two_mappings_declares_nothing(tmp_path):
    root = _project(tmp_path, {"setup.py": 'd = {"": "lib"}\nif X:\n    d = {"": "other"}\nsetup(package_dir=d)\n',
                                 "lib/p/__init__.py": "", "other/q/__init__.py": ""})
    assert declared_python_root(root) is None


def test_two_folders_or_none_declared_fall_back_to_the_guess(tmp_path):
    root = _project(tmp_path, {"setup.py": 'setup(package_dir={"a": "x/a", "b": "y/b"})\n',
                                 "x/a/__init__.py": "", "y/b/__init__.py": "", "src/q/__init__.py": ""})
    assert declared_python_root(root) is None
    assert open_tree(root).packages == ["q"]
    assert declared_python_root(_project(tmp_path / "plain", {"setup.py": "setup(name='q')\n"})) is None


def test_the_draft_roots_the_declared_package(tmp_path):
    root = _project(tmp_path, {
        "setup.py": 'from setuptools import setup\nsetup(name="p", package_dir={"p": "pkg/p"}, packages=["p"])\n',
        "pkg/p/__init__.py": "import sys\nif sys.platform == 'win32':\n    X = 1\n",
        "tests/test_p.py": "import p\n"})
    text, _ = draft_spec(str(root))
    assert 'roots = ["p.**"]' in text or '"p.**"' in text
    assert "pkg.**" not in text


CRCMOD = """from distutils.core import setup
import sys, os

if sys.version_info[0] == 2:
    base_dir = 'python2'
elif sys.version_info[0] == 3:
    base_dir = 'python3'

setup_dict = dict(name='crc', packages=['crc'], package_dir={'crc': os.path.join(base_dir, 'crc')})
try:
    setup(**setup_dict)
except:
    setup(**setup_dict)
"""


@pytest.mark.parametrize("test", ["sys.version_info[0] == 3", "sys.version_info >= (3,)",
                                  "sys.version_info[:2] > (2, 7)", "sys.version_info.major != 2"])
def test_a_package_dir_chosen_by_the_python_version(tmp_path, test):
    """crcmod's setup.py picks ``python2/`` or ``python3/`` at run time: the folder this Python builds from is
    the python root (the draft's roots were ``python2.**``, ``python3.**``, and the tests could not import
    ``crc`` from the source)."""
    setup = CRCMOD.replace("sys.version_info[0] == 3", test)
    for folder in ("python2", "python3"):
        (tmp_path / folder / "crc").mkdir(parents=True)
        (tmp_path / folder / "crc" / "__init__.py").write_text("print 'x'\n" if folder == "python2" else "X = 1\n")
    (tmp_path / "setup.py").write_text(setup)
    assert declared_python_root(tmp_path) == "python3"
    tree = open_tree(tmp_path)
    assert tree.python_root == tmp_path / "python3" and tree.packages == ["crc"]


def test_a_folder_chosen_by_something_else_declares_nothing(tmp_path):
    (tmp_path / "a" / "crc").mkdir(parents=True)
    (tmp_path / "b" / "crc").mkdir(parents=True)
    (tmp_path / "setup.py").write_text(CRCMOD.replace("sys.version_info[0] == 2", "os.environ.get('X')")
                                       .replace("python2", "a").replace("python3", "b")
                                       .replace("elif sys.version_info[0] == 3", "else"))
    assert declared_python_root(tmp_path) is None


def test_a_compiled_extension_with_only_stubs_says_so(tmp_path):
    """ciso8601 2.4.1: ``module.c`` and ``ciso8601/__init__.pyi``; the hint told a newcomer to point source at the
    folder that holds the packages."""
    from slimfork.errors import SpecError

    (tmp_path / "ciso").mkdir()
    (tmp_path / "ciso" / "__init__.pyi").write_text("def parse(s: str) -> int: ...\n")
    (tmp_path / "module.c").write_text("int x;\n")
    (tmp_path / "setup.py").write_text("from setuptools import setup\nsetup(name='ciso')\n")
    with pytest.raises(SpecError) as exc:
        open_tree(tmp_path)
    assert exc.value.key == "source" and "not Python" in exc.value.hint and "ciso/__init__.pyi" in exc.value.hint
    assert "module.c" in exc.value.hint
