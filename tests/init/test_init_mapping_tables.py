"""A driver table whose values name modules of the project (``DRIVERS = {Provider.EC2: ("pkg.drivers.ec2",
"EC2Driver")}``, a cloud library's providers; pygments' ``LEXERS`` with string keys) is drafted as a ``mapping``
registry with its ``variable``, each key with the lines of the module only it names; accepted with one key kept,
the other driver leaves. Before, such tables were no suggestion."""

from __future__ import annotations

import json
import re
import textwrap

from slimfork.api import shrink
from slimfork.cli import main
from tests.mapping.test_constant_keyed_mapping import FILES as DRIVER_FILES

FILES = {
    **{rel: text for rel, text in DRIVER_FILES.items() if not rel.startswith("tests/")},
    "pkg/providers.py": DRIVER_FILES["pkg/providers.py"].replace(
        "\n\n\n        def get_driver",
        '\n        LEXERS = {"py": ("pkg.lexers.py", "Py", ("python",)), "c": ("pkg.lexers.c", "C", ())}'
        "\n\n\n        def get_driver"),
    "pkg/lexers/__init__.py": "",
    "pkg/lexers/py.py": "class Py:\n    pass\n",
    "pkg/lexers/c.py": "class C:\n    pass\n" + "Y = 1\n" * 3,
    "pkg/drivers/azure.py": "class AzureDriver:\n    pass\n" + "X = 1\n" * 8,
}


def test_a_table_of_module_names_is_drafted_as_a_mapping_registry(tmp_path, capsys):
    root = tmp_path / "p"
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(textwrap.dedent(text).lstrip())
    assert main(["init", str(root), "--json"]) == 0
    regs = {(r["package"], r["variable"]): r for r in json.loads(capsys.readouterr().out)["registries"]}
    drivers = regs[("pkg.providers", "DRIVERS")]
    assert (drivers["kind"], drivers["entries"]) == ("mapping", {"Provider.EC2": 2, "Provider.AZURE": 10})
    assert regs[("pkg.providers", "LEXERS")]["entries"] == {"py": 2, "c": 5}
    assert main(["init", str(root), "--out", str(root / "slimfork.toml")]) == 0
    draft = (root / "slimfork.toml").read_text()
    block = draft[draft.index("# [[registries]]"):]
    block = block[:block.index("# reason")]
    assert '# package = "pkg.providers"\n# kind = "mapping"\n# variable = "DRIVERS"\n' in block
    accepted = re.sub(r'(?m)^# ', "", block).replace('  "Provider.AZURE",', "")
    spec = root / "slimfork.toml"
    spec.write_text(draft.replace(block, accepted).replace('roots = ["pkg.**"]', 'roots = ["pkg.providers"]')
                    + 'reason = "EC2 only"\n')
    shrink(spec, out=tmp_path / "fork", jobs=1, verify=False)
    assert (tmp_path / "fork/pkg/drivers/ec2.py").exists() and not (tmp_path / "fork/pkg/drivers/azure.py").exists()
