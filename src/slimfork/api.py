"""The Python API behind the CLI: load a spec, plan, shrink, explain, count. The work is done by the orchestrator,
``slimfork.pipeline``; this module is the stable surface."""

from __future__ import annotations

from pathlib import Path

from slimfork.errors import SlimforkError
from slimfork.explain import WhyAnswer, explain, locate
from slimfork.graph.weigh import weigh as weigh_graph
from slimfork.pipeline.analyse import Analysis, analyse, open_source
from slimfork.pipeline.shrink import ShrinkResult, shrink
from slimfork.spec import Spec

__all__ = ["Analysis", "ShrinkResult", "WhyAnswer", "analyse", "kept_diff", "open_source", "shrink", "stats", "weigh",
           "why"]


def why(spec: Spec | str | Path, target: str) -> WhyAnswer:
    return explain(analyse(spec, precheck=lambda first: locate(first, target)), target)


def weigh(spec: Spec | str | Path | Analysis) -> list:
    """Every kept module with the lines that would leave with it (``slimfork.graph.weigh``), heaviest first;
    lines are the fork's (after folding and symbol pruning)."""
    analysis = spec if isinstance(spec, Analysis) else analyse(spec)
    graph, stages = analysis.graph, analysis.stages
    contents = dict(stages.rewritten) if stages else {}
    contents.update(stages.symbols.contents if stages and stages.symbols else {})

    def lines_of(module: str) -> int:
        info = graph.modules.get(module)
        if info is None or info.path is None:
            return 0
        if info.path in contents:
            return contents[info.path].count(b"\n")
        summary = analysis.index.files.get(info.path)
        return summary.lines if summary is not None else 0

    return weigh_graph(graph, lines_of)


def reexport_hold(spec: Spec | str | Path | Analysis):
    """What package ``__init__`` re-exports alone keep (``graph.weigh.InitHold``) and the ``[symbols]`` lines that
    let it go (``public_api = "roots"`` and ``package_api = false``), or None when the
    spec's ``[symbols]`` already prunes package ``__init__``s or nothing is held that way. Tests of the package's
    API (``vars(pkg)``, a README doctest) may then fail: the fork no longer promises it."""
    from slimfork.graph.weigh import held_by_package_inits
    from slimfork.prune.spec import SymbolsSpec

    analysis = spec if isinstance(spec, Analysis) else analyse(spec)
    config = analysis.spec.sections.get("symbols")
    if config is not None and not config.package_api:
        return None
    graph = analysis.graph
    hold = held_by_package_inits(graph, lambda m: _lines(analysis, m))
    if not hold.modules:
        return None
    line = ('public_api = "roots"\npackage_api = false' if (config or SymbolsSpec()).public_api == "kept"
            else "package_api = false")
    return hold, ("" if config is not None else "[symbols]\n") + line


def star_hold(spec: Spec | str | Path | Analysis):
    """What only the star imports of API modules keep (``graph.weigh.InitHold``) and the spec line that lets it go:
    under the default ``public_api = "kept"`` every kept public module is API and re-exports what it
    star-imports, so ``public_api = "roots"``; under ``"roots"`` a root module's star imports are its API, so a
    symbol root (``pkg.mod:Name``) for what the fork needs instead of the module. None when nothing is held so
    or the spec has no ``[symbols]``. Package ``__init__``s are ``reexport_hold``'s."""
    from slimfork.graph.public_api import api_modules
    from slimfork.graph.weigh import held_by_star_imports

    analysis = spec if isinstance(spec, Analysis) else analyse(spec)
    config = analysis.spec.sections.get("symbols")
    if config is None or not config.prune:
        return None
    graph = analysis.graph
    if config.public_api == "kept":
        api = {m for m in graph.reached if graph.mm.is_internal(m)
               and not any(p.startswith("_") for p in m.split(".")[1:])}
        line = 'public_api = "roots"'
    else:
        api = set(api_modules(analysis.spec.roots, graph.mm))
        line = ""
    hold = held_by_star_imports(graph, lambda m: _lines(analysis, m), api)
    return (hold, line) if hold.modules else None


def type_checking_hold(spec: Spec | str | Path | Analysis):
    """What only ``if TYPE_CHECKING:`` imports keep (``graph.weigh.InitHold``), or None when the spec already
    ignores them or nothing is held that way."""
    from slimfork.graph.weigh import held_by_type_checking

    analysis = spec if isinstance(spec, Analysis) else analyse(spec)
    if not analysis.spec.type_checking_imports:
        return None
    hold = held_by_type_checking(analysis.graph, lambda m: _lines(analysis, m))
    return hold if hold.modules else None


def open_imports_hold(spec: Spec | str | Path | Analysis):
    """What only imports of a name computed entirely at run time keep (``graph.weigh.InitHold``, its ``inits`` the
    modules with such imports, which ``outside_imports`` would list), or None when nothing is held that way."""
    from slimfork.graph.weigh import held_by_open_imports

    analysis = spec if isinstance(spec, Analysis) else analyse(spec)
    hold = held_by_open_imports(analysis.graph, lambda m: _lines(analysis, m))
    return hold if hold.modules else None


def listed_packages_hold(spec: Spec | str | Path | Analysis):
    """What only the build configuration's literal ``packages`` list keeps (``graph.weigh.InitHold``, its
    ``inits`` the listed packages no spec root lies in), or None when nothing is held that way."""
    from slimfork.graph.weigh import held_by_listed_packages

    analysis = spec if isinstance(spec, Analysis) else analyse(spec)
    hold = held_by_listed_packages(analysis.graph, lambda m: _lines(analysis, m))
    return hold if hold.modules else None


def _lines(analysis, module: str) -> int:
    info = analysis.graph.modules.get(module)
    summary = analysis.index.files.get(info.path) if info is not None and info.path else None
    return summary.lines if summary is not None else 0


def kept_diff(a: Spec | str | Path, b: Spec | str | Path, jobs: int | None = None) -> dict:
    """The modules one side keeps and the other does not, each with both sides' reasons (``slimfork diff``). A
    side is a spec, planned statically with its stale entries allowed (and listed), or an earlier shrink's
    report.json (the file, its report folder or the fork beside it)."""
    from slimfork.report.kept_diff import kept_diff as compare, report_path, side_of_analysis, side_of_report

    def side(x):
        report = None if isinstance(x, Spec) else report_path(str(x))
        if report is not None:
            return side_of_report(report)
        return side_of_analysis(str(x.path if isinstance(x, Spec) else x), analyse(x, jobs=jobs, allow_stale=True))

    return compare(side(a), side(b))


def stats(path: Path | str):
    from slimfork.report.stats import tree_stats, walk_files

    root = Path(path)
    return tree_stats(root, walk_files(root))


def installed_numbers(spec: Spec | str | Path, fork: Path | str | None = None, modules: list[str] | None = None,
                      runs: int = 3) -> dict:
    """The spec's original and ``fork`` (default: the spec's ``out``) each pip-installed as a user installs them, in
    the spec's verification environment: install size and median import times (``slimfork installed``).
    ``modules`` default to the root modules the install check imports."""
    from slimfork.spec import load_spec
    from slimfork.verify.build import install_modules, verify_env
    from slimfork.verify.measure import measure_installed

    if not isinstance(spec, Spec):
        spec = load_spec(spec)
    source = open_source(spec)
    target = Path(fork) if fork is not None else spec.out
    if target is None or not target.is_dir():
        raise SlimforkError(f"no fork at {target}", key="FORK", hint="the folder a shrink wrote (the spec's out)")
    names = list(modules) if modules else install_modules(spec, source)
    found = measure_installed({"original": Path(source.root), "fork": target}, verify_env(spec), names, runs)
    return {"modules": names, "runs": runs, **{label: numbers.to_dict() for label, numbers in found.items()}}
