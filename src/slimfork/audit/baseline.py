"""The baseline: today's findings by fingerprint, so CI fails only on new ones (``--fail-on-new``)."""

from __future__ import annotations

import json
from pathlib import Path

from slimfork.audit.model import AuditResult
from slimfork.errors import SlimforkError
from slimfork.fsutil import write_atomic

FORMAT = "slimfork-audit-baseline/1"


def write_baseline(path: Path, result: AuditResult) -> None:
    entries = {f.fingerprint: f.message for f in result.sorted()}
    data = {"format": FORMAT, "findings": entries}
    write_atomic(Path(path), json.dumps(data, indent=1, sort_keys=True) + "\n")


def read_baseline(path: Path) -> set[str]:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SlimforkError(f"cannot read the baseline {path}: {exc}", key="--baseline",
                            hint="delete it and run 'slimfork audit --baseline FILE' again to record a new one") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("findings"), dict):
        raise SlimforkError(f"{path} is not a slimfork audit baseline", key="--baseline",
                            hint=f"a baseline is JSON with \"format\": \"{FORMAT}\"; record one with --update-baseline")
    return set(data["findings"])


def mark_new(result: AuditResult, known: set[str]) -> None:
    result.new = {f.fingerprint for f in result.findings if f.fingerprint not in known}
