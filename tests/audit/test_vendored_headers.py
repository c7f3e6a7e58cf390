"""A header of a vendored library that nothing includes (xxhash 4.1.0's ``deps/xxhash/xxh3.h``, a deprecated header
of the copied xxHash, beside ``xxhash.c`` that ``setup.py`` compiles) was "kernel source ... never loaded or
included" at 70. It is an unused part of a copied library the tree uses: said so, at 40 (users of the library may
include it; a later copy of upstream brings it back). A header of the project's own that nothing includes, or of a
vendored library nothing of which is used (tiny-cuda-nn's deleted ``dependencies/cutlass_b2b/``), or in a folder with
a licence file of its own (keops' ``rkeops/``, the project's own R package), stays at 70."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "setup.py": "from setuptools import Extension, setup\n\n"
                "setup(name='fasthash', packages=['fasthash'], ext_modules=[Extension('fasthash._hash', "
                "['src/_hash.c', 'deps/hashlib/hash.c'], include_dirs=['deps/hashlib'])])\n",
    "fasthash/__init__.py": "from fasthash._hash import digest\n",
    "src/_hash.c": '#include "hash.h"\n\nint digest(int x) { return hash(x); }\n',
    "src/old_api.h": "int old_digest(int x);\n",
    "deps/hashlib/LICENSE": "BSD\n",
    "deps/hashlib/hash.h": "int hash(int x);\n",
    "deps/hashlib/hash.c": '#include "hash.h"\n\nint hash(int x) { return x * 31; }\n',
    "deps/hashlib/hash3.h": "#define HASH_INLINE_ALL\n#include \"hash.h\"\n",
    "include/extra/LICENSE": "MIT\n",
    "include/extra/extra.hpp": "int extra(int x);\n",
    "include/extra/extra_v1.hpp": "int extra_v1(int x);\n",
    "include/extra/extra.cpp": '#include "extra.hpp"\n\nint extra(int x) { return x; }\n',
    "CMakeLists.txt": "project(fasthash)\nadd_library(extra include/extra/extra.cpp)\n",
    "deps/oldlib/LICENSE": "MIT\n",
    "deps/oldlib/old.h": "int old(int x);\n",
}


def test_an_unincluded_header_of_a_vendored_library_is_said_so_at_40(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f for f in result.findings if f.kind == "unused-kernel"}
    vendored = found["source:deps/hashlib/hash3.h"]
    assert vendored.confidence == 40 and "vendored library (deps/hashlib/)" in vendored.reason
    assert found["source:include/extra/extra_v1.hpp"].confidence == 70  # a licence file of its own is no sign
    assert found["source:src/old_api.h"].confidence == 70
    assert found["source:deps/oldlib/old.h"].confidence == 70  # nothing of that library is used: a dead copy
