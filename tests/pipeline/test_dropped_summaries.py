"""The files a spec drops are left out of the analysis's index, yet the fold reads what they import (they stay until
the fork's last batches). The fold summarises them once, before its workers fork, instead of in each worker on
each pass; and the stages' cache key is the same whether the index has their summaries or not (a verified run's
baselines summarise them, and the next run must still find its stages cached), and the index the analysis
reads is the same either way."""

from __future__ import annotations

import os

from slimfork.index import build as index_build
from slimfork.index.build import build_index
from slimfork.pipeline.analyse import analyse

USER = '''from pkg.plat import is_npu


def _npu_{i}():
    return "npu"


def run_{i}():
    if is_npu():
        return _npu_{i}()
    return "cuda"
'''


def _project(tmp_path):
    tmp_path = tmp_path / "project"
    pkg = tmp_path / "src" / "pkg"
    (pkg / "legacy").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "plat.py").write_text("def is_npu():\n    return False\n")
    for i in range(12):  # enough candidates for the fold to fork its workers
        (pkg / f"user{i}.py").write_text(USER.format(i=i))
    (pkg / "main.py").write_text("".join(f"from pkg.user{i} import run_{i}\n" for i in range(12)))
    (pkg / "legacy" / "__init__.py").write_text("")
    (pkg / "legacy" / "old.py").write_text("from pkg.user3 import _npu_3\n\nOLD = _npu_3\n")
    spec = tmp_path / "slimfork.toml"
    spec.write_text('source = "."\npython_root = "src"\nroots = ["pkg.main"]\ndrop = ["src/pkg/legacy"]\n'
                    'out = "fork"\n\n[facts]\nfunctions = { "pkg.plat.is_npu" = false }\n')
    return spec


def test_the_fold_workers_do_not_summarise_the_dropped_files(tmp_path, monkeypatch):
    spec = _project(tmp_path)
    log = tmp_path / "summarised.log"
    real = index_build.summarize

    def recording(data, sha=None):
        with open(log, "a") as fh:
            fh.write(f"{os.getpid()} {data[:30]!r}\n")
        return real(data, sha) if sha else real(data)

    monkeypatch.setenv("SLIMFORK_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(index_build, "summarize", recording)
    analysis = analyse(spec, jobs=2)
    assert analysis.index.files["src/pkg/legacy/old.py"].placeholder  # the analysis left it out
    assert "src/pkg/user3.py" in analysis.stages.rewritten
    lines = log.read_text().splitlines()
    dropped = [line for line in lines if "pkg.user3 import _npu_3" in line]
    assert dropped, "the fold read the dropped file's imports"
    assert all(line.split()[0] == str(os.getpid()) for line in dropped), dropped  # once, here, not per worker
    assert len(dropped) == 1


def test_the_stages_stay_cached_once_the_dropped_files_are_summarised(tmp_path, monkeypatch):
    spec = _project(tmp_path)
    monkeypatch.setenv("SLIMFORK_CACHE", str(tmp_path / "cache"))
    first = analyse(spec, jobs=1)
    assert first.stages is not None and first.stages.data["stage_seconds"]
    build_index(tmp_path / "project")  # as a verified run's baselines do: the dropped files' summaries, cached
    again = analyse(spec, jobs=1)
    # the index is the same cold or warm: the dropped file stays a placeholder (a fresh index's graph, whose
    # modules only dropped files import are loose, is the graph of every run)
    assert again.index.files["src/pkg/legacy/old.py"].placeholder
    assert again.graph.reached == first.graph.reached
    assert again.stages is not None and again.stages.data["stage_seconds"] == {}  # from the cache
    assert again.plan.removed_paths() == first.plan.removed_paths()
