"""Which declared requirements the fork still needs.

A requirement stays when kept code imports one of its import names (in any scope: a lazy import inside a
function counts), names one in a string (``find_spec("x")``, ``is_package_available("x")``), when a kept
requirement's own code imports or names it (uvicorn picks up uvloop, starlette python-multipart, torch runs
ninja), or when its import names are unknown (the distribution is not installed where slimfork can read its
metadata): unknown means keep.
Requirements behind an ``extra == ...`` marker are optional and stay as they are. The rest leave the fork's
metadata, each with the import names nothing kept uses.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from slimfork.index.summary import ModuleSummary

_NAME = re.compile(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)")
_EXTRA_MARKER = re.compile(r"""extra\s*==""")
_SCRIPT = ("import importlib.metadata as m, json, re\n"
           "out = {}\n"
           "for name, dists in m.packages_distributions().items():\n"
           "    for d in dists:\n"
           "        out.setdefault(re.sub(r'[-_.]+', '-', d).lower(), []).append(name)\n"
           "print(json.dumps(out))\n")


# Run in the environment: which candidate distributions the code of the kept ones imports or names (to a fixpoint).
_THROUGH = r"""
import importlib.metadata as m, json, re, sys
ask = json.loads(sys.stdin.read())
norm = lambda n: re.sub(r"[-_.]+", "-", n).lower()
dists = {}
for d in m.distributions():
    dists.setdefault(norm(d.metadata["Name"] or ""), d)
texts = {}
def text(name):
    if name not in texts:
        d, parts = dists.get(name), []
        for f in (d.files or []) if d else []:
            if str(f).endswith(".py"):
                try:
                    parts.append(f.locate().read_text(encoding="utf-8", errors="replace"))
                except (OSError, ValueError):
                    pass
        texts[name] = "\n".join(parts)
    return texts[name]
kept, left, found = list(ask["kept"]), dict(ask["candidates"]), {}
while kept:
    name = kept.pop()
    for cand, names in list(left.items()):
        pattern = "|".join(re.escape(n) for n in names)
        if re.search(r"(^|\s)(import|from)\s+(" + pattern + r")\b|[\"'](" + pattern + r")[\"'.]", text(name), re.M):
            found[cand] = name
            del left[cand]
            kept.append(cand)
print(json.dumps(found))
"""


@dataclass(frozen=True)
class RequirementUse:
    requirement: str  # the PEP 508 line as declared
    name: str  # normalised distribution name
    kept: bool
    reason: str  # "imported as yaml (pkg/conf.py:3)", "nothing kept imports ...", "import names unknown ..."


def normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_name(requirement: str) -> str | None:
    match = _NAME.match(requirement)
    return normalise(match.group(1)) if match else None


def import_names_of(python: Path | str) -> dict[str, set[str]]:
    """Distribution name (normalised) -> the top-level import names it installs, in the environment of
    ``python``; empty when that interpreter cannot tell (every requirement is then kept)."""
    try:
        done = subprocess.run([str(python), "-c", _SCRIPT], capture_output=True, text=True, timeout=120)
        raw = json.loads(done.stdout) if done.returncode == 0 else {}
    except (OSError, subprocess.TimeoutExpired, ValueError):
        raw = {}
    return {dist: {n for n in names if n.isidentifier()} for dist, names in raw.items()}


def third_party_imports(summaries: Iterable[tuple[str, ModuleSummary]],
                        is_internal: Callable[[str], bool]) -> dict[str, str]:
    """Top-level name -> the first place (``path:line``) kept code imports it, for names outside the tree."""
    out: dict[str, str] = {}
    for rel, summary in summaries:
        for imp in summary.imports:
            if imp.level or not imp.module or imp.type_checking:
                continue
            top = imp.module.split(".")[0]
            if not is_internal(top):
                out.setdefault(top, f"{rel}:{imp.line}")
    return out


def used_by_dependencies(python: Path | str, kept: list[str], candidates: dict[str, set[str]]) -> dict[str, str]:
    """Candidate distribution -> the kept distribution whose code imports or names it (directly or through
    another candidate found so), read in the environment of ``python``."""
    if not candidates:
        return {}
    ask = json.dumps({"kept": sorted(kept), "candidates": {k: sorted(v) for k, v in candidates.items()}})
    try:
        done = subprocess.run([str(python), "-c", _THROUGH], input=ask, capture_output=True, text=True, timeout=900)
        return json.loads(done.stdout) if done.returncode == 0 else {c: "unknown (scan failed)" for c in candidates}
    except (OSError, subprocess.TimeoutExpired, ValueError):
        return {c: "unknown (scan failed)" for c in candidates}


def requirement_uses(requires: list[str], imported: dict[str, str], names: dict[str, set[str]],
                     mentioned: Callable[[set[str]], str | None],
                     through: Callable[[list[str], dict[str, set[str]]], dict[str, str]] = lambda k, c: {},
                     ) -> list[RequirementUse]:
    """One entry per declared requirement. ``mentioned(import_names)`` returns where kept code names one of them
    in a string, or None; ``through(kept, candidates)`` which candidates a kept requirement uses."""
    out = []
    for req in requires:
        name = requirement_name(req)
        if name is None or _EXTRA_MARKER.search(req.partition(";")[2]):
            out.append(RequirementUse(req, name or req, True, "optional (an extra): left as declared"))
            continue
        known = names.get(name)
        if not known:
            out.append(RequirementUse(req, name, True, "import names unknown (not installed where slimfork looked, "
                                                      "or installs no Python package): kept"))
            continue
        used = sorted(n for n in known if n in imported)
        if used:
            out.append(RequirementUse(req, name, True, "imported as " + ", ".join(
                f"{n} ({imported[n]})" for n in used)))
            continue
        where = mentioned(known)
        if where:
            out.append(RequirementUse(req, name, True, f"named in a string at {where}"))
            continue
        out.append(RequirementUse(req, name, False, "nothing kept imports " + ", ".join(sorted(known))))
    kept = [u.name for u in out if u.kept]
    users = through(kept, {u.name: names[u.name] for u in out if not u.kept})
    return [RequirementUse(u.requirement, u.name, True, f"used by the kept requirement {users[u.name]}")
            if not u.kept and u.name in users else u for u in out]


def string_mentions(root: Path, paths: Iterable[str]) -> Callable[[set[str]], str | None]:
    """A lookup: the first kept file that has one of the names as a quoted string."""
    texts = []
    for rel in sorted(paths):
        try:
            texts.append((rel, (root / rel).read_bytes()))
        except OSError:
            continue

    def find(names: set[str]) -> str | None:
        needles = [q + n.encode() + q for n in sorted(names) for q in (b'"', b"'")]
        for rel, data in texts:
            if any(needle in data for needle in needles):
                return rel
        return None

    return find
