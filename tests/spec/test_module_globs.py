"""Module globs in `roots` and `keep`: `pkg.*` keeps the direct public submodules, `pkg.**` every public module
below; a glob that matches nothing stops with exit 2, the key path and a hint."""

from __future__ import annotations

import pytest

from slimfork.api import analyse
from slimfork.cli import main
from slimfork.globs import match_modules

MODULES = ["pkg", "pkg.a", "pkg._priv", "pkg.sub", "pkg.sub.deep", "pkg.sub._hidden", "pkg._inner", "pkg._inner.x"]


@pytest.mark.parametrize("pattern,expected", [
    ("pkg.*", ["pkg.a", "pkg.sub"]),
    ("pkg.**", ["pkg", "pkg.a", "pkg.sub", "pkg.sub.deep"]),
    ("pkg._*", ["pkg._inner", "pkg._priv"]),
    ("pkg.**.deep", ["pkg.sub.deep"]),
    ("pkg.s*", ["pkg.sub"]),
])
def test_match_modules(pattern, expected):
    assert match_modules(pattern, MODULES) == expected


def _project(tmp_path, roots: str, extra: str = "") -> str:
    pkg = tmp_path / "src" / "pkg"
    (pkg / "sub").mkdir(parents=True, exist_ok=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from pkg import _used\n")
    (pkg / "_used.py").write_text("X = 1\n")
    (pkg / "_unused.py").write_text("Y = 2\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "leaf.py").write_text("Z = 3\n")  # a public leaf no __init__ imports
    spec = tmp_path / "slimfork.toml"
    spec.write_text(f'source = "."\nroots = {roots}\n{extra}')
    return str(spec)


def _removed(spec: str) -> set[str]:
    return {r.path for r in analyse(spec, fold=False).plan.removals}


def test_root_globs_keep_public_leaves(tmp_path):
    assert _removed(_project(tmp_path, '["pkg"]')) >= {"src/pkg/a.py", "src/pkg/sub/leaf.py"}
    removed = _removed(_project(tmp_path, '["pkg.**"]'))
    assert "src/pkg/sub/leaf.py" not in removed and "src/pkg/_used.py" not in removed
    assert "src/pkg/_unused.py" in removed and "slimfork.toml" in removed
    removed = _removed(_project(tmp_path, '["pkg.*"]'))
    assert "src/pkg/a.py" not in removed and "src/pkg/sub/leaf.py" in removed


def test_keep_module_glob(tmp_path):
    analysis = analyse(_project(tmp_path, '["pkg.a"]', 'keep = ["pkg.sub.*"]\n'), fold=False)
    kept = {k.path: k.reason for k in analysis.plan.kept}
    assert "keep[0] 'pkg.sub.*'" in kept["src/pkg/sub/leaf.py"]
    assert "src/pkg/_unused.py" in {r.path for r in analysis.plan.removals}


@pytest.mark.parametrize("roots,extra,message,hint", [
    ('["pkg.nope.*"]', "", "roots[0]: the glob 'pkg.nope.*' matches no module", "hint:"),
    ('["pkx.**"]', "", "roots[0]: the glob 'pkx.**' matches no module", "did you mean pkg?"),
    ('["pkg.a.*"]', "", "roots[0]: the glob 'pkg.a.*' matches no module", "'pkg.a' has no public module"),
    ('["pkg.a"]', 'keep = ["pkg.zz*"]\n', "keep[0]: the glob 'pkg.zz*' matches no module", "hint:"),
    ('["pkg.*:name"]', "", "roots[0]: 'pkg.*:name' is not a root", "hint: write"),
])
def test_glob_matching_nothing_is_a_spec_error(tmp_path, capsys, roots, extra, message, hint):
    assert main(["plan", _project(tmp_path, roots, extra)]) == 2
    err = capsys.readouterr().err
    assert message in err and hint in err and "Traceback" not in err
