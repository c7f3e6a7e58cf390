"""A test importing another distribution's part of one of the tree's PEP 420 namespace packages
(``opentelemetry.test`` from opentelemetry-test-utils, beside opentelemetry-api's ``opentelemetry.trace``) runs code
slimfork does not see, which may import this project's modules (test-utils imports ``opentelemetry._logs``): where
the fork removes modules, the test leaves. A part the library itself imports (``google.auth`` from
google-cloud-core) is its dependency, which cannot import the project back: the tests using it stay."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink

FILES = {
    "src/nsx/core/api.py": "from nsx.dep import helper\n\n\ndef run():\n    return helper() + 1\n",
    "src/nsx/extra/gone.py": "def gone():\n    return 2\n",
    "tests/test_api.py": "from nsx.core.api import run\n\n\ndef test_run():\n    assert run() == 2\n",
    "tests/test_dep.py": "from nsx.core.api import run\nfrom nsx.dep import helper\n\n\n"
                         "def test_helper():\n    assert helper() + 1 == run()\n",
    "tests/test_util.py": "from nsx.core.api import run\nfrom nsx.testutil.fakes import fake\n\n\n"
                          "def test_fake():\n    assert fake() == run()\n",
    "slimfork.toml": 'source = "."\nroots = ["nsx.core.api"]\ntests = ["tests"]\n',
}
# installed beside the project: another distribution's parts of the namespace package nsx
OTHER = {
    "nsx/dep/__init__.py": "def helper():\n    return 1\n",
    "nsx/testutil/fakes.py": "from nsx.extra.gone import gone\n\n\ndef fake():\n    return gone()\n",
}


def _write(root, files):
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)


def test_a_test_importing_another_distributions_part_of_the_namespace_leaves(tmp_path):
    proj, other, fork = tmp_path / "proj", tmp_path / "site", tmp_path / "fork"
    _write(proj, FILES)
    _write(other, OTHER)
    shrink(proj / "slimfork.toml", fork, verify=False)
    assert not (fork / "src/nsx/extra").exists()
    assert (fork / "tests/test_api.py").is_file() and (fork / "tests/test_dep.py").is_file()
    assert not (fork / "tests/test_util.py").exists()
    report = (fork.parent / "fork.report/removed.md").read_text()
    assert "nsx.testutil, another distribution's part of the namespace package nsx" in report
    for side, path in ((proj, proj / "src"), (fork, fork / "src")):
        run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=side,
                             capture_output=True, text=True,
                             env={"PYTHONPATH": f"{path}:{other}", "PATH": "/usr/bin:/bin"})
        assert run.returncode == 0, run.stdout + run.stderr
