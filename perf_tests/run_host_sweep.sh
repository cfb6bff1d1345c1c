#!/bin/sh
# A reduced host sweep for results/: a grid that takes 15-20 minutes
# on a busy 2-core machine (the full default grid is ~8600 series, hours on
# such a host). double: potrf, posv, potrs (nrhs 1), trsv (lower, no
# transpose); float: potrf, posv; both layouts.
#  - batch 10000 for n = 4..100 (the sizes of table.md), capped at 0.05 GFlop
#    of work per call (so fewer matrices from n = 32 on);
#  - the >= 256 MB batch for n = 4 and 16 (up to 0.3 GFlop per call).
#
#   sh perf_tests/run_host_sweep.sh [build/perf_tests/batchol_bench] [outdir]
set -e
BENCH=${1:-build/perf_tests/batchol_bench}
DEST=${2:-perf_tests/results/host-$(date +%F)}
HERE=$(dirname "$0")
mkdir -p "$DEST"
SMALL="--batchol_n=4,8,16,32,64,100 --batchol_large_mb=0 --batchol_max_gflop=0.05"
LARGE="--batchol_n=4,16 --batchol_batch=0 --batchol_max_gflop=0.3"
DOUBLE="--batchol_precisions=double --benchmark_filter=-^(potrs_nrhs8|trsv_lower_trans|trsv_upper)"
FLOAT="--batchol_precisions=float --batchol_routines=potrf,posv"
for size in SMALL LARGE; do
  for prec in DOUBLE FLOAT; do
    eval grid=\$$size
    eval sel=\$$prec
    "$BENCH" $grid $sel --benchmark_min_time=0.02 \
      --benchmark_out="$DEST/part-$size-$prec.json" --benchmark_out_format=json
  done
done
python3 "$HERE/plot.py" "$DEST"/part-*.json --labels host,host,host,host -o "$DEST" \
  --save-merged "$DEST/results.json" > /dev/null
rm "$DEST"/part-*.json
echo "results in $DEST: results.json, table.md, *.png"
