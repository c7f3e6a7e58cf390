"""Decorators whose literal argument is a message, not a key: fontTools 4.68.0's draft suggested cutting
``@deprecateFunction("use x instead")`` and ``@timer("load font")`` (a ``Timer`` instance) as decorator registries,
and ``layerInfoVersion3ValueData = {"color": dict(type=str, ...)}`` as a dict registry. A decorator that only hands
back a ``functools.wraps`` wrapper and stores nothing is no registry; one that stores what it decorates still is,
and so is one that hands the function to a helper (it might register it). A dict of builtin calls is a table of
values."""

from __future__ import annotations

import textwrap

from slimfork.cli import main

FILES = {
    "pkg/__init__.py": "",
    "pkg/tools.py": """
        import warnings
        from functools import wraps
        from typing import cast

        REGISTRY = {}


        def deprecated(msg, category=UserWarning):
            def decorator(func):
                @wraps(func)
                def wrapper(*args, **kwargs):
                    warnings.warn(msg, category=category)
                    return func(*args, **kwargs)
                return cast(object, wrapper)
            return decorator


        class Timer:
            def __init__(self, msg=None):
                self.msg = msg

            def __call__(self, func_or_msg=None):
                if callable(func_or_msg):
                    @wraps(func_or_msg)
                    def wrapper(*args):
                        return func_or_msg(*args)
                    return wrapper
                msg = func_or_msg or self.msg
                return self.__class__(msg)


        timer = Timer()


        def register(key):
            def decorator(func):
                @wraps(func)
                def wrapper(*args):
                    return func(*args)
                REGISTRY[key] = wrapper
                return wrapper
            return decorator


        def handed(key):
            def decorator(func):
                @wraps(func)
                def wrapper(*args):
                    return func(*args)
                _remember(key, wrapper)
                return wrapper
            return decorator


        def _remember(key, fn):
            REGISTRY[key] = fn
        """,
    "pkg/api.py": """
        from pkg.tools import deprecated, handed, register, timer


        def validate(value):
            return value


        SETTINGS = {"color": dict(type=str, check=validate), "lib": dict(type=dict, check=validate)}


        @deprecated("use new_a instead")
        def old_a():
            return 1


        @deprecated("use new_b instead")
        def old_b():
            return 2


        @timer("load font")
        def load():
            return 3


        @timer("save font")
        def save():
            return 4


        @register("one")
        def one():
            return 5


        @register("two")
        def two():
            return 6


        @handed("three")
        def three():
            return 7


        @handed("four")
        def four():
            return 8
        """,
}


def test_only_registering_decorators_are_drafted(tmp_path, capsys):
    for rel, text in FILES.items():
        (tmp_path / "p" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "p" / rel).write_text(textwrap.dedent(text).lstrip())
    assert main(["init", str(tmp_path / "p"), "--out", str(tmp_path / "d.toml")]) == 0
    capsys.readouterr()
    draft = (tmp_path / "d.toml").read_text()
    assert '# package = "pkg.tools.register"' in draft and '#   "one",' in draft
    assert '# package = "pkg.tools.handed"' in draft
    assert "pkg.tools.deprecated" not in draft and "use new_a instead" not in draft
    assert "pkg.api.timer" not in draft and "pkg.tools.timer" not in draft and "load font" not in draft
    assert "pkg.api.SETTINGS" not in draft
