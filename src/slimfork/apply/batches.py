"""Turn the plan into batches the engine applies and verifies one at a time: the stages' own batches (tests),
then the removals in the engine's order (rewrites that cut imports, then deletions importers first, then symbol
pruning; see slimfork.apply.from_plan), then the test data of removed registry entries, then packaging."""

from __future__ import annotations

import configparser
import dataclasses
import sys
import tomllib

from slimfork.apply.metadata import bump_pyproject_version, fork_pyproject
from slimfork.apply.own_version import own_version_reader
from slimfork.apply.from_plan import batches_from_removals
from slimfork.decisions import DELETING, Batch, Edit, KeptKind, Removal, RemovalKind
from slimfork.errors import SpecError
from slimfork.apply.deps import dotted
from slimfork.apply.with_rewrites import deletions_with_rewrites, imported_losses, lost_names
from slimfork.source.build_config import listed_packages
from slimfork.source.listed_cuts import cut_listed
from slimfork.plan.requirements import import_names_of, requirement_uses, string_mentions, third_party_imports, \
    used_by_dependencies


def build_batches(analysis, stages) -> list[Batch]:
    plan, tree = stages.plan, analysis.tree
    batches: list[Batch] = list(stages.extra_batches)  # tests first: they only shrink the suite
    rewritten, reasons = dict(stages.rewritten), dict(stages.rewrite_reasons)
    symbols = stages.symbols  # pruning and what it removed: one batch, applied last
    early: dict[str, str] = {}
    planned = list(plan.removals)
    if symbols is not None:  # except the pruned files an earlier deletion needs rewritten first
        from slimfork.apply.symbol_batch import early_edits, symbol_batch

        for _ in range(4):  # an early rewrite may lose a name another symbol-stage deletion imports
            planned, pulled = _pull_symbol_deletions(planned, rewritten, tree.root)
            found = early_edits(symbols, planned, analysis.graph.mm.module_of, tree.root, rewritten)
            fresh = {path: lost for path, lost in found.items() if path not in early}
            for path, lost in fresh.items():
                rewritten[path] = symbols.contents[path]
                reasons[path] = "; ".join(filter(None, [reasons.get(path), f"symbol pruning applied early: it "
                                                        f"removes the imports of {lost}, which an earlier batch "
                                                        "deletes"]))
            early.update(fresh)
            for path, why in _importers_of_early(symbols.contents, fresh, early, rewritten, tree.root).items():
                rewritten[path] = symbols.contents[path]
                reasons[path] = "; ".join(filter(None, [reasons.get(path), why]))
                early[path] = why
                fresh[path] = why
            if not pulled and not fresh:
                break
    removals = planned + [Removal(RemovalKind.FOLDED, path, reasons[path], group="folded") for path in sorted(rewritten)]
    if symbols is not None:
        own = [r for r in removals if r.group == "symbols"]
        removals = [r for r in removals if r.group != "symbols"]
    batches += batches_from_removals(removals, tree.root, rewritten)
    if symbols is not None and (batch := symbol_batch(symbols, own, frozenset(early))) is not None:
        batches.append(batch)
    batches += stages.late_batches  # test data of removed registry entries: after the entries
    suffix = fork_suffix(analysis, plan)
    cuts = dict(tree.entry_cuts)
    if cuts:  # before the deletions: the fork never declares a command whose module a batch deleted
        what = ", ".join(f"{n}" for g, names in sorted(tree.dropped_entries.items()) for n in sorted(names))
        batches.insert(len(stages.extra_batches), Batch(
            "dropped-entries", "Packaging: the dropped console scripts and entry points leave the build metadata",
            [Edit(path, data, f"the spec's drop removes {what or 'installed scripts'} from the build metadata",
                  "packaging") for path, data in sorted(cuts.items())]))
    unlisted, edits = _unlisted(analysis, plan, cuts)
    if edits:  # after those (it cuts their text again), before the deletions: setuptools fails on a listed
        # folder that is gone
        names = ", ".join(unlisted)
        batches.insert(len(stages.extra_batches) + bool(cuts), Batch(
            "unlisted-packages", f"Packaging: the removed packages leave the build configuration's list ({names})",
            [Edit(path, data, f"the fork removes the listed packages {names}", "packaging")
             for path, data in sorted(edits.items())]))
        cuts.update(edits)
    if tree.kind == "wheel":
        batches.append(_packaging(analysis, plan, stages, suffix))
    elif (tree.root / "pyproject.toml").is_file():
        original = cuts["pyproject.toml"].decode("utf-8") if "pyproject.toml" in cuts else \
            (tree.root / "pyproject.toml").read_text(encoding="utf-8")
        text, changed = bump_pyproject_version(original, suffix)
        if changed:
            batches.append(Batch("packaging", f"Packaging: the version gets the {suffix} local suffix",
                                 [Edit("pyproject.toml", text.encode(), "local version suffix", "packaging")]))
        elif suffix:
            plan.warnings.append(f"{_version_source(tree.root)}: the fork keeps the original's version")
    return batches


def _unlisted(analysis, plan, cuts: dict[str, bytes]) -> tuple[list[str], dict[str, bytes]]:
    """The packages a literal ``packages`` list names whose ``__init__.py`` the plan deletes (no root: the list can
    lose them, graph/roots.py), and the build files without them (source/listed_cuts.py)."""
    tree, mm = analysis.tree, analysis.graph.mm
    if tree.kind == "wheel":
        return [], {}
    deleted = {r.path for r in plan.removals if r.kind in DELETING}
    gone = sorted(p for p in listed_packages(tree.root) if p in mm.modules and mm.modules[p].path in deleted)
    edits = cut_listed(tree.root, set(gone), cuts) if gone else {}
    if edits is None:  # a dropped one in a list the fork cannot cut (the others were proven when the roots were read)
        raise SpecError(f"the fork removes {', '.join(gone)}, which the build configuration lists in a packages "
                        "list slimfork cannot cut (computed, or setup(**kw)): the fork would not install",
                        key="drop", hint="remove them from that list in a copy of the source, or keep them")
    return gone, edits


def _version_source(root) -> str:
    """Where a version that is not static in pyproject.toml comes from: the warning named pyproject.toml alone,
    which async-timeout 4.0.3's holds only [build-system] (its version: setup.cfg's ``attr:``)."""
    cfg = root / "setup.cfg"
    if cfg.is_file():
        parser = configparser.ConfigParser(interpolation=None)
        try:
            parser.read_string(cfg.read_text(encoding="utf-8", errors="replace"))
            version = parser.get("metadata", "version", fallback="").strip()
        except configparser.Error:
            version = ""
        if version:
            return f"the version comes from setup.cfg ([metadata] version = {version}), not a static pyproject.toml one"
    if (root / "setup.py").is_file():
        return "the version comes from setup.py, not a static pyproject.toml one"
    return "pyproject.toml has no static version (a dynamic one: its build backend computes it)"


def _pull_symbol_deletions(removals: list[Removal], rewritten: dict[str, bytes], root) -> tuple[list[Removal], int]:
    """A module that leaves because only pruned code imported it is deleted with the symbol batch, last; but when
    it imports a name that a fold or registry cut removes (sglang's ``dots_hybrid_backend`` imports
    ``create_dsa_backend``, cut with the "dsa" attention backend), it must go with the folded files, and with it
    the symbol-stage deletions that import it: they become plain deletions (``early_edits`` then prunes their kept
    importers early). Also how many were pulled."""
    own = [r.path for r in removals if r.group == "symbols" and r.kind in DELETING]
    moved = deletions_with_rewrites(own, [("folded", rewritten)], root) if own else {}
    if not moved:
        return removals, 0
    out = [dataclasses.replace(r, group="") if r.group == "symbols" and r.path in moved else r for r in removals]
    return out, len(moved)


def _importers_of_early(contents: dict[str, bytes], fresh: dict[str, str], early: dict[str, str],
                        rewritten: dict[str, bytes], root) -> dict[str, str]:
    """Pruned files whose pruning must come early too because they import a name that an early-pruned file
    (``fresh``) loses (sglang's ``hybrid_arch.py`` imports config classes the early pruning of
    ``configs/__init__`` removes), transitively: path -> why."""
    out: dict[str, str] = {}
    todo = dict(fresh)
    while todo:
        losses = {}
        for path in sorted(todo):
            module = dotted(path)
            lost = lost_names(root, path, contents[path])
            if module is not None and lost:
                losses[module] = (0, path, lost)
        todo = {}
        if not losses:
            break
        needles = {name.encode() for _, _, lost in losses.values() for name in lost}
        for path in sorted(contents):
            if path in early or path in out:
                continue
            data = rewritten.get(path) or _read(root, path)
            if data is None or not any(needle in data for needle in needles):
                continue
            hits = imported_losses(path, data, losses)
            if hits:
                what = "; ".join(f"{', '.join(sorted(names))} from {source}"
                                 for (_, source), names in sorted(hits.items()))
                out[path] = todo[path] = f"symbol pruning applied early: it imports {what}, pruned early"
    return out


def _read(root, path: str) -> bytes | None:
    try:
        return (root / path).read_bytes()
    except OSError:
        return None


def _packaging(analysis, plan, stages, suffix: str) -> Batch:
    """A wheel's dist-info becomes the fork's pyproject.toml (name, version+slimfork, scripts, and the
    dependencies kept code still imports)."""
    tree = analysis.tree
    kept_modules = {k.module for k in plan.kept if k.module}
    uses = _requirement_uses(analysis, stages, plan)
    text, notes = fork_pyproject(tree, kept_modules, [u.requirement for u in uses if u.kept], suffix)
    plan.warnings.extend(notes)
    if uses:
        stages.data["requirements"] = [dataclasses.asdict(u) for u in uses]
        stages.reports.append(("Requirements", requirements_markdown(uses)))
    # The wheel's dist-info stays (the tree on PYTHONPATH keeps the original's metadata for importlib.metadata);
    # pip builds the fork from the pyproject and ignores it.
    edits = [Edit("pyproject.toml", text.encode(), "the original's metadata as an installable project", "packaging")]
    return Batch("packaging", "Packaging: pyproject.toml from the wheel's metadata", edits)


DOC_FOLDERS = ("docs", "doc")


def version_suffix(spec) -> str:
    """The spec's ``version_suffix`` (default "+slimfork"; "" keeps the original's version)."""
    return spec.raw.get("version_suffix", "+slimfork")


def fork_suffix(analysis, plan) -> str:
    """The spec's suffix; without one, the default unless kept code reads the distribution's own version
    (unknown means keep: the original's version, with a warning)."""
    if "version_suffix" in analysis.spec.raw:
        return version_suffix(analysis.spec)
    name = _dist_name(analysis.tree)
    # a documentation build's conf.py shows the version, no user of the fork runs it (hupper 1.12.1, zope.event
    # 5.0, plaster 1.1.2: their docs/conf.py alone dropped the suffix, with a warning)
    kept = [k.path for k in plan.kept if k.path.endswith(".py")
            and not (k.kind == KeptKind.OUTSIDE and k.path.split("/")[0] in DOC_FOLDERS)]
    where = own_version_reader(analysis.tree.root, kept, name) if name else None
    if where is None:
        return version_suffix(analysis.spec)
    plan.warnings.append(f"{where} reads the distribution's own version, and may parse it: the fork keeps the "
                         "original's version (set version_suffix to add a local suffix anyway)")
    return ""


def _dist_name(tree) -> str | None:
    if tree.dist is not None and tree.dist.name:
        return tree.dist.name
    try:
        data = tomllib.loads((tree.root / "pyproject.toml").read_text(errors="replace"))
    except (OSError, tomllib.TOMLDecodeError):
        return None
    name = (data.get("project") or {}).get("name")
    return name if isinstance(name, str) else None


def _requirement_uses(analysis, stages, plan):
    """Each declared requirement, kept or dropped with its reason (import names from the verification
    environment when the spec has one, else from the interpreter running slimfork)."""
    tree = analysis.tree
    if tree.dist is None or not tree.dist.requires:
        return []
    if analysis.spec.sections.get("verify") is not None:
        from slimfork.verify.build import verify_env

        python = verify_env(analysis.spec).python  # the venv the checks use (built once, cached)
    else:
        python = sys.executable
    graph = stages.graph
    index = graph.index
    kept = [k.path for k in plan.kept if k.path in index.files]
    imported = third_party_imports(((rel, index.files[rel]) for rel in kept), graph.mm.is_internal)
    return requirement_uses(tree.dist.requires, imported, import_names_of(python),
                            string_mentions(graph.tree.root, kept),
                            lambda keep, candidates: used_by_dependencies(python, keep, candidates))


def requirements_markdown(uses) -> str:
    dropped = [u for u in uses if not u.kept]
    out = [f"{len(uses) - len(dropped)} of {len(uses)} declared requirements kept; {len(dropped)} dropped from the "
           "fork's metadata (nothing kept imports them).", "", "| requirement | kept | why |", "|---|---|---|"]
    out += [f"| `{u.requirement}` | {'yes' if u.kept else 'no'} | {u.reason} |"
            for u in sorted(uses, key=lambda u: (u.kept, u.name))]
    return "\n".join(out) + "\n"
