"""Near-duplicate scripts at known similarity, and a module copied into three packages."""

from __future__ import annotations

from pathlib import Path

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
