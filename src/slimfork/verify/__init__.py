"""Verification: a ladder of differential checks, cheapest first, run on the original and on each batch
(``slimfork.verify.build.build_checks``; ``slimfork.apply.ladder`` runs them)."""
