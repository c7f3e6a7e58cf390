"""fold_kernel_sources on a tree: file modes, symlinks, non-C files, a missing unifdef, a second run."""

import os
import shutil
from pathlib import Path

import pytest

from slimfork.errors import SlimforkError
from slimfork.kernels.includes import kernel_source_files
from slimfork.kernels.spec import PreprocessorFacts
from slimfork.kernels.unifdef import fold_kernel_sources

FIXTURE = Path(__file__).parent / "fixtures" / "tree"
NVIDIA = PreprocessorFacts(undefined=("USE_ROCM",))


@pytest.fixture
def tree(tmp_path):
    shutil.copytree(FIXTURE, tmp_path / "tree")
    return tmp_path / "tree"


def test_folds_in_place_keeps_modes_and_converges(tree, unifdef_tool):
    common = tree / "pkg/jit/include/lib/common.cuh"
    os.chmod(common, 0o640)
    (tree / "pkg/ops/gemm.hip").write_text("#ifdef USE_ROCM\nx\n#endif\n")
    report = fold_kernel_sources(tree, kernel_source_files(tree), NVIDIA)
    assert common.read_text() == "#pragma once\nint cuda_common;\n"
    assert common.stat().st_mode & 0o777 == 0o640
    assert (tree / "pkg/ops/gemm.hip").read_text() == "#ifdef USE_ROCM\nx\n#endif\n"  # .hip is not folded
    assert {f.path for f in report.folded()} == {"pkg/jit/include/lib/common.cuh", "pkg/jit/csrc/attn/attn.cuh"}
    data = report.to_dict()
    assert data["files_folded"] == 2 and data["lines_removed"] == 7 and data["directives_folded"] == 5
    assert data["unifdef"].startswith("unifdef-")
    again = fold_kernel_sources(tree, kernel_source_files(tree), NVIDIA)
    assert again.folded() == [] and again.left_alone() == []


def test_symlinks_are_left_alone(tree, unifdef_tool):
    link = tree / "pkg/jit/csrc/attn/link.cuh"
    link.symlink_to(tree / "pkg/jit/include/lib/common.cuh")
    report = fold_kernel_sources(tree, ["pkg/jit/csrc/attn/link.cuh"], NVIDIA)
    assert [f.status for f in report.files] == ["symlink"]
    assert link.is_symlink()


def test_malformed_file_is_left_alone_and_reported(tree, unifdef_tool):
    bad = tree / "pkg/jit/csrc/attn/local.h"
    bad.write_bytes(b"#ifdef USE_ROCM\n#else\n#else\n#endif\n")
    report = fold_kernel_sources(tree, ["pkg/jit/csrc/attn/local.h"], NVIDIA)
    assert report.left_alone()[0].status == "malformed" and "Inappropriate #else" in report.left_alone()[0].message
    assert bad.read_bytes() == b"#ifdef USE_ROCM\n#else\n#else\n#endif\n"


def test_missing_unifdef_is_a_clear_error(tree, monkeypatch):
    monkeypatch.setenv("SLIMFORK_UNIFDEF", str(tree / "no-such-unifdef"))
    with pytest.raises(SlimforkError) as info:
        fold_kernel_sources(tree, ["pkg/jit/csrc/attn/attn.cuh"], NVIDIA)
    assert info.value.key == "facts.preprocessor"
    assert "unifdef" in info.value.message and "apt-get install unifdef" in info.value.hint
    assert "brew install unifdef" in info.value.hint


def test_no_facts_needs_no_unifdef(tree, monkeypatch):
    monkeypatch.setenv("SLIMFORK_UNIFDEF", str(tree / "no-such-unifdef"))
    report = fold_kernel_sources(tree, ["pkg/jit/csrc/attn/attn.cuh"], PreprocessorFacts())
    assert report.files == []
