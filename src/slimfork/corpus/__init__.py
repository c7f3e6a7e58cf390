"""The corpus: real projects shrunk by their profiles, each fork checked against the project's own tests."""
