"""A cached check result is keyed by the checks' own code too: after an upgrade of slimfork that changes how a check
runs (the pytest check pinning its rootdir), a verdict the old code cached is not reused."""

from __future__ import annotations

import shutil
from pathlib import Path

from slimfork.apply import ladder
from slimfork.source.cache import code_version
from slimfork.verify import model


class _Check:
    name = "demo"
    cache_key = "configuration"


def test_the_key_changes_with_the_checks_code(tmp_path, monkeypatch):
    verify = tmp_path / "verify"
    shutil.copytree(Path(model.__file__).parent, verify)
    monkeypatch.setattr(ladder.inspect, "getfile", lambda obj: str(verify / "model.py"))
    ladder._verify_code.cache_clear()
    before = ladder.check_key(_Check())
    assert before.endswith(code_version(verify))
    (verify / "checks" / "pytest.py").write_text((verify / "checks" / "pytest.py").read_text() + "\n# changed\n")
    ladder._verify_code.cache_clear()
    assert ladder.check_key(_Check()) != before
    ladder._verify_code.cache_clear()
