#!/bin/bash
# build.sh: H = HEAD, N = v2, Q = v3
cd /tmp/exp/ab
F="-arch=sm_90 -std=c++17 -O3 -I/work/main/perf_tests/cuda"
job() { nvcc $F -I/tmp/exp/$2 -DTAG=$1 -DPART=$3 -Dbatchol=batchol_$1 -Xptxas -v -c tune_ab.cu -o ab_$1$3.o > ab_$1$3.log 2>&1 || cat ab_$1$3.log; }
export -f job; export F
{ for p in 0 1 2 3; do echo "H base $p"; echo "N v2 $p"; echo "Q v3 $p"; done; } | xargs -P 2 -L1 bash -c 'job $0 $1 $2'
nvcc $F -I/work/main/src -c /work/main/perf_tests/cuda/tune.cu -o tmain.o
nvcc -arch=sm_90 ab_*.o tmain.o -lcusolver -o tune_ab && echo built
