"""A registry cut that removes a key kept code falls back on (``backend="safe"``, ``os.environ.get("X", "yaml")``,
``FORMATS["gzip"]``) leaves code that fails with KeyError where the original worked: the report warns, naming the
key, the place and the hint to keep it. A key only removed code names, a key the spec keeps, or a key looked up in
another dict (``assets["tsv"]``) is no warning."""

from __future__ import annotations

from tests.mapping.registrykit import write_project

from slimfork.api import shrink

FILES = {
    "pkg/__init__.py": "",
    "pkg/backends.py": """
        REGISTRY = {}


        def register(name):
            def deco(fn):
                REGISTRY[name] = fn
                return fn
            return deco


        @register("fast")
        def _fast(x):
            return x * 2


        @register("safe")
        def _safe(x):
            return x + 2


        @register("slow")
        def _slow(x):
            return x


        def run(x, backend="safe"):
            return REGISTRY[backend](x)
        """,
    "pkg/formats.py": """
        import os

        FORMATS = {"csv": ",", "yaml": ": ", "gzip": "z", "tsv": "\\t"}


        def get_format(name=None):
            \"\"\"Default "tsv" in prose only.\"\"\"
            name = name or os.environ.get("PKG_FORMAT", "yaml")
            return FORMATS[name]


        def packed():
            return FORMATS["gzip"]


        def unrelated(assets):
            assets["yaml"] = 1
            return assets["tsv"]
        """,
    "pkg/app.py": """
        from pkg import backends
        from pkg.formats import get_format, packed


        def main():
            return backends.run(3, "fast"), get_format("csv"), packed()
        """,
}
SPEC = """
source = "."
packages = ["pkg"]
roots = ["pkg.app"]
tests = []

[symbols]

[[registries]]
kind = "decorator"
package = "pkg.backends.register"
keep = ["fast"]

[[registries]]
kind = "dict"
package = "pkg.formats"
variable = "FORMATS"
keep = ["csv"]
"""


def test_a_removed_key_kept_code_uses_as_a_default_is_a_warning(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    result = shrink(root / "slimfork.toml", out=tmp_path / "fork", jobs=1, verify=False)
    warnings = [w for w in result.analysis.plan.warnings if "removes the key" in w]
    text = "\n".join(warnings)
    assert "'safe'" in text and "pkg/backends.py:" in text
    assert "'yaml'" in text and "'gzip'" in text and "pkg/formats.py:" in text
    assert "keep" in text
    assert "'slow'" not in text and "'tsv'" not in text and "'fast'" not in text and "'csv'" not in text
    assert any("'safe'" in w for w in result.data["warnings"])
