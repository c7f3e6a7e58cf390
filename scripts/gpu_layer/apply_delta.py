"""Turn a copy of the original sglang tree into the fork: delete the paths in the delta's DELETED list, then
unpack the delta's files (the fork's new and changed files). Usage: apply_delta.py TREE DELTA.tar.xz"""
import shutil, sys, tarfile
from pathlib import Path

tree, delta = Path(sys.argv[1]), sys.argv[2]
with tarfile.open(delta) as tar:
    deleted = tar.extractfile("DELETED").read().decode().splitlines()
    for rel in deleted:
        p = tree / rel
        if p.is_dir():
            shutil.rmtree(p)
        elif p.exists():
            p.unlink()
    for folder in sorted((p for p in tree.rglob("*") if p.is_dir()), key=lambda p: len(p.parts), reverse=True):
        if not any(folder.iterdir()):  # a folder the fork no longer has (else it imports as a namespace package)
            folder.rmdir()
    members = [m for m in tar.getmembers() if m.name != "DELETED"]
    tar.extractall(tree, members=members, filter="data")
print(f"fork: {len(deleted)} paths deleted, {len(members)} files written")
