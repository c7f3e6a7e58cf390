"""Python files read as data stay. Found on alembic 1.20.1 (root alembic.config): `alembic init` copies
`Path(alembic.__file__).parent / "templates"`, whose env.py files nothing imports, so they were removed and `init`
wrote projects without them; sglang's fork lost `srt/model_loader/expert_pack/`, the scripts
`Path(__file__).with_name("expert_pack")` runs. A folder a path built from `__file__` or `__path__` names keeps the modules below it."""

from __future__ import annotations

from tests.mapping.registrykit import write_project

from slimfork.api import analyse

FILES = {
    "pkg/__init__.py": "",
    "pkg/config.py": """
        import os
        from pathlib import Path

        import pkg

        here = os.path.dirname(__file__)


        def template_dir():
            return str(Path(pkg.__file__).absolute().parent / "templates")


        def snippets():
            return os.listdir(os.path.join(here, "snippets"))


        def tools():  # sglang's expert_pack_runtime runs the scripts there with sys.executable
            return Path(__file__).with_name("tools")


        def read(name):
            with open(os.path.join(here, name), encoding="utf-8") as f:
                return f.read()
        """,
    "pkg/templates/generic/env.py": "print('env')\n",
    "pkg/snippets/a.py": "A = 1\n",
    "pkg/tools/prepare.py": "print('prepared')\n",
    "pkg/unused.py": "X = 1\n",
    "pkg/utf_8/b.py": "B = 1\n",
}


def test_a_folder_named_by_a_path_from_file_keeps_its_python_files(tmp_path):
    project = write_project(tmp_path, FILES, 'source = "."\nroots = ["pkg.config"]\n')
    analysis = analyse(project / "slimfork.toml", jobs=1)
    kept = {k.path: k.reason for k in analysis.plan.kept}
    assert "the folder 'templates' is read by its path" in kept["pkg/templates/generic/env.py"]
    assert "the folder 'snippets' is read by its path" in kept["pkg/snippets/a.py"]
    assert "the folder 'tools' is read by its path" in kept["pkg/tools/prepare.py"]
    assert {r.path for r in analysis.plan.removals if r.kind == "unreachable"} == {"pkg/unused.py", "pkg/utf_8/b.py"}
