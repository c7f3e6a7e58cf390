"""Test cases in fixture files that name a removed registry key leave the file (sqlglot's optimizer fixtures:
``# dialect: bigquery`` above a pair of statements); the other cases, and files that are not made of cases with
header lines, stay as they are."""

from __future__ import annotations

from slimfork.testsuite.data_cases import cut_data_cases

FIXTURE = """\
# title: plain
SELECT a FROM x;
SELECT x.a AS a FROM x AS x;

# dialect: bigquery
# execute: false
SELECT DATE_TRUNC(a, MONTH) FROM x;
SELECT DATE_TRUNC(x.a, MONTH) FROM x AS x;

# execute: false
# dialect: duckdb
SELECT 1;
SELECT 1 AS _col_0;

-- dialect: BigQuery
SELECT 2;
SELECT 2 AS _col_0;
"""

REMOVED = {"bigquery": "'bigquery', a key of BigQuery, a subclass the spec does not keep"}


def _cut(tmp_path, text, removed=REMOVED):
    (tmp_path / "tests").mkdir(exist_ok=True)
    (tmp_path / "tests/f.sql").write_text(text)
    return cut_data_cases(tmp_path, ["tests/f.sql"], removed)


def test_cases_naming_a_removed_key_leave(tmp_path):
    [cut] = _cut(tmp_path, FIXTURE)
    assert cut.cases == 2 and cut.keys == ("BigQuery", "bigquery")
    assert cut.content.decode() == (
        "# title: plain\nSELECT a FROM x;\nSELECT x.a AS a FROM x AS x;\n\n"
        "# execute: false\n# dialect: duckdb\nSELECT 1;\nSELECT 1 AS _col_0;\n\n")
    assert cut.lines == 9


def test_a_key_in_a_case_body_or_a_sentence_is_no_header(tmp_path):
    text = "# title: bigquery dates\nSELECT 'bigquery';\n\n# dialect: duckdb\nSELECT 1;\n\nbigquery: x\n"
    assert _cut(tmp_path, text) == []  # 'bigquery: x' names no removed key (its value is x)


def test_files_without_cases_or_only_removed_cases_stay(tmp_path):
    assert _cut(tmp_path, "dialect: bigquery\nSELECT 1;\n") == []  # one block
    assert _cut(tmp_path, "# dialect: bigquery\nSELECT 1;\n\n# dialect: bigquery\nSELECT 2;\n") == []
    assert _cut(tmp_path, "SELECT 1;\n\nSELECT 2;\n\n# dialect: bigquery\nSELECT 3;\n") == []  # one header


def test_a_header_listing_kept_and_removed_keys_loses_the_removed_ones(tmp_path):
    text = "# dialect: hive, spark, databricks\nSELECT 1;\n\n# dialect: spark, databricks\nSELECT 2;\n\n" \
           "# dialect: duckdb\nSELECT 3;\n"
    removed = {"spark": "gone", "databricks": "gone"}
    [cut] = _cut(tmp_path, text, removed)
    assert cut.content.decode() == "# dialect: hive\nSELECT 1;\n\n# dialect: duckdb\nSELECT 3;\n"
    assert cut.cases == 1 and cut.keys == ("databricks", "spark")


def test_a_removed_key_with_options_takes_its_case(tmp_path):
    text = "# dialect: bigquery,normalization_strategy=upper\nSELECT 1;\n\n# dialect: duckdb\nSELECT 2;\n"
    [cut] = _cut(tmp_path, text)
    assert cut.content.decode() == "# dialect: duckdb\nSELECT 2;\n"
