"""The corpus in reduced form (slow, downloads from PyPI): click shrunk to POSIX with its whole suite, pygments
shrunk to the Python lexers with a subset of its suite; no test that passed on the original and stayed fails."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from slimfork.corpus.run import render_table, run_profile

PROFILES = Path(__file__).resolve().parents[2] / "profiles"


@pytest.mark.slow
def test_click_posix_fork_passes_click_suite(tmp_path):
    row = run_profile(PROFILES / "click-posix.toml", tmp_path, jobs=2)
    print(render_table([row]))
    assert row.new_failures == []
    assert row.tests_before > 2000 and row.tests_after >= row.tests_before - row.tests_removed
    assert row.removed_by_reason.get("fakes a folded fact", 0) >= 5  # the WIN-faking pager tests
    fork = tmp_path / "click-posix-fork"
    assert not (fork / "src/click/_winconsole.py").exists()
    for name in ("_compat.py", "_termui_impl.py", "utils.py"):
        text = (fork / "src/click" / name).read_text()
        assert 'sys.platform.startswith("win")' not in text and 'os.name == "nt"' not in text, name
    assert row.python_after < row.python_before


@pytest.mark.slow
def test_pygments_python_fork_keeps_the_python_lexer(tmp_path):
    # the Ruby golden files pass on the original and leave the fork with their lexer (pygments names the folders
    # after the lexer's alias: examplefiles/rb, snippets/ruby)
    subset = ("tests/test_basic_api.py", "tests/test_html_formatter.py", "tests/test_cmdline.py",
              "tests/examplefiles/python", "tests/snippets/python", "tests/examplefiles/rb", "tests/snippets/ruby")
    row = run_profile(PROFILES / "pygments-python.toml", tmp_path, jobs=2, tests=subset)
    print(render_table([row]))
    assert row.new_failures == []
    fork = tmp_path / "pygments-python-fork"
    lexers = {p.name for p in (fork / "pygments/lexers").glob("*.py")}
    assert {"python.py", "special.py", "__init__.py", "_mapping.py"} <= lexers and "ruby.py" not in lexers
    assert len(lexers) < 10
    assert not (fork / "tests/examplefiles/rb").exists() and (fork / "tests/examplefiles/python").is_dir()
    # the original passes the subset (API, formatter and command-line tests, the Python and Ruby golden files);
    # the fork passes all of it but the Ruby golden files and the per-lexer API tests of the removed lexers
    assert row.tests_before > 2000 and row.tests_after >= row.tests_before - row.tests_removed > 100
    assert row.removed_by_reason.get("test data of a removed registry entry", 0) >= 10
    assert row.removed_by_reason.get("generated from a removed registry entry", 0) > 1000
    assert row.python_after < row.python_before


@pytest.mark.slow
def test_init_draft_of_send2trash_shrinks_with_its_suggestions_accepted(tmp_path):
    # `slimfork init` on a project never seen: the stored profile is the draft as written; with its suggestions
    # accepted (every leading '# ' deleted) the fork loses the Windows backend and send2trash's own tests stay
    # green
    from slimfork.cli import main

    draft = tmp_path / "init-send2trash.toml"
    assert main(["init", "pypi:send2trash==2.2.0", "--out", str(draft)]) == 0
    assert draft.read_text() == (PROFILES / "init-send2trash.toml").read_text()
    accepted = tmp_path / "init-send2trash-accepted.toml"
    accepted.write_text(re.sub(r"^# ", "", draft.read_text(), flags=re.M))
    row = run_profile(accepted, tmp_path, jobs=2)
    print(render_table([row]))
    assert row.new_failures == [] and row.tests_before >= 10
    assert row.tests_after >= row.tests_before - row.tests_removed
    fork = tmp_path / "init-send2trash-accepted-fork"
    assert (fork / "send2trash/plat_other.py").is_file()
    assert not (fork / "send2trash/win").exists() and not (fork / "send2trash/mac/modern.py").exists()
    # test_plat_mac.py reads send2trash/mac/__init__.py by its path: it tests the Mac backend, and leaves with it
    # (before session 32 it stayed, failed, and the check restored the backend)
    assert not (fork / "send2trash/mac").exists() and not (fork / "tests/test_plat_mac.py").exists()
    assert (fork / "tests/test_plat_other.py").is_file()
    assert row.python_after < row.python_before
