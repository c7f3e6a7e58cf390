"""A test file named after a module tests that module (``tests/test_command.py`` for ``deepdiff.commands``,
``tests/test_asf.py`` for ``mutagen.asf._objects``): when no root reaches the module, the file is no reason to keep
it as test support, though it also imports kept code. Before, symbol pruning kept the module whole as the support of
"a test of kept code", and with it every name of kept modules it used (deepdiff's ``commands`` kept ``DeepDiff``,
``Delta``, ``extract`` and ``grep`` in a ``DeepHash`` fork); then the tests stage removed the file with the module."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "sub"\nversion = "1.0"\n',
    "sub/__init__.py": "",
    "sub/core.py": "def load(x):\n    return x.upper()\n\n\ndef shout(x):\n    return x + '!'\n",
    "sub/commands.py": "from sub.core import shout\n\n\ndef main(x):\n    return shout(x)\n",
    "sub/testing.py": "from sub.core import shout\n\n\ndef sample():\n    return shout('s')\n",
    "tests/__init__.py": "",
    "tests/test_command.py": "from sub.commands import main\nfrom sub.core import load\n\n\n"
                             "def test_main():\n    assert main('a') == 'a!'\n\n\n"
                             "def test_load():\n    assert load('a') == 'A'\n",
    "tests/test_core.py": "from sub.core import load\nfrom sub.testing import sample\n\n\n"
                          "def test_load_sample():\n    assert load(sample()) == 'S!'\n",
}
SPEC = ('source = "."\nroots = ["sub.core:load"]\ntests = ["tests"]\n\n[symbols]\npublic_api = "roots"\n'
        'package_api = false\n')


def test_the_names_a_test_file_is_named_after():
    from slimfork.source.test_subjects import names_its_subject, tests_subject

    assert tests_subject("tests/test_command.py") == "command" and tests_subject("t/phonenumberutiltest.py")
    assert tests_subject("tests/conftest.py") is None and tests_subject("tests/helpers.py") is None
    assert names_its_subject("tests/test_command.py", "pkg.commands")
    assert names_its_subject("tests/test__riff.py", "mutagen._riff")
    assert names_its_subject("tests/test_asf.py", "mutagen.asf._objects")
    assert not names_its_subject("tests/test_mutagen.py", "mutagen.asf")  # the top package names no module
    assert not names_its_subject("tests/test_core.py", "pkg.testing")
    assert names_its_subject("w/tests/test_registry_europe.py", "workalendar.registry")  # the subject first
    assert not names_its_subject("w/tests/test_registry_europe.py", "workalendar.europe")


def test_a_module_the_test_file_is_named_after_is_no_support(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert not (fork / "sub/commands.py").exists()
    assert "sub.commands" not in (fork / "tests/test_command.py").read_text()  # its test of kept code stays
    assert (fork / "sub/testing.py").is_file()  # test support of tests/test_core.py, which it is not named after
    assert "def shout" in (fork / "sub/core.py").read_text()  # testing.py uses it
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                          capture_output=True, text=True)
    assert done.returncode == 0 and "2 passed" in done.stdout, done.stdout[-2000:]


def test_the_kept_name_goes_when_only_the_subject_used_it(tmp_path):
    files = {k: v for k, v in FILES.items() if k not in ("sub/testing.py", "tests/test_core.py")}
    root = write_project(tmp_path, files, SPEC)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert "def shout" not in (fork / "sub/core.py").read_text()
    assert not (fork / "sub/commands.py").exists()
    assert "def test_main" not in (fork / "tests/test_command.py").read_text()
