"""Platform facts: what the spec's [facts] declares, and the three-valued evaluator that folds them."""

from slimfork.facts.evaluate import Evaluator, FactTable
from slimfork.facts.model import UNKNOWN, Fact, FactSet, Truth
from slimfork.facts.spec import parse_facts

__all__ = ["UNKNOWN", "Evaluator", "Fact", "FactSet", "FactTable", "Truth", "parse_facts"]
