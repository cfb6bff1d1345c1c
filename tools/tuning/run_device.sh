#!/bin/bash
# Builds the tuning tool on all cores of a GPU machine, runs it, and leaves
# the log, the JSON and the ptxas report in the results directory
# (TUNE_RESULTS, default /tmp/tune-results). Extra arguments go to tune.
# TUNE_GROUP_MIN_NP=24 builds only the group kernels the middle sizes use;
# TUNE_BUDGET_S (default 570): seconds for the whole run, build included;
# the sweep is stopped in time and its JSON holds every order it finished.
# COMPILE_FULL_TABLE=1 also times, beside the sweep, the compile of one
# translation unit holding the whole table (compile_check.cu
# -DBATCHOL_CHECK_FULL_TABLE), into compile_full_table.txt there.
set -o pipefail
results=${TUNE_RESULTS:-/tmp/tune-results}
mkdir -p "$results"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,driver_version --format=csv | tee "$results/gpu.txt"
t0=$(date +%s)
deadline=$((t0 + ${TUNE_BUDGET_S:-570} - 10))
tools/tuning/build_tune.sh /tmp/bt "$(nproc)" 16 2>&1 | tail -3 || exit 1
echo "build: $(( $(date +%s) - t0 )) s"
cp /tmp/bt/ptxas.log "$results/ptxas.log"
cp /tmp/bt/compile_times.txt "$results/compile_times.txt"
if [ "${COMPILE_FULL_TABLE:-0}" = 1 ]; then
  (
    s0=$(date +%s)
    nvcc -arch=sm_90 -std=c++17 -O3 -Isrc -DBATCHOL_CHECK_FULL_TABLE \
      -c unit_tests/cuda/compile_check.cu -o /tmp/full_table.o &&
      echo "full table (BATCHOL_CUDA_MAX_N default), one TU: $(($(date +%s) - s0)) s wall"
  ) > "$results/compile_full_table.txt" 2>&1 &
  full_pid=$!
fi
timeout $((deadline - $(date +%s))) /tmp/bt/tune --json "$results/tune.json" "$@" 2>&1 | tee "$results/tune.log"
if [ -n "${full_pid:-}" ]; then
  left=$((deadline - $(date +%s)))
  if [ "$left" -gt 0 ]; then timeout "$left" tail --pid="$full_pid" -f /dev/null; fi
  cat "$results/compile_full_table.txt"
fi
