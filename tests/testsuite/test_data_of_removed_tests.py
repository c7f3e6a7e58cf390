"""Test data only removed tests read goes: apache-libcloud 3.9.1 sliced to EC2 kept 264,876 lines of JSON fixtures
of the removed drivers' tests, read through a helper as ``ComputeFileFixtures("gce").load("x.json")``. A data folder
a removed test names and no kept test file mentions goes, with the test that named it; one a kept test mentions, or
that a kept test listing directories above it may read, stays."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

HELPER = ("import os\n\n\nclass Fixtures:\n    def __init__(self, sub):\n"
          "        self.root = os.path.join(os.path.dirname(__file__), 'fixtures', sub)\n\n"
          "    def load(self, name):\n        with open(os.path.join(self.root, name)) as f:\n"
          "            return f.read()\n")
FILES = {
    "pkg/__init__.py": "",
    "pkg/alpha.py": "def parse(text):\n    return text.strip()\n",
    "pkg/beta.py": "def parse(text):\n    return text.upper()\n",
    "tests/__init__.py": "",
    "tests/helper.py": HELPER,
    "tests/test_alpha.py": "from pkg.alpha import parse\nfrom tests.helper import Fixtures\n\n\n"
                           "def test_alpha():\n    assert parse(Fixtures('alphadata').load('x.json')) == '{}'\n",
    "tests/test_beta.py": "from pkg.beta import parse\nfrom tests.helper import Fixtures\n\n\n"
                          "def test_beta():\n    assert parse(Fixtures('betadata').load('x.json')) == '{}'\n"
                          "    assert Fixtures('shareddata').load('s.json')\n",
    "tests/fixtures/alphadata/x.json": "{}\n",
    "tests/fixtures/betadata/x.json": "{}\n",
    "tests/fixtures/betadata/deep/y.json": "[]\n",
    "tests/fixtures/shareddata/s.json": "[1]\n",
    "tests/fixtures/other/z.json": "[2]\n",
}
SPEC = 'source = "."\nroots = ["pkg.alpha"]\ntests = ["tests"]\n[symbols]\npublic_api = "roots"\npackage_api = false\n'


def _fork(tmp_path, files):
    root = write_project(tmp_path, files, SPEC)
    fork = tmp_path / "fork"
    result = shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    return fork, result


def test_data_folders_only_removed_tests_name_go_with_the_test_named(tmp_path):
    files = {**FILES, "tests/test_shared.py": "def test_shared():\n    assert 'shareddata'\n",
             "tests/test_mixed.py": "from pkg.alpha import parse\nfrom pkg.beta import parse as upper\n\n\n"
                                    "def test_alpha():\n    assert parse(' x') == 'x'\n\n\n"
                                    "def test_beta():\n    assert upper('betadata')\n"}  # a cut test names it
    fork, result = _fork(tmp_path, files)
    assert not (fork / "tests/test_beta.py").exists()
    assert not (fork / "tests/fixtures/betadata/x.json").exists()
    assert not (fork / "tests/fixtures/betadata/deep/y.json").exists()
    assert (fork / "tests/fixtures/alphadata/x.json").exists()
    assert (fork / "tests/fixtures/shareddata/s.json").exists()  # a kept test mentions it
    assert not (fork / "tests/fixtures/other/z.json").exists()  # nobody names it (session 46: it goes)
    removed = {r.path: r.reason for r in result.analysis.stages.test_removals}
    assert "tests/test_beta.py" in removed["tests/fixtures/betadata/x.json"]
    assert "'betadata'" in removed["tests/fixtures/betadata/x.json"]
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                          capture_output=True, text=True)
    assert done.returncode == 0 and "3 passed" in done.stdout, done.stdout[-2000:]
    assert "upper" not in (fork / "tests/test_mixed.py").read_text()


def test_a_kept_test_listing_directories_above_keeps_the_data(tmp_path):
    files = {**FILES, "tests/test_all.py": "import os\n\n\ndef test_all():\n"
                                           "    assert os.listdir(os.path.dirname(__file__))\n"}
    fork, _ = _fork(tmp_path, files)
    assert not (fork / "tests/test_beta.py").exists()
    assert (fork / "tests/fixtures/betadata/x.json").exists()
    assert (fork / "tests/fixtures/other/z.json").exists()


def test_a_folder_nothing_names_goes_unless_kept_library_code_does(tmp_path):
    """libcloud's ``fixtures/hostvirtual/``: no test of the release names it. A kept module naming it (in any case,
    ``-`` for ``_``: a test may build the path from a driver's name) keeps it."""
    files = {**FILES, "pkg/alpha.py": FILES["pkg/alpha.py"] + "NAME = 'Host-Virtual'\n",
             "tests/fixtures/host_virtual/h.json": "{}\n", "tests/fixtures/gone_host/g.json": "{}\n"}
    fork, result = _fork(tmp_path, files)
    assert (fork / "tests/fixtures/host_virtual/h.json").exists()
    assert not (fork / "tests/fixtures/gone_host/g.json").exists()
    why = {r.path: r.reason for r in result.analysis.stages.test_removals}["tests/fixtures/gone_host/g.json"]
    assert "no test file of the original nor kept library file names its folder 'gone_host'" in why


def test_a_folder_another_data_file_names_stays(tmp_path):
    """fontTools 4.68.0: ``Tests/feaLib/data/include/subdir/include2.fea`` is named by no test file, but the kept
    test's ``include3.fea`` holds ``include(subdir/include2.fea);``: the folder went and the test failed in the
    fork. A data file outside a folder that names it reads it as a test does; a folder only its own files name
    still goes, and so does one only removed tests name where no data file names it."""
    files = {**FILES,
             "tests/test_alpha.py": FILES["tests/test_alpha.py"] + "\n\ndef test_include():\n"
             "    assert 'include(' in Fixtures('alphadata').load('main.fea')\n",
             "tests/fixtures/alphadata/main.fea": "include(subdir/inner.fea);\n",
             "tests/fixtures/alphadata/subdir/inner.fea": "feature x;\n",
             "tests/fixtures/lonely/self.txt": "lonely names itself\n"}
    fork, _ = _fork(tmp_path, files)
    assert (fork / "tests/fixtures/alphadata/subdir/inner.fea").exists()
    assert not (fork / "tests/fixtures/lonely/self.txt").exists()
    assert not (fork / "tests/fixtures/betadata/x.json").exists()
