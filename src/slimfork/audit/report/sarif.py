"""SARIF 2.1.0, for code-scanning UIs: one rule per finding kind, one result per finding."""

from __future__ import annotations

import json

from slimfork import __version__
from slimfork.audit.model import KINDS

_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def _level(confidence: int) -> str:
    return "warning" if confidence >= 70 else "note"


def render(result, new_only: bool = False) -> str:
    findings = [f for f in result.sorted() if not new_only or result.is_new(f)]
    rules = [{"id": kind, "name": kind.replace("-", " ").title().replace(" ", ""),
              "shortDescription": {"text": title}} for kind, title in KINDS.items()]
    results = []
    for f in findings:
        item = {"ruleId": f.kind, "ruleIndex": list(KINDS).index(f.kind), "level": _level(f.confidence),
                "message": {"text": f"{f.message}: {f.reason}"},
                "partialFingerprints": {"slimfork/v1": f.fingerprint},
                "properties": {"confidence": f.confidence}}
        if f.path:
            region = {"startLine": f.line} if f.line else {}
            location = {"artifactLocation": {"uri": f.path.rstrip("/") or f.path, "uriBaseId": "SRCROOT"}}
            if region:
                location["region"] = region
            item["locations"] = [{"physicalLocation": location}]
        if result.new is not None:
            item["baselineState"] = "new" if result.is_new(f) else "unchanged"
        results.append(item)
    log = {"$schema": _SCHEMA, "version": "2.1.0", "runs": [{
        "tool": {"driver": {"name": "slimfork-audit", "version": __version__,
                            "informationUri": "https://pypi.org/project/slimfork/", "rules": rules}},
        "originalUriBaseIds": {"SRCROOT": {"uri": result.root.rstrip("/") + "/"}},
        "results": results}]}
    return json.dumps(log, indent=1) + "\n"
