"""The pruning rewrite on its own: before/after pairs, bytes and comments kept, refusals instead of damage."""

from __future__ import annotations

from slimfork.rewrite.prune import Cut, prune_source


def test_a_removed_def_leaves_its_comments_above_and_the_rest_untouched():
    before = b"import os\n\n# helpers\n\ndef unused():\n    # inner\n    return 1\n\n\ndef used():\n    return 2\n"
    result = prune_source(before, [Cut(1, "def")])
    assert result.failure is None
    assert result.new == b"import os\n\n# helpers\n\n\ndef used():\n    return 2\n"


def test_some_aliases_of_a_parenthesized_import_go_and_comments_stay():
    before = b"from m import (\n    a,  # keep me\n    b,\n    c,\n)\nprint(a, c)\n"
    result = prune_source(before, [Cut(0, "import", (1,))])
    assert result.new == b"from m import (\n    a,  # keep me\n    c,\n)\nprint(a, c)\n"


def test_the_last_alias_of_a_plain_import_line_loses_no_comma_shape():
    before = b"import os, sys, json\nprint(os, sys)\n"
    assert prune_source(before, [Cut(0, "import", (2,))]).new == b"import os, sys\nprint(os, sys)\n"


def test_crlf_line_endings_and_no_trailing_newline_survive():
    before = b"x = 1\r\ndef f():\r\n    return x\r\ny = 2"
    result = prune_source(before, [Cut(1, "def")])
    assert result.new == b"x = 1\r\ny = 2"


def test_a_line_with_several_statements_is_left_alone():
    before = b"a = 1; b = 2\nprint(b)\n"
    assert prune_source(before, [Cut(0, "assign")]).new is None
    assert prune_source(b"a = 1; b = 2\n", [Cut(0, "assign"), Cut(1, "assign")]).new is None


def test_blank_lines_around_a_removed_statement_do_not_add_up():
    before = b"import os\n\n\ndef a():\n    pass\n\n\ndef b():\n    pass\n\n\nos.sep\n"
    assert prune_source(before, [Cut(2, "def")]).new == b"import os\n\n\ndef a():\n    pass\n\n\nos.sep\n"
    assert prune_source(b"X = 1\n\nY = 2\n", [Cut(0, "assign")]).new == b"Y = 2\n"


def test_the_last_alias_of_a_parenthesized_import_hands_its_comma_over():
    before = b"from m import (\n    a,  # keep me\n    b,\n)\nprint(a)\n"
    assert prune_source(before, [Cut(0, "import", (1,))]).new == b"from m import (\n    a,  # keep me\n)\nprint(a)\n"


def test_a_request_that_does_not_match_the_file_changes_nothing():
    result = prune_source(b"def f():\n    pass\n", [Cut(0, "class")])
    assert result.new is None and "not a class" in result.failure


def test_a_prune_that_would_leave_a_name_undefined_is_refused():
    before = b"def helper():\n    return 1\n\n\nvalue = helper()\n"
    result = prune_source(before, [Cut(0, "def")])
    assert result.new is None and "helper" in result.failure


def test_a_bom_and_a_coding_line_are_kept():
    before = "\ufeff# -*- coding: utf-8 -*-\nimport os\nX = 'é'\n".encode("utf-8")
    assert prune_source(before, [Cut(0, "import")]).new == "\ufeff# -*- coding: utf-8 -*-\nX = 'é'\n".encode()
