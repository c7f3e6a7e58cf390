"""JSON: every finding with its fingerprint, plus the run's statistics."""

from __future__ import annotations

import json as _json


def render(result, new_only: bool = False) -> str:
    findings = [f for f in result.sorted() if not new_only or result.is_new(f)]
    data = {
        "root": result.root,
        "stats": result.stats,
        "notes": result.notes,
        "findings": [dict(f.to_json(), new=result.is_new(f)) if result.new is not None else f.to_json()
                     for f in findings],
    }
    return _json.dumps(data, indent=1, sort_keys=False) + "\n"
