#!/bin/bash
# Builds the tuning tool: the candidate kernels (group kernels in
# tune_kernels.cu, tile kernels in tune_tile.cu, panel kernels in
# tune_panel.cu, strided warp solves in tune_strided.cu) are split into parts
# that compile in parallel, and so does tune_table.cu (the sm_90 table and the
# default rows, a part per precision and mode); compile times go to
# OUTDIR/compile_times.txt.
# Usage: build_tune.sh OUTDIR [JOBS] [NPARTS]
# TUNE_GROUP_MIN_NP=24 in the environment leaves out the small group kernels;
# TUNE_SOLVE_ONLY=1 builds only what `tune --solve` (--trsv, --trsv-only)
# runs: no tile or panel kernels, no potrf or posv through the tables.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
dest=${1:-build-tune}
jobs=${2:-$(nproc)}
parts=${3:-16}
mkdir -p "$dest"
export TUNE_FLAGS="-arch=sm_90 -std=c++17 -O3 -I$root/src -I$here -DTUNE_NPARTS=$parts \
-DTUNE_GROUP_MIN_NP=${TUNE_GROUP_MIN_NP:-0}"
export TUNE_HERE=$here TUNE_OUT=$dest
part() {
  local t0 t1
  t0=$(date +%s%N)
  nvcc $TUNE_FLAGS -DTUNE_PART="$2" -Xptxas -v -c "$TUNE_HERE/$1.cu" -o "$TUNE_OUT/$1_part$2.o" \
    > "$TUNE_OUT/ptxas_$1_$2.log" 2>&1 || { cat "$TUNE_OUT/ptxas_$1_$2.log"; return 255; }
  t1=$(date +%s%N)
  echo "$1 part $2: $(((t1 - t0) / 1000000)) ms" >> "$TUNE_OUT/compile_times.txt"
}
export -f part
rm -f "$dest/compile_times.txt"
solve_only=${TUNE_SOLVE_ONLY:-0}
rm -f "$dest"/tune_*_part*.o
{
  # The table parts first: they are the longest.
  for i in $(seq 0 19); do
    if [ "$solve_only" = 1 ] && [ $((i % 5)) -lt 2 ]; then continue; fi
    echo "tune_table $i"
  done
  for i in $(seq 0 $((parts - 1))); do
    echo "tune_kernels $i"
    echo "tune_strided $i"
    if [ "$solve_only" != 1 ]; then echo "tune_tile $i"; echo "tune_panel $i"; fi
  done
} | xargs -P "$jobs" -L1 bash -c 'part "$0" "$1"'
cat "$dest"/ptxas_*.log > "$dest/ptxas.log"
nvcc $TUNE_FLAGS -c "$here/tune.cu" -o "$dest/tune_main.o"
nvcc -arch=sm_90 "$dest"/tune_*_part*.o "$dest/tune_main.o" -lcusolver -o "$dest/tune"
echo "built $dest/tune"
