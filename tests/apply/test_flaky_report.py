"""The pytest check's flaky tests (failed, then passed on the same tree: verify/checks/pytest.py) blame no batch;
the apply report names them, batch by batch, with the check's detail kept in report.json."""

from __future__ import annotations

from slimfork.apply.ladder import Outcome
from slimfork.apply.model import ApplyReport, BatchResult
from slimfork.verify.model import CheckResult


def test_flaky_tests_are_named_in_the_report():
    detail = ("40 tests that pass in the original; 1 test failed and then passed on the same tree (flaky, not "
              "counted): testing.test_gateway.TestBasicGateway::test__rinfo[socket]")
    outcome = Outcome([CheckResult("parse", True), CheckResult("pytest", True, detail=detail)], [False, False])
    runs = outcome.runs()
    assert runs[1].detail == detail
    batch = BatchResult("unreachable doc", "", [], [], runs, None, 0, 1.0)
    report = ApplyReport("orig", "out", batches=[batch])
    text = report.to_markdown()
    assert "## Flaky tests (1 batch)" in text
    assert "- batch unreachable doc: 1 test failed and then passed on the same tree (flaky, not counted): " \
           "testing.test_gateway.TestBasicGateway::test__rinfo[socket]" in text
    assert BatchResult.from_dict(batch.to_dict()).checks[1].detail == detail  # a resumed run keeps it
    assert "Flaky" not in ApplyReport("orig", "out", batches=[BatchResult("b", "", [], [], runs[:1], None, 0, 1.0)]
                                      ).to_markdown()
