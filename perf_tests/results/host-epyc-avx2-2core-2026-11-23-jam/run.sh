#!/bin/bash
# Interleaved A (jam 2 at n <= 8, HEAD) / B (jam 1 above n = 4) runs.
A=/work/main/build/perf_tests/batchol_bench
B=/tmp/jamB/buildB/perf_tests/batchol_bench
common="--batchol_n=4,5,6,7,8 --batchol_routines=potrf,posv --benchmark_filter=^(potrf|posv)/batchol_host/ --benchmark_min_time=0.05 --benchmark_out_format=json"
for rep in 1 2 3; do
  for v in A B; do
    bin=${!v}
    $bin $common --batchol_batch=500000 --batchol_large_mb=0 --benchmark_out=/tmp/jam/${v}_dram_$rep.json > /tmp/jam/${v}_dram_$rep.log 2>&1
    echo "$v dram $rep $(date +%T)"
    $bin $common --batchol_batch=0 --batchol_large_mb=8 --batchol_cache=warm --benchmark_out=/tmp/jam/${v}_warm_$rep.json > /tmp/jam/${v}_warm_$rep.log 2>&1
    echo "$v warm $rep $(date +%T)"
  done
done
