"""The plan: removals with reasons, what is kept and why, and what static analysis cannot decide.
(``slimfork.plan.build`` turns a graph into a plan.)"""

from slimfork.decisions import Kept, Plan, Removal, Uncertain

__all__ = ["Kept", "Plan", "Removal", "Uncertain"]
