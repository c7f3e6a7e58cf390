"""A fact that matched nothing says why: no call in kept code (with the definition), only passed by reference,
its file could not be folded, or (only when the name exists nowhere) a likely typo: a stale entry, an error unless
--allow-stale (then a warning)."""

from __future__ import annotations

import json
from pathlib import Path

from slimfork.cli import main

FILES = {
    "src/pkg/__init__.py": "",
    "src/pkg/plat.py": "def is_hip():\n    return False\n\n\ndef is_npu():\n    return False\n\n\n"
                       "def is_xpu():\n    return False\n\n\ndef is_mps():\n    return False\n",
    "src/pkg/main.py": "from pkg import broken, hooks\nfrom pkg.plat import is_hip\n\n\n"
                       "def run():\n    if is_hip():\n        return 'hip'\n    return 'cuda'\n",
    "src/pkg/hooks.py": "from pkg.plat import is_xpu as xpu\n\nCHECKS = [xpu]\n",
    "src/pkg/broken.py": "from pkg.plat import is_mps\nif is_mps():\n    print 'mps'\n",
    "src/pkg/old.py": "from pkg.plat import is_npu\n\nif is_npu():\n    pass\n",  # nothing imports it
}
FACTS = ["is_hip", "is_npu", "is_xpu", "is_mps"]


def project(root: Path, facts: list[str]) -> Path:
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    spec = root / "slimfork.toml"
    table = ", ".join(f'"pkg.plat.{name}" = false' for name in facts)
    spec.write_text(f'source = "."\nroots = ["pkg.main"]\n\n[facts]\nfunctions = {{ {table} }}\n')
    return spec


def warnings_of(spec: Path, capsys, *options: str) -> dict[str, str]:
    assert main(["plan", str(spec), "--json", "--jobs", "1", *options]) == 0
    data = json.loads(capsys.readouterr().out)
    return {w.partition(": ")[0]: w.partition(": ")[2] for w in data["warnings"]
            if w.startswith(("facts.", "stale: facts."))}


def test_each_unmatched_fact_says_what_happened(tmp_path, capsys):
    spec = project(tmp_path, FACTS)
    found = warnings_of(spec, capsys)
    key = "facts.functions.pkg.plat."
    assert key + "is_hip" not in found  # it matched
    assert found[key + "is_npu"] == ("no call of pkg.plat.is_npu in kept code (defined at src/pkg/plat.py:5; "
                                     "named in code the fork removes at src/pkg/old.py:1)")
    assert found[key + "is_xpu"] == ("pkg.plat.is_xpu is only passed by reference in kept code, never called "
                                     "(src/pkg/hooks.py:3; defined at src/pkg/plat.py:9)")
    assert found[key + "is_mps"].startswith("pkg.plat.is_mps is used in src/pkg/broken.py, which could not be "
                                            "folded: cannot fold: ")
    assert not any("typo" in message for message in found.values())
    assert main(["plan", str(spec), "--strict", "--jobs", "1"]) == 0  # none of them is a typo


def test_only_a_name_that_exists_nowhere_is_a_typo(tmp_path, capsys):
    spec = project(tmp_path, FACTS + ["is_tpu"])
    assert main(["plan", str(spec), "--jobs", "1"]) == 2  # a stale entry (issue #31)
    err = capsys.readouterr().err
    assert ("error: facts.functions.pkg.plat.is_tpu: the fact pkg.plat.is_tpu() = False matched nothing (a typo?): "
            "src/pkg/plat.py defines no is_tpu\n  hint: did you mean pkg.plat.is_") in err
    assert "1 spec entry matches nothing" in err and "facts.functions.pkg.plat.is_npu" not in err
    found = warnings_of(spec, capsys, "--allow-stale")
    assert found["stale"].startswith("facts.functions.pkg.plat.is_tpu: the fact pkg.plat.is_tpu() = False matched "
                                     "nothing (a typo?): src/pkg/plat.py defines no is_tpu; hint: did you mean ")
    assert sum("typo" in message for message in found.values()) == 1
    assert "facts.functions.pkg.plat.is_npu" in found  # exists, never called: a plain warning
