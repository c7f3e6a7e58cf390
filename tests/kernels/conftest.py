import shutil

import pytest


@pytest.fixture
def unifdef_tool():
    from slimfork.kernels.unifdef import find_unifdef

    if shutil.which("unifdef") is None:
        pytest.skip("unifdef is not installed (apt-get install unifdef)")
    return find_unifdef()
