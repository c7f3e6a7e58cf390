"""A dotted string in a docstring is prose: it names no module (sglang's linear-attention registry documents its
registration with an example naming the KDA backend, which kept the backend and its kernels); a doctest does."""

from __future__ import annotations

from slimfork.index.parse import summarize

SOURCE = b'''"""Register a backend:

    register(Spec(backend="pkg.backends.kda.KDABackend"))
"""


def load(name):
    """Load one, e.g. "pkg.backends.docs_only".

    >>> load("pkg.backends.doctested")
    """
    return {"x": "pkg.backends.used"}[name]


class Holder:
    """Holds "pkg.backends.class_doc"."""
    value = "pkg.backends.attribute"
'''


def test_docstrings_name_no_module_but_code_and_doctests_do():
    found = {text for text, _line in summarize(SOURCE).strings}
    assert found == {"pkg.backends.used", "pkg.backends.attribute", "pkg.backends.doctested", "pkg.backends.docs_only"}
