"""The ecosystem check in reduced form (slow, downloads from PyPI): a few profiles of profiles/corpus/, each a
`slimfork init` draft with its suggestions accepted plus at most a few lines, shrunk and checked against the
project's own test suite. `slimfork corpus --set full` runs every profile (docs/corpus.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from slimfork.corpus.run import render_table, run_profile

CORPUS = Path(__file__).resolve().parents[2] / "profiles" / "corpus"
FAST = ["colorlog", "jaraco.functools", "lazy-loader"]  # platform fact, PEP 420 namespace, lazy loading


@pytest.mark.slow
@pytest.mark.parametrize("name", FAST)
def test_fork_passes_the_project_suite(name, tmp_path):
    row = run_profile(CORPUS / f"{name}.toml", tmp_path, jobs=2)
    print(render_table([row]))
    assert row.new_failures == []
    assert row.tests_before > 0 and row.tests_after >= row.tests_before - row.tests_removed
    assert row.python_after <= row.python_before


@pytest.mark.slow
def test_arrow_english_only_keeps_english_and_drops_other_locales(tmp_path):
    row = run_profile(CORPUS / "arrow.toml", tmp_path, jobs=2)
    print(render_table([row]))
    assert row.new_failures == []
    locales = (tmp_path / "arrow-fork/arrow/locales.py").read_text()
    assert "class EnglishLocale" in locales and "class FrenchLocale" not in locales
    # the tests of the removed locales leave (TestFrenchLocale, ...); the others pass
    assert row.tests_before > 1000 and row.tests_removed > 100
    assert row.tests_after >= row.tests_before - row.tests_removed
    assert row.python_after < row.python_before


@pytest.mark.slow
def test_pyserial_linux_drops_the_other_platforms_inside_a_project_with_its_own_pytest_options(tmp_path):
    """pyserial has no pytest configuration: written inside a project that has one (as `slimfork corpus` run from a
    repository does), its tests must still run as in the original, or every batch would be restored."""
    (tmp_path / "pyproject.toml").write_text('[tool.pytest.ini_options]\naddopts = "--strict-markers -p no:nosuch"\n')
    row = run_profile(CORPUS / "pyserial.toml", tmp_path / "forks", jobs=2)
    print(render_table([row]))
    assert row.new_failures == [] and row.tests_before == row.tests_after > 30
    fork = tmp_path / "forks" / "pyserial-fork"
    assert not (fork / "serial/serialwin32.py").exists() and not (fork / "serial/serialjava.py").exists()
    posix = (fork / "serial/tools/list_ports_posix.py").read_text()
    assert "from serial.tools.list_ports_linux import comports" in posix and "darwin" not in posix
    assert row.python_after < row.python_before * 0.9


@pytest.mark.slow
def test_num2words_english_only_takes_the_other_languages_and_their_tests(tmp_path):
    row = run_profile(CORPUS / "num2words.toml", tmp_path, jobs=2)
    print(render_table([row]))
    assert row.new_failures == [] and row.tests_removed > 1000 and row.tests_after >= 20
    languages = sorted(p.name for p in (tmp_path / "num2words-fork/num2words").glob("lang_*.py"))
    assert "lang_EN.py" in languages and "lang_FR.py" not in languages and len(languages) <= 6
    assert row.python_after < row.python_before * 0.2


@pytest.mark.slow
def test_sqlglot_duckdb_postgres_optimizer_fixtures_lose_the_removed_dialects_cases(tmp_path):
    """The optimizer tests read fixture files whose cases name their dialect (`# dialect: bigquery`): the cases of
    removed dialects leave with the tests batch, so every batch passes and no dialect is restored."""
    row = run_profile(CORPUS / "sqlglot.toml", tmp_path, jobs=2, tests=("tests/test_optimizer.py",))
    print(render_table([row]))
    assert row.new_failures == [] and row.tests_after > 50
    fork = tmp_path / "sqlglot-fork"
    assert not (fork / "sqlglot/dialects/bigquery.py").exists() and (fork / "sqlglot/dialects/duckdb.py").exists()
    fixture = (fork / "tests/fixtures/optimizer/qualify_columns.sql").read_text()
    assert "# dialect: bigquery" not in fixture and "# dialect: duckdb" in fixture
