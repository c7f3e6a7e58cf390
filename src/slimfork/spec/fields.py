"""Every key of the keep spec, with its documentation (the README's key table is generated from this)."""

from __future__ import annotations

from slimfork.spec.schema import Field, Section
from slimfork.spec.kinds import DEFAULT_KIND, KIND_NAMES, kinds_doc

TOP = Section(
    "",
    "The keep spec: a `slimfork.toml`, or the `[tool.slimfork]` table of a pyproject.toml.",
    [
        Field("source", "str", "Where the code comes from: a folder (relative to the spec file) or "
              "'pypi:NAME==VERSION' (downloaded with pip into the cache and unpacked).", required=True),
        Field("dist", "str", "For a pypi: source, which distribution to unpack: 'wheel' (default) or 'sdist' "
              "(sdists usually carry the tests).", choices=("wheel", "sdist"), default="wheel"),
        Field("python_root", "str", "Folder inside the source that holds the importable packages "
              "(default: the folder the build configuration declares (setuptools' package-dir, hatch's or poetry's "
              "packages), else 'src' if it has packages, else the source's top folder)."),
        Field("packages", "list[str]", "Top-level packages to analyse (default: every package found under "
              "python_root)."),
        Field("roots", "list[str]", "What must keep working: 'pkg.mod' (a module), 'pkg.*' or 'pkg.**' (module globs: its "
              "direct public submodules, or every public module below it), 'pkg.mod:name' (a symbol), "
              "'script:NAME' or 'script:*' (console scripts of the distribution), 'file:path/x.py' "
              "(a file relative to the source).", required=True),
        Field("drop", "list[str]", "Paths or globs (relative to the source, '**' allowed) removed outright, "
              "whatever reaches them."),
        Field("keep", "list[str]", "Paths or globs always kept (data files, modules loaded by means the "
              "analysis cannot see), or module globs ('pkg.plugins.*', 'pkg.**')."),
        Field("outside_imports", "list[str]", "Module globs ('pkg.plugins.loader', 'pkg.hooks.*') whose imports of a "
              "name computed entirely at run time (`import_module(name)`, the name from the command line or a "
              "config file) load code outside the project, such as a user's own plugins: they keep only the modules "
              "the code names in strings. Otherwise such an import keeps every module of the project that nothing "
              "in the original imports or names (it may load one by its name)."),
        Field("out", "str", "Folder the fork is written to (relative to the spec file; default "
              "'<spec name>-fork'). Reports go to '<out>.report'."),
        Field("type_checking_imports", "str", "'keep' (default): a module imported only under `if TYPE_CHECKING:` "
              "(or `if False:`) stays in the fork; 'ignore': such imports keep nothing (they never run; the import stays as "
              "written, the imports check accepts it, a type checker sees it unresolved).",
              choices=("keep", "ignore"), default="keep"),
        Field("version_suffix", "str", "The PEP 440 local version the fork's packaging adds to the original's "
              "version (default '+slimfork'); '' keeps the original's version. The install check proves it "
              "harmless: a fork that fails to install or import with it gets the original's version back.",
              default="+slimfork"),
        Field("allow_stale", "bool", "An entry that matches nothing in the source (a root, glob, registry, "
              "registry key or fact a new release renamed or removed) is a warning and is ignored, instead of "
              "an error that stops the run (exit 2; the command line's --allow-stale does the same).",
              default=False),
        Field("registries", "list[table]", "Packages whose modules are discovered at run time by scanning "
              "the directory; see [[registries]]."),
        Field("tests", "list[str]", "The project's tests: paths or globs relative to the source ('tests'; default: "
              "the folders named tests/test/testing/testsuite that hold test files; [] for none). "
              "Tests keep only the test-support modules they import; a test of removed code, or one that fakes a "
              "folded fact, leaves the fork."),
        Field("symbols", "table", "Prune top-level definitions and imports no kept code references; see [symbols]."),
        Field("facts", "table", "Platform and feature facts folded into the code; see [facts]."),
        Field("kernels", "table", "Where JIT kernel sources live, so unreached ones leave the fork; see [kernels]."),
        Field("checks", "table", "Checks every batch of the fork must pass; see [checks]."),
        Field("verify", "table", "The verification environment; see [verify]."),
    ],
)

REGISTRY = Section(
    "registries[]",
    "A package whose modules are imported by a directory scan (pkgutil.iter_modules) at run time.",
    [
        Field("package", "str", "The scanned package, e.g. 'sglang.srt.models'.", required=True),
        Field("keep", "list[str]", "Which of its modules to keep: globs on the module name relative to the "
              "package ('deepseek_v2', 'deepseek_common', 'deepseek_common.*'), or regexes written 're:...'.",
              required=True),
        Field("reason", "str", "Why these are kept (shown in the report)."),
        Field("kind", "str", kinds_doc(), choices=KIND_NAMES, default=DEFAULT_KIND),
        Field("variable", "str", "For kind = 'mapping': the module-level dict, e.g. 'LEXERS'; for kind = "
              "'if-chain': the name the arms compare, e.g. 'name' or 'server_args.backend'; for kind = "
              "'subclasses': the class attribute holding a subclass's keys, e.g. 'names'."),
        Field("key_keyword", "str", "For kind = 'call' or 'decorator': the keyword argument holding the key, of the "
              "call or of the call in its first argument: 'op' for register_kernel(KernelSpec(op=\"moe.x\", "
              "target=...)), 'name' for @cli.command(name=\"serve\")."),
        Field("lookup", "str", "For kind = 'call': the function that looks a key up, 'pkg.selector.get_kernel': "
              "every key some module of the source looks up with a literal (get_kernel(\"moe.x\")) is kept too; "
              "a lookup with a computed key keeps every key."),
    ],
)
