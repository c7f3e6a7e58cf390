"""Unused methods: a method named ``_name`` (not a dunder, not a sunder) that no kept module names in any way (an
attribute, a name, an import, a word of a string constant) is never called, so symbol pruning removes it, and what only it imported or used goes in the next round (sglang's ``DraftBackendFactory`` keeps a
``_create_<backend>_decode_backend`` method per attention backend; the dict registry cut leaves the unlisted
ones unnamed). With ``[symbols] public_methods = true`` a public method no kept module names goes the same way:
code outside the fork may still call it (a user of the package's Python API, a method name sent over an RPC and
looked up with ``getattr``), so this is the spec's choice, and the classes ``[symbols] keep`` names keep theirs.

Kept, whatever the names say: methods of classes that always stay as written (a registering decorator, a
metaclass), methods with a decorator that may register them, methods of modules that keep every symbol (roots,
modules looked up by name, ``globals()``), methods of classes deriving from a library class (a tokenizer's
``_tokenize``, a parallel style's ``_partition_linear_fn`` are called by the library; only builtins, ABC,
Generic, Protocol, NamedTuple, Enum and, for names torch.nn does not define, ``torch.nn.Module`` are known not
to), and names a computed lookup may build (``getattr(self, f"_create_{kind}_backend")``: such a method is listed
as uncertain instead)."""

from __future__ import annotations

from slimfork.graph.symbols import PrunedSymbol
from slimfork.index.methods import is_private
from slimfork.index.open_classes import OpenClass
from slimfork.index.symbols import PURE_DECORATORS, SymbolSummary

# Bases outside the tree whose subclasses' private methods stay private: Python itself never calls a private
# method of a subclass of a builtin, ABC, Generic, Protocol, NamedTuple or Enum (sunders are never candidates).
SAFE_BASES = frozenset({"abc.ABC", "typing.Generic", "typing.Protocol", "typing.NamedTuple",
                        "typing_extensions.Protocol", "enum.Enum", "enum.IntEnum", "enum.Flag", "enum.IntFlag",
                        "enum.StrEnum"})
# torch.nn modules: every private name a class of torch.nn (2.x) defines, which its machinery may call on ours.
TORCH_NN_PRIVATE = frozenset("""
_apply _apply_instance_norm _call_impl _check_input_dim _check_non_zero_input_channels _compiled_call_impl
_conv_forward _ff_block _fill_padding_idx_with_zero _get_abs_string_index _get_backward_hooks
_get_backward_pre_hooks _get_full_log_prob _get_in_channels _get_item_by_idx _get_name _get_no_batch_dim
_get_num_spatial_dims _handle_no_batch_input _infer_parameters _init_flat_weights _is_protocol _key_to_attr
_lazy_load_hook _load_from_state_dict _maybe_warn_non_full_backward_hook _mha_block _named_members
_output_padding _register_load_state_dict_pre_hook _register_state_dict_hook _replicate_for_data_parallel
_require_tuple_int _reset_parameters _sa_block _save_to_state_dict _slow_forward _update_flat_weights _version
_weights_have_changed _wrapped_call_impl _init_weights _backward_hooks
""".split())
# ... and every public one (torch 2.x, every class of torch.nn): a subclass's method of another name is ours alone.
TORCH_NN_PUBLIC = frozenset("""
T_destination add_module all_weights append apply bfloat16 buffers call_super_init check_forward_args
check_hidden_size check_input children clear cls_to_become compile convert_sync_batchnorm copy cpu cuda double
dump_patches eval extend extra_repr flatten_parameters float forward from_pretrained fromkeys gather
generate_square_subsequent_mask get get_buffer get_expected_cell_size get_expected_hidden_size get_extra_state
get_parameter get_submodule half has_uninitialized_params initialize_parameters insert ipu items keys
load_state_dict log_prob merge_masks modules mtia named_buffers named_children named_modules named_parameters
parallel_apply parameters permute_hidden pop popitem predict register_backward_hook register_buffer
register_forward_hook register_forward_pre_hook register_full_backward_hook register_full_backward_pre_hook
register_load_state_dict_post_hook register_load_state_dict_pre_hook register_module register_parameter
register_state_dict_post_hook register_state_dict_pre_hook replicate requires_grad_ reset_parameters
reset_running_stats scatter set_extra_state set_submodule setdefault share_memory state_dict to to_empty train
type update values xpu zero_grad
""".split())


def library_may_call(name: str, bases: frozenset[str] | None) -> bool:
    """Whether a class deriving from ``bases`` (outside the tree) may have ``name`` called by that library:
    unknown bases, and every library but the builtins, the typing/abc/enum bases and torch.nn's known names."""
    if bases is None:
        return True
    for base in bases:
        if base.startswith("builtins.") or base in SAFE_BASES:
            continue
        if base.startswith("torch.nn.") and name not in (TORCH_NN_PRIVATE if is_private(name) else TORCH_NN_PUBLIC):
            continue
        return True
    return False


def unused_methods(summaries: dict[str, SymbolSummary], paths: dict[str, str], reach,
                   pruned: set[tuple[str, int]], pure_decorators: frozenset[str] = frozenset(),
                   public: bool = False, keep: frozenset[tuple[str, str | None]] = frozenset(),
                   text_words: frozenset[str] = frozenset()) -> tuple[list[PrunedSymbol], list[tuple[str, str]]]:
    """``summaries``: every kept module; ``paths``: module -> file; ``reach``: this round's ``SymbolReach``
    (modules that keep everything, the bases of classes); ``pruned``: (module, statement index) of the top-level
    statements this round removes anyway; ``public``: public methods are candidates too; ``keep``: (module, class)
    and (module, None) whose methods all stay; ``text_words``: identifiers of the packages' templates. Returns the
    methods to remove, and (module, why) for those kept because a computed name may reach them."""
    words: set[str] = set(text_words)
    prefixes: set[str] = set()
    suffixes: set[str] = set()
    private_lookup = ""  # a lookup builds a private name from "_" alone: any private method may be its target
    for module, summary in summaries.items():
        usage = summary.methods
        if usage is not None:
            words |= usage.words
            prefixes |= {p for p in usage.prefixes if sum(c.isalnum() for c in p) >= 2}
            private_lookup = private_lookup or (f"{module}: {usage.private_lookup}" if usage.private_lookup else "")
            suffixes |= {s for s in usage.suffixes if sum(c.isalnum() for c in s) >= 2}
    opened = _open_lineage(summaries, reach)
    pure = PURE_DECORATORS | pure_decorators
    out: list[PrunedSymbol] = []
    uncertain: list[tuple[str, str]] = []
    for module, summary in summaries.items():
        usage = summary.methods
        if usage is None or not usage.methods or module in reach.keep_all or summary.keep_all \
                or (module, None) in keep:
            continue
        for m in usage.methods:
            private = is_private(m.name)
            if (not private and (not public or (module, m.class_name) in keep)) or m.name in words \
                    or (module, m.class_index) in pruned or library_may_call(m.name, reach.external_bases.get((module, m.class_index))) \
                    or summary.statements[m.class_index].keep is not None \
                    or any(d not in pure for d in m.decorators):
                continue
            if private and private_lookup:
                uncertain.append((module, f"{m.class_name}.{m.name}: a computed lookup builds a private name "
                                          f"({private_lookup})"))
                continue
            seen = next((oc for oc in opened.get((module, m.class_name), ()) if _lets_through(oc, m.name)), None)
            if seen is not None:
                uncertain.append((module, f"{m.class_name}.{m.name}: {seen.why}, which may reach it"))
                continue
            built = next((p for p in prefixes if m.name.startswith(p)), None) or \
                next((s for s in suffixes if m.name.endswith(s)), None)
            if built is not None:
                uncertain.append((module, f"{m.class_name}.{m.name}: a computed lookup may build its name "
                                          f"(from '{built}')"))
                continue
            out.append(PrunedSymbol(module, paths[module], (f"{m.class_name}.{m.name}",), "method", m.line, m.end,
                                    m.class_index, (m.position,),
                                    f"a {'private' if private else 'public'} method no kept code names"))
    return out, uncertain


def _open_lineage(summaries: dict[str, SymbolSummary], reach) -> dict[tuple[str, str], list[OpenClass]]:
    """(module, class) -> the namespace enumerations that may reach its methods: its own, its bases' (``dir(self)``
    of a subclass instance lists them) and its subclasses' (the base's lists theirs)."""
    own: dict[tuple[str, str], list[OpenClass]] = {}
    for module, summary in summaries.items():
        for oc in summary.methods.open_classes if summary.methods else ():
            own.setdefault((module, summary.statements[oc.class_index].binds[0]), []).append(oc)
    out = {key: list(found) for key, found in own.items()}
    for (module, index), bases in reach.tree_bases.items() if own else ():
        if module not in summaries:
            continue
        name = summaries[module].statements[index].binds[0]
        for base in bases:
            out.setdefault((module, name), []).extend(own.get(base, ()))
            out.setdefault(base, []).extend(own.get((module, name), ()))
    return out


def _lets_through(oc: OpenClass, name: str) -> bool:
    return not oc.prefixes and not oc.suffixes or name.startswith(oc.prefixes) or name.endswith(oc.suffixes)
