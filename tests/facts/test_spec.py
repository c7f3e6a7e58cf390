"""[facts] in the keep spec: what it accepts, and a clear error with the key path for everything else."""

from __future__ import annotations

import pytest

from slimfork.errors import SpecError
from slimfork.facts import FactSet, parse_facts
from slimfork.facts.model import ATTRIBUTE, ENV, FUNCTION, MEMBER, METHOD, NAME
from slimfork.spec.load import load_spec

GOOD = """
source = "src"
roots = ["pkg.main"]

[facts]
functions = { "sglang.srt.utils.common.is_hip" = false, "sglang.srt.utils.common.is_npu" = false }
names = { "pkg.config.USE_ROCM" = false }
methods = { "sglang.srt.platforms.current_platform.is_rocm" = false }
env = { SGLANG_USE_AITER = false, MODE = "fast" }
env_bool_functions = ["sglang.srt.utils.common.get_bool_env_var"]
env_objects = ["sglang.srt.environ.envs"]
sys_platform = "linux"
os_name = "posix"
platform_system = "Linux"
attributes = { "lora.enable_lora" = false }
attribute_getters = { "sglang.srt.runtime_context.get_lora" = "lora" }
unused_methods = ["forward_npu", "forward_hip"]
none_attributes = ["self.qsa_profile"]
never_values = ["sglang.srt.configs.model_config.AttentionArch.SSM"]

[facts.preprocessor]
defines = { USE_ROCM = 0 }
"""


def _spec(tmp_path, text):
    (tmp_path / "src").mkdir(exist_ok=True)
    path = tmp_path / "slimfork.toml"
    path.write_text(text)
    return load_spec(path)


def test_full_section_through_load_spec(tmp_path):
    facts = _spec(tmp_path, GOOD).sections["facts"]
    assert isinstance(facts, FactSet)
    by_target = {f.target: f for f in facts.facts}
    assert by_target["sglang.srt.utils.common.is_hip"].kind == FUNCTION
    assert by_target["sglang.srt.utils.common.is_hip"].key == "facts.functions.sglang.srt.utils.common.is_hip"
    assert by_target["pkg.config.USE_ROCM"].kind == NAME
    assert by_target["sglang.srt.platforms.current_platform.is_rocm"].kind == METHOD
    assert by_target["SGLANG_USE_AITER"].kind == ENV and by_target["MODE"].value == "fast"
    assert by_target["self.qsa_profile"].kind == ATTRIBUTE and by_target["self.qsa_profile"].value is None
    assert by_target["self.qsa_profile"].key == "facts.none_attributes[0]"
    ssm = by_target["sglang.srt.configs.model_config.AttentionArch.SSM"]
    assert ssm.kind == MEMBER and ssm.key == "facts.never_values[0]"
    assert by_target["sys.platform"].value == "linux" and by_target["os.name"].value == "posix"
    assert by_target["platform.system"].kind == FUNCTION
    assert facts.env_bool_functions == ("sglang.srt.utils.common.get_bool_env_var",)
    assert facts.env_objects == ("sglang.srt.environ.envs",)
    assert facts.preprocessor_raw == {"defines": {"USE_ROCM": 0}}  # passed through untouched
    assert by_target["lora.enable_lora"].kind == ATTRIBUTE and by_target["lora.enable_lora"].value is False
    assert facts.attribute_getters == {"sglang.srt.runtime_context.get_lora": "lora"}
    assert facts.unused_methods == ("forward_npu", "forward_hip")


def test_unquoted_dotted_keys_are_joined():
    facts = parse_facts({"functions": {"pkg": {"plat": {"is_hip": False}}}}, "facts")
    assert [f.target for f in facts.facts] == ["pkg.plat.is_hip"]


@pytest.mark.parametrize("raw, key, words", [
    ({"fucntions": {}}, "facts.fucntions", "did you mean 'functions'"),
    ({"functions": []}, "facts.functions", "expected a table"),
    ({"functions": {"is_hip": False}}, "facts.functions.is_hip", "not a qualified name"),
    ({"functions": {"a.b": [1]}}, "facts.functions.a.b", "expected a boolean"),
    ({"env": {"BAD-NAME": True}}, "facts.env.BAD-NAME", "not an environment variable"),
    ({"sys_platform": True}, "facts.sys_platform", "expected a string"),
    ({"attributes": {"enable_lora": False}}, "facts.attributes.enable_lora", "not receiver.attribute"),
    ({"attributes": {"a.b.c": False}}, "facts.attributes.a.b.c", "not receiver.attribute"),
    ({"none_attributes": ["qsa_profile"]}, "facts.none_attributes[0]", "not receiver.attribute"),
    ({"none_attributes": "self.qsa_profile"}, "facts.none_attributes", "expected an array"),
    ({"attributes": {"*.enable_lora": False}}, "facts.attributes.*.enable_lora", "not receiver.attribute"),
    ({"returns_none": "pkg.f"}, "facts.returns_none", "expected an array"),
    ({"returns_none": ["f"]}, "facts.returns_none[0]", "not a qualified name"),
    ({"never_values": ["SSM"]}, "facts.never_values[0]", "not a qualified name"),
    ({"attributes": {"a.m(x)": False}}, "facts.attributes.a.m(x)", "not receiver.attribute"),
    ({"attribute_getters": {"pkg.get_lora": 1}}, "facts.attribute_getters.pkg.get_lora", "expected qualified"),
    ({"env_objects": "a.b"}, "facts.env_objects", "expected an array"),
    ({"env_bool_functions": ["x"]}, "facts.env_bool_functions[0]", "not a qualified name"),
    ({"preprocessor": 3}, "facts.preprocessor", "expected a table"),
    ({"unused_methods": "forward_npu"}, "facts.unused_methods", "expected an array"),
    ({"unused_methods": ["Op.forward_npu"]}, "facts.unused_methods[0]", "not a method name"),
    ({"unused_methods": ["__init__"]}, "facts.unused_methods[0]", "not a method name"),
    ({"parameters": {"pkg.f": 3}}, "facts.parameters.pkg.f", "not module.function.parameter"),
    ({"parameters": {"pkg.f.ver": [3]}}, "facts.parameters.pkg.f.ver", "expected a boolean"),
    ({"constant_arguments": "yes"}, "facts.constant_arguments", "expected true or false"),
    ({"functions": {"platform.system": "Linux"}, "platform_system": "Linux"}, "facts.platform_system",
     "declared twice"),
])
def test_errors_name_the_key(raw, key, words):
    with pytest.raises(SpecError) as info:
        parse_facts(raw, "facts")
    assert info.value.key == key
    assert words in info.value.message + (info.value.hint or "")
    assert info.value.hint


def test_bad_facts_stop_load_spec(tmp_path):
    with pytest.raises(SpecError) as info:
        _spec(tmp_path, 'source = "src"\nroots = ["pkg"]\n[facts]\nfunctions = { "a.b" = {} }\n')
    assert info.value.key == "facts.functions.a.b"
