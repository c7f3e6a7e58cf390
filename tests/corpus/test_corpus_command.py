"""`slimfork corpus` over several profiles: one profile's error is reported and the others still run."""

from __future__ import annotations

from slimfork.cli import main
from slimfork.corpus.run import CorpusRow
from slimfork.errors import SlimforkError


def test_an_error_in_one_profile_is_reported_and_the_others_run(tmp_path, monkeypatch, capsys):
    bad, good = tmp_path / "bad.toml", tmp_path / "good.toml"
    bad.write_text("")
    good.write_text("")

    def fake(profile, out, jobs=None, tests=(), *where):  # where: the executor and its address
        if profile.name == "bad.toml":
            raise SlimforkError("bad.toml: the tests do not run on the original", key="verify", hint="declare")
        return CorpusRow(profile.name, "pypi:x==1", 10, 5, 10, 5, 3, 3, 0)

    monkeypatch.setattr("slimfork.corpus.run.run_profile", fake)
    assert main(["corpus", str(bad), str(good), "--out", str(tmp_path / "forks")]) == 2
    out, err = capsys.readouterr()
    assert "| good.toml |" in out and "error: verify: bad.toml: the tests do not run" in err
    assert "Traceback" not in err


def test_the_full_set_expands_the_corpus_folder(tmp_path, monkeypatch, capsys):
    ran = []
    monkeypatch.setattr("slimfork.corpus.run.run_profile",
                        lambda p, out, jobs=None, tests=(), *where: ran.append(p.as_posix()) or CorpusRow(p.name, "", 1, 1, 1, 1,
                                                                                            1, 1, 0))
    monkeypatch.chdir(__import__("pathlib").Path(__file__).resolve().parents[2])
    assert main(["corpus", "--set", "full", "--out", str(tmp_path)]) == 0
    assert ran[:2] == ["profiles/click-posix.toml", "profiles/pygments-python.toml"]
    assert "profiles/corpus/arrow.toml" in ran and len(ran) >= 15
