"""The executor interface: results in order from threads and from forked processes, and a clear usage error
(exit 2) for an executor slimfork cannot use."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

from slimfork.cli import main
from slimfork.errors import SlimforkError
from slimfork.verify.executor import Job, LocalExecutor, check_executor, make_executor


def _where(tree: Path, n: int, seen: list) -> tuple[str, int, int]:
    seen.append(n)  # isolated jobs change their own copy: the caller's list stays empty
    return tree.name, n * n, os.getpid()


def test_results_come_back_in_order_from_threads_and_processes(tmp_path):
    seen: list = []
    threads = LocalExecutor(3).map([Job(_where, tmp_path / f"t{n}", (n, seen)) for n in range(7)])
    assert [(t, sq) for t, sq, _ in threads] == [(f"t{n}", n * n) for n in range(7)]
    assert {pid for *_, pid in threads} == {os.getpid()} and sorted(seen) == list(range(7))
    seen.clear()
    isolated = LocalExecutor(3).map([Job(_where, tmp_path / f"t{n}", (n, seen), isolated=True) for n in range(7)])
    assert [(t, sq) for t, sq, _ in isolated] == [(f"t{n}", n * n) for n in range(7)]
    assert os.getpid() not in {pid for *_, pid in isolated} and seen == []
    assert make_executor(None, 5).workers == 5


def test_an_executor_slimfork_cannot_use_is_a_usage_error(tmp_path, monkeypatch, capsys):
    with pytest.raises(SlimforkError, match="unknown executor 'dask'"):
        check_executor("dask")
    with pytest.raises(SlimforkError, match="--ray-address needs --executor ray"):
        make_executor("local", 2, "ray://head:10001")
    with pytest.raises(SlimforkError, match="no Ray cluster answers at 127.0.0.1:1"):
        check_executor("ray", "127.0.0.1:1")
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "ray" else real(name, *a))
    spec = tmp_path / "slimfork.toml"
    spec.write_text('source = "."\nroots = ["pkg"]\n')
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    for command in ("shrink", "corpus"):
        assert main([command, str(spec), "--executor", "ray", "--no-progress"]) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: --executor: ray is not installed\n  hint: pip install ray"), err
        assert "Traceback" not in err


def _listing(tree: Path) -> list[tuple[str, str]]:
    out = []
    for path in sorted(tree.rglob("*")):
        rel = path.relative_to(tree).as_posix()
        if path.is_symlink():
            out.append((rel, "-> " + os.readlink(path)))
        elif path.is_file():
            out.append((rel, path.read_text()))
    return out


def test_a_shipped_tree_unpacks_as_the_engine_copies_it(tmp_path):
    from slimfork.apply.tree import copy_tree
    from slimfork.verify.ray_executor import _run_remote, pack

    tree = tmp_path / "tree"
    (tree / "pkg" / "vendored" / ".git").mkdir(parents=True)
    (tree / "pkg" / "vendored" / ".git" / "HEAD").write_text("ref: main\n")
    (tree / "pkg" / "__init__.py").write_text("X = 1\n")
    (tree / "pkg" / "vendored" / "mod.py").write_text("Y = 2\n")
    (tree / "pkg" / "alias.py").symlink_to("__init__.py")
    (tree / "sub").mkdir()
    (tree / "sub" / ".git").write_text("gitdir: elsewhere\n")
    copy_tree(tree, tmp_path / "copy")
    shipped = _run_remote(_listing, "/nowhere/on/this/worker", pack(tree))
    assert shipped == _listing(tmp_path / "copy") and ("pkg/alias.py", "-> __init__.py") in shipped
    assert not any(".git" in rel for rel, _ in shipped)
    assert _run_remote(_listing, str(tree), None) == _listing(tree)  # not shipped: read in place
