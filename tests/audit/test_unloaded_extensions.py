"""Session 39 (pytorch_sparse ``631df92^``, "clean up"): ``setup.py`` builds one extension per ``csrc/*.cpp``
(``Extension('torch_sparse._' + name, ...)`` in a loop over the glob, with ``csrc/cuda/{name}_cuda.cu``), and
``torch_sparse/__init__.py`` loads them by name (``for library in ['_version', '_convert', ..., '_padding']:
torch.ops.load_library(...)``). ``_degree_padding`` is in no list: built, never loaded; only tests call its ops.
Its sources were "built by the glob" and never reported. A ``setup.py`` extension whose module name no Python
file names (by import, string or an f-string that can give it) is not loaded: the sources built only into it
are reported (60). Of extensions built one per globbed file, only those whose siblings are loaded by name."""

from __future__ import annotations

from slimfork.audit.builders import unloaded_extension_sources
from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

SETUP = """
    import glob
    import os
    import os.path as osp
    from setuptools import setup
    from torch.utils.cpp_extension import CppExtension, CUDAExtension


    def get_extensions():
        extensions = []
        extensions_dir = osp.join(osp.dirname(osp.abspath(__file__)), 'csrc')
        main_files = glob.glob(osp.join(extensions_dir, '*.cpp'))
        for main in main_files:
            name = main.split(os.sep)[-1][:-4]
            sources = [main]
            path = osp.join(extensions_dir, 'cuda', f'{name}_cuda.cu')
            if osp.exists(path):
                sources += [path]
            extensions += [CUDAExtension('sp._' + name, sources)]
        return extensions


    setup(name='sp', packages=['sp'], ext_modules=get_extensions())
"""

LOADER = """
    import importlib
    import os.path as osp
    import torch
    for library in ['_convert', '_padding']:
        torch.ops.load_library(importlib.machinery.PathFinder().find_spec(library, [osp.dirname(__file__)]).origin)


    def padded(x):
        return torch.ops.sp.padded_index(x)
"""


def _op(name: str, cuda: str) -> str:
    return (f'#include <torch/script.h>\n#include "cuda/{cuda}_cuda.h"\n'
            f"torch::Tensor {name}(torch::Tensor x) {{ return {name}_cuda(x); }}\n"
            f'static auto registry = torch::RegisterOperators().op("sp::{name}", &{name});\n')


def _cuda(name: str, cuda: str) -> str:
    return (f'#include "{cuda}_cuda.h"\n__global__ void {name}_kernel(float* x) {{ x[0] = 0; }}\n'
            f"torch::Tensor {name}_cuda(torch::Tensor x) {{ {name}_kernel<<<1, 1>>>(nullptr); return x; }}\n")


FILES = {
    "setup.py": SETUP,
    "sp/__init__.py": LOADER,
    "csrc/convert.cpp": _op("ind2ptr", "convert"),
    "csrc/cuda/convert_cuda.cu": _cuda("ind2ptr", "convert"),
    "csrc/cuda/convert_cuda.h": "torch::Tensor ind2ptr_cuda(torch::Tensor x);\n",
    "csrc/padding.cpp": _op("padded_index", "padding"),
    "csrc/cuda/padding_cuda.cu": _cuda("padded_index", "padding"),
    "csrc/cuda/padding_cuda.h": "torch::Tensor padded_index_cuda(torch::Tensor x);\n",
    "csrc/degree_padding.cpp": _op("bin_assignment", "degree_padding"),
    "csrc/cuda/degree_padding_cuda.cu": _cuda("bin_assignment", "degree_padding"),
    "csrc/cuda/degree_padding_cuda.h": "torch::Tensor bin_assignment_cuda(torch::Tensor x);\n",
    "test/test_degree_padding.py": "import torch\nimport sp\n\n\ndef test_bin():\n"
                                   "    assert torch.ops.sp.bin_assignment and sp\n",
    "test/test_padding.py": "from sp import padded\n\n\ndef test_padded():\n    assert padded\n",
}


def test_an_extension_built_per_file_and_never_loaded_is_reported(tmp_path):
    result, table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    sources = {f.subject: f.confidence for f in result.findings if f.subject.startswith("source:")}
    for path in ("csrc/degree_padding.cpp", "csrc/cuda/degree_padding_cuda.cu"):
        assert "sp._degree_padding" in table.unloaded.get(path, ("", 0))[0], table.unloaded
        assert sources.get(f"source:{path}", 0) >= 60, sources
    assert sources.get("source:csrc/cuda/degree_padding_cuda.h", 0) >= 60, sources
    for path in ("csrc/padding.cpp", "csrc/cuda/padding_cuda.cu", "csrc/cuda/padding_cuda.h", "csrc/convert.cpp",
                 "csrc/cuda/convert_cuda.cu"):
        assert f"source:{path}" not in sources, sources
    assert set(table.unloaded) == {"csrc/degree_padding.cpp", "csrc/cuda/degree_padding_cuda.cu"}, table.unloaded


def test_siblings_loaded_by_a_computed_name_say_nothing(tmp_path):
    files = dict(FILES)
    files["sp/__init__.py"] = ("import glob\nimport os.path as osp\nimport torch\n"
                               "for lib in glob.glob(osp.join(osp.dirname(__file__), '_*.so')):\n"
                               "    torch.ops.load_library(lib)\n")
    root = write_project(tmp_path, files, "")
    python = [p for p in files if p.endswith(".py")]
    native = sorted(p for p in files if not p.endswith(".py"))
    assert unloaded_extension_sources(root, python, native) == {}


def test_a_named_extension_nothing_imports(tmp_path):
    files = {
        "setup.py": """
            from setuptools import setup
            from torch.utils.cpp_extension import CUDAExtension
            setup(name="fa", packages=["fa"], ext_modules=[
                CUDAExtension("fa_cuda", ["csrc/fa/api.cpp", "csrc/fa/fwd.cu"]),
                CUDAExtension(name="ft_attention", sources=["csrc/ft/ft_attention.cpp", "csrc/ft/decoder.cu"]),
                CUDAExtension("fa_rotary", ["csrc/rotary/rotary.cpp"]),
            ])
        """,
        "fa/__init__.py": "import fa_cuda\nfrom .rotary import apply\n\n\ndef fwd(x):\n    return fa_cuda.fwd(x)\n",
        "fa/rotary.py": "import importlib\n\n\ndef apply(x, kind):\n"
                        "    return importlib.import_module(f'fa_{kind}').apply(x)\n",
        "csrc/fa/api.cpp": "int fwd_cuda();\nint fwd() { return fwd_cuda(); }\n",
        "csrc/fa/fwd.cu": "int fwd_cuda() { return 0; }\n",
        "csrc/ft/ft_attention.cpp": "int decode();\nint ft() { return decode(); }\n",
        "csrc/ft/decoder.cu": "int decode() { return 0; }\n",
        "csrc/rotary/rotary.cpp": "int rotary() { return 0; }\n",
        "tests/test_fa.py": "from fa import fwd\n\n\ndef test_fwd():\n    assert fwd\n",
    }
    root = write_project(tmp_path, files, "")
    python = [p for p in files if p.endswith(".py")]
    native = sorted(p for p in files if not p.endswith(".py"))
    assert set(unloaded_extension_sources(root, python, native)) == {"csrc/ft/ft_attention.cpp", "csrc/ft/decoder.cu"}
    result, _table = run_audit(open_tree(root))
    sources = {f.subject: f.confidence for f in result.findings if f.subject.startswith("source:")}
    assert sources.get("source:csrc/ft/decoder.cu") == 40, sources  # a public name: users may import it
    assert "source:csrc/fa/fwd.cu" not in sources and "source:csrc/rotary/rotary.cpp" not in sources, sources


def test_the_sole_api_extension_is_loaded_by_its_users(tmp_path):
    files = {
        "setup.py": "from setuptools import setup\nfrom torch.utils.cpp_extension import CUDAExtension\n"
                    "setup(name='tk', ext_modules=[CUDAExtension('tk', ['src/tk.cu'])])\n",
        "src/tk.cu": "int tk() { return 0; }\n",
        "tests/test_x.py": "def test_x():\n    assert True\n",
    }
    root = write_project(tmp_path, files, "")
    assert unloaded_extension_sources(root, ["setup.py", "tests/test_x.py"], ["src/tk.cu"]) == {}


def test_a_public_extension_nothing_in_the_tree_imports_is_low(tmp_path):
    files = {
        "setup.py": """
            from setuptools import setup
            from torch.utils.cpp_extension import CUDAExtension
            setup(name="ap", packages=["ap"], ext_modules=[
                CUDAExtension("scaled_softmax_cuda", ["csrc/softmax.cpp", "csrc/softmax_cuda.cu"]),
                CUDAExtension("ap._flat", ["csrc/flat.cpp"]),
            ])
        """,
        "ap/__init__.py": "def f():\n    return 0\n",
        "csrc/softmax.cpp": '#include "softmax.h"\nint fwd() { return fwd_cuda(); }\n',
        "csrc/softmax.h": "int fwd_cuda();\n",
        "csrc/softmax_cuda.cu": '#include "softmax.h"\n__global__ void k(float* x) { x[0] = 0; }\n'
                                "int fwd_cuda() { k<<<1, 1>>>(nullptr); return 0; }\n",
        "csrc/flat.cpp": "int flat() { return 0; }\n",
        "tests/test_ap.py": "from ap import f\n\n\ndef test_f():\n    assert f\n",
    }
    result, table = run_audit(open_tree(write_project(tmp_path, files, "")))
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-kernel"}
    assert table.unloaded["csrc/softmax.cpp"][1] == 40 and table.unloaded["csrc/flat.cpp"][1] == 60
    assert found.get("source:csrc/flat.cpp") == 60, found
    for subject in ("source:csrc/softmax.cpp", "source:csrc/softmax_cuda.cu", "source:csrc/softmax.h",
                    "cuda:csrc/softmax_cuda.cu::k"):
        assert found.get(subject) == 40, (subject, found)
