"""A fact that matches nothing is a warning, and an error under --strict (pitfall 24)."""

from __future__ import annotations

import shutil

from slimfork.cli import main
from tests.conftest import EXAMPLE


def test_typo_in_a_fact_warns_and_fails_under_strict(tmp_path, capsys):
    project = tmp_path / "mlserve"
    shutil.copytree(EXAMPLE, project)
    spec = project / "slimfork.toml"
    spec.write_text(spec.read_text().replace('"mlserve.platform.is_hip" = false',
                                              '"mlserve.platform.is_hip" = false, "mlserve.platform.is_hpi" = false'))
    assert main(["plan", str(spec), "--json"]) == 0
    assert "facts.functions.mlserve.platform.is_hpi" in capsys.readouterr().out
    assert main(["plan", str(spec), "--strict"]) == 2
    assert "is_hpi" in capsys.readouterr().err
