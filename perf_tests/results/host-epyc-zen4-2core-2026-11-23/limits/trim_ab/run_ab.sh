#!/bin/bash
# Alternating old/new rounds, LayoutRight potrf in cache (8 MB warm), one core.
for r in 1 2 3; do
  for v in old new; do
    bin=$([ $v = old ] && echo /tmp/oldtree/build/perf_tests/batchol_bench || echo /work/main/build/perf_tests/batchol_bench)
    $bin --batchol_routines=potrf,posv --batchol_n=4,8,16,32 --batchol_cache=warm --batchol_large_mb=8 --batchol_batch=0 \
      --benchmark_filter='batchol_host/.*/LayoutRight' --benchmark_min_time=0.1 --benchmark_repetitions=3 \
      --benchmark_out=/tmp/ab/${v}_$r.json > /dev/null 2>&1
  done
done
