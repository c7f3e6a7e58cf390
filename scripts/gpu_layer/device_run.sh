#!/bin/bash
# Runs on the device: the GPU layer check on the original (twice), the fork (if carried) and broken copies.
# Usage: bash .gpu/device_run.sh "orig1 orig2 fork fork_rope_noncuda_arm"  (see README.md beside it)
set -u
G=$(pwd)/.gpu; OUT=${OUT:-/tmp/out}; RUNS=${1:-"orig1 orig2"}
T0=$(date +%s)
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
nvidia-smi -L; python3 -c 'import torch, triton, transformers; print(torch.__version__, triton.__version__, transformers.__version__)'
# wheels: only those whose distribution the device lacks
mkdir -p /tmp/site
python3 - "$G/whl" > /tmp/need.txt <<'PY'
import sys, importlib.metadata as md, pathlib, re
for w in sorted(pathlib.Path(sys.argv[1]).glob("*.whl")):
    name = w.name.split("-")[0]
    try:
        md.distribution(name.replace("_", "-")); continue
    except md.PackageNotFoundError:
        print(w)
PY
echo "wheels installed: $(wc -l < /tmp/need.txt) of $(ls $G/whl | wc -l): $(xargs -n1 basename < /tmp/need.txt | cut -d- -f1 | tr '\n' ' ')"
[ -s /tmp/need.txt ] && python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site $(cat /tmp/need.txt)
# stubs, as slimfork's verification environment installs them
mkdir -p /tmp/stubs && cp $G/stub_runtime.py /tmp/stubs/_slimfork_stubs.py
echo "import _slimfork_stubs
_slimfork_stubs.install(['torchvision', 'humming', 'aiter', 'vllm', 'datasets'])" > /tmp/stubs/sitecustomize.py
mkdir -p /tmp/orig && tar xJf $G/sglang-orig.tar.xz -C /tmp/orig
echo "setup: $(( $(date +%s) - T0 ))s"
make_fork() { [ -d /tmp/fork ] || { cp -a /tmp/orig /tmp/fork && python3 $G/apply_delta.py /tmp/fork $G/fork-delta.tar.xz; }; }
port=29700
for r in $RUNS; do
  port=$((port+1))
  case $r in
    orig*) tree=/tmp/orig ;;
    fork) tree=/tmp/fork; make_fork || exit 1 ;;
    fork_*) make_fork || exit 1; tree=/tmp/$r; cp -a /tmp/fork $tree && python3 $G/breaks.py $tree ${r#fork_} || exit 1 ;;
    *) tree=/tmp/$r; cp -a /tmp/orig $tree && python3 $G/breaks.py $tree $r ;;
  esac
  ( cd $tree && s=$(date +%s%N); PYTHONPATH=/tmp/stubs:$tree:/tmp/site PYTHONHASHSEED=0 PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 SLIMFORK_LAYER_PORT=$port timeout 420 python3 $G/checks/deepseek_layer_cuda.py \
    > $OUT/$r.out 2> /tmp/$r.err; rc=$?; echo "$r: exit=$rc ms=$(( ($(date +%s%N) - s) / 1000000 ))" > /tmp/$r.time ) &
done
wait
echo "all runs: $(( $(date +%s) - T0 ))s"
for r in $RUNS; do echo "=== $(cat /tmp/$r.time)"; grep -v "cuda kernel:" $OUT/$r.out; echo "--- stderr tail"; grep -v "^\s*$" /tmp/$r.err | tail -25; done > $OUT/summary.txt
for r in $RUNS; do echo "=== $r"; tail -150 /tmp/$r.err; done > $OUT/stderr.txt
for r in $RUNS; do echo "$r $(cmp -s $OUT/orig1.out $OUT/$r.out && echo SAME-as-orig1 || echo DIFFERS)"; done
cat $OUT/summary.txt | head -120
