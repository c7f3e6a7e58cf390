"""A dotted string in a docstring is prose: it names no module (sglang's linear-attention registry documents its
registration with an example naming the KDA backend, which kept the backend and its kernels); a doctest does. So
is any string statement: an attribute docstring, a string used as a comment (SQLAlchemy's JSON type documents
``NULL`` with ``from sqlalchemy.dialects.postgresql import JSON``, which kept the dialect)."""

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
    NULL = object()
    """The JSON null, e.g.::

        from pkg.backends.attribute_doc import JSON
    """
    "a string comment naming pkg.backends.comment"


if True:
    """Nested: "pkg.backends.nested_comment"."""
    table = {"fast": "pkg.backends.in_a_branch"}
'''


def test_docstrings_name_no_module_but_code_and_doctests_do():
    found = {text for text, _line in summarize(SOURCE).strings}
    assert found == {"pkg.backends.used", "pkg.backends.attribute", "pkg.backends.doctested", "pkg.backends.docs_only",
                     "pkg.backends.in_a_branch"}
