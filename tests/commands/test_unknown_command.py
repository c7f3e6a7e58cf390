"""A command slimfork lacks is exit 2 with ``error: COMMAND: ...`` and a hint naming the closest command (argparse
said "invalid choice: 'explain' (choose from ...)", no hint): ``slimfork explain``, as a newcomer tries it, gets
"did you mean why?"."""

from __future__ import annotations

import pytest

from slimfork.cli import main


@pytest.mark.parametrize(("word", "hint"), [("explain", "did you mean why?"), ("explan", "did you mean why?"),
                                            ("shrnk", "did you mean shrink?"), ("trace", "did you mean why?"),
                                            ("zzz", "the commands: shrink, plan")])
def test_an_unknown_command_names_the_closest(capsys, word, hint):
    with pytest.raises(SystemExit) as exit_:
        main([word, "x"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert f"error: COMMAND: no command '{word}'\n  hint: {hint}" in err and "invalid choice" not in err

