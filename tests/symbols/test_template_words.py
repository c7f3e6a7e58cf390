"""Methods called only from a template the package ships (`{{ user._initials() }}` in a Jinja page, read with
`PackageLoader`) are named by the words of that file, as by Python string constants: they stay, also under
`public_methods = true`; a template outside the packages names nothing (session 29's adversarial round, K3)."""

from __future__ import annotations

from slimfork.api import analyse
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "tpl"\nversion = "1.0"\n',
    "src/tpl/__init__.py": "",
    "src/tpl/app.py": """
        from tpl.models import _User


        def page(env):
            return env.get_template("user.html").render(user=_User("Ada", "Lovelace"))
    """,
    "src/tpl/models.py": """
        class _User:
            def __init__(self, first, last):
                self.first, self.last = first, last

            def display_name(self):
                return f"{self.first} {self.last}"

            def _initials(self):
                return self.first[0] + self.last[0]

            def _badge(self):
                return "<b>"

            def _unused(self):
                return 1

            def _only_in_docs(self):
                return 2
    """,
    "src/tpl/pages/user.html": "<p>{{ user.display_name() }} ({{ user._initials() }})</p>\n",
    "src/tpl/pages/parts/badge.j2": "{{ user._badge }}\n",
    "docs/notes.html": "<p>{{ user._only_in_docs() }}</p>\n",
}
SPEC = 'source = "."\npackages = ["tpl"]\nroots = ["tpl.app"]\n\n[symbols]\npublic_methods = true\n'


def test_words_of_package_templates_keep_the_methods_they_call(tmp_path):
    analysis = analyse(write_project(tmp_path, FILES, SPEC) / "slimfork.toml")
    gone = {n for p in analysis.stages.symbols.pruned for n in p.names}
    assert not gone & {"_User.display_name", "_User._initials", "_User._badge"}
    assert {"_User._unused", "_User._only_in_docs"} <= gone
