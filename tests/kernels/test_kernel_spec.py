import tomllib

import pytest

from slimfork.errors import SpecError
from slimfork.kernels.spec import parse_preprocessor


def test_parses_the_documented_shape():
    raw = tomllib.loads('undefined = ["USE_ROCM", "USE_MUSA"]\ndefined = { SGL_CUDA_ARCH = "900", LEVEL = 2 }\n')
    facts = parse_preprocessor(raw, "facts.preprocessor")
    assert facts.undefined == ("USE_ROCM", "USE_MUSA")
    assert facts.defined == {"SGL_CUDA_ARCH": "900", "LEVEL": "2"}
    assert facts.unifdef_args() == ["-DLEVEL=2", "-DSGL_CUDA_ARCH=900", "-UUSE_MUSA", "-UUSE_ROCM"]
    assert facts.known() == {"USE_ROCM", "USE_MUSA", "SGL_CUDA_ARCH", "LEVEL"}


def test_empty_table_means_no_facts():
    assert not parse_preprocessor({}, "facts.preprocessor")
    assert not parse_preprocessor(None, "facts.preprocessor")


@pytest.mark.parametrize("raw, key, words", [
    ({"undefind": ["USE_ROCM"]}, "facts.preprocessor.undefind", "did you mean 'undefined'"),
    ({"undefined": "USE_ROCM"}, "facts.preprocessor.undefined", "array of strings"),
    ({"undefined": ["USE-ROCM"]}, "facts.preprocessor.undefined[0]", "not a C macro name"),
    ({"undefined": ["A", "A"]}, "facts.preprocessor.undefined[1]", "listed twice"),
    ({"defined": {"A": True}}, "facts.preprocessor.defined.A", "string or an integer"),
    ({"defined": {"A": "1 + 2"}}, "facts.preprocessor.defined.A", "not a value unifdef can use"),
    ({"defined": {"A": "1"}, "undefined": ["A"]}, "facts.preprocessor.defined.A", "both defined and undefined"),
    ({"defined": ["A"]}, "facts.preprocessor.defined", "expected a table"),
])
def test_bad_input_names_the_key(raw, key, words):
    with pytest.raises(SpecError) as info:
        parse_preprocessor(raw, "facts.preprocessor")
    assert info.value.key == key
    assert words in info.value.message + (info.value.hint or "")
