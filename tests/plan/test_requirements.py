"""Which declared requirements the fork keeps: imported by kept code, named in a string, used by a kept
requirement, optional, or unknown (kept); the rest are dropped with the import names nothing uses."""

from __future__ import annotations

import sys

from slimfork.index.parse import summarize
from slimfork.plan.requirements import (import_names_of, requirement_name, requirement_uses, string_mentions,
                                        third_party_imports, used_by_dependencies)


def _imports(files: dict[str, str]) -> dict[str, str]:
    summaries = [(rel, summarize(text.encode())) for rel, text in files.items()]
    return third_party_imports(summaries, lambda top: top == "app")


def test_kept_imports_in_any_scope_and_not_internal_or_type_checking():
    imported = _imports({
        "app/a.py": "import yaml\nfrom app import b\nfrom .c import d\n",
        "app/b.py": "def f():\n    import numpy.linalg\n    return numpy\n",
        "app/c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pandas\n",
    })
    assert imported["yaml"] == "app/a.py:1" and imported["numpy"] == "app/b.py:2"
    assert "app" not in imported and "pandas" not in imported


def test_each_reason(tmp_path):
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "probe.py").write_text('import importlib.util\nOK = importlib.util.find_spec("ujson")\n')
    names = {"pyyaml": {"yaml"}, "ujson": {"ujson"}, "pillow": {"PIL"}, "requests": {"requests"},
             "urllib3": {"urllib3"}}
    requires = ["PyYAML>=6", "ujson", "Pillow; python_version >= '3.8'", "requests", "urllib3",
                "rich; extra == 'cli'", "not-installed==1.0"]
    uses = {u.name: u for u in requirement_uses(
        requires, {"yaml": "app/a.py:1", "requests": "app/net.py:2"}, names,
        string_mentions(tmp_path, ["app/probe.py"]),
        lambda kept, candidates: {"urllib3": "requests"} if "requests" in kept and "urllib3" in candidates else {})}
    assert uses["pyyaml"].kept and uses["pyyaml"].reason == "imported as yaml (app/a.py:1)"
    assert uses["ujson"].kept and uses["ujson"].reason == "named in a string at app/probe.py"
    assert uses["urllib3"].kept and uses["urllib3"].reason == "used by the kept requirement requests"
    assert uses["rich"].kept and "optional" in uses["rich"].reason
    assert uses["not-installed"].kept and "unknown" in uses["not-installed"].reason
    assert not uses["pillow"].kept and uses["pillow"].reason == "nothing kept imports PIL"
    assert uses["pillow"].requirement == "Pillow; python_version >= '3.8'"


def test_names_and_dependency_scan_read_the_real_environment():
    assert requirement_name("Foo.Bar_baz[x]>=1; python_version>'3'") == "foo-bar-baz"
    names = import_names_of(sys.executable)
    assert "pytest" in names["pytest"] and "_pytest" in names["pytest"]
    assert "libcst" in names["libcst"]
    # pytest's own code imports pluggy and iniconfig; it never mentions libcst
    found = used_by_dependencies(sys.executable, ["pytest"], {"pluggy": {"pluggy"}, "libcst": {"libcst"}})
    assert found == {"pluggy": "pytest"}
