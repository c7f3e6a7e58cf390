import pytest


@pytest.fixture(autouse=True)
def _private_cache(tmp_path, monkeypatch):
    """Each test gets its own slimfork cache, so cached check results never leak between tests."""
    monkeypatch.setenv("SLIMFORK_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("SLIMFORK_APPLY_KILL_AFTER", raising=False)
