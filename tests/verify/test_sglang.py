"""The real thing: sglang 0.5.23 in its CPU verification environment, built by slimfork from the profile's pins.

Slow: the first run downloads the wheel and builds the venv (2.7 GB, a few minutes); both are cached.
"""

from __future__ import annotations

import os
import shutil
import time

import pytest

from slimfork.source.fetch import fetch_pypi
from slimfork.verify.checks.command import CommandCheck
from slimfork.verify.checks.import_modules import ImportModulesCheck
from slimfork.verify.env import prepare_env
from slimfork.verify.spec import parse_checks, parse_verify
from slimfork.verify.tree import TreeLayout

from tests.verify.verify_helpers import FIXTURES

pytestmark = pytest.mark.slow
PROFILES = FIXTURES.parents[2] / "profiles"
LAYOUT = TreeLayout("", ("sglang",))
MODULES = ["sglang.srt.models.deepseek_v2", "sglang.srt.function_call.function_call_parser",
           "sglang.srt.entrypoints.http_server"]
PRELOAD = ["torch", "transformers", "torch._inductor.compile_fx", "triton", "fastapi", "pydantic", "numpy"]
CHECKS = parse_checks({
    "import_modules": {"modules": MODULES, "jobs": 2, "preload": PRELOAD},
    "command": [
        {"name": "launch_server --help", "argv": ["python", "-m", "sglang.launch_server", "--help"],
         "env": {"PYTHONHASHSEED": "0", "COLUMNS": "80"}, "match": "both", "timeout": 300},
        {"name": "deepseek layer", "argv": ["python", "{spec_dir}/checks/deepseek_layer.py"], "match": "stdout",
         "stubs": ["vllm"], "timeout": 600},
    ],
})


@pytest.fixture(scope="module")
def sglang(tmp_path_factory):
    start = time.monotonic()
    original = fetch_pypi("sglang", "0.5.23")
    fork = tmp_path_factory.mktemp("sglang") / "fork"
    shutil.copytree(original, fork, copy_function=os.link)  # an identical copy; files are replaced, never written
    verify = parse_verify({"requirements": "sglang-verify-requirements.txt",
                           "stubs": ["torchvision", "humming", "aiter"]})
    env = prepare_env(verify.config(PROFILES))
    print(f"\nsource, copy and verification env ready in {time.monotonic() - start:.1f}s")
    return original, fork, env


def _touch(tree, rel, old=b"", new=b"", end=b"\n# touched by the test\n"):
    """Change one file of the copy without writing through its hard link into the cached source."""
    path = tree / rel
    data = path.read_bytes()
    assert data.count(old) == (1 if old else data.count(b""))
    path.unlink()
    path.write_bytes(data.replace(old, new) + end if old else data + end)


def test_deepseek_server_and_function_call_modules_import(sglang):
    original, fork, env = sglang
    check = ImportModulesCheck(LAYOUT, env, CHECKS.import_modules)
    baseline = check.baseline(original)
    print(f"import-modules baseline: {baseline.seconds:.1f}s: {baseline.note}")
    assert baseline.usable and baseline.note == "3 of 3 modules import in the original", baseline.note
    loaded = {m: len(o.loaded) for m, o in baseline.data["outcomes"].items()}
    assert loaded["sglang.srt.models.deepseek_v2"] > 300, loaded  # they really loaded the package
    result = check.run(fork, baseline)
    assert result.ok and result.detail.startswith("0 imported"), result  # nothing changed: nothing re-imported
    model_file = "sglang/srt/models/deepseek_v2.py"
    assert [m for m, o in baseline.data["outcomes"].items() if model_file in o.loaded] == [MODULES[0]]
    _touch(fork, model_file)  # loaded by the model module only: one re-import
    result = check.run(fork, baseline)
    print(f"import-modules on the fork with one file changed: {result.seconds:.1f}s: {result.detail}")
    assert result.ok, result.failures
    assert result.detail.startswith("1 imported"), result.detail


def test_launch_server_help_is_the_same_on_an_identical_copy(sglang):
    original, fork, env = sglang
    check = CommandCheck(LAYOUT, env, CHECKS.commands[0], PROFILES)
    baseline = check.baseline(original)
    print(f"launch_server --help baseline (two runs): {baseline.seconds:.1f}s: {baseline.note}")
    assert baseline.usable, baseline.note
    assert baseline.data.stdout.startswith("usage: sglang serve") and "--model-path" in baseline.data.stdout
    result = check.run(fork, baseline)
    print(f"launch_server --help on the copy: {result.seconds:.1f}s")
    assert result.ok, result.failures


def test_deepseek_layer_gives_the_same_output_twice_and_sees_a_changed_router(sglang, tmp_path):
    original, _, env = sglang
    check = CommandCheck(LAYOUT, env, CHECKS.commands[1], PROFILES)
    baseline = check.baseline(original)  # runs it twice: usable only if both outputs are equal
    print(f"deepseek layer baseline (two runs): {baseline.seconds:.1f}s\n{baseline.data.stdout}")
    assert baseline.usable, baseline.note
    lines = baseline.data.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == ["dense (TorchNativeAttnBackend)", "moe (TorchNativeAttnBackend)"]
    assert lines[0].split("sha=")[1] != lines[1].split("sha=")[1]  # the MoE layer computes something else
    fork = tmp_path / "fork"
    shutil.copytree(original, fork, copy_function=os.link)
    _touch(fork, "sglang/srt/models/deepseek_v2.py", b"self.routed_scaling_factor = config.routed_scaling_factor",
           b"self.routed_scaling_factor = 2 * config.routed_scaling_factor", b"")
    result = check.run(fork, baseline)
    print(f"deepseek layer on a fork with a changed router: {result.seconds:.1f}s")
    assert len(result.failures) == 1 and "-moe (TorchNativeAttnBackend)" in result.failures[0]
    assert "-dense" not in result.failures[0]  # the dense layer has no router: its line is unchanged
