"""A parameter's default is one of the names an import of it takes: ``def load(*, backend=".backends.fast",
package=__package__): import_module(backend, package)``. Before (session 43) the name counted as computed entirely
(only loose modules stay): ``backends/fast.py``, imported otherwise only by code no root reaches, left the fork and
``load()`` raised ModuleNotFoundError, exit 0, in both ``[symbols]`` modes."""

from __future__ import annotations

import pytest

from tests.soundness.soundkit import shrink_and_run_main

LOADERS = {
    "keyword_only": "def load(*, backend: str = '.backends.fast', package: str = __package__):\n"
                    "    return importlib.import_module(backend, package)\n",
    "positional": "def load(backend='.backends.fast', package=__package__):\n"
                  "    return importlib.import_module(backend, package)\n",
}


@pytest.mark.parametrize("mode", ["default", "roots"])
@pytest.mark.parametrize("loader", sorted(LOADERS))
def test_a_parameter_default_names_the_module_it_imports(tmp_path, loader, mode):
    files = {"pkg/__init__.py": "", "pkg/backends/__init__.py": "", "pkg/backends/fast.py": "NAME = 'fast'\n",
             "pkg/app.py": f"import importlib\n\n\n{LOADERS[loader]}\n\ndef main():\n    return load().NAME\n",
             "pkg/legacy.py": "import pkg.backends.fast\nALL = True\n",
             "tests/test_legacy.py": "from pkg import legacy\n\n\ndef test_legacy():\n    assert legacy.ALL\n"}
    fork, done = shrink_and_run_main(tmp_path, files, mode)
    assert done.stdout.strip() == "fast", done.stderr[-2000:]


@pytest.mark.parametrize("mode", ["default", "roots"])
def test_an_env_default_against_an_own_subpackage(tmp_path, mode):
    """``import_module(os.environ.get("APP_BACKEND", ".fast"), package=f"{__package__}.backends")``: the package
    built from the own name and a literal resolves the default (session 43: it counted as computed at run time,
    and ``fast`` left, exit 0)."""
    app = ("import importlib, os\n\n\ndef main():\n    return importlib.import_module(os.environ.get('APP_BACKEND', "
           "'.fast'), package=f'{__package__}.backends').NAME\n")
    files = {"pkg/__init__.py": "", "pkg/backends/__init__.py": "", "pkg/backends/fast.py": "NAME = 'fast'\n",
             "pkg/app.py": app, "pkg/legacy.py": "import pkg.backends.fast\nALL = True\n",
             "tests/test_legacy.py": "from pkg import legacy\n\n\ndef test_legacy():\n    assert legacy.ALL\n"}
    fork, done = shrink_and_run_main(tmp_path, files, mode)
    assert done.stdout.strip() == "fast", done.stderr[-2000:]
