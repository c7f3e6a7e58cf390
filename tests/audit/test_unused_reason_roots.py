"""The unused-file reason named the roots it starts from, one module twice when it was a root for two reasons
(zope.deprecation 5.0: "reaches it from zope, setup, zope.deprecation.tests, setup")."""

from __future__ import annotations

from types import SimpleNamespace

from slimfork.audit.unused import kind_reason


def test_each_root_module_is_named_once():
    roots = [SimpleNamespace(module=m) for m in ("zope", "setup", "zope.deprecation.tests", "setup", "a", "b")]
    text = kind_reason(SimpleNamespace(roots=roots, uncertain=[]))  # type: ignore[arg-type]
    assert text.endswith("reaches it from zope, setup, zope.deprecation.tests, a ...")
    two = [SimpleNamespace(module="setup"), SimpleNamespace(module="setup")]
    assert kind_reason(SimpleNamespace(roots=two, uncertain=[])).endswith("from setup")  # type: ignore[arg-type]
