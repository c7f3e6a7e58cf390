"""Session 38: a build script's ``glob("csrc/*.cpp")`` was matched with ``fnmatch``, whose ``*`` crosses folders, so
every ``csrc/<sub>/*.cpp`` counted as built by it (pytorch_sparse ``631df92^``: ``csrc/cpu/*.cpp`` and
``csrc/cuda/*.cu`` "built by setup.py (glob .../csrc/*.cpp)"; a stale source in a subfolder was never reported).
A Python glob's ``*`` stays in one folder; ``**`` (recursive) still reaches every folder below."""

from __future__ import annotations

from slimfork.audit.builders import _glob_match
from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "setup.py": """
        import glob
        import os.path as osp
        from setuptools import setup
        from torch.utils.cpp_extension import CppExtension


        def get_extensions():
            extensions_dir = osp.join(osp.dirname(osp.abspath(__file__)), 'csrc')
            main_files = glob.glob(osp.join(extensions_dir, '*.cpp'))
            return [CppExtension('gp._' + osp.basename(m)[:-4], [m]) for m in main_files]


        setup(name='gp', packages=['gp'], ext_modules=get_extensions())
    """,
    "gp/__init__.py": """
        import importlib
        import os.path as osp
        import torch
        for library in ['_convert']:
            torch.ops.load_library(importlib.machinery.PathFinder().find_spec(library, [osp.dirname(__file__)]).origin)
    """,
    "csrc/convert.cpp": """
        #include <torch/script.h>
        #include "cpu/convert_cpu.h"
        torch::Tensor ind2ptr(torch::Tensor ind, int64_t M) { return ind2ptr_cpu(ind, M); }
        static auto registry = torch::RegisterOperators().op("gp::ind2ptr", &ind2ptr);
    """,
    "csrc/cpu/convert_cpu.h": "#include <torch/script.h>\ntorch::Tensor ind2ptr_cpu(torch::Tensor ind, int64_t M);\n",
    "csrc/cpu/convert_cpu.cpp": '#include "convert_cpu.h"\ntorch::Tensor ind2ptr_cpu(torch::Tensor ind, int64_t M) '
                                '{ return ind; }\n',
    "csrc/cpu/degree_cpu.cpp": "int degree_cpu() { return 0; }\n",
    "tests/test_gp.py": "import gp\n\n\ndef test_gp():\n    assert gp\n",
}


def test_a_glob_star_stays_in_its_folder():
    assert _glob_match("csrc/a.cpp", "csrc/*.cpp")
    assert not _glob_match("csrc/cpu/a.cpp", "csrc/*.cpp")
    assert _glob_match("csrc/cpu/a.cpp", "csrc/**/*.cpp") and _glob_match("csrc/a.cpp", "csrc/**/*.cpp")
    assert _glob_match("csrc/x/y/a.cu", "csrc/**/*")
    assert _glob_match("csrc/a.cu", "csrc/[ab].cu") and not _glob_match("csrc/a.cu", "csrc/[!ab].cu")
    assert _glob_match("csrc/a1.cu", "csrc/a?.cu") and not _glob_match("csrc/a/.cu", "csrc/a?.cu")


def test_a_subfolder_source_no_glob_reaches_is_reported(tmp_path):
    result, table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    sources = {f.subject: f.confidence for f in result.findings if f.subject.startswith("source:")}
    assert "glob" in table.built.get("csrc/convert.cpp", ""), table.built
    assert "csrc/cpu/degree_cpu.cpp" not in table.built, table.built
    assert sources.get("source:csrc/cpu/degree_cpu.cpp", 0) >= 60, sources
    assert "source:csrc/convert.cpp" not in sources, sources


def test_a_recursive_glob_still_builds_the_subfolders(tmp_path):
    files = dict(FILES)
    files["setup.py"] = files["setup.py"].replace("osp.join(extensions_dir, '*.cpp')",
                                                  "osp.join(extensions_dir, '**', '*.cpp'), recursive=True")
    result, table = run_audit(open_tree(write_project(tmp_path, files, "")))
    sources = {f.subject: f.confidence for f in result.findings if f.subject.startswith("source:")}
    assert "glob" in table.built.get("csrc/cpu/degree_cpu.cpp", ""), table.built
    assert "source:csrc/cpu/degree_cpu.cpp" not in sources, sources


def test_a_per_name_source_path_builds_what_it_can_name(tmp_path):
    """pytorch_sparse builds, beside each globbed ``csrc/<name>.cpp``, ``osp.join(extensions_dir, 'cpu',
    f'{name}_cpu.cpp')``: with ``*`` kept in one folder, that f-string path is what builds ``csrc/cpu/``."""
    files = dict(FILES)
    files["setup.py"] = files["setup.py"].replace(
        "            return [CppExtension('gp._' + osp.basename(m)[:-4], [m]) for m in main_files]\n",
        "            extensions = []\n"
        "            for main in main_files:\n"
        "                name = main.split(os.sep)[-1][:-4]\n"
        "                sources = [main]\n"
        "                path = osp.join(extensions_dir, 'cpu', f'{name}_cpu.cpp')\n"
        "                if osp.exists(path):\n"
        "                    sources += [path]\n"
        "                extensions.append(CppExtension('gp._' + name, sources))\n"
        "            return extensions\n").replace("import glob\n", "import glob\n        import os\n")
    result, table = run_audit(open_tree(write_project(tmp_path, files, "")))
    sources = {f.subject: f.confidence for f in result.findings if f.subject.startswith("source:")}
    assert "csrc/cpu/*_cpu.cpp" in table.built.get("csrc/cpu/convert_cpu.cpp", ""), table.built
    assert "source:csrc/cpu/convert_cpu.cpp" not in sources, sources
    assert "csrc/cpu/degree_cpu.cpp" in table.built  # the pattern can name it: unknown means keep
