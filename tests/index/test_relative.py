"""The one relative-import resolver agrees with Python's own (importlib.util.resolve_name)."""

import importlib.util

from hypothesis import given, strategies as st

from slimfork.index.relative import absolute_module, package_of

NAME = st.from_regex(r"[a-z_][a-z0-9_]{0,6}", fullmatch=True)


@given(st.lists(NAME, min_size=1, max_size=5), st.integers(1, 6), st.none() | NAME)
def test_agrees_with_python(parts, level, module):
    package = ".".join(parts)
    if level - 1 < len(parts):  # Python resolves it
        assert absolute_module(package, level, module) == importlib.util.resolve_name("." * level + (module or ""),
                                                                                      package)
    elif level - 1 > len(parts):  # Python: "attempted relative import beyond top-level package"
        assert absolute_module(package, level, module) is None


def test_absolute_imports_and_packages():
    assert absolute_module("a.b", 0, "x.y") == "x.y"
    assert package_of("a.b", is_package=True) == "a.b"
    assert package_of("a.b", is_package=False) == "a"
    assert package_of("top", is_package=False) == ""
