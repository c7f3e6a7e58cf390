"""Scripts the audit took for library modules, "unreached" at 60: one that sends a request and logs its answer
(LightX2V ``3c4116a8^``: ``scripts/server/check_status.py``, ``response = requests.get(url)``,
``logger.info(response.json())``, which its deployment guide runs; a log call counted as module set-up, like
``logging.basicConfig``), and one that launches its own Triton kernel at its top level."""

from __future__ import annotations

from slimfork.audit.scriptuse import runs_at_top_level


def test_a_log_of_a_calls_result_is_a_scripts_output():
    assert runs_at_top_level("import requests\nfrom loguru import logger\n\n"
                             "response = requests.get('http://localhost:8000/v1/status')\nlogger.info(response.json())\n")
    assert runs_at_top_level("import requests\nfrom loguru import logger\nr = requests.post('u', json={})\n"
                             "logger.info(f'response: {r.json()}')\n")


def test_set_up_log_calls_are_no_script():
    assert not runs_at_top_level("import logging\nlogging.basicConfig(level=logging.INFO)\nX = 1\n")
    assert not runs_at_top_level("from loguru import logger\nlogger.add('x.log')\nlogger.info('loaded')\n")
    assert not runs_at_top_level("import warnings\nwarnings.warn(f'deprecated: {__name__.upper()}')\n"
                                 "from new import *\n")
    assert not runs_at_top_level("import logging\nlog = logging.getLogger(__name__)\nlog.info(repr(1))\n\n\n"
                                 "def f():\n    pass\n")


def test_a_top_level_launch_of_an_own_kernel_is_a_script():
    """kernl ``0b81d4a^``: ``experimental/misc/transpose.py`` builds tensors, launches its own Triton kernel and
    asserts the result at its top level; it was "unreached" at 60 with its kernel."""
    assert runs_at_top_level("import triton\nimport torch\n\n\n@triton.jit\ndef kernel(x):\n    pass\n\n\n"
                             "x = torch.zeros(4)\nkernel[(1,)](x)\nassert torch.allclose(x, x)\n")
    assert not runs_at_top_level("import triton\n\n\n@triton.jit\ndef kernel(x):\n    pass\n\n\n"
                                 "def launch(x):\n    kernel[(1,)](x)\n")
