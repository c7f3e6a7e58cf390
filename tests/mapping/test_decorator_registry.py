"""Decorator registries (``kind = "decorator"``): registrations of keys the spec does not keep are deleted,
the modules only they imported leave the fork, a non-literal key stays, and a removed key fails exactly like a
key the registry never had."""

from __future__ import annotations

import textwrap

import pytest

from tests.mapping.registrykit import run_cli, write_project

from slimfork.api import shrink
from slimfork.errors import SpecError

FILES = {
    "pkg/__init__.py": "",
    "pkg/registry.py": """
        BACKENDS = {}


        def register_backend(name):
            def wrap(fn):
                BACKENDS[name] = fn
                return fn
            return wrap


        def create(name):
            if name not in BACKENDS:
                raise ValueError(f"unknown backend {name}")
            return BACKENDS[name]()
        """,
    "pkg/backends.py": """
        from pkg import registry as reg
        from pkg.registry import register_backend


        # the default backend
        @register_backend("fast")
        def create_fast():
            from pkg.impl_fast import Fast
            return Fast()


        # only for old machines
        @reg.register_backend("slow")
        def create_slow():
            from pkg.impl_slow import Slow
            return Slow()


        KEY = "dyn"


        @register_backend(KEY)
        def create_dynamic():
            from pkg.impl_dyn import Dyn
            return Dyn()
        """,
    "pkg/impl_fast.py": "class Fast:\n    name = 'fast'\n",
    "pkg/impl_slow.py": "class Slow:\n    name = 'slow'\n",
    "pkg/impl_dyn.py": "class Dyn:\n    name = 'dyn'\n",
    "pkg/cli.py": """
        import sys

        import pkg.backends  # noqa: F401  (registers)
        from pkg.registry import create

        if __name__ == "__main__":
            print(create(sys.argv[1]).name)
        """,
}
SPEC = """
source = "."
packages = ["pkg"]
roots = ["pkg.cli"]

[[registries]]
kind = "decorator"
package = "{decorator}"
keep = ["fast"]
reason = "one backend is deployed"
"""


def _project(tmp_path, decorator="pkg.registry.register_backend"):
    return write_project(tmp_path, FILES, SPEC.format(decorator=decorator))


def _run(tree, key):
    return run_cli(tree, key)


def test_unkept_registrations_and_what_only_they_import_leave_the_fork(tmp_path):
    root = _project(tmp_path)
    result = shrink(root / "slimfork.toml", tmp_path / "fork")
    fork = result.out
    text = (fork / "pkg/backends.py").read_text()
    assert "create_slow" not in text and "# only for old machines" not in text
    assert "# the default backend\n@register_backend(\"fast\")" in text and "def create_dynamic" in text
    assert not (fork / "pkg/impl_slow.py").exists()
    assert (fork / "pkg/impl_fast.py").exists() and (fork / "pkg/impl_dyn.py").exists()
    assert _run(fork, "fast").stdout == "fast\n" and _run(fork, "dyn").stdout == "dyn\n"
    removed, unknown = _run(fork, "slow"), _run(root, "nope")
    assert removed.returncode == unknown.returncode == 1
    assert removed.stderr.splitlines()[-1] == "ValueError: unknown backend slow"
    assert unknown.stderr.splitlines()[-1] == "ValueError: unknown backend nope"
    [entry] = result.data["decorator_registries"]
    assert entry["kept"] == ["fast"] and entry["removed"] == [{"key": "slow", "definition": "create_slow"}]
    why = {r["path"]: r["reason"] for r in result.data["removed"]}
    assert "pkg/impl_slow.py" in why
    assert all(batch.checks and all(c.ok for c in batch.checks) for batch in result.apply.batches)


def test_a_decorator_in_no_module_of_the_source_is_a_spec_error(tmp_path):
    root = _project(tmp_path, decorator="pkg.nowhere.register_backend")
    with pytest.raises(SpecError) as err:
        shrink(root / "slimfork.toml", tmp_path / "fork", dry_run=True)
    assert err.value.key == "registries[0].package"


def test_a_removed_registration_that_kept_code_imports_stays(tmp_path):
    """``from pkg.backends import create_slow`` in a kept module: the definition stays (registered), so the fork
    still imports (session 29's adversarial round, I1)."""
    cli = FILES["pkg/cli.py"].replace("from pkg.registry import create", "from pkg.registry import create\n"
                                      "        from pkg.backends import create_slow  # noqa: F401")
    root = write_project(tmp_path, {**FILES, "pkg/cli.py": cli}, SPEC.format(decorator="pkg.registry.register_backend"))
    result = shrink(root / "slimfork.toml", tmp_path / "fork", verify=False)
    assert "def create_slow" in (result.out / "pkg/backends.py").read_text()
    [entry] = result.data["decorator_registries"]
    assert entry["held"] == ["create_slow"] and entry["removed"] == []


def test_a_removed_registration_that_a_kept_function_imports_stays(tmp_path):
    """``def legacy(): from pkg.backends import create_slow`` in a kept module: no code at import time names it,
    but the kept function would fail when called; planning again holds it. The same import inside a module the
    fork leaves out holds nothing."""
    cli = textwrap.dedent(FILES["pkg/cli.py"]).replace(
        "if __name__", "def legacy():\n    from pkg.backends import create_slow\n    return create_slow().name\n\n\n"
        "if __name__")
    old = "import pkg.backends\n\n\ndef old():\n    return pkg.backends.create_slow()\n"  # imported by nothing
    files = {**FILES, "pkg/cli.py": cli, "pkg/old.py": old}
    root = write_project(tmp_path, files, SPEC.format(decorator="pkg.registry.register_backend"))
    result = shrink(root / "slimfork.toml", tmp_path / "fork", verify=False)
    assert "def create_slow" in (result.out / "pkg/backends.py").read_text()
    assert (result.out / "pkg/impl_slow.py").is_file()
    [entry] = result.data["decorator_registries"]
    assert entry["held"] == ["create_slow"] and entry["removed"] == []
    assert not (result.out / "pkg/old.py").exists()
    files["pkg/cli.py"] = FILES["pkg/cli.py"]  # only the module that leaves names it: the cut stands
    root = write_project(tmp_path / "b", files, SPEC.format(decorator="pkg.registry.register_backend"))
    result = shrink(root / "slimfork.toml", tmp_path / "b-fork", verify=False)
    [entry] = result.data["decorator_registries"]
    assert entry["held"] == [] and entry["removed"] == [{"key": "slow", "definition": "create_slow"}]
