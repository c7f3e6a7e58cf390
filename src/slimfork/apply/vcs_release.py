"""A fork of a project whose build takes its version from git (setuptools-scm, hatch-vcs, pdm's scm source) is a git
history without the original's tags: ``pip install ./fork`` built it as ``0.1.dev1+g<hash>``, and failed outright
where the build rewrote files the sdist carried and git tracks (``Wheel has unexpected file name: expected
'0.1.dev1+g0e63605a6', got '0.1.dev1+g0e63605a6.d20261128'``: the version file it writes, ``*.egg-info``). So the
fork's last commit is tagged with the original's version (and the fork's local suffix), and the files such a build
writes leave git's index for ``.gitignore``, as in the project's own repository; they stay in the folder, as
written, so the tree the checks passed is the tree on disk."""

from __future__ import annotations

import tomllib
from pathlib import Path

from slimfork.apply.git import Repo

_PLUGINS = ("setuptools_scm", "setuptools-scm", "hatch-vcs", "hatch_vcs")  # in build-system.requires


def vcs_version_files(root: Path) -> list[str] | None:
    """The files a VCS-versioned build writes (relative paths that exist), or None when the build does not take
    its version from git."""
    data = _pyproject(root)
    tool = data.get("tool", {})
    requires = " ".join(str(r) for r in data.get("build-system", {}).get("requires", []))
    scm = tool.get("setuptools_scm")
    hatch = tool.get("hatch", {})
    pdm_version = tool.get("pdm", {}).get("version", {})
    setup_py = root / "setup.py"
    dynamic = "version" in data.get("project", {}).get("dynamic", [])
    uses_vcs = scm is not None or hatch.get("version", {}).get("source") == "vcs" \
        or pdm_version.get("source") == "scm" or dynamic and any(p in requires for p in _PLUGINS) \
        or setup_py.is_file() and "use_scm_version" in setup_py.read_text(errors="replace")
    if not uses_vcs:
        return None
    named = [(scm or {}).get("write_to"), (scm or {}).get("version_file"),
             hatch.get("build", {}).get("hooks", {}).get("vcs", {}).get("version-file"), pdm_version.get("write_to")]
    out = [p for p in named if isinstance(p, str) and (root / p).is_file()]
    out += [p.relative_to(root).as_posix() for base in (root, root / "src") if base.is_dir()
            for p in sorted(base.glob("*.egg-info")) if p.is_dir()]
    return out


def release(repo: Repo, version: str) -> str | None:
    """Tag the fork's last commit ``version`` and untrack the files the build writes; a note for the report, or
    None when the build takes no version from git."""
    root = repo.root
    written = vcs_version_files(root)
    if written is None or not version:
        return None
    if written:
        ignore = root / ".gitignore"
        text = ignore.read_text(errors="replace") if ignore.is_file() else ""
        lines = [f"/{p}" for p in written if f"/{p}" not in text.splitlines()]
        if lines:
            ignore.write_text(text + ("" if not text or text.endswith("\n") else "\n")
                              + "# written by the build (slimfork)\n" + "".join(f"{line}\n" for line in lines))
        repo.git("rm", "-r", "-q", "--cached", "--ignore-unmatch", "--", *written)
        repo.git("add", "--force", ".gitignore")
        repo.git("commit", "-q", "--no-verify", "-m",
                 "Packaging: the files a VCS-versioned build writes are ignored, as in the project's repository\n\n"
                 + "".join(f"- {p}\n" for p in written))
    repo.git("tag", "-f", version)
    return (f"the build takes its version from git: the fork's last commit is tagged {version}"
            + (f", and the files it writes are untracked ({', '.join(written)})" if written else ""))


def _pyproject(root: Path) -> dict:
    try:
        return tomllib.loads((root / "pyproject.toml").read_text(errors="replace"))
    except (OSError, tomllib.TOMLDecodeError):
        return {}

