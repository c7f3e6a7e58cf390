"""The three-valued evaluator and qualified-name matching, on a small project written to disk."""

from __future__ import annotations

import libcst as cst
import pytest

from slimfork.facts import UNKNOWN, Truth, parse_facts
from slimfork.facts.bindings import ModuleScope, Resolver
from slimfork.facts.evaluate import Evaluator
from slimfork.facts.table import build_table, propagate

FILES = {
    "pkg/__init__.py": "",
    "pkg/utils/__init__.py": "from pkg.utils.common import *\n",
    "pkg/utils/common.py": "def is_hip():\n    return False\n\ndef get_bool_env_var(n, d='false'):\n    pass\n\n"
                           "def mamba_config(model):\n    return None\n\ndef get_algo():\n    return None\n",
    "pkg/platforms.py": "class P:\n    def is_rocm(self):\n        return False\ncurrent_platform = P()\n",
    "pkg/environ.py": "class Envs:\n    pass\nenvs = Envs()\n",
    "pkg/flags.py": "from pkg.utils import is_hip\n_is_hip = is_hip()\n",
    "pkg/user.py": (
        "import os\nimport sys\nimport pkg.utils.common as C\n"
        "from pkg.utils import is_hip as hip, get_bool_env_var, get_algo\n"
        "from pkg.flags import _is_hip\nfrom pkg import platforms\nfrom pkg.platforms import current_platform\n"
        "from pkg.environ import envs\n"
        "_use_aiter = get_bool_env_var('USE_AITER') and _is_hip\n"
        "_twice = 1\n_twice = 2\n"
    ),
}
MODULES = {"pkg/__init__.py": "pkg", "pkg/utils/__init__.py": "pkg.utils", "pkg/utils/common.py": "pkg.utils.common",
           "pkg/platforms.py": "pkg.platforms", "pkg/environ.py": "pkg.environ", "pkg/flags.py": "pkg.flags",
           "pkg/user.py": "pkg.user"}


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    root = tmp_path_factory.mktemp("proj")
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    facts = parse_facts({
        "functions": {"pkg.utils.is_hip": False},  # named through the re-export: still matches
        "methods": {"pkg.platforms.current_platform.is_rocm": False},
        "env": {"USE_AITER": False, "MODE": "fast"},
        "env_bool_functions": ["pkg.utils.common.get_bool_env_var"],
        "env_objects": ["pkg.environ.envs"],
        "sys_platform": "linux",
        "returns_none": ["pkg.utils.common.mamba_config"],
        "attributes": {"*.is_dspark()": False, "algo.is_eagle()": True, "lora.enable_lora": False},
        "attribute_getters": {"pkg.utils.common.get_algo": "algo"},
    }, "facts")
    resolver = Resolver(root, MODULES)
    table = build_table(facts, resolver)
    flags, used = propagate(table, resolver, [resolver.bindings(m) for m in MODULES.values()],
                            {"is_hip", "USE_AITER", "get_bool_env_var"}, set())
    return resolver, table, flags


def _value(env, code, shadow=frozenset()):
    resolver, table, _ = env
    evaluator = Evaluator(table, ModuleScope(resolver, resolver.bindings("pkg.user"), frozenset(shadow)))
    node = cst.parse_expression(code)
    return evaluator.value(node), evaluator.truth(node)


def test_canonical_names_follow_star_reexports(env):
    resolver, table, _ = env
    assert resolver.canonical("pkg.utils.is_hip") == "pkg.utils.common.is_hip"
    assert "pkg.utils.common.is_hip" in table.calls


def test_flags_propagate_across_modules(env):
    _, _, flags = env
    assert flags == {"pkg.flags._is_hip": False, "pkg.user._use_aiter": False}


@pytest.mark.parametrize("code, value", [
    ("hip()", False), ("hip(cfg.model, 1)", False), ("hip(config=cfg)", False), ("C.is_hip()", False), ("_is_hip", False), ("not _is_hip", True), ("_use_aiter", False),
    ("current_platform.is_rocm()", False), ("platforms.current_platform.is_rocm()", False),
    ("sys.platform == 'win32'", False), ("sys.platform.startswith('linux')", True),
    ("sys.platform in ('linux', 'darwin')", True),
    # an index or a slice of a known string (pyserial: `plat[:5] == 'linux'` after `plat = sys.platform.lower()`)
    ("sys.platform[:5] == 'linux'", True), ("sys.platform[:6] == 'darwin'", False), ("'linux'[:3] == 'bsd'", False),
    ("sys.platform[0]", "l"), ("sys.platform[-5:]", "linux"), ("sys.platform[::2]", "lnx"),
    ("os.environ.get('MODE')", "fast"), ("os.getenv('MODE', 'slow')", "fast"), ("os.environ['MODE']", "fast"),
    ("'MODE' in os.environ", True), ("os.environ.get('USE_AITER')", "0"),
    ("get_bool_env_var('USE_AITER')", False), ("envs.USE_AITER.get()", False),
    ("1 if _is_hip else 2", 2), ("_is_hip or 'x'", "x"), ("_is_hip and unknown()", False),
    # method results: on any receiver that is a name or attribute chain ("*"), or on a receiver named so
    ("self.is_dspark()", False), ("server.args.spec.is_dspark()", False), ("algo.is_eagle()", True),
    ("self.algo.is_eagle()", True), ("lora.enable_lora", False),
    # a declared getter's call stands for its receiver name, and counts as a receiver for "*"
    ("get_algo().is_eagle()", True), ("get_algo().is_dspark()", False),
    # a function that returns None (returns_none), also through a walrus
    ("C.mamba_config(cfg)", None), ("C.mamba_config(cfg) is not None", False), ("(m := C.mamba_config(cfg))", None),
    ("C.mamba_config(cfg) or 3", 3),
])
def test_known_values(env, code, value):
    assert _value(env, code)[0] == value


@pytest.mark.parametrize("code, truth", [
    ("x and _is_hip", Truth.FALSE), ("x or not _is_hip", Truth.TRUE), ("x or _is_hip", Truth.UNKNOWN),
    ("x and not _is_hip", Truth.UNKNOWN), ("(a if x else b)", Truth.UNKNOWN),
    ("(_is_hip if x else False)", Truth.FALSE),
])
def test_truth_when_value_is_unknown(env, code, truth):
    value, got = _value(env, code)
    assert got == truth
    if truth is not Truth.UNKNOWN and "x" in code:
        assert value is UNKNOWN  # the value depends on x even when its truth does not


@pytest.mark.parametrize("code", [
    "os.environ.get('OTHER')",  # no fact for it
    "get_bool_env_var(name)",  # not a literal variable name
    "hip(load())",  # an argument that is a call must still run
    "hip(*args)",
    "_twice",  # bound twice: ambiguous
    "sys.platform is 'linux'",  # identity of strings is not a fact
    "sys.platform[n:]", "sys.platform[99]", "sys.platform[True]",  # an unknown bound, an index out of range, a bool
    "undefined_thing()",
    "make().is_dspark()",  # the receiver is a call: it must still run
    "self.is_dspark(1)",  # a call with arguments
    "self.is_dspark",  # the method itself, not its result
    "other.is_eagle()",  # another receiver
    "algo.is_eagle",
])
def test_unknown_never_folds(env, code):
    assert _value(env, code) == (UNKNOWN, Truth.UNKNOWN)


def test_local_names_shadow_facts(env):
    assert _value(env, "hip()", shadow={"hip"})[0] is UNKNOWN
    assert _value(env, "_is_hip", shadow={"_is_hip"})[0] is UNKNOWN
