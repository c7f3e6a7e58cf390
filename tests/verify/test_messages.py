"""Restore reasons say what went wrong (adversarial round s29, "Confusing messages" 7): pytest's ``E`` line or the
exception a traceback ends with, not the location line it starts with; pip's own ``error:`` line, not its
boilerplate."""

from __future__ import annotations

from slimfork.verify.checks.pytest import read_junit
from slimfork.verify.messages import error_line, pip_error

SETUP = ('failed on setup with "file /tmp/r/tests/test_app.py, line 16\n  def test_first():\n'
         "E       fixture '_clean' not found\n>       available fixtures: capsys, request\n"
         ">       use 'pytest --fixtures [testpath]' for help on them.\n\n/tmp/r/tests/test_app.py:16\"")
SYNTAX = '  File "/tmp/q/src/qpkg/app.py", line 8\n    out = (\n        ^\nSyntaxError: \'(\' was never closed'
PIP = """  error: subprocess-exited-with-error

  × Getting requirements to build wheel did not run successfully.
  │ exit code: 1
  ╰─> [3 lines of output]
      running egg_info
      error: package directory 'x/gone' does not exist
      [end of output]

  note: This error originates from a subprocess, and is likely not a problem with pip.
error: subprocess-exited-with-error

× Getting requirements to build wheel did not run successfully.
╰─> See above for output.
"""


def test_pytest_setup_errors_and_tracebacks_give_their_error_line():
    assert error_line(SETUP) == "fixture '_clean' not found"
    assert error_line(SYNTAX) == "SyntaxError: '(' was never closed"
    assert error_line("AssertionError: assert 1 == 2\nmore") == "AssertionError: assert 1 == 2"


def test_read_junit_keeps_the_error_line(tmp_path):
    xml = tmp_path / "j.xml"
    attr = SETUP.replace("&", "&amp;").replace('"', "&quot;").replace("\n", "&#10;").replace("<", "&lt;")
    xml.write_text(f'<testsuites><testsuite><testcase classname="tests.test_app" name="test_first">'
                   f'<error message="{attr}">text</error></testcase></testsuite></testsuites>')
    assert read_junit(xml)["tests.test_app::test_first"][:2] == ("error", "fixture '_clean' not found")


def test_pip_gives_the_build_backends_error_line():
    assert pip_error(PIP) == "error: package directory 'x/gone' does not exist"
    assert pip_error("ERROR: Could not find a version\n") == "ERROR: Could not find a version"
    assert pip_error("some\nlast lines\n") == "some | last lines"
