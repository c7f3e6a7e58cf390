"""Near-duplicate scripts at known similarity, and a module copied into three packages."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from slimfork.audit.duplicates import duplicate_findings, find_pairs, normalized_lines
from slimfork.index import build_index

ROOT = Path(__file__).parent / "fixtures" / "dup_scripts"


def _paths():
    return list(build_index(ROOT).files)


def test_similarity_is_exact_for_known_edits():
    # 50 code lines each; 7 (resp. 9) lines differ: 2 * 43 / 100 = 86%, 2 * 41 / 100 = 82%
    pairs = {(p.a, p.b): p for p in find_pairs(str(ROOT), _paths(), min_similarity=0.5)}
    parakeet = pairs[("scripts/quantize_parakeet.py", "scripts/quantize_parakeet_int8.py")]
    assert parakeet.similarity == 0.86
    assert pairs[("scripts/quantize_layerwise.py", "scripts/quantize_layerwise_parallel.py")].similarity == 0.82
    # shared ranges are in original line numbers and skip exactly the edited lines (10, 16, 22, ...)
    assert parakeet.shared[:3] == ((1, 9, 1, 9), (11, 15, 11, 15), (17, 21, 17, 21))
    assert not any("unrelated" in a or "unrelated" in b for a, b in pairs)


def test_three_copies_are_one_group():
    findings = {f.message: f for f in duplicate_findings(str(ROOT), _paths(), min_similarity=0.8)}
    assert sorted(findings) == ["three copies of moe_dispatch (94-100% similar)",
                                "two copies of quantize_layerwise / quantize_layerwise_parallel (82% similar)",
                                "two copies of quantize_parakeet / quantize_parakeet_int8 (86% similar)"]
    moe = findings["three copies of moe_dispatch (94-100% similar)"]
    assert moe.details["members"] == ["duplib/legacy/moe_dispatch.py", "duplib/moe/moe_dispatch.py",
                                      "duplib/trellis/moe_dispatch.py"]
    assert moe.subject == "|".join(moe.details["members"]) and moe.confidence == 90


def test_threshold_excludes_lower_similarity():
    messages = [f.message for f in duplicate_findings(str(ROOT), _paths(), min_similarity=0.85)]
    assert not any("layerwise" in m for m in messages) and any("parakeet" in m for m in messages)


def test_normalization_ignores_blank_lines_comments_and_indentation():
    numbers, hashes = normalized_lines("x = 1\n\n    # note\n  y = 2  \n")
    assert numbers == [1, 4] and hashes == [hash("x = 1"), hash("y = 2")]


@settings(max_examples=40, deadline=None)
@given(st.integers(20, 80).flatmap(lambda n: st.tuples(st.just(n), st.sets(st.integers(0, n - 1), max_size=n // 5))))
def test_similarity_of_replaced_lines_is_exact(case):
    """At 80% or more (the default threshold) a pair is always found, wherever the edits are, and its
    similarity is exact. (Below that, candidates need shared runs of two lines: every other line replaced,
    50% similar, is not compared.)"""
    n, replaced = case
    original = [f"value_{i} = compute({i})" for i in range(n)]
    edited = [f"other_{i} = variant({i})" if i in replaced else line for i, line in enumerate(original)]
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "a.py").write_text("\n".join(original) + "\n")
        Path(tmp, "b.py").write_text("\n".join(edited) + "\n")
        pairs = find_pairs(tmp, ["a.py", "b.py"], min_similarity=0.8)
    expected = (n - len(replaced)) / n
    assert len(pairs) == 1 and abs(pairs[0].similarity - expected) < 1e-9


def test_copies_of_one_template_are_all_compared(tmp_path):
    """35 model wrappers cut from one template (each renames its class and changes a few lines): every pair
    at 80% or more is found, although most of their lines are shared by more than 12 files."""
    template = [f"def layer_{i}(x, cfg):" if i % 4 == 0 else f"    x = x * cfg.scale_{i} + {i}" for i in range(60)]
    for n in range(35):
        lines = list(template)
        lines[0] = f"class Model{n}(Base):  # model {n}"
        for k in (7 + n % 50, 11 + n % 40):  # two edits per copy, in different places
            lines[k] = f"    x = custom_{n}_{k}(x)"
        (tmp_path / f"model_{n}.py").write_text("\n".join(lines) + "\n")
    paths = [f"model_{n}.py" for n in range(35)]
    pairs = find_pairs(str(tmp_path), paths, 0.8)
    assert len(pairs) == 35 * 34 // 2 and all(0.9 <= p.similarity < 1 for p in pairs)
