"""Same-named modules in several folders: consolidation candidates with similarity and which copy is used."""

from __future__ import annotations

from slimfork.audit.run import AuditOptions, run_audit
from slimfork.source.layout import open_tree

BODY = "\n".join(f"def step_{i}(x):\n    return x * {i} + 1" for i in range(15)) + "\n"


def _write(root, rel, text):
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_same_named_modules_are_consolidation_candidates(tmp_path):
    _write(tmp_path, "pyproject.toml", '[project]\nname = "pkg"\nversion = "0"\n')
    _write(tmp_path, "pkg/__init__.py", "from pkg.moe import moe_dispatch\nfrom pkg.a import utils\n")
    for folder in ("moe", "trellis", "legacy", "a", "b"):
        _write(tmp_path, f"pkg/{folder}/__init__.py", "")
    _write(tmp_path, "pkg/moe/moe_dispatch.py", BODY)
    _write(tmp_path, "pkg/trellis/moe_dispatch.py", BODY.replace("step_3(x)", "step_three(x)"))
    _write(tmp_path, "pkg/legacy/moe_dispatch.py", BODY + "def extra():\n    return 0\n")
    _write(tmp_path, "tests/test_legacy.py", "from pkg.legacy import moe_dispatch\n")
    _write(tmp_path, "pkg/a/utils.py", BODY)
    _write(tmp_path, "pkg/b/utils.py", BODY)  # a generic name: not reported
    result, _ = run_audit(open_tree(tmp_path), options=AuditOptions(kinds={"same-name"}))
    (finding,) = result.findings
    rows = {r["path"]: (r["status"], r["most_similar"]) for r in finding.details["copies"]}
    assert rows == {"pkg/moe/moe_dispatch.py": ("used", 97), "pkg/trellis/moe_dispatch.py": ("unused", 97),
                    "pkg/legacy/moe_dispatch.py": ("tests only", 97)}
    assert finding.details["keep"] == "pkg/moe/moe_dispatch.py" and "3 modules named moe_dispatch" in finding.message
