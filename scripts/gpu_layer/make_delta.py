"""make_delta.py ORIG FORK OUT.tar.xz: the fork's sglang/ package as a delta against the original's."""
import io, sys, tarfile
from pathlib import Path

orig, fork, out = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
def files(root):
    return {str(p.relative_to(root)): p for p in (root / "sglang").rglob("*") if p.is_file() and "__pycache__" not in p.parts}
a, b = files(orig), files(fork)
deleted = sorted(set(a) - set(b))
changed = sorted(r for r in b if r not in a or a[r].read_bytes() != b[r].read_bytes())
with tarfile.open(out, "w:xz") as tar:
    data = "\n".join(deleted).encode()
    info = tarfile.TarInfo("DELETED"); info.size = len(data); tar.addfile(info, io.BytesIO(data))
    for r in changed:
        tar.add(b[r], arcname=r)
print(f"{len(deleted)} deleted, {len(changed)} new or changed")
