"""``slimfork init [PATH | pypi:NAME==VER] [--out FILE] [--force] [--json]``: draft a commented keep spec for a project:
its console scripts and public API as roots, its tests, the platform facts and registries found in the code
(commented suggestions, with their use counts and the lines each could free)."""

from __future__ import annotations

from pathlib import Path

from slimfork.commands._output import print_json


def add_parser(sub):
    p = sub.add_parser("init", help="draft a commented keep spec for a project", description=__doc__)
    p.add_argument("source", nargs="?", default=".", metavar="PATH | pypi:NAME==VER",
                   help="a project folder or a pinned PyPI release (its sdist) (default: .)")
    p.add_argument("--out", metavar="FILE", help="write the spec to FILE (default: print it)")
    p.add_argument("--force", action="store_true", help="replace FILE if it exists (default: refuse, exit 2)")
    p.add_argument("--json", action="store_true", help="print what was found as JSON (with the spec's text)")
    return p


def run(args) -> int:
    from slimfork.errors import SlimforkError
    from slimfork.init import draft_spec

    base = Path.cwd()
    source = args.source
    if args.out and not source.startswith("pypi:"):  # the spec's source is relative to the spec file
        import os

        source = os.path.relpath(Path(source).resolve(), Path(args.out).resolve().parent)
    if not source.startswith("pypi:") and not (base / args.source).is_dir():
        raise SlimforkError(f"no such folder: {args.source}", key="source",
                            hint="a project folder or 'pypi:NAME==VERSION'")
    if args.out:  # where the draft goes, before any work (a pypi: source downloads first)
        _check_out(Path(args.out), args.force)
    text, data = draft_spec(source, Path(args.out).resolve().parent if args.out else base)
    if args.out:
        _write(Path(args.out), text)
        import sys

        from slimfork.progress import counted

        lines = text.splitlines()  # a registry whose cut frees no line is a note, not a suggestion
        suggested = len(data.get("facts") or []) + sum(1 for r in data.get("registries") or [] if r["lines"]) \
            + bool(data["verify"]["requirements"]) \
            + sum(any(line.startswith(f"# {key} = ") for line in lines) for key in ("drop", "tests", "outside_imports"))
        sys.stderr.write(f"slimfork: wrote {args.out}: {counted(len(data['roots']), 'root')}, "
                         f"{counted(suggested, 'commented-out suggestion')}; next: "
                         f"`slimfork plan {args.out}` (what would go), then `slimfork shrink {args.out}`\n")
    if args.json:
        print_json(dict(data, spec=text, out=args.out))
    elif not args.out:
        print(text, end="")
    return 0


def _check_out(out: Path, force: bool = False) -> None:
    """The draft's file can be written: its folder exists and takes a new file (it was a traceback after the
    whole draft, a pypi: download included), and it is no file already there unless ``--force`` (a spec a user
    had edited was replaced without a word)."""
    import os

    from slimfork.errors import SlimforkError

    folder = out.resolve().parent
    if out.is_dir():
        raise SlimforkError(f"{out} is a folder", key="out", hint="name the spec file to write, e.g. slimfork.toml")
    if (out.exists() or out.is_symlink()) and not force:
        raise SlimforkError(f"{out} already exists", key="out",
                            hint="pass --force to replace it, or choose another --out (the draft is printed "
                                 "without --out)")
    if not folder.is_dir():
        raise SlimforkError(f"no such folder: {folder}", key="out", hint="create it first, or choose another --out")
    if not os.access(folder, os.W_OK) or (out.exists() and not os.access(out, os.W_OK)):
        raise SlimforkError(f"cannot write {out}: permission denied", key="out", hint="choose another --out")
    try:
        import tempfile

        os.close((probe := tempfile.mkstemp(prefix=".slimfork-init-", dir=folder))[0])
        os.unlink(probe[1])
    except OSError as exc:
        raise SlimforkError(f"cannot write {out}: {exc.strerror or exc}", key="out",
                            hint="choose another --out") from None


def _write(out: Path, text: str) -> None:
    """Write the draft whole or not at all: a temporary file beside it, renamed over it (a crash or a full disk
    mid-write left a truncated spec)."""
    import os
    import tempfile

    target = out.resolve() if out.is_symlink() else out
    fd, tmp = tempfile.mkstemp(prefix=".slimfork-init-", suffix=".toml", dir=target.resolve().parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, 0o644 & ~_umask())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _umask() -> int:
    import os

    mask = os.umask(0)
    os.umask(mask)
    return mask
