"""Why a fact matched nothing, in one line a user can act on. Only a name that exists nowhere is a likely typo;
otherwise the fact's target exists but kept code never uses it the way the fact describes (no call, only passed by
reference, calls that stay as written), or the file that uses it could not be folded."""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

from slimfork.errors import closest
from slimfork.facts.bindings import ModuleScope, Resolver
from slimfork.facts.evaluate import STDLIB_FACTS
from slimfork.facts.model import ATTRIBUTE, ENV, EXPRESSION, FUNCTION, INSTANCE, MEMBER, METHOD, NAME, PARAMETER, Fact
from slimfork.index.parse import decode, parse_python
from slimfork.index.purity import dotted_name
from slimfork.index.relative import absolute_module

TYPO = "typo"  # the name exists nowhere: the only kind --strict turns into an error
UNUSED = "unused"  # it exists, but kept code never calls (reads, tests) it
REFERENCE = "reference"  # kept code only passes it by reference, never calls it
LEFT = "left as written"  # kept code calls (reads) it, but no such use could fold
UNFOLDED = "unfolded"  # a file that uses it could not be folded

_VERBS = {FUNCTION: "call of", METHOD: "call of", NAME: "read of", ENV: "read of", ATTRIBUTE: "read of",
          INSTANCE: "isinstance test of", MEMBER: "comparison with", PARAMETER: "folded use of"}
_STDLIB = "the standard library"


@dataclass(frozen=True)
class Unmatched:
    fact: Fact
    why: str  # TYPO, UNUSED, REFERENCE, LEFT or UNFOLDED
    message: str  # one line: what happened
    path: str | None = None  # the place the message names (definition, use, or unfoldable file)
    line: int = 0
    suggestion: str | None = None  # for a typo: the closest name of the source that the fact could mean


def explain_unmatched(root: Path, facts: list[Fact], resolver: Resolver, kept: dict[str, str],
                      others: dict[str, str], failed: dict[str, str],
                      failed_matches: dict[str, list[str]]) -> dict[str, Unmatched]:
    """Fact key -> why it matched nothing. ``kept``/``others``: path -> module of the folded (kept) files and of
    the rest of the tree; ``failed``: path -> why a kept file was left unmodified; ``failed_matches``: fact key
    -> the failed files where the fact matched."""
    root = Path(root)
    words = {f.key: _word(f) for f in facts}
    hits = _mentions(root, sorted({**others, **kept}), set(words.values()))
    return {f.key: _explain(root, f, words[f.key], hits.get(words[f.key], []), resolver, kept, failed,
                            failed_matches.get(f.key, [])) for f in facts}


def _explain(root: Path, fact: Fact, word: str, hits: list[tuple[str, int]], resolver: Resolver,
             kept: dict[str, str], failed: dict[str, str], matched_in_failed: list[str]) -> Unmatched:
    what = _what(fact)
    rel = next(iter(matched_in_failed + [rel for rel, _ in hits if rel in failed]), None)
    if rel is not None:
        return Unmatched(fact, UNFOLDED, f"{what} is used in {rel}, which could not be folded: {failed[rel]}", rel)
    if fact.kind == EXPRESSION:  # compared by syntax tree: no definition to point at
        return _typo(fact, "no kept file contains this expression (compared by syntax tree, names as written)")
    target = fact.target.rpartition(".")[0] if fact.kind == PARAMETER else fact.target
    where, missing = (None, "") if fact.kind in (ENV, ATTRIBUTE) else \
        _definition(root, resolver, target, fact.target.rpartition(".")[2] if fact.kind == PARAMETER else None)
    if missing:
        return _typo(fact, missing, _closest_name(root, resolver, fact.target, fact.kind == PARAMETER))
    if not hits and where != (_STDLIB, 0):
        return _typo(fact, f"'{word}' appears in no file of the source")
    kept_hits = [(rel, line) for rel, line in hits if rel in kept]
    removed_hits = [(rel, line) for rel, line in hits if rel not in kept]
    elsewhere = f"; named in code the fork removes at {_at(removed_hits[0])}" if removed_hits else ""
    if fact.kind == ENV:
        if kept_hits:
            return Unmatched(fact, LEFT, f"{what} is named in kept code ({_at(kept_hits[0])}) but never read in a "
                             "form the facts recognise (os.environ, os.getenv, env_bool_functions, envs.X.get())",
                             *kept_hits[0])
        return Unmatched(fact, UNUSED, f"no read of {what} in kept code{elsewhere}", *removed_hits[0])
    if fact.kind == ATTRIBUTE:
        receiver = fact.target.rpartition(".")[0]
        reads = _attribute_reads(root, [rel for rel, _ in kept_hits], word)
        if reads:
            return Unmatched(fact, LEFT, f".{word} is read in kept code ({_at(reads[0])}) but never on "
                             + ("a receiver that is a name or an attribute chain" if receiver == "*"
                                else f"a receiver named {receiver}"), *reads[0])
        return Unmatched(fact, UNUSED, f"no read of {what} in kept code{elsewhere}", *(removed_hits or hits)[0])
    assert where is not None  # found (else a typo, above), or the kind returned above
    canonical = resolver.canonical(target)
    uses = _uses(root, resolver, kept, [rel for rel, _ in kept_hits], canonical, word) \
        if fact.kind in (FUNCTION, METHOD, NAME) and canonical not in STDLIB_FACTS else []
    defined = "defined in " + _STDLIB if where == (_STDLIB, 0) else f"defined at {_at(where)}"
    calls = [(rel, line) for rel, line, called in uses if called]
    if canonical in STDLIB_FACTS:  # found by their dotted spelling, not through imports
        calls = kept_hits if fact.kind == FUNCTION else calls
    refs = [(rel, line) for rel, line, called in uses if not called]
    if fact.kind in (FUNCTION, METHOD) and calls:
        return Unmatched(fact, LEFT, f"{target} is called in kept code ({_at(calls[0])}) but no call was folded (a "
                         "call whose arguments may have side effects, a name bound twice or shadowed, or a flag a test "
                         "patches stays as written)", *calls[0])
    if fact.kind in (FUNCTION, METHOD) and refs:
        return Unmatched(fact, REFERENCE, f"{target} is only passed by reference in kept code, never called "
                         f"({_at(refs[0])}; {defined})", *refs[0])
    if fact.kind == NAME and (refs or canonical in STDLIB_FACTS and kept_hits):
        refs = refs or kept_hits
        return Unmatched(fact, LEFT, f"{target} is read in kept code ({_at(refs[0])}) but no read folds (a name "
                         "bound more than once, or shadowed by a local one, stays as written)", *refs[0])
    subject = f"parameter {fact.target.rpartition('.')[2]} of {target}" if fact.kind == PARAMETER else target
    note = " (a body that binds the parameter again is left alone)" if fact.kind == PARAMETER else ""
    return Unmatched(fact, UNUSED, f"no {_VERBS[fact.kind]} {subject} in kept code ({defined}{elsewhere}){note}",
                     *(where if where[0] != _STDLIB else (None, 0)))


def _typo(fact: Fact, reason: str, suggestion: str | None = None) -> Unmatched:
    return Unmatched(fact, TYPO, f"the fact {fact.describe()} matched nothing (a typo?): {reason}",
                     suggestion=suggestion)


def _closest_name(root: Path, resolver: Resolver, target: str, parameter: bool) -> str | None:
    """The qualified name of the source closest to ``target`` (a renamed function, class, member or parameter):
    the names bound where the deepest existing part of it is, modules included."""
    parts = resolver.canonical(target).split(".")
    i = next((i for i in range(len(parts), 0, -1) if ".".join(parts[:i]) in resolver.paths), 0)
    module = ".".join(parts[:i])
    candidates = [m for m in resolver.paths if m.startswith(module + ".") or not module]
    tree = _parse(root, resolver.paths[module]) if module else None
    body, prefix = (tree.body if tree is not None else []), module
    for part in parts[i:]:
        candidates += [f"{prefix}.{name}" for name in _bound(body)]
        node = _find(body, [part])
        if node is None:
            break
        prefix = f"{prefix}.{part}"
        if isinstance(node, ast.ClassDef):
            body = node.body
        elif parameter and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = node.args
            candidates += [f"{prefix}.{a.arg}" for a in args.posonlyargs + args.args + args.kwonlyargs]
            break
        else:
            break
    # By the last part first: qualified names share their prefix, which would make every one look close.
    tails = {c.rpartition(".")[2]: c for c in reversed(candidates)}
    tail = closest(target.rpartition(".")[2], tails)
    return tails[tail] if tail else closest(target, candidates)


def _bound(body: list[ast.stmt]) -> list[str]:
    """The names a module or class body binds (through if/try/with blocks)."""
    out = []
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.append(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            out += [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            out += [a.asname or a.name.split(".")[0] for a in node.names if a.name != "*"]
        else:
            for block in ("body", "orelse", "finalbody"):
                out += _bound(getattr(node, block, None) or [])
            out += [n for h in getattr(node, "handlers", None) or [] for n in _bound(h.body)]
    return out


def _what(fact: Fact) -> str:
    if fact.kind == ENV:
        return f"${fact.target}"
    return fact.target.rpartition(".")[0] if fact.kind == PARAMETER else fact.target


def _at(place: tuple[str, int]) -> str:
    return f"{place[0]}:{place[1]}" if place[1] else place[0]


def _word(fact: Fact) -> str:
    """The text a file must hold to use the fact's target."""
    if fact.kind == ENV or fact.target in STDLIB_FACTS:
        return fact.target
    if fact.kind == PARAMETER:  # the function's name: its parameter's is too common a word
        return fact.target.split(".")[-2]
    return fact.target.rpartition(".")[2].removesuffix("()")


def _mentions(root: Path, paths: list[str], words: set[str]) -> dict[str, list[tuple[str, int]]]:
    """word -> (path, line of its first occurrence) of every file holding it."""
    out: dict[str, list[tuple[str, int]]] = {}
    needles = {word: word.encode() for word in words}
    for rel in paths:
        try:
            data = (root / rel).read_bytes()
        except OSError:
            continue
        for word, needle in needles.items():
            at = data.find(needle)
            if at >= 0:
                out.setdefault(word, []).append((rel, data.count(b"\n", 0, at) + 1))
    return out


def _parse(root: Path, rel: str) -> ast.Module | None:
    try:
        return parse_python(decode((root / rel).read_bytes()))
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError, LookupError, RecursionError):
        return None


def _definition(root: Path, resolver: Resolver, target: str,
                parameter: str | None) -> tuple[tuple[str, int] | None, str]:
    """((path, line) of the definition of ``target``, or (_STDLIB, 0) for the standard library's; "") or, where
    nothing can be what the fact names, (None, why)."""
    canonical = resolver.canonical(target)
    parts = canonical.split(".")
    for i in range(len(parts), 0, -1):
        if ".".join(parts[:i]) in resolver.paths:
            break
    else:
        if parts[0] in sys.stdlib_module_names:
            return (_STDLIB, 0), ""
        return None, f"no module of the source or of the standard library is named {parts[0]}"
    module, rest = ".".join(parts[:i]), parts[i:]
    rel = resolver.paths[module]
    if not rest:
        return ((rel, 1), "") if parameter is None else (None, f"{target} is a module, not a function")
    tree = _parse(root, rel)
    node = _find(tree.body, rest) if tree is not None else None
    if node is None:
        return None, f"{rel} defines no {'.'.join(rest)}"
    if parameter is not None:
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return None, f"{target} ({rel}:{node.lineno}) is not a function"
        args = node.args
        if parameter not in {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}:
            return None, f"{target} ({rel}:{node.lineno}) has no parameter '{parameter}'"
    return (rel, node.lineno), ""


def _find(body: list[ast.stmt], parts: list[str]) -> ast.stmt | None:
    """The statement binding ``parts[0]`` in a module or class body (through if/try/with blocks); for a class,
    its member ``parts[1:]``; for any other binding, itself (an object whose attribute the fact names)."""
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == parts[0]:
            if len(parts) > 1 and isinstance(node, ast.ClassDef):
                return _find(node.body, parts[1:])
            return node
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(n, ast.Name) and n.id == parts[0] for t in targets for n in ast.walk(t)):
                return node
        if isinstance(node, (ast.Import, ast.ImportFrom)) and any(
                (a.asname or a.name.split(".")[0]) == parts[0] for a in node.names):
            return node
        for block in ("body", "orelse", "finalbody", "handlers"):
            inner = getattr(node, block, None)
            if inner and not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                stmts = [s for h in inner for s in h.body] if block == "handlers" else inner
                found = _find(stmts, parts)
                if found is not None:
                    return found
    return None


def _uses(root: Path, resolver: Resolver, kept: dict[str, str], paths: list[str], canonical: str,
          word: str) -> list[tuple[str, int, bool]]:
    """(path, line, is a call) of every load in kept code that names ``canonical``: by a dotted name resolved
    through the module's imports, or by a name a ``from ... import`` anywhere in the file binds to it."""
    out = []
    for rel in paths:
        tree = _parse(root, rel)
        bindings = resolver.bindings(kept[rel])
        if tree is None or bindings is None or bindings.error:
            continue
        module = kept[rel]
        package = module if rel.endswith("__init__.py") else module.rpartition(".")[0]
        local = {alias.asname or alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                 for alias in node.names if alias.name.rpartition(".")[2] == word or alias.asname
                 if resolver.canonical(f"{absolute_module(package, node.level, node.module)}.{alias.name}")
                 == canonical}
        scope = ModuleScope(resolver, bindings)
        called = {id(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)}
        for node in ast.walk(tree):
            if not isinstance(node, (ast.Name, ast.Attribute)) or not isinstance(node.ctx, ast.Load):
                continue
            dotted = dotted_name(node)
            if dotted is None or dotted.rpartition(".")[2] != word and dotted.partition(".")[0] not in local:
                continue
            if dotted in local or scope.resolve(dotted) == canonical:
                out.append((rel, node.lineno, id(node) in called))
    return sorted(out)


def _attribute_reads(root: Path, paths: list[str], attr: str) -> list[tuple[str, int]]:
    out = []
    for rel in paths:
        tree = _parse(root, rel)
        out += [(rel, node.lineno) for node in ast.walk(tree or ast.Module(body=[], type_ignores=[]))
                if isinstance(node, ast.Attribute) and node.attr == attr and isinstance(node.ctx, ast.Load)]
    return sorted(out)
