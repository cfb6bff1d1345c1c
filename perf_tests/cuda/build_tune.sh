#!/bin/bash
# Builds the tuning tool: the candidate kernels are split into parts that
# compile in parallel. Usage: build_tune.sh OUTDIR [JOBS] [NPARTS]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-build-tune}
jobs=${2:-$(nproc)}
parts=${3:-16}
mkdir -p "$out"
flags=(-arch=sm_90 -std=c++17 -O3 -I"$root/src" -I"$here")
seq 0 $((parts - 1)) | xargs -P "$jobs" -I{} \
  nvcc "${flags[@]}" -DTUNE_PART={} -DTUNE_NPARTS="$parts" -Xptxas -v \
  -c "$here/tune_kernels.cu" -o "$out/part{}.o" > "$out/ptxas.log" 2>&1 || { cat "$out/ptxas.log"; exit 1; }
nvcc "${flags[@]}" -c "$here/tune.cu" -o "$out/tune_main.o"
nvcc -arch=sm_90 "$out"/part*.o "$out/tune_main.o" -lcusolver -o "$out/tune"
echo "built $out/tune"
