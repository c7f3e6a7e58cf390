"""Remove test functions, classes and methods from a test file with LibCST (everything else byte for byte)."""

from __future__ import annotations

import libcst as cst


def cut_units(source: bytes, qualnames: set[str]) -> bytes:
    """``qualnames``: "test_x", "TestA" or "TestA.test_y". A class left without tests goes too; a class body
    left empty gets ``pass``. The result is checked to parse."""
    module = cst.parse_module(source)
    new = module.visit(_Cut(qualnames))
    out = new.code.encode(module.encoding)
    compile(out, "<cut>", "exec")  # never hand back a file that does not parse
    return out


class _Cut(cst.CSTTransformer):
    def __init__(self, qualnames: set[str]):
        self.qualnames = qualnames
        self.depth = 0

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        self.depth += 1
        return self.depth == 1

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self.depth += 1
        return False

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef):
        self.depth -= 1
        return updated

    def leave_ClassDef(self, original: cst.ClassDef, updated: cst.ClassDef):
        self.depth -= 1
        if self.depth or original.name.value in self.qualnames:
            return updated
        prefix = original.name.value + "."
        body = updated.body
        if not isinstance(body, cst.IndentedBlock) or not any(q.startswith(prefix) for q in self.qualnames):
            return updated
        before = [s for s in body.body if _is_test(s)]
        kept = [s for s in body.body if not (isinstance(s, (cst.FunctionDef, cst.ClassDef))
                                             and prefix + s.name.value in self.qualnames)]
        if before and not any(_is_test(s) for s in kept):
            return cst.RemoveFromParent()
        if not kept:
            kept = [cst.SimpleStatementLine([cst.Pass()])]
        return updated.with_changes(body=body.with_changes(body=kept))

    def leave_Module(self, original: cst.Module, updated: cst.Module) -> cst.Module:
        body = [s for s in updated.body if not (isinstance(s, (cst.FunctionDef, cst.ClassDef))
                                                and s.name.value in self.qualnames)]
        return updated.with_changes(body=body)


def _is_test(stmt) -> bool:
    return isinstance(stmt, cst.FunctionDef) and stmt.name.value.startswith("test")
