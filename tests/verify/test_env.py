"""The verification environment: named stubs, and the cached venv built atomically from pins."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest

from slimfork.errors import SlimforkError
from slimfork.verify.env import VerifyConfig, current_env, ensure_venv, prepare_env

STUB_PROBE = r"""
import importlib.util, sys
assert importlib.util.find_spec("fakeheavy") is None, "a probe must not see the stub"
import fakeheavy
import fakeheavy.ops.triton.utils as deep
from fakeheavy import dtypes, Tensor
from fakeheavy.transforms import InterpolationMode
assert deep.__name__ == "fakeheavy.ops.triton.utils" and fakeheavy.ops.triton.utils is deep

class Mine(Tensor):  # subclassing a placeholder works
    pass

x = InterpolationMode.BILINEAR  # attribute chains are placeholders
annotation = Tensor | None
assert not hasattr(fakeheavy, "__version__")
try:
    fakeheavy.silu_and_mul(1)
except Exception as exc:
    assert type(exc).__name__ == "StubUsed" and "fakeheavy.silu_and_mul" in str(exc), exc
else:
    raise AssertionError("calling a stub must raise")
try:
    import notstubbed
except ModuleNotFoundError:
    pass
else:
    raise AssertionError("no catch-all: an unlisted module stays missing")
print("ok")
"""


def test_named_stubs_import_but_raise_on_use_and_hide_from_probes(tmp_path):
    env = current_env(("fakeheavy",))
    proc = subprocess.run([str(env.python), "-c", STUB_PROBE], env=env.process_env(tmp_path), capture_output=True,
                          text=True, cwd=tmp_path)
    assert proc.stdout == "ok\n", proc.stderr


def test_process_env_puts_the_tree_on_the_path_and_no_bytecode(tmp_path):
    env = current_env().process_env(tmp_path, extra={"COLUMNS": "80"})
    assert env["PYTHONPATH"] == str(tmp_path)
    assert env["PYTHONDONTWRITEBYTECODE"] == "1" and env["PYTHONHASHSEED"] == "0" and env["COLUMNS"] == "80"
    with_stubs = current_env(("aiter",)).process_env(tmp_path, stubs=("vllm",))
    stub_dir = Path(with_stubs["PYTHONPATH"].split(":")[0])
    assert "['aiter', 'vllm']" in (stub_dir / "sitecustomize.py").read_text()


def test_venv_is_built_once_atomically_and_reused(tmp_path, monkeypatch):
    monkeypatch.setenv("SLIMFORK_CACHE", str(tmp_path / "cache"))
    config = VerifyConfig(("six==1.17.0",), "test pins")
    start = time.monotonic()
    env = prepare_env(config)
    built = time.monotonic() - start
    assert env.venv is not None and (env.venv / ".slimfork-complete").is_file()
    check = subprocess.run([str(env.python), "-c", "import six, sys; print(six.__version__, sys.prefix)"],
                           capture_output=True, text=True)
    assert check.stdout.split() == ["1.17.0", str(env.venv)]
    activate = (env.venv / "bin" / "activate").read_text()
    assert str(env.venv) in activate and ".build-" not in activate  # relocated before the rename
    start = time.monotonic()
    assert prepare_env(config).venv == env.venv
    assert time.monotonic() - start < min(built, 5)
    leftovers = [p.name for p in (tmp_path / "cache" / "venvs").iterdir() if p.name.startswith(".build-")]
    assert leftovers == []


def test_a_failed_build_leaves_nothing_that_looks_complete(tmp_path, monkeypatch):
    monkeypatch.setenv("SLIMFORK_CACHE", str(tmp_path / "cache"))
    config = VerifyConfig(("six==0.0.0.0.1",), "test pins", pip_args=("--no-index",))
    with pytest.raises(SlimforkError) as err:
        ensure_venv(config)
    assert err.value.key == "verify.requirements" and "pip log" in err.value.message
    venvs = tmp_path / "cache" / "venvs"
    assert sorted(p.suffix for p in venvs.iterdir()) == [".lock", ".log"]  # no venv, no temp folder
