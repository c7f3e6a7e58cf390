"""A module name computed from the module's own name by plain string operations names one module: the index keeps
the expression (``{=EXPR}``), the graph evaluates it with the module's name (``index/own_expr.py``). Before, each
was a name computed entirely at run time: the target, imported elsewhere only by code no root reaches (so not
loose), left the fork with exit 0 and the import raised ModuleNotFoundError (session 41, both `[symbols]` modes);
so did ``import_module(name=".impl", package=__package__)``, whose arguments by keyword were not read at all.
A module constant bound to the own name's parent (``_BASE = __name__.rsplit(".", 1)[0]``) starts a prefix as the
own name does (``f"{_BASE}.{mod}"``: every module under the package). Session 45: ``[*__name__.split(".")[:-1],
"impl"]``, ``os.path.join(__package__, "impl").replace(os.sep, ".")``, ``re.sub`` of literals (that one crashed)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

IMPL = "def run():\n    return 'impl'\n"
SHAPES = {
    "join_split": ({"pkg/app.py": "import importlib\n\n\ndef main():\n    return importlib.import_module("
                                  "'.'.join(__name__.split('.')[:-1] + ['impl'])).run()\n"}, "impl"),
    "slice_len": ({"pkg/app.py": "import importlib\n\n\ndef main():\n    return importlib.import_module("
                                 "__name__[:-len('app')] + 'impl').run()\n"}, "impl"),
    "util_resolve_name": ({"pkg/app.py": "import importlib\nimport importlib.util\n\n\ndef main():\n"
                                         "    full = importlib.util.resolve_name('.impl', __package__)\n"
                                         "    return importlib.import_module(full).run()\n"}, "impl"),
    "module_constant": ({"pkg/app.py": "import importlib\n\n_IMPL = __name__.rpartition('.')[0] + '.im' + 'pl'\n\n\n"
                                       "def main():\n    return importlib.import_module(_IMPL).run()\n"}, "impl"),
    "generator_join": ({"pkg/app.py": "import importlib\n\n\ndef main():\n    return importlib.import_module("
                                      "'.'.join(p for p in (__package__, 'impl'))).run()\n"}, "impl"),
    "replace_plain": ({"pkg/app.py": "import importlib\n\n\ndef main():\n    return importlib.import_module("
                                     "__name__.replace('app', 'impl')).run()\n"}, "impl"),
    "keyword_arguments": ({"pkg/app.py": "import importlib\n\n\ndef main():\n    return importlib.import_module("
                                         "name='.impl', package=__package__).run()\n"}, "impl"),
    "class_module": ({"pkg/app.py": "from pkg.api.thing import Thing\n\n\ndef main():\n    return Thing().run()\n",
                      "pkg/api/__init__.py": "",
                      "pkg/api/thing.py": "import importlib\n\n\nclass Thing:\n    def run(self):\n"
                                          "        return importlib.import_module(type(self).__module__.replace("
                                          "'.api.', '.impls.')).run()\n",
                      "pkg/impls/__init__.py": "", "pkg/impls/thing.py": IMPL}, "impl"),
    "derived_prefix": ({"pkg/app.py": "import importlib\n\n_BASE = __name__.rsplit('.', 1)[0]\n"
                                      "_KINDS = {'csv': ('writers.csvw', 'run')}\n\n\ndef main():\n"
                                      "    mod, fn = _KINDS['csv']\n"
                                      "    return getattr(importlib.import_module(f'{_BASE}.{mod}'), fn)()\n",
                        "pkg/writers/__init__.py": "", "pkg/writers/csvw.py": IMPL}, "impl"),
    # session 45: starred items, os.path.join with os.sep, re.sub of literals (a backslash in an f-string's part
    # crashed the index on Python 3.11: ValueError from ast.unparse)
    "starred_split": ({"pkg/app.py": "import importlib\n\n\ndef main():\n    return importlib.import_module("
                                     "'.'.join([*__name__.split('.')[:-1], 'impl'])).run()\n"}, "impl"),
    "path_join_sep": ({"pkg/app.py": "import importlib, os\n\n\ndef main():\n    return importlib.import_module("
                                     "os.path.join(__package__, 'impl').replace(os.sep, '.')).run()\n"}, "impl"),
    "re_sub_literal": ({"pkg/app.py": "import importlib, re\n\n\ndef main():\n"
                                      "    rel = re.sub(r'\\.py$', '', 'impl.py')\n"
                                      "    return importlib.import_module(f'{__package__}.{rel}').run()\n"}, "impl"),
}


def _legacy(files: dict[str, str]) -> dict[str, str]:
    """Every module but app imported by pkg/legacy.py, which only a test imports: none is loose."""
    targets = [p[:-3].replace("/", ".") for p in files if p.startswith("pkg/") and not p.endswith(("__init__.py",
                                                                                                  "app.py"))]
    targets = targets or ["pkg.impl"]
    return {"pkg/__init__.py": "", "pkg/impl.py": IMPL, **files,
            "pkg/legacy.py": "".join(f"import {t}\n" for t in targets) + "ALL = True\n",
            "tests/test_legacy.py": "from pkg import legacy\n\n\ndef test_legacy():\n    assert legacy.ALL\n"}


@pytest.mark.parametrize("mode", ["default", "roots"])
@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_a_name_built_from_the_own_name_keeps_its_module(tmp_path, shape, mode):
    files, expected = SHAPES[shape]
    symbols = '[symbols]\npublic_api = "roots"\npackage_api = false\n' if mode == "roots" else "[symbols]\n"
    root = write_project(tmp_path, _legacy(files), f'source = "."\nroots = ["pkg.app:main"]\ntests = ["tests"]\n\n'
                                                   f'{symbols}')
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    done = subprocess.run([sys.executable, "-c", "from pkg.app import main; print(main())"], cwd=fork,
                          capture_output=True, text=True)
    assert done.stdout.strip() == expected, done.stderr[-2000:]
    assert shape == "derived_prefix" or not (fork / "pkg/legacy.py").exists()  # a prefix keeps the package


def test_the_evaluator_computes_names_only():
    from slimfork.index.own_expr import constant_string, evaluate_own
    assert evaluate_own("{='.'.join(__name__.split('.')[:-1] + ['impl'])}", "pkg.sub.app", "pkg.sub") == "pkg.sub.impl"
    assert evaluate_own("{=__import__('os').getcwd()}", "pkg.app", "pkg") is None
    assert evaluate_own("{=__name__ * 1000}", "pkg.app", "pkg") is None
    assert constant_string(ast_expr("'pkg' + '.fakes'")) == "pkg.fakes"
    assert constant_string(ast_expr("name + '.fakes'")) is None


def ast_expr(text: str):
    import ast
    return ast.parse(text, mode="eval").body
