import pytest


@pytest.fixture(autouse=True)
def _no_kill_hook(monkeypatch):
    """The crash tests set the kill hook only in the subprocesses they start, never in the test process."""
    monkeypatch.delenv("SLIMFORK_APPLY_KILL_AFTER", raising=False)
