"""The folding codemod's statements and blocks: what a reviewer would fix by hand on a statement line, and the
``if``/``while``/``assert`` statements with a literal test folded in every block, comments carried."""

from __future__ import annotations

import libcst as cst

from slimfork.facts.literals import is_literal, literal_value
from slimfork.facts.model import UNKNOWN
from slimfork.rewrite.class_lists import appended_class
from slimfork.rewrite.comments import comments_of
from slimfork.rewrite.fold_nodes import (Fold, _BARE_TESTS, _EMPTY, _attached_comments, _binds, _code,
                                         _effect_of_known_test, _fix_semicolons, _is_pass, _is_pragma, _join_lines,
                                         _passing_assert, _removable, _same_code, _terminates, _walrus_value,
                                         _with_parens)
from slimfork.rewrite.fold_state import FoldState


class BlockFolding(FoldState):
    """``FoldTransformer``'s statement and block folds (a mixin: its state is declared in ``FoldState``)."""

    # -- what a reviewer would fix by hand ---------------------------------------------------------------------
    def visit_SimpleStatementLine(self, node) -> None:
        self.edits_at.append(self._edits())

    def _edits(self) -> int:
        return self.substitutions + len(self.folds)

    def leave_SimpleStatementLine(self, original_node, updated_node):
        """A line the fold reduced to a constant (``return False``, ``x = None``) loses its trailing comment,
        which spoke of the expression that is gone (``# Not 'darwin' or 'linux2'``); pragmas stay."""
        edited = self.edits_at.pop() != self._edits()
        comment = updated_node.trailing_whitespace.comment
        if not edited or comment is None or _is_pragma(comment.value) or len(updated_node.body) != 1:
            return updated_node
        small = updated_node.body[0]
        value = getattr(small, "value", None) if isinstance(small, (cst.Return, cst.Assign, cst.AnnAssign)) else None
        if value is None or not is_literal(value):
            return updated_node
        self.dropped[comment.value.strip()] += 1
        return updated_node.with_changes(trailing_whitespace=updated_node.trailing_whitespace.with_changes(
            comment=None, whitespace=cst.SimpleWhitespace("")))

    def _wrap(self, new, old):
        wrapped = _with_parens(new, old)
        if wrapped is not new and is_literal(wrapped):
            self.wrapped.add(id(wrapped))
            self.keep_alive.append(wrapped)
        return wrapped

    def _bare(self, node):
        """A literal the fold wrapped in the parentheses of what it replaced, without them."""
        if id(node) in self.wrapped and node.lpar:
            return node.with_changes(lpar=[], rpar=[])
        return node

    def leave_Return(self, original_node, updated_node):
        value = self._bare(updated_node.value) if updated_node.value is not None else None
        if value is updated_node.value:
            return updated_node
        return updated_node.with_changes(value=value, whitespace_after_return=cst.SimpleWhitespace(" "))

    def leave_Assign(self, original_node, updated_node):
        updated_node = self._narrow_class_list(updated_node)
        return updated_node.with_changes(value=self._bare(updated_node.value))

    def leave_AnnAssign(self, original_node, updated_node):
        if updated_node.value is None:
            return updated_node
        return updated_node.with_changes(value=self._bare(updated_node.value))

    def leave_Arg(self, original_node, updated_node):
        return updated_node.with_changes(value=self._bare(updated_node.value))

    def leave_If(self, original_node, updated_node):
        """A test the fold changed: ``(False)`` loses its parentheses, and ``if (`` with the rest of the condition
        on the next lines becomes one line when what is left fits (no comment inside)."""
        test = updated_node.test
        if test is original_node.test or not test.lpar or not isinstance(test, _BARE_TESTS):
            return updated_node  # a tuple, lambda, yield or generator needs its parentheses
        inner = test.with_changes(lpar=[], rpar=[])
        code = _EMPTY.code_for_node(inner)
        if "\n" in code or "#" in _EMPTY.code_for_node(test) or len(code) > 80 or len(test.lpar) != 1:
            return updated_node
        return updated_node.with_changes(test=inner, whitespace_before_test=cst.SimpleWhitespace(" "))

    def _replace(self, old: cst.CSTNode, new: cst.CSTNode):
        self.dropped.update(comments_of(old) - comments_of(new))
        return new

    # -- blocks --------------------------------------------------------------------------------------------
    def leave_IndentedBlock(self, original_node, updated_node):
        body, carry, changed = self._fold_body(original_node.body, updated_node.body)
        if not changed:
            return updated_node
        footer = [*carry, *updated_node.footer]
        if not body:
            body = [cst.SimpleStatementLine([cst.Pass()])]
        return updated_node.with_changes(body=body, footer=footer)

    def leave_Module(self, original_node, updated_node):
        body, carry, changed = self._fold_body(original_node.body, updated_node.body)
        if not changed:
            return updated_node
        return updated_node.with_changes(body=body, footer=[*carry, *updated_node.footer])

    def leave_SimpleStatementSuite(self, original_node, updated_node):
        kept = [s for s in updated_node.body if not _passing_assert(s)]
        if len(kept) == len(updated_node.body):
            return updated_node
        self.folds.append(Fold(self.line, "assert", "always true: removed"))
        return updated_node.with_changes(body=kept or [cst.Pass()])

    def _fold_body(self, originals, stmts):
        out: list[cst.BaseStatement] = []
        carry: list[cst.EmptyLine] = []
        changed = dead = False
        if len(originals) != len(stmts):  # something above flattened statements: lines are unknown
            originals = [None] * len(stmts)
        for index, (original, stmt) in enumerate(zip(originals, stmts)):
            if dead:
                self.dropped.update(comments_of(stmt))
                continue
            found = self.info.get(id(original))
            line = found.line if found else self.line
            replaced = self._fold_statement(stmt, original, line)
            if replaced is None:
                new, extra = [stmt], []
            else:
                new, extra = replaced
                changed = True
            if new and _terminates(new[-1]) and index < len(stmts) - 1 and _removable(stmts[index + 1:]):
                dead = changed = True
                self.folds.append(Fold(line, "dead code", f"statements after an unconditional "
                                                          f"{_code(new[-1].body[-1]).split()[0]} removed"))
            if carry and new:
                new[0] = new[0].with_changes(leading_lines=_join_lines(carry, new[0].leading_lines))
                carry = []
            out.extend(new)
            carry.extend(extra)
        return out, carry, changed

    def _fold_statement(self, stmt, original, line):
        if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and self._own_class_lists():
            appended = appended_class(stmt.body[0], self._own_class_lists())
            if appended is not None and self._absent(appended, line):
                self.folds.append(Fold(line, "isinstance", f"{_code(stmt.body[0])}: the list is read only by "
                                                           "isinstance and no such object exists"))
                self.dropped.update(comments_of(stmt) - comments_of(stmt.leading_lines))
                return [], list(stmt.leading_lines)
        if isinstance(stmt, cst.If):
            return self._fold_if(stmt, original, line)
        if isinstance(stmt, cst.Try) and stmt.orelse is not None and isinstance(stmt.body, cst.IndentedBlock) \
                and stmt.body.body and _terminates(stmt.body.body[-1]):
            self.folds.append(Fold(line, "else", "try's else: never runs (the try body always leaves early), "
                                                 "removed"))
            new = stmt.with_changes(orelse=None)
            self.dropped.update(comments_of(stmt) - comments_of(new))
            return [new], []
        if isinstance(stmt, cst.While):
            test = literal_value(stmt.test)
            if test is UNKNOWN or test:
                return None
            self.folds.append(Fold(line, "while", f"while {_code(stmt.test)}: never runs"))
            if stmt.orelse is not None:
                return self._splice(stmt, stmt.orelse.body, [stmt.leading_lines, stmt.orelse.leading_lines])
            lead, _ = _attached_comments(stmt.leading_lines)
            self.dropped.update(comments_of(stmt) - comments_of(lead))
            return [], lead
        if isinstance(stmt, cst.SimpleStatementLine) and any(_passing_assert(s) for s in stmt.body):
            kept = [s for s in stmt.body if not _passing_assert(s)]
            self.folds.append(Fold(line, "assert", "always true: removed"))
            if kept:
                new = stmt.with_changes(body=_fix_semicolons(kept))
                self.dropped.update(comments_of(stmt) - comments_of(new))
                return [new], []
            self.dropped.update(comments_of(stmt) - comments_of(stmt.leading_lines))
            return [], list(stmt.leading_lines)
        return None

    def _fold_if(self, stmt: cst.If, original, line: int):
        effect, value = _effect_of_known_test(stmt.test)
        if effect is not None and not effect.lpar and stmt.test.lpar:  # `if (\n A\n or B\n ):` spans lines
            effect = effect.with_changes(lpar=stmt.test.lpar, rpar=stmt.test.rpar)
        if effect is not None and not value and not (self.pinned and _binds(stmt.body) & self.pinned) \
                and not _matters(stmt.body):
            return self._fold_effect_guard(stmt, effect, line)
        if effect is not None and value and not (self.pinned and stmt.orelse is not None
                                                 and _binds(stmt.orelse) & self.pinned) \
                and not (stmt.orelse is not None and _matters(stmt.orelse)):
            return self._fold_true_guard(stmt, effect, line)
        arms: list[cst.If] = []
        originals: list[cst.If | None] = []
        lines: list[int] = []
        node: cst.If | None = stmt
        orig = original
        final_else = None
        while node is not None:
            arms.append(node)
            originals.append(orig)
            found = self.info.get(id(orig))
            lines.append(found.line if found else line)
            if isinstance(node.orelse, cst.If):
                node = node.orelse
                orig = orig.orelse if isinstance(getattr(orig, "orelse", None), cst.If) else None
            else:
                final_else = node.orelse
                node = None
        # an arm that binds names code after it uses, or holds the yield, global or nonlocal that makes the
        # function a generator or scopes its names, stays even when it never runs
        matters = [_matters(arm.body) for arm in arms]
        pinned = [bool(self.pinned and _binds(arm.body) & self.pinned) or m for arm, m in zip(arms, matters)]
        else_pinned = bool(self.pinned and final_else is not None and _binds(final_else.body) & self.pinned) \
            or (final_else is not None and _matters(final_else.body))
        kept: list[cst.If] = []
        first_kept: int | None = None
        taken: cst.If | None = None
        changed = False
        for i, arm in enumerate(arms):
            test = _walrus_value(arm.test, self.pinned)
            word = "if" if i == 0 else "elif"
            if test is not UNKNOWN and (pinned[i] if not test else any(pinned[i + 1:]) or else_pinned):
                names = ', '.join(sorted(_binds(arm.body) & self.pinned)) or 'names'
                why = f"it binds {names} that code after it still uses" if not matters[i] or _binds(arm.body) & \
                    self.pinned else "it holds a yield, global or nonlocal that still shapes the function"
                written_arm = originals[i]
                written = written_arm.test if written_arm is not None else arm.test
                if not test:  # never runs, but binds names code after it still mentions: `if False:` says so
                    self.blocked.append((lines[i], f"{word} {_code(written)}: never taken, kept as `{word} False:`: "
                                                   f"{why}"))
                    arm = arm.with_changes(test=cst.Name("False"))
                else:
                    if written_arm is not None and not _same_code(written_arm.test, arm.test):
                        arm = arm.with_changes(test=written_arm.test)  # keep the arm as written
                    self.blocked.append((lines[i], f"{word} {_code(arm.test)}: known, but kept: {why}"))
                test = UNKNOWN
            if test is UNKNOWN:
                kept.append(arm)
                first_kept = i if first_kept is None else first_kept
                changed = changed or arm is not arms[i]
            elif test:
                taken = arm
                changed = True
                self.folds.append(Fold(lines[i], word, f"{word} {_code(arm.test)}: always taken"))
                break
            else:
                changed = True
                self.folds.append(Fold(lines[i], word, f"{word} {_code(arm.test)}: never taken, removed"))
        if not changed:
            return None
        if taken is not None and final_else is not None:
            self.folds.append(Fold(line, "else", "else: never taken, removed"))
        new_else = final_else
        if taken is not None:
            new_else = cst.Else(body=taken.body, leading_lines=taken.leading_lines,
                                whitespace_before_colon=taken.whitespace_after_test)
        if not kept:
            if new_else is None:  # the comment block right above the statement was about it: it goes too
                lead, attached = _attached_comments(stmt.leading_lines)
                self.dropped.update(comments_of(stmt) - comments_of(lead))
                return [], lead
            keep = [stmt.leading_lines]
            if taken is not stmt:
                keep.append(new_else.leading_lines)
            return self._splice(stmt, new_else.body, keep)
        tail = kept[-1].with_changes(orelse=new_else)
        for arm in reversed(kept[:-1]):
            tail = arm.with_changes(orelse=tail)
        if first_kept != 0:  # an elif became the first arm: it takes the if's leading comments
            tail = tail.with_changes(leading_lines=_join_lines(stmt.leading_lines, kept[0].leading_lines))
        self.dropped.update(comments_of(stmt) - comments_of(tail))
        return [tail], []

    def _unblock(self, line: int) -> None:
        """The operand an effect guard keeps was reported as blocking the fold of its test's ``and``/``or``."""
        self.blocked = [(at, why) for at, why in self.blocked
                        if not (at == line and why.endswith("side effect that must still run: kept"))]

    def _fold_effect_guard(self, stmt: cst.If, effect: cst.BaseExpression, line: int):
        """``if A and False: body [else: rest]`` never runs its body, but ``A`` runs (and is asked its truth)
        first: ``if A: pass``, then the else's statements, does exactly that; an ``elif B:`` chain after it
        becomes its own ``if B:`` statement (asked after ``A``, as before)."""
        test = _code(stmt.test)
        self._unblock(line)
        self.folds.append(Fold(line, "if", f"if {test}: never taken, removed (`if {_code(effect)}: pass` keeps "
                                           "its operand's side effect)"))
        header = stmt.body.header if isinstance(stmt.body, cst.IndentedBlock) else cst.TrailingWhitespace()
        guard = cst.If(test=effect, leading_lines=stmt.leading_lines,  # its own parentheses stay (a lambda needs them)
                       body=cst.IndentedBlock(header=header, body=[cst.SimpleStatementLine(body=[cst.Pass()])]))
        if stmt.orelse is None:
            self.dropped.update(comments_of(stmt) - comments_of(guard))
            return [guard], []
        if isinstance(stmt.orelse, cst.If):
            self.dropped.update(comments_of(stmt) - comments_of([guard, stmt.orelse]))
            return [guard, stmt.orelse], []
        stmts, carry = self._splice(stmt, stmt.orelse.body, [stmt.orelse.leading_lines])
        return [guard, *stmts], carry

    def _fold_true_guard(self, stmt: cst.If, effect: cst.BaseExpression, line: int):
        """``if A or True: body [elif/else ...]`` always runs its body after ``A`` (asked its truth) ran:
        ``if A: pass``, then the body's statements; the other arms never run."""
        test = _code(stmt.test)
        self._unblock(line)
        self.folds.append(Fold(line, "if", f"if {test}: always taken (`if {_code(effect)}: pass` keeps its "
                                           "operand's side effect)"))
        if stmt.orelse is not None:
            self.folds.append(Fold(line, "else", "elif/else: never taken, removed"))
        header = stmt.body.header if isinstance(stmt.body, cst.IndentedBlock) else cst.TrailingWhitespace()
        guard = cst.If(test=effect, leading_lines=stmt.leading_lines,
                       body=cst.IndentedBlock(header=header, body=[cst.SimpleStatementLine(body=[cst.Pass()])]))
        dropped = self.dropped.copy()
        body = stmt.body.with_changes(header=cst.TrailingWhitespace()) if isinstance(stmt.body, cst.IndentedBlock) \
            else stmt.body  # `if A or True: x = 1` on one line: its body has no header
        stmts, carry = self._splice(stmt, body, [])
        self.dropped = dropped
        self.dropped.update(comments_of(stmt) - comments_of(guard, stmts, carry))
        return [guard, *stmts], carry

    def _splice(self, stmt, body, keep):
        """The statements of ``body`` in place of ``stmt``; ``keep`` are comment lines to carry over."""
        lead: list[cst.EmptyLine] = []
        for lines in keep:
            lead = _join_lines(lead, lines)
        footer: list[cst.EmptyLine] = []
        if isinstance(body, cst.IndentedBlock):
            if body.header.comment is not None:
                lead = [*lead, cst.EmptyLine(indent=True, comment=body.header.comment)]
            stmts = list(body.body)
            footer = list(body.footer)
        else:
            stmts = [cst.SimpleStatementLine(body=list(body.body), trailing_whitespace=body.trailing_whitespace)]
        if all(_is_pass(s) for s in stmts):
            stmts = [] if not any(comments_of(s) for s in stmts) else stmts
        if stmts:
            stmts[0] = stmts[0].with_changes(leading_lines=_join_lines(lead, stmts[0].leading_lines))
            carry = footer
        else:
            carry = _join_lines(lead, footer)
        self.dropped.update(comments_of(stmt) - comments_of(stmts, carry))
        return stmts, carry


def _matters(block) -> bool:
    """Whether a block holds a ``yield``, ``global`` or ``nonlocal`` of the function around it."""
    return not _removable([block])
