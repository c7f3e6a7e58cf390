"""``slimfork weigh SPEC``: the kept modules that hold the most of the fork, and the imports that keep each.

A module's *retained* lines are its own and those of every module only reachable through it: what would leave
the fork if the imports listed under it were cut (by a fact, a registry or a drop). The place to start when a
fork is bigger than expected.
"""

from __future__ import annotations

from slimfork.commands._output import console, print_json


def add_parser(sub):
    p = sub.add_parser("weigh", help="rank kept modules by the lines that would leave with them",
                       description=__doc__)
    p.add_argument("spec", metavar="SPEC", help="keep spec")
    p.add_argument("--top", type=int, default=25, metavar="N", help="how many modules to show (default 25)")
    p.add_argument("--min-importers", type=int, default=0, metavar="K",
                   help="only modules kept by at most K imports (0: any), the easiest to cut")
    p.add_argument("--json", action="store_true", help="print the list as JSON")
    return p


def run(args) -> int:
    from rich.markup import escape

    from slimfork.api import (analyse, listed_packages_hold, open_imports_hold, reexport_hold, star_hold,
                              type_checking_hold, weigh)
    from slimfork.errors import SlimforkError

    if args.top < 1 or args.min_importers < 0:
        raise SlimforkError("--top must be at least 1 and --min-importers at least 0", key="--top")
    analysis = analyse(args.spec)
    weights = [w for w in weigh(analysis) if not args.min_importers or len(w.importers) <= args.min_importers]
    weights = weights[:args.top]
    if args.json:
        print_json([w.to_dict() for w in weights])
        return 0
    out = console()
    for w in weights:
        out.print(f"{w.retained:>9,d} lines in {w.modules:,d} module{'' if w.modules == 1 else 's'}  {w.module}  "
                  f"({w.lines:,d} its own)")
        for imp in w.importers[:6]:
            where = f"{imp['path']}:{imp['line']}" if imp["path"] else ""
            out.print(f"            {where}  {imp['how']}")
        if len(w.importers) > 6:
            out.print(f"            ... {len(w.importers) - 6} more imports")
    found = reexport_hold(analysis)
    if found is not None:
        hold, line = found
        names = _first_eight(hold.modules)
        out.print(escape(f"\nUp to {hold.lines:,d} lines in {len(hold.modules):,d} modules ({names}) are kept only because "
                  f"a package __init__ imports them ({', '.join(hold.inits)}): [symbols] keeps what an __init__ "
                  f"binds as the package's API. If the fork's users run it rather than import the package, "
                  f"{' and '.join(repr(x) for x in line.split(chr(10)))} in the spec let them go when nothing "
                  f"kept uses them (tests of the package's API, such as a README doctest, may then fail)."))
    stars = star_hold(analysis)
    if stars is not None:
        hold, line = stars
        cut = (f"'{line}' in the spec lets them go when nothing kept uses them (the fork then promises only the "
               "roots' public names)") if line else ("A symbol root ('pkg.mod:Name') for what the fork needs, "
                                                     "instead of the module, lets them go when nothing kept uses them")
        out.print(escape(f"\nUp to {hold.lines:,d} lines in {len(hold.modules):,d} modules "
                         f"({_first_eight(hold.modules)}) are kept only by star imports of modules whose public "
                         f"names are the fork's API ({', '.join(hold.inits)}): such a star import re-exports every "
                         f"name its source exports. {cut}."))
    typing_only = type_checking_hold(analysis)
    if typing_only is not None:
        names = _first_eight(typing_only.modules)
        out.print(escape(f"\nUp to {typing_only.lines:,d} lines in {len(typing_only.modules):,d} modules ({names}) "
                         f"are kept only by imports under 'if TYPE_CHECKING:' ({', '.join(typing_only.inits)}), "
                         "which never run: 'type_checking_imports = \"ignore\"' in the spec lets them go (the "
                         "imports stay as written, unresolved for a type checker)."))
    loose = open_imports_hold(analysis)
    if loose is not None:
        names = _first_eight(loose.modules)
        line = "outside_imports = [" + ", ".join(f'"{m}"' for m in loose.inits) + "]"
        out.print(escape(f"\nUp to {loose.lines:,d} lines in {len(loose.modules):,d} modules ({names}) are kept only "
                         f"because an import of a name computed entirely at run time may load them (nothing in the "
                         f"original imports or names them). If those names come from outside the project (a user's "
                         f"plugins or hooks), '{line}' in the spec lets them go."))
    listed = listed_packages_hold(analysis)
    if listed is not None:
        names = _first_eight(listed.modules)
        out.print(escape(f"\nUp to {listed.lines:,d} lines in {len(listed.modules):,d} modules ({names}) are kept "
                         f"only because the build configuration lists {', '.join(listed.inits)} by name in its "
                         f"packages ({listed_in(analysis.tree.root, listed.inits)}): setuptools fails on a listed "
                         "package the fork lacks, and the fork cuts only the lists it reads whole (literal ones); a "
                         "copy of the source without them in that list (source = \"its folder\") lets them go."))
    return 0


def listed_in(root, packages: list[str]) -> str:
    """The build files that name one of ``packages`` in quotes: where the user edits the list."""
    found = []
    for name in ("setup.py", "setup.cfg", "pyproject.toml"):
        try:
            text = (root / name).read_text(errors="replace")
        except OSError:
            continue
        if any(f"'{p}'" in text or f'"{p}"' in text or (name == "setup.cfg" and p in text.split()) for p in packages):
            found.append(name)
    return ", ".join(found) or "the build configuration"


def _first_eight(modules: list[str]) -> str:
    return ", ".join(modules[:8]) + (f" and {len(modules) - 8} more" if len(modules) > 8 else "")
