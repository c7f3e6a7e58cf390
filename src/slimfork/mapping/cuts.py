"""The registry kinds that rewrite source (mapping, decorator, if-chain, imports, subclasses): each cuts the
entries the spec does not keep in the planning stages' scratch copy, before the plan is made again."""

from __future__ import annotations

from pathlib import Path

from slimfork.mapping.decorated import cut_decorator_registries, decorated_data, decorated_report
from slimfork.mapping.ifchain import cut_if_chain_registries, if_chain_data, if_chain_report
from slimfork.mapping.imports import cut_imports_registries, imports_data, imports_report
from slimfork.mapping.stage import cut_mappings, mapping_data, mapping_report
from slimfork.mapping.subclasses import cut_subclass_registries, subclasses_data, subclasses_report
from slimfork.plan.stages import Stages


def cut_registries(analysis, stages: Stages, scratch: Path) -> tuple[list, list]:
    """Cut every rewriting registry in ``scratch``, record the rewrites and reports in ``stages``. Returns the
    cuts whose removed keys the tests stage reads (mapping and subclasses), and the other cuts."""
    mappings, decorated = cut_mappings(analysis, scratch), cut_decorator_registries(analysis, scratch)
    chains = cut_if_chain_registries(analysis, scratch)
    imports = cut_imports_registries(analysis, scratch)
    subclasses = cut_subclass_registries(analysis, scratch)
    reasons = [(cut, f"registry {cut.registry.module}.{cut.registry.variable}: {len(cut.removed)} entries the "
                     "spec does not keep removed") for cut in mappings]
    reasons += [(cut, f"registry {'@' if cut.registry.kind == 'decorator' else ''}{cut.registry.decorator}: "
                      f"{len(cut.removed)} registrations of keys the spec does not keep removed") for cut in decorated]
    reasons += [(cut, f"registry {cut.registry.function} (if-chain on {cut.registry.variable}): the arms of "
                      f"{len(cut.removed)} keys the spec does not keep removed") for cut in chains]
    reasons += [(cut, f"registry {cut.registry.module} (imports of its submodules): the imports of "
                      f"{len(cut.removed)} submodules the spec does not keep removed") for cut in imports]
    reasons += [(cut, f"registry of subclasses of {cut.registry.base}: {len(cut.removed)} subclasses the spec does "
                      "not keep removed") for cut in subclasses]
    for cut, reason in reasons:
        if cut.new_source is not None:
            stages.rewrite(cut.path, cut.new_source, reason)
    for title, key, cuts, report, data in (
            ("Mapping registries", "mapping_registries", mappings, mapping_report, mapping_data),
            ("Decorator registries", "decorator_registries", decorated, decorated_report, decorated_data),
            ("If-chain registries", "if_chain_registries", chains, if_chain_report, if_chain_data),
            ("Import registries", "imports_registries", imports, imports_report, imports_data),
            ("Subclass registries", "subclass_registries", subclasses, subclasses_report, subclasses_data)):
        if cuts:
            stages.reports.append((title, report(cuts)))
            stages.data[key] = data(cuts)
    return mappings + [c for c in subclasses if c.removed], decorated + chains + imports
