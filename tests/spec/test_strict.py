"""A fact whose name exists nowhere is a stale entry: an error (exit 2) unless stale entries are allowed, then a
warning (pitfall 24; issue #31)."""

from __future__ import annotations

import shutil

from slimfork.cli import main
from tests.conftest import EXAMPLE


def test_typo_in_a_fact_is_an_error_unless_stale_entries_are_allowed(tmp_path, capsys):
    project = tmp_path / "mlserve"
    shutil.copytree(EXAMPLE, project)
    spec = project / "slimfork.toml"
    spec.write_text(spec.read_text().replace('"mlserve.platform.is_hip" = false',
                                              '"mlserve.platform.is_hip" = false, "mlserve.platform.is_hpi" = false'))
    assert main(["plan", str(spec)]) == 2
    assert "error: facts.functions.mlserve.platform.is_hpi: " in capsys.readouterr().err
    assert main(["plan", str(spec), "--json", "--allow-stale"]) == 0
    assert "stale: facts.functions.mlserve.platform.is_hpi" in capsys.readouterr().out
    assert main(["plan", str(spec), "--strict"]) == 2
    assert "is_hpi" in capsys.readouterr().err
