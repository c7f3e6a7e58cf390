import shutil

import pytest


@pytest.fixture
def unifdef_tool():
    """The engine a user gets: the unifdef binary when installed, else slimfork's Python port."""
    from slimfork.kernels.unifdef import find_engine

    return find_engine()


@pytest.fixture(params=["binary", "python"])
def unifdef_engine(request):
    """Each engine in turn (the binary's run skips where it is not installed)."""
    from slimfork.kernels.unifdef import PYTHON_ENGINE, Engine, unifdef_version

    if request.param == "python":
        return PYTHON_ENGINE
    path = shutil.which("unifdef")
    if path is None:
        pytest.skip("the unifdef binary is not installed (apt-get install unifdef); the Python engine runs instead")
    return Engine(path, unifdef_version(path))
