"""A dropped package that only a cut registry entry's function imports (inside its body, unguarded): the symbol
pruning of that file goes with the folded files, before the drop, so the drop's batch passes the imports check
and nothing is restored (sglang's `serve --model-type diffusion` backend and its `multimodal_gen` runtime)."""

from __future__ import annotations

from tests.mapping.registrykit import run_cli, write_project

from slimfork.api import shrink

FILES = {
    "pkg/__init__.py": "",
    "pkg/serve.py": """
        def _run_text(argv):
            print("text", *argv)


        def _run_images(argv):
            from pkg.images.runtime import run

            run(argv)


        def _images_help():
            try:
                from pkg.images.runtime import run
            except ImportError:
                return "images are not available"
            return run.__name__


        def _backends():
            return {
                "text": _run_text,
                "images": _run_images,
            }


        def serve(name):
            if name == "help":
                return print(_images_help())
            backends = _backends()
            if name not in backends:
                raise SystemExit(f"unknown backend {name}")
            backends[name](["ok"])
        """,
    "pkg/images/__init__.py": "",
    "pkg/images/runtime.py": "def run(argv):\n    print('images', *argv)\n",
    "pkg/cli.py": """
        import sys

        from pkg.serve import serve

        if __name__ == "__main__":
            serve(sys.argv[1])
        """,
}
SPEC = """
source = "."
packages = ["pkg"]
roots = ["pkg.cli"]
drop = ["pkg/images"]

[[registries]]
kind = "dict"
package = "pkg.serve._backends"
keep = ["text"]
reason = "a text-only deployment"
"""


def test_the_pruning_a_drop_needs_lands_before_it(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    assert run_cli(root, "images").stdout == "images ok\n"
    result = shrink(root / "slimfork.toml", tmp_path / "fork")
    fork = result.out
    serve = (fork / "pkg/serve.py").read_text()
    assert "_run_images" not in serve and serve.count("pkg.images") == 1 and '"text": _run_text' in serve
    assert not (fork / "pkg/images").exists()
    assert run_cli(fork, "text").stdout == "text ok\n"
    assert run_cli(root, "help").stdout == "run\n" and run_cli(fork, "help").stdout == "images are not available\n"
    # no warning: the unguarded import left with _run_images, and the guarded one handles the package's absence
    assert not [w for w in result.data["warnings"] if "drops" in w], result.data["warnings"]
    assert run_cli(fork, "images").stderr == run_cli(root, "nope").stderr.replace("nope", "images")
    batches = {b.name: b for b in result.apply.batches}
    assert all(b.checks and all(c.ok for c in b.checks) and not b.restored for b in batches.values())
    folded = next(e for e in batches["folded"].removed if e["path"] == "pkg/serve.py")
    assert "applied early: it removes the imports of pkg.images.runtime" in folded["reason"]
    assert "symbols" not in batches  # its only file went early
    assert [n for n, b in batches.items() if any(e["path"] == "pkg/images/runtime.py" for e in b.removed)] \
        == ["dropped"]
