"""A code generator's strings name what the generated module reads (mako's codegen writes
``"return runtime._inherit_from(context, %s, _template_uri)"`` into modules that ``from mako import runtime``):
``runtime._inherit_from`` names ``_inherit_from`` of the package module whose last part is ``runtime``, which the
symbol prune keeps (session 31: mako's fork lost it, 36 of its tests failed with AttributeError)."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

FILES = {
    "gen/__init__.py": "",
    "gen/codegen.py": '''
        def compile_source(parent):
            lines = ["from gen import runtime", "def render(context):"]
            lines.append("    runtime._enter(context)")
            lines.append("    return runtime._inherit_from(context, %r)" % parent)
            return "\\n".join(lines) + "\\n"
        ''',
    "gen/template.py": '''
        from gen import codegen, runtime


        def render(parent):
            ns = {}
            exec(compile(codegen.compile_source(parent), "<template>", "exec"), ns)
            return ns["render"](runtime.new_context())
        ''',
    "gen/runtime.py": '''
        def new_context():
            return {}


        def _enter(context):
            context["entered"] = True


        def _inherit_from(context, parent):
            return (parent, context["entered"])


        def _unused(context):
            return None
        ''',
}
SPEC = 'source = "."\npackages = ["gen"]\nroots = ["gen.template"]\ntests = []\n\n[symbols]\npublic_api = "roots"\n'


def test_names_read_through_a_submodule_in_generated_code_stay(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    runtime = (fork / "gen/runtime.py").read_text()
    assert "def _enter" in runtime and "def _inherit_from" in runtime
    assert "def _unused" not in runtime  # what no string names still goes
    done = subprocess.run([sys.executable, "-c", "from gen import template; print(template.render('base'))"],
                          cwd=fork, capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (0, "('base', True)\n"), done.stderr
