#!/bin/bash
# One device-machine call: build the tuning tool on all cores, run it, and
# leave the log, JSON and ptxas report under $OUT. Extra args go to tune.
set -o pipefail
out=${OUT:-/tmp/out}
mkdir -p "$out"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,driver_version --format=csv | tee "$out/gpu.txt"
t0=$(date +%s)
perf_tests/cuda/build_tune.sh /tmp/bt "$(nproc)" 16 2>&1 | tail -3 || exit 1
echo "build: $(( $(date +%s) - t0 )) s"
cp /tmp/bt/ptxas.log "$out/ptxas.log"
/tmp/bt/tune --json "$out/tune.json" "$@" 2>&1 | tee "$out/tune.log"
