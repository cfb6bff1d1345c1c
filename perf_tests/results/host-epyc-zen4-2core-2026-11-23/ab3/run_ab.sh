#!/bin/sh
export OMP_NUM_THREADS=2 OMP_PROC_BIND=spread OMP_PLACES=threads
mkdir -p /tmp/z4/ab3
for r in 1 2; do
  for v in old new; do
    if [ $v = old ]; then B=<tree of 5648577>/build-omp/perf_tests/batchol_bench; else B=<tree of the review commit>/build-omp/perf_tests/batchol_bench; fi
    $B --batchol_n=8,12,17,31 --batchol_routines=potrf,posv,potrs --batchol_precisions=double --batchol_layouts=left --batchol_batch=0 --batchol_max_gflop=0.5 '--benchmark_filter=^(potrf|posv|potrs_nrhs1)/batchol_host/' --benchmark_min_time=0.02 --benchmark_out=/tmp/z4/ab3/${v}_$r.json --benchmark_out_format=json > /dev/null 2>&1
  done
done
echo done > /tmp/z4/ab3/done
