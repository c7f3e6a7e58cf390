"""Finding kind "duplicate": near-duplicate modules and scripts, grouped ("three copies of moe_dispatch").

Lines are compared after stripping indentation, blank lines and comment-only lines. Candidate pairs come
from shared runs of ``SHINGLE`` lines (runs shared by very many files, such as licence headers, are ignored;
runs shared by up to ``TEMPLATE_MAX`` files still pair copies of one template);
each candidate is then aligned with ``difflib.SequenceMatcher``. Similarity is its ratio, 2*M/(A+B) over the
compared lines, so 100% means the same code, and the shared ranges are reported in original line numbers.
"""

from __future__ import annotations

import os
import posixpath
from collections import Counter
from dataclasses import dataclass
from difflib import SequenceMatcher

from slimfork.audit.model import Finding

SHINGLE = 2
COMMON = 12  # a run of lines found in more files than this is boilerplate, unless the files are template copies
TEMPLATE_MAX = 150  # runs shared by up to this many files may still pair template copies ...
TEMPLATE_BUDGET = 3_000_000  # ... within this many pair updates


@dataclass(frozen=True)
class Pair:
    a: str
    b: str
    similarity: float  # 0..1
    shared: tuple[tuple[int, int, int, int], ...]  # (a_start, a_end, b_start, b_end), 1-based, inclusive


def normalized_lines(text: str) -> tuple[list[int], list[int]]:
    """(original line numbers, hashes of the normalized lines)."""
    numbers, hashes = [], []
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            numbers.append(number)
            hashes.append(hash(stripped))
    return numbers, hashes


def find_pairs(root: str, paths: list[str], min_similarity: float = 0.8, min_lines: int = 20) -> list[Pair]:
    files: dict[str, tuple[list[int], list[int]]] = {}
    for rel in paths:
        try:
            with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as fh:
                numbers, hashes = normalized_lines(fh.read())
        except OSError:
            continue
        if len(hashes) >= min_lines:
            files[rel] = (numbers, hashes)
    index: dict[int, list[str]] = {}
    sizes: dict[str, int] = {}
    for rel, (_numbers, hashes) in files.items():
        shingles = {hash(tuple(hashes[i:i + SHINGLE])) for i in range(len(hashes) - SHINGLE + 1)}
        sizes[rel] = len(shingles)
        for s in shingles:
            index.setdefault(s, []).append(rel)
    shared: Counter[tuple[str, str]] = Counter()
    for holders in index.values():
        if 1 < len(holders) <= COMMON:
            for i, a in enumerate(holders):
                for b in holders[i + 1:]:
                    shared[(a, b)] += 1
    # Files cut from one template share most runs with many files: count those runs too, rarest first, so the
    # copies are still compared, within a budget of pair updates (a licence header in 1,000 files is never one).
    budget = TEMPLATE_BUDGET
    for holders in sorted((h for h in index.values() if COMMON < len(h) <= TEMPLATE_MAX), key=len):
        cost = len(holders) * (len(holders) - 1) // 2
        if cost > budget:
            break
        budget -= cost
        for i, a in enumerate(holders):
            for b in holders[i + 1:]:
                shared[(a, b)] += 1
    pairs = []
    for (a, b), count in shared.items():
        la, lb = len(files[a][1]), len(files[b][1])
        if 2 * min(la, lb) / (la + lb) < min_similarity:  # too different in size to reach the threshold
            continue
        if count < 0.25 * min(sizes[a], sizes[b]):
            continue
        matcher = SequenceMatcher(None, files[a][1], files[b][1], autojunk=False)
        if matcher.real_quick_ratio() < min_similarity or matcher.quick_ratio() < min_similarity:
            continue
        ratio = matcher.ratio()
        if ratio >= min_similarity:
            pairs.append(Pair(a, b, ratio, _ranges(matcher, files[a][0], files[b][0])))
    return sorted(pairs, key=lambda p: (-p.similarity, p.a, p.b))


def _ranges(matcher: SequenceMatcher, a_numbers: list[int], b_numbers: list[int]):
    out = []
    for i, j, n in matcher.get_matching_blocks():
        if n >= 3:
            out.append((a_numbers[i], a_numbers[i + n - 1], b_numbers[j], b_numbers[j + n - 1]))
    return tuple(out)


def group_pairs(pairs: list[Pair]) -> list[list[str]]:
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for p in pairs:
        parent[find(p.a)] = find(p.b)
    groups: dict[str, list[str]] = {}
    for x in parent:
        groups.setdefault(find(x), []).append(x)
    return sorted((sorted(g) for g in groups.values()), key=lambda g: g[0])


def _stem(path: str) -> str:
    name = posixpath.basename(path)
    if name == "__init__.py":
        return posixpath.basename(posixpath.dirname(path)) or name
    return name.removesuffix(".py")


def duplicate_findings(root: str, paths: list[str], min_similarity: float = 0.8, min_lines: int = 20) -> list[Finding]:
    pairs = find_pairs(root, paths, min_similarity, min_lines)
    out = []
    for members in group_pairs(pairs):
        inside = [p for p in pairs if p.a in members]
        low, high = min(p.similarity for p in inside), max(p.similarity for p in inside)
        stems = Counter(_stem(m) for m in members)
        stem, count = stems.most_common(1)[0]
        label = stem if count > 1 or len(stems) == 1 else " / ".join(sorted(stems))
        copies = {2: "two", 3: "three", 4: "four", 5: "five"}.get(len(members), str(len(members)))
        span = f"{round(high * 100)}%" if round(low * 100) == round(high * 100) else \
            f"{round(low * 100)}-{round(high * 100)}%"
        best = max(inside, key=lambda p: p.similarity)
        reason = (f"{best.a} and {best.b} share {sum(r[1] - r[0] + 1 for r in best.shared)} lines in "
                  f"{len(best.shared)} runs (whitespace and comments ignored)")
        details = {"members": members, "pairs": [
            {"a": p.a, "b": p.b, "similarity": round(p.similarity * 100, 1),
             "shared": [list(r) for r in p.shared]} for p in inside]}
        out.append(Finding("duplicate", "|".join(members), f"{copies} copies of {label} ({span} similar)", reason,
                           95 if low >= 0.999 else min(90, round(low * 100)), members[0], None, details))
    return out
