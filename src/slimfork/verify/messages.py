"""The line of a failing tool's output that says what went wrong, for a restore reason a reader can act on:
pytest's ``E`` line or the exception a traceback ends with (not ``file tests/test_app.py, line 16``), pip's own
``error:`` line (not its "subprocess-exited-with-error" boilerplate)."""

from __future__ import annotations

import re

# "ModuleNotFoundError: No module named 'x'", "SyntaxError: ...", "pkg.errors.ConfigError: ..." (E prefix aside)
_EXCEPTION = re.compile(r"^(?:E\s+)?((?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*(?:Error|Exception|Exit|Warning|Failed|Interrupt)"
                        r"\b(?::.*)?)$")
# a line that only says where: pytest's 'failed on setup with "file x.py, line 16', a traceback's 'File "x.py"'
_WHERE = re.compile(r'^(?:failed on \w+ with )?"?(?:file\b|traceback \(most recent call last\))', re.IGNORECASE)
_PIP_BOILERPLATE = ("subprocess-exited-with-error", "metadata-generation-failed", "failed-wheel-build",
                    "could not build wheels", "see above for output")


def error_line(message: str, text: str = "", limit: int = 300) -> str:
    """The meaningful line of a failure: ``message``'s first line unless it only says where; then the last
    exception line of ``message`` and ``text`` (a traceback ends with it), else their first ``E`` line."""
    lines = [line.strip() for line in message.strip().splitlines() if line.strip()]
    first = lines[0] if lines else ""
    if first and not _WHERE.match(first):
        return first[:limit]
    more = lines + [line.strip() for line in text.splitlines() if line.strip()]
    exceptions = [m.group(1) for line in more if (m := _EXCEPTION.match(line))]
    if exceptions:
        return exceptions[-1][:limit]
    marked = [line[1:].strip() for line in more if line.startswith("E ") and line[1:].strip()]
    if marked:
        return marked[0][:limit]
    return first[:limit]


def pip_error(stderr: str, limit: int = 600) -> str:
    """pip's own ``error:`` line (the build backend's, inside its output, before pip's summary), else the exception
    line of the output, else its last lines."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    errors = [line for line in lines if line.lower().startswith("error:")
              and not any(b in line.lower() for b in _PIP_BOILERPLATE)]
    if errors:
        return errors[0][:limit]
    exceptions = [m.group(1) for line in lines if (m := _EXCEPTION.match(line))]
    if exceptions:
        return exceptions[-1][:limit]
    return " | ".join(lines[-4:])[-limit:]
