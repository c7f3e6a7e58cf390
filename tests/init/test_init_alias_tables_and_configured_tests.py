"""Two drafts ``slimfork init`` missed on kombu 5.7.0: a table of transport aliases whose values name a class as
``"pkg.transport.mem:Transport"`` or ``"pkg.transport.slow.Transport"`` (a dot where a colon was meant) was no
``mapping`` suggestion, since one value named no module; and tests in ``t/unit/``, which only pytest's ``testpaths``
names, were "no tests folder found". Accepted as drafted, the fork keeps the kept alias's transport and the tests."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap

from slimfork.api import shrink
from slimfork.cli import main

FILES = {
    "setup.cfg": "[metadata]\nname = pkg\nversion = 1.0\n\n[options]\npackages = pkg, pkg.transport\n\n"
                 "[tool:pytest]\ntestpaths = t/unit/\n",
    "pkg/__init__.py": "",
    "pkg/transport/__init__.py": """
        import importlib

        ALIASES = {
            "memory": "pkg.transport.mem:Transport",
            "mem": "pkg.transport.mem:Transport",
            "slow": "pkg.transport.slow.Transport",
            "disk": "pkg.transport.disk:Transport",
        }


        def resolve(name):
            module, _, attr = ALIASES[name].replace(":", ".").rpartition(".")
            return getattr(importlib.import_module(module), attr)
    """,
    "pkg/transport/mem.py": "class Transport:\n    name = 'memory'\n",
    "pkg/transport/slow.py": "class Transport:\n    name = 'slow'\n" + "X = 1\n" * 5,
    "pkg/transport/disk.py": "class Transport:\n    name = 'disk'\n" + "Y = 1\n" * 7,
    "t/__init__.py": "",
    "t/mocks.py": "class Fake:\n    pass\n",
    "t/unit/__init__.py": "",
    "t/unit/test_mem.py": """
        from pkg.transport import resolve
        from t.mocks import Fake


        def test_memory():
            assert resolve("memory").name == "memory" and Fake()
    """,
    "t/unit/test_slow.py": """
        from pkg.transport.slow import Transport


        def test_slow():
            assert Transport.name == "slow"
    """,
}


def _write(root):
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(textwrap.dedent(text).lstrip())


def test_an_alias_table_and_configured_tests_are_drafted(tmp_path, capsys):
    root = tmp_path / "p"
    _write(root)
    assert main(["init", str(root), "--json"]) == 0
    draft = json.loads(capsys.readouterr().out)
    assert draft["tests"] == ["t/unit"]
    regs = {(r["package"], r["variable"]): r for r in draft["registries"]}
    aliases = regs[("pkg.transport", "ALIASES")]
    assert aliases["kind"] == "mapping" and set(aliases["entries"]) == {"memory", "mem", "slow", "disk"}
    assert aliases["entries"]["slow"] == 7 and aliases["entries"]["disk"] == 9


def test_accepted_the_fork_keeps_the_kept_alias_and_its_tests(tmp_path):
    root = tmp_path / "p"
    _write(root)
    assert main(["init", str(root), "--out", str(root / "slimfork.toml")]) == 0
    draft = (root / "slimfork.toml").read_text()
    assert '"memory",    ## 0 lines (pkg.transport.mem, 2 lines, goes once "mem" goes too)' in draft, draft
    block = draft[draft.index("# [[registries]]"):]
    block = block[:block.index("# reason")]
    accepted = re.sub(r'(?m)^# ', "", block)
    accepted = re.sub(r'(?m)^  "(slow|disk)",.*\n', "", accepted)
    spec = root / "slimfork.toml"
    spec.write_text(draft.replace(block, accepted).replace('roots = ["pkg.**"]', 'roots = ["pkg.transport"]')
                    + 'reason = "memory only"\n')
    fork = tmp_path / "fork"
    shrink(spec, out=fork, jobs=1, verify=False)
    assert (fork / "pkg/transport/mem.py").exists() and (fork / "t/unit/test_mem.py").exists()
    assert not (fork / "pkg/transport/slow.py").exists() and not (fork / "pkg/transport/disk.py").exists()
    assert not (fork / "t/unit/test_slow.py").exists() and (fork / "t/mocks.py").exists()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=fork,
                          capture_output=True, text=True)
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout[-2000:]
