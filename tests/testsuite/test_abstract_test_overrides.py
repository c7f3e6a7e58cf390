"""A cut test method that overrides an abstract one leaves no abstract placeholder to run: pybtex 0.26.1's
``TestText(TextTestMixin, TestCase)`` lost ``test_render_as`` (it renders with a dropped backend) and pytest ran
the mixin's ``@abstractmethod`` placeholder, ``raise NotImplementedError``, for it (30 new failures). The
placeholder goes with it; the overrides the file keeps are unchanged. Where the base would be left empty, the class
that inherits the placeholder goes instead."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

TESTS = """from abc import ABCMeta, abstractmethod
from unittest import TestCase

from pkg.html import to_html
from pkg.render import render


class Mixin(metaclass=ABCMeta):
    @abstractmethod
    def test_render(self):
        raise NotImplementedError

    @abstractmethod
    def test_len(self):
        raise NotImplementedError


class TestPlain(Mixin, TestCase):
    def test_render(self):
        assert render("a") == "a"

    def test_len(self):
        assert len(render("ab")) == 2


class TestRich(Mixin, TestCase):
    def test_render(self):
        assert to_html("a") == "<p>a</p>"

    def test_len(self):
        assert len(render("b")) == 1
"""
FILES = {
    "pkg/__init__.py": "",
    "pkg/render.py": "def render(text):\n    return text\n",
    "pkg/html.py": "def to_html(text):\n    return f'<p>{text}</p>'\n",
    "tests/__init__.py": "",
    "tests/test_text.py": TESTS,
}
SPEC = 'source = "."\nroots = ["pkg.render:render"]\ntests = ["tests"]\n[symbols]\npublic_api = "roots"\npackage_api = false\n'


def test_the_abstract_placeholder_of_a_cut_override_goes(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert not (fork / "pkg/html.py").exists()
    text = (fork / "tests/test_text.py").read_text()
    assert text.count("NotImplementedError") == 1 and "to_html" not in text and "class TestRich" in text
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                          capture_output=True, text=True)
    assert done.returncode == 0 and "3 passed" in done.stdout, done.stdout[-2000:]


def test_a_base_left_empty_takes_the_class_instead(tmp_path):
    files = {**FILES, "tests/test_text.py": TESTS.replace(
        "    @abstractmethod\n    def test_len(self):\n        raise NotImplementedError\n\n", "")}
    root = write_project(tmp_path, files, SPEC)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert "class TestRich" not in (fork / "tests/test_text.py").read_text()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                          capture_output=True, text=True)
    assert done.returncode == 0 and "2 passed" in done.stdout, done.stdout[-2000:]
