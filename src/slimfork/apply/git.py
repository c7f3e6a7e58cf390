"""The output repository: git with a fixed identity and date (reproducible commits) and no user config.

Nothing of the user's environment reaches git (global config, hooks, GIT_* variables), and the source's own
``.gitattributes``/``.gitignore`` cannot change a byte: ``info/attributes`` unsets every conversion, and files
are always added with ``--force``.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from slimfork.apply import faults
from slimfork.errors import SlimforkError

IDENTITY = {
    "GIT_AUTHOR_NAME": "slimfork", "GIT_AUTHOR_EMAIL": "slimfork@localhost",
    "GIT_COMMITTER_NAME": "slimfork", "GIT_COMMITTER_EMAIL": "slimfork@localhost",
    "GIT_AUTHOR_DATE": "2000-01-01T00:00:00+0000", "GIT_COMMITTER_DATE": "2000-01-01T00:00:00+0000",
}
CONFIG = ["core.autocrlf=false", "core.safecrlf=false", "core.fileMode=true", "core.symlinks=true",
          "core.hooksPath=/dev/null", "commit.gpgsign=false", "gc.auto=0", "core.quotePath=false",
          "core.ignoreCase=false", "core.precomposeUnicode=false", "advice.detachedHead=false"]
# No conversion of any byte; the diff attribute is left alone so that `git log -p` shows text diffs.
NO_CONVERSION = "* -text -eol -filter -ident -working-tree-encoding -merge\n"


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(IDENTITY)
    env.update({"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_TERMINAL_PROMPT": "0",
                "LC_ALL": "C", "TZ": "UTC"})
    return env


class Repo:
    def __init__(self, root: Path):
        self.root = Path(root)
        self.git_dir = self.root / ".git"

    def git(self, *args: str, input: bytes | None = None) -> str:
        cmd = ["git"]
        for item in CONFIG:
            cmd += ["-c", item]
        faults.tick()
        proc = subprocess.run(cmd + list(args), cwd=self.root, env=_env(), input=input, capture_output=True)
        if proc.returncode != 0:
            raise SlimforkError(f"git {' '.join(args[:2])} failed in {self.root}: "
                                f"{proc.stderr.decode(errors='replace').strip()}",
                                hint="the output folder's repository may be damaged; run again without resume")
        return proc.stdout.decode(errors="replace").strip()

    @classmethod
    def init(cls, root: Path) -> Repo:
        repo = cls(root)
        repo.git("init", "-q", "--initial-branch=main", "--template=")
        (repo.git_dir / "info").mkdir(exist_ok=True)
        (repo.git_dir / "info" / "attributes").write_text(NO_CONVERSION)
        return repo

    def head(self) -> str:
        try:
            return self.git("rev-parse", "--verify", "-q", "HEAD^{commit}")
        except SlimforkError:
            return ""

    def tree(self, rev: str = "HEAD") -> str:
        return self.git("rev-parse", f"{rev}^{{tree}}")

    def commit_all(self, message: str) -> str:
        self.git("add", "--all", "--force", ".")
        self.git("commit", "-q", "--allow-empty", "--no-verify", "-F", "-", input=message.encode())
        return self.head()

    def commit_paths(self, paths: list[str], message: str) -> str:
        if paths:
            spec = b"".join(p.encode() + b"\0" for p in sorted(set(paths)))
            self.git("add", "--all", "--force", "--pathspec-from-file=-", "--pathspec-file-nul", input=spec)
        self.git("commit", "-q", "--allow-empty", "--no-verify", "-F", "-", input=message.encode())
        return self.head()

    def message(self, rev: str) -> str:
        return self.git("log", "-1", "--format=%B", rev)

    def restore(self, rev: str = "HEAD") -> None:
        """Make the work tree exactly ``rev``: edits undone, files written by checks removed."""
        for lock in ("index.lock", "HEAD.lock", "refs/heads/main.lock"):
            try:
                (self.git_dir / lock).unlink()
            except FileNotFoundError:
                pass
        self.git("reset", "-q", "--hard", rev)
        self.git("clean", "-q", "-ffdx")
