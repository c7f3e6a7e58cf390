"""The bundled example project and its keep spec (what `slimfork shrink` runs on with no spec)."""

from pathlib import Path

EXAMPLE_SPEC = Path(__file__).parent / "mlserve" / "slimfork.toml"
