"""A CMake source name whose file name holds a loop's variable beside a fixed part (keops' Matlab binding:
``SET(name2 cudafshape${ext_name})`` in a ``foreach``, then ``${CMAKE_CURRENT_SOURCE_DIR}/specific/shape_distance/
${name2}.cpp``) named nothing, so ``cudafshape.cpp``, ``cudafshape_dx.cpp`` ... were "named by no build file" at 70.
It builds the files of its folder its pattern matches; a name of variables alone still names nothing known."""

from __future__ import annotations

from pathlib import Path

from slimfork.audit.builders import cmake_sources

NATIVE = ["lab/specific/shape/cudafshape.cpp", "lab/specific/shape/cudafshape_dx.cpp", "lab/specific/shape/other.cpp",
          "lab/specific/conv/radial.cpp"]


def _built(tmp_path: Path, cmake: str) -> set[str]:
    (tmp_path / "lab").mkdir()
    (tmp_path / "lab" / "CMakeLists.txt").write_text(cmake)
    return set(cmake_sources(tmp_path, ["lab/CMakeLists.txt"], NATIVE))


def test_a_file_name_with_a_fixed_part_and_a_loop_variable_builds_what_it_matches(tmp_path):
    built = _built(tmp_path, "foreach(ext_name \"\" _dx)\n  SET(name2 cudafshape${ext_name})\n"
                             "  add_library(${name2} ${CMAKE_CURRENT_SOURCE_DIR}/specific/shape/${name2}.cpp)\n"
                             "endforeach()\n")
    assert built == {"lab/specific/shape/cudafshape.cpp", "lab/specific/shape/cudafshape_dx.cpp"}


def test_a_file_name_of_variables_alone_names_nothing(tmp_path):
    assert not _built(tmp_path, "foreach(n a b)\n  add_library(${n} specific/shape/${n}.cpp)\nendforeach()\n")
