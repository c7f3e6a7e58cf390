"""unused-file precision (issue 27): public modules of a library, tests pytest's names miss, scripts and what
they import are no dead code."""

from __future__ import annotations

from slimfork.audit.run import AuditOptions, run_audit
from slimfork.audit.scriptuse import runs_at_top_level
from slimfork.source.layout import open_tree
from slimfork.spec.model import Root

PYPROJECT = '[project]\nname = "lib"\nversion = "0"\n'


def _audit(tmp_path, files: dict[str, str], roots=None) -> dict:
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    result, _ = run_audit(open_tree(tmp_path), roots=roots, options=AuditOptions(kinds={"unused-file"}))
    return {f.subject: f for f in result.findings}


LIBRARY = {"lib/__init__.py": "from lib.core import op\nfrom lib import ops\n", "lib/core.py": "def op():\n    return 1\n",
           "lib/ops/__init__.py": "", "lib/ops/rwkv4/__init__.py": "from .fused import rwkv4\n",
           "lib/ops/rwkv4/fused.py": "def rwkv4():\n    return 1\n", "lib/bitlinear.py": "class BitLinear:\n    pass\n",
           "lib/_old.py": "def gone():\n    return 1\n", "lib/ops/utils.py": "def helper():\n    return 1\n",
           "tests/test_core.py": "from lib.core import op\n"}


def test_public_modules_of_an_installable_library_are_no_dead_code(tmp_path):
    found = _audit(tmp_path, {"pyproject.toml": PYPROJECT, **LIBRARY})
    for public in ("lib/ops/rwkv4/", "lib/bitlinear.py"):
        assert found[public].confidence == 40 and "public module of the library package lib" in found[public].reason
        assert found[public].details["public"] == "lib"
    # private and helper modules serve the package's own code: unused by it, they are dead
    assert found["lib/_old.py"].confidence == 60 and found["lib/ops/utils.py"].confidence == 60


def test_without_build_files_or_with_a_spec_there_is_no_public_api_to_keep(tmp_path):
    found = _audit(tmp_path / "a", LIBRARY)  # no pyproject/setup.py: not installable, nobody imports it
    assert found["lib/bitlinear.py"].confidence == 60 and "public" not in found["lib/bitlinear.py"].details
    found = _audit(tmp_path / "b", {"pyproject.toml": PYPROJECT, **LIBRARY},
                   roots=[Root("module", "lib", text="lib"), Root("file", "tests/test_core.py", text="test")])
    assert found["lib/bitlinear.py"].confidence == 60


def test_a_test_file_pytest_names_miss_is_a_test_when_it_defines_tests(tmp_path):
    found = _audit(tmp_path, {"pyproject.toml": PYPROJECT, "lib/__init__.py": "", "lib/fmha.py": "def f():\n    pass\n",
                              "test/attention/fmha_test_deterministic.py": "from lib.fmha import f\n\n\n"
                                                                          "def test_dense():\n    f()\n",
                              "test/attention/helpers_unused.py": "def make():\n    return 1\n"})
    assert "test/attention/fmha_test_deterministic.py" not in found
    assert "only from tests" in found["lib/fmha.py"].message  # the test is a root
    assert found["test/attention/helpers_unused.py"].confidence == 60  # no tests defined: still a finding


def test_a_test_py_outside_test_folders_is_a_test_when_it_defines_tests(tmp_path):
    # flash-attention's flash_attn/flash_attn_triton_amd/test.py (10 test functions) was "unreached" at 60
    found = _audit(tmp_path, {"pyproject.toml": PYPROJECT, "lib/__init__.py": "from lib.amd import ops\n",
                              "lib/amd/__init__.py": "", "lib/amd/ops.py": "def fwd():\n    return 1\n",
                              "lib/amd/test.py": "from lib.amd.ops import fwd\n\n\ndef test_fwd():\n    assert fwd()\n",
                              "lib/amd/bench.py": "def run():\n    return 1\n"})
    assert "lib/amd/test.py" not in found and "lib/amd/bench.py" in found


def test_what_a_script_imports_is_reported_like_the_script(tmp_path):
    found = _audit(tmp_path, {
        "setup.py": "from setuptools import setup\nsetup()\n", "lib/__init__.py": "",
        "tests/test_lib.py": "import lib\n",
        "bench/__init__.py": "", "bench/conv/__init__.py": "",
        "bench/conv/conv_bench.py": "from lib.bench.conv.conv_ops import ops\n\n\ndef main():\n    ops()\n\n\n"
                                    'if __name__ == "__main__":\n    main()\n',
        "bench/conv/conv_ops.py": "def ops():\n    return 1\n",  # installed as lib.bench by the build
        "benchmarks/ops/benchmark.py": "def timeit(f):\n    return f()\n",
        "benchmarks/ops/benchmark_gla.py": "from benchmark import timeit\n\nfor n in (1, 2):\n    timeit(n)\n",
        "bench/common/dead.py": "def gone():\n    return 1\n"})
    assert found["bench/conv/"].confidence == 30  # the script and the module only it imports
    assert found["benchmarks/"].confidence == 30  # benchmark.py, imported from the script's own folder
    assert found["bench/common/"].confidence == 70  # imported by no script


def test_top_level_code_makes_a_script():
    assert runs_at_top_level("#!/usr/bin/env python3\nimport torch\nmodel = torch.load('x')\n")
    assert runs_at_top_level("import torch\nfor n in (1, 2):\n    torch.zeros(n)\n")
    assert runs_at_top_level("def main():\n    pass\n\n\nmain()\n")
    assert runs_at_top_level("try:\n    x = load()\n    print(x)\nexcept Exception as e:\n    print(e)\n")
    # a library printing a warning at import, logging set-up, registrations of private helpers: no script
    assert not runs_at_top_level("import sys\nHAS = True\nif HAS:\n    print('TMA', file=sys.stderr)\n")
    assert not runs_at_top_level("import logging\nlog = logging.getLogger(__name__)\n\n\ndef _reg():\n    pass\n\n\n"
                                 "_reg()\n")
    assert not runs_at_top_level("try:\n    import x\nexcept ImportError:\n    print('no x')\n")
    # a validation script's top-level asserts run what they build; a library's sanity asserts do not
    assert runs_at_top_level("from ops import GDSBuilder\nassert GDSBuilder().is_compatible(True)\n")
    assert not runs_at_top_level("import torch\nassert hasattr(torch, 'ops') and callable(torch.zeros)\n")
    # a command line read at the top level; top-level calls in a module that defines nothing (ThunderKittens)
    assert runs_at_top_level("import sys\nNAME = sys.argv[1]\n")
    assert runs_at_top_level("import matplotlib.pyplot as plt\nplt.figure()\nplt.savefig('d.png')\n")
    assert not runs_at_top_level("import warnings\nwarnings.simplefilter('ignore')\n\n\ndef f():\n    pass\n")
    assert not runs_at_top_level("from pkg import reg\nreg.setup()\n", module_code=False)  # an __init__
    # a deprecated shim warning at import (Megatron-LM's mamba_builders.py) is no script
    assert not runs_at_top_level("import warnings\nwarnings.warn('deprecated', DeprecationWarning)\n"
                                 "from hybrid_builders import *\n")


def test_a_shim_re_exporting_a_module_missing_from_the_tree_is_unknown(tmp_path):
    found = _audit(tmp_path, {"pyproject.toml": PYPROJECT, "lib/__init__.py": "from lib import attn\n",
                              "tests/test_lib.py": "import lib\n", "lib/attn/__init__.py": "import lib.attn.core\n", "lib/attn/core.py": "X = 1\n",
                              "lib/attn/utils.py": "from lib.internal.attn.utils import *  # noqa\n",
                              "lib/attn/helpers.py": "from lib.attn.core import *  # noqa\n"})
    assert found["lib/attn/utils.py"].confidence == 30 and "lib.internal.attn.utils" in found["lib/attn/utils.py"].reason
    assert found["lib/attn/helpers.py"].confidence == 60  # re-exports a module the tree has: no shim


def test_kernels_and_tests_of_public_modules_without_internal_users_are_40(tmp_path):
    """flash-attention: once `Path(this_dir) / "csrc" / "flash_attn"` stopped keeping all of flash_attn, its public
    modules with no internal user were reported at 40, but the Triton kernels only they launch at 60 and the tests
    of public models that also import a helper (flash_attn.utils.generation) at 50."""
    files = {
        "pyproject.toml": '[project]\nname = "lib"\nversion = "0"\n',
        "lib/__init__.py": "from lib.core import core\n",
        "lib/core.py": "def core():\n    return 1\n",
        "lib/attn_triton.py": "import triton\n\n\n@triton.jit\ndef _fwd_kernel(x):\n    pass\n\n\n"
                              "def attention(x):\n    _fwd_kernel[(1,)](x)\n",
        "lib/utils/__init__.py": "",
        "lib/utils/generation.py": "def generate():\n    return 2\n",
        "tests/test_core.py": "from lib.core import core\n\ndef test_core():\n    assert core()\n",
        "lib/models.py": "def gpt():\n    return 3\n",
        "tests/test_models.py": "from lib.models import gpt\nfrom lib.utils.generation import generate\n\n"
                                "def test_gpt():\n    assert gpt() and generate()\n",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    result, _table = run_audit(open_tree(tmp_path))
    found = {f.subject: f for f in result.findings}
    assert found["lib/attn_triton.py"].confidence == 40
    kernel = found["triton:lib/attn_triton.py::_fwd_kernel"]
    assert kernel.confidence == 40 and "public module" in kernel.reason
    test = found["tests/test_models.py"]
    assert test.kind == "orphaned-test" and test.confidence == 40


def test_files_a_workflow_shell_script_or_sphinx_runs_are_reported_like_scripts(tmp_path):
    """lmdeploy's workflows run ``python .github/scripts/check_lmdeploy.py``; DeepSpeed's ``run_write_sweep.sh``
    runs ``python ./validate_async_io.py`` beside it; Sphinx executes ``docs/conf.py``; a Makefile runs
    ``python -m bench.ops.gen``. Nothing imports them, but they run: 30 with the file that names them (and what
    they import goes with them). A file only a README mentions, or nothing names, is still dead."""
    found = _audit(tmp_path, {
        "pyproject.toml": PYPROJECT, "lib/__init__.py": "",
        ".github/workflows/lint.yml": "jobs:\n  check:\n    steps:\n      - run: python .github/scripts/check.py\n",
        ".github/scripts/check.py": "import helper_lib\n\ndef check():\n    return helper_lib.x\n",
        ".github/scripts/helper_lib.py": "x = 1\n",
        "csrc/aio/py_test/run_sweep.sh": "#!/bin/bash\nvalidate_cmd=\"python ./validate_async_io.py\"\n",
        "csrc/aio/py_test/validate_async_io.py": "def validate():\n    return 1\n",
        "csrc/aio/py_test/old_sweep.py": "def sweep():\n    return 1\n",
        "lib/_bench/setup_env.sh": "touch __init__.py\n", "lib/_bench/__init__.py": "",
        "lib/_bench/old.py": "def b():\n    return 1\n",
        "docs/source/conf.py": "project = 'lib'\nextensions = ['sphinx.ext.autodoc']\n",
        "Makefile": "gen:\n\tpython dev/gen.py --out build\n",
        "tools/dev/gen.py": "def gen():\n    return 1\n",
        "README.md": "Run `python stale/old_bench.py` to benchmark.\n",
        "stale/old_bench.py": "def bench():\n    return 1\n",
        "lib/dead.py": "def gone():\n    return 1\n",
        # Megatron-LM: Triton imports the class an environment variable names
        "examples/train.sh": 'export TRITON_CACHE_MANAGER="lib._ssm.cache_manager:FileCacheManager"\n',
        "lib/_ssm/__init__.py": "", "lib/_ssm/cache_manager.py": "class FileCacheManager:\n    pass\n",
        "lib/_ssm/stale.py": "X = 1\n",
    })
    for subject, named_by in [(".github/scripts/check.py", ".github/workflows/lint.yml:4"),
                              ("lib/_ssm/cache_manager.py", "examples/train.sh:1 names the module"),
                              (".github/scripts/helper_lib.py", ".github/scripts/check.py imports it"),
                              ("csrc/aio/py_test/validate_async_io.py", "csrc/aio/py_test/run_sweep.sh:2"),
                              ("docs/source/conf.py", "Sphinx"), ("tools/dev/gen.py", "Makefile:2")]:
        finding = next((f for s, f in found.items() if subject == s or s.endswith("/") and subject.startswith(s)),
                       None)
        assert finding is not None and finding.confidence == 30 and named_by in finding.reason, (subject, finding)
    assert found["stale/"].confidence == 70
    assert found["lib/dead.py"].confidence >= 40
    # a run file is reported on its own: the dead file beside it is no less dead, and touching an __init__.py
    # runs nothing
    assert found["csrc/aio/py_test/old_sweep.py"].confidence == 60
    assert found["lib/_bench/"].confidence == 70
    assert found["lib/_ssm/stale.py"].confidence == 60


def test_example_code_is_reported_like_scripts(tmp_path):
    """apex's ``apex/contrib/examples/nccl_allocator/``, any ``examples/`` or ``demos/`` folder and TE's
    ``docs/features/**/pytorch_nvfp4_example.py`` (a ``literalinclude``): example or documentation code
    users read and run by hand, nothing imports it (30, like scripts, not 70). The same module elsewhere is
    dead, and a folder finding does not mix the two."""
    found = _audit(tmp_path, {
        "pyproject.toml": PYPROJECT, "lib/__init__.py": "", "lib/contrib/__init__.py": "",
        "lib/contrib/examples/allocator/allreduce.py": "import lib\n\ndef run():\n    return lib\n",
        "lib/contrib/examples/allocator/helpers.py": "def h():\n    return 1\n",
        "demos/one.py": "def demo():\n    return 1\n",
        "docs/features/fp8/pytorch_fp8_example.py": "import lib\n\nlib.train()\n",
        "docs/source/conf.py": "project = 'lib'\nhtml_theme = 'x'\n",
        "lib/_stale/__init__.py": "", "lib/_stale/allreduce.py": "def run():\n    return 1\n",
    })
    assert found["lib/contrib/examples/"].confidence == 30 and "example or documentation code" in found["lib/contrib/examples/"].reason
    assert found["demos/"].confidence == 30
    # a docs snippet (shown by a literalinclude) beside the Sphinx conf.py: documentation code, 30 as well
    assert found["docs/features/"].confidence == 30 and "documentation code" in found["docs/features/"].reason
    assert found["lib/_stale/"].confidence == 70
    # a dead folder holding examples is reported without them: the examples are no less example code
    assert found["lib/contrib/__init__.py"].confidence == 60


def test_kernels_only_example_code_uses_are_reported_like_it(tmp_path):
    """mlx's ``examples/extensions/bindings.cpp`` exports ``axpby``, which only the example package imports:
    example code users build and run by hand (30, not 60). An export nothing reads is still 70."""
    files = {
        "pyproject.toml": PYPROJECT, "lib/__init__.py": "",
        "examples/extensions/setup.py": "from setuptools import setup, Extension\n"
                                        "setup(name='ext', ext_modules=[Extension('_ext', ['bindings.cpp'])])\n",
        "examples/extensions/bindings.cpp": 'NB_MODULE(_ext, m) {\n  m.def("axpby", &axpby);\n'
                                            '  m.def("stale", &stale);\n}\n',
        "examples/extensions/sample/__init__.py": "from _ext import axpby\n",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    result, _ = run_audit(open_tree(tmp_path), options=AuditOptions(kinds={"unused-kernel"}))
    found = {f.subject: f for f in result.findings}
    assert found["pybind:_ext.axpby"].confidence == 30 and "example or documentation code" in found["pybind:_ext.axpby"].reason
    assert found["pybind:_ext.stale"].confidence == 70


def test_regular_packages_under_a_namespace_top_package_are_library_packages(tmp_path):
    """Megatron-LM: ``megatron/`` has no ``__init__.py``; ``megatron.core`` is the installed library. Its
    backward-compatible shims nothing imports (``megatron/core/ssm/mamba_block.py``: ``from
    megatron.core.models.hybrid.hybrid_block import *``) are public modules (40), not dead (60); helper paths stay
    internal."""
    found = _audit(tmp_path, {
        "pyproject.toml": PYPROJECT + '[project.scripts]\nmcore = "megatron.core.cli:main"\n',
        "megatron/core/__init__.py": "", "megatron/core/block.py": "X = 1\n",
        "megatron/core/cli.py": "from megatron.core.block import X\n\n\ndef main():\n    return X\n",
        "megatron/core/ssm/__init__.py": "", "megatron/core/ssm/mamba_block.py": "from megatron.core.block import *\n",
        "megatron/core/datasets/__init__.py": "", "megatron/core/datasets/utils_s3.py": "S3 = 1\n",
        "megatron/core/utils/__init__.py": "", "megatron/core/utils/old.py": "Y = 2\n",
        "tests/test_core.py": "from megatron.core.block import X\n\n\ndef test_x():\n    assert X == 1\n",
    })
    assert found["megatron/core/ssm/"].confidence == 40
    assert found["megatron/core/datasets/"].confidence == 40  # its __init__ is public: its modules serve it
    assert found["megatron/core/utils/"].confidence == 70  # a helper path: internal


def test_public_modules_of_a_namespace_package_are_no_dead_code(tmp_path):
    """google-cloud-core's layout: ``google`` and ``google/cloud`` have no ``__init__.py``; users import
    ``google.cloud.environment_vars`` by its own name, as they import every module of a namespace package."""
    scripts = PYPROJECT + '[project.scripts]\ngc = "google.cloud.client:main"\n'
    found = _audit(tmp_path, {"pyproject.toml": scripts, "google/cloud/client/__init__.py": "def main():\n    pass\n",
                              "google/cloud/environment_vars/__init__.py": "PROJECT = 'GOOGLE_CLOUD_PROJECT'\n",
                              "google/cloud/_old/__init__.py": "", "tests/__init__.py": "",
                              "tests/unit/test_client.py": "from google.cloud.client import main\n"})
    env = found["google/cloud/environment_vars/"]
    assert env.confidence == 40 and "public module of the library package google" in env.reason
    assert found["google/cloud/_old/"].confidence > 40 and "public" not in found["google/cloud/_old/"].details
