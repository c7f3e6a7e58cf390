"""Apply the plan in verified batches: a git repository in the output folder, one commit per batch
(``slimfork.apply.engine.run_batches``)."""
