"""Call registries (``kind = "call"``): module-level statements ``Factory.register_backend("key", "pkg.mod",
"Class")`` of keys the spec does not keep are deleted, the modules only their strings named leave the fork, a
registration whose key is not a literal stays, and a removed key fails exactly like a key the registry never
had (sglang's HiCache storage backends have this shape)."""

from __future__ import annotations

import pytest

from tests.mapping.registrykit import run_cli, write_project

from slimfork.api import shrink
from slimfork.errors import SpecError

FILES = {
    "pkg/__init__.py": "",
    "pkg/factory.py": """
        import importlib


        class StorageFactory:
            _registry = {}

            @classmethod
            def register_backend(cls, name, module_path, class_name):
                cls._registry[name] = (module_path, class_name)

            @classmethod
            def create(cls, name):
                if name not in cls._registry:
                    raise ValueError(f"unknown storage {name}")
                module_path, class_name = cls._registry[name]
                return getattr(importlib.import_module(module_path), class_name)()


        # the local disk
        StorageFactory.register_backend("file", "pkg.store_file", "FileStore")

        # a remote store only one cluster has
        StorageFactory.register_backend(
            "remote", "pkg.store_remote", "RemoteStore"
        )
        StorageFactory.register_backend(NAME_FROM_ENV, "pkg.store_env", "EnvStore") if False else None
        """,
    "pkg/plugins.py": """
        from pkg.factory import StorageFactory as F

        DYNAMIC = "dyn"
        F.register_backend(DYNAMIC, "pkg.store_dyn", "DynStore")
        F.register_backend("mem", "pkg.store_mem", "MemStore")
        """,
    "pkg/store_file.py": "class FileStore:\n    name = 'file'\n",
    "pkg/store_remote.py": "class RemoteStore:\n    name = 'remote'\n",
    "pkg/store_env.py": "class EnvStore:\n    name = 'env'\n",
    "pkg/store_dyn.py": "class DynStore:\n    name = 'dyn'\n",
    "pkg/store_mem.py": "class MemStore:\n    name = 'mem'\n",
    "pkg/cli.py": """
        import sys

        import pkg.plugins  # noqa: F401  (registers)
        from pkg.factory import StorageFactory

        if __name__ == "__main__":
            print(StorageFactory.create(sys.argv[1]).name)
        """,
}
SPEC = """
source = "."
packages = ["pkg"]
roots = ["pkg.cli"]

[[registries]]
kind = "call"
package = "{function}"
keep = ["file"]
reason = "one store is deployed"
"""


def _project(tmp_path, function="pkg.factory.StorageFactory.register_backend"):
    return write_project(tmp_path, FILES, SPEC.format(function=function))


def _run(tree, key):
    return run_cli(tree, key)


def test_unkept_registrations_and_the_modules_they_name_leave_the_fork(tmp_path):
    root = _project(tmp_path)
    assert _run(root, "remote").stdout == "remote\n" and _run(root, "mem").stdout == "mem\n"
    result = shrink(root / "slimfork.toml", tmp_path / "fork")
    fork = result.out
    factory = (fork / "pkg/factory.py").read_text()
    assert "# the local disk\nStorageFactory.register_backend(\"file\"" in factory
    assert "remote" not in factory and "# a remote store" not in factory
    assert "NAME_FROM_ENV" in factory  # not a plain statement call: left alone
    plugins = (fork / "pkg/plugins.py").read_text()
    assert "F.register_backend(DYNAMIC" in plugins and '"mem"' not in plugins  # through an import alias
    assert not (fork / "pkg/store_remote.py").exists() and not (fork / "pkg/store_mem.py").exists()
    assert (fork / "pkg/store_file.py").exists() and (fork / "pkg/store_dyn.py").exists()
    assert _run(fork, "file").stdout == "file\n" and _run(fork, "dyn").stdout == "dyn\n"
    removed, unknown = _run(fork, "remote"), _run(root, "nope")
    assert removed.returncode == unknown.returncode == 1
    assert removed.stderr.splitlines()[-1] == "ValueError: unknown storage remote"
    assert unknown.stderr.splitlines()[-1] == "ValueError: unknown storage nope"
    entries = {e["path"]: e for e in result.data["decorator_registries"]}
    assert entries["pkg/factory.py"]["kept"] == ["file"]
    assert entries["pkg/factory.py"]["removed"] == [{"key": "remote", "definition": "pkg.store_remote:RemoteStore"}]
    assert entries["pkg/plugins.py"]["removed"] == [{"key": "mem", "definition": "pkg.store_mem:MemStore"}]
    assert all(e["kind"] == "call" for e in entries.values())
    md = (result.report_dir / "report.md").read_text()
    assert "`StorageFactory.register_backend(...)` in pkg/factory.py: kept `file`; removed `remote`" in md
    assert all(batch.checks and all(c.ok for c in batch.checks) for batch in result.apply.batches)


def test_a_function_in_no_module_of_the_source_is_a_spec_error(tmp_path):
    root = _project(tmp_path, function="pkg.nowhere.Factory.register")
    with pytest.raises(SpecError) as err:
        shrink(root / "slimfork.toml", tmp_path / "fork", dry_run=True)
    assert err.value.key == "registries[0].package"
