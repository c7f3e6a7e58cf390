"""Unused private methods: a method named ``_name`` (not a dunder, not a sunder) that no kept module names in any
way (an attribute, a name, an import, a word of a string constant) is never called, so symbol pruning removes
it, and what only it imported or used goes in the next round (sglang's ``DraftBackendFactory`` keeps a
``_create_<backend>_decode_backend`` method per attention backend; the dict registry cut leaves the unlisted
ones unnamed).

Kept, whatever the names say: methods of classes that always stay as written (a registering decorator, a
metaclass), methods with a decorator that may register them, methods of modules that keep every symbol (roots,
modules looked up by name, ``globals()``), names third-party base classes call on their subclasses
(``_load_from_state_dict``, argparse's ``_get_help_string``...), and names a computed lookup may build
(``getattr(self, f"_create_{kind}_backend")``: such a method is listed as uncertain instead)."""

from __future__ import annotations

from slimfork.graph.symbol_index import PURE_DECORATORS, SymbolSummary
from slimfork.graph.symbols import PrunedSymbol

# Private names that libraries call on subclasses of their classes (the method overrides a hook).
HOOKS = frozenset("""
_load_from_state_dict _save_to_state_dict _apply _get_name _replicate_for_data_parallel _conv_forward
_check_input_dim _init_weights _reorder_cache _set_gradient_checkpointing _backward_hooks _call_impl
_get_help_string _format_action _format_action_invocation _format_usage _format_args _fill_text _split_lines
_get_default_metavar_for_optional _get_default_metavar_for_positional _metavar_formatter _get_values
_check_value _get_kwargs _get_args _log _bootstrap _run_once _asdict _replace _make _field_defaults
_post_init _iterencode _get_value _validate _setup _teardown _callSetUp _callTearDown _callTestMethod
""".split())


def unused_private_methods(summaries: dict[str, SymbolSummary], paths: dict[str, str], keep_all: dict[str, str],
                           pruned: set[tuple[str, int]], pure_decorators: frozenset[str] = frozenset()
                           ) -> tuple[list[PrunedSymbol], list[tuple[str, str]]]:
    """``summaries``: every kept module; ``paths``: module -> file; ``pruned``: (module, statement index) of the
    top-level statements this round removes anyway. Returns the methods to remove, and (module, why) for those
    kept because a computed name may reach them."""
    words: set[str] = set()
    prefixes: set[str] = set()
    suffixes: set[str] = set()
    for summary in summaries.values():
        usage = summary.methods
        if usage is not None:
            words |= usage.words
            prefixes |= {p for p in usage.prefixes if sum(c.isalnum() for c in p) >= 2}
            suffixes |= {s for s in usage.suffixes if sum(c.isalnum() for c in s) >= 2}
    pure = PURE_DECORATORS | pure_decorators
    out: list[PrunedSymbol] = []
    uncertain: list[tuple[str, str]] = []
    for module, summary in summaries.items():
        usage = summary.methods
        if usage is None or not usage.methods or module in keep_all or summary.keep_all:
            continue
        for m in usage.methods:
            if m.name in words or m.name in HOOKS or (module, m.class_index) in pruned \
                    or summary.statements[m.class_index].keep is not None \
                    or any(d not in pure for d in m.decorators):
                continue
            built = next((p for p in prefixes if m.name.startswith(p)), None) or \
                next((s for s in suffixes if m.name.endswith(s)), None)
            if built is not None:
                uncertain.append((module, f"{m.class_name}.{m.name}: a computed lookup may build its name "
                                          f"(from '{built}')"))
                continue
            out.append(PrunedSymbol(module, paths[module], (f"{m.class_name}.{m.name}",), "method", m.line, m.end,
                                    m.class_index, (m.position,), "a private method no kept code names"))
    return out, uncertain
