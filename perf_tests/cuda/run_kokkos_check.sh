#!/bin/bash
# Builds and runs kokkos_cuda_check against the Kokkos install in
# ${KOKKOS_ROOT:-.deps/kokkos-cuda} (Serial+OpenMP+CUDA, sm_90).
# Usage: run_kokkos_check.sh OUTDIR [extra nvcc flags]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
kk=${KOKKOS_ROOT:-$root/.deps/kokkos-cuda}
out=${1:-build-kokkos-check}
shift || true
mkdir -p "$out"
"$kk/bin/nvcc_wrapper" -std=c++17 -O3 -extended-lambda -arch=sm_90 -Xcompiler -fopenmp \
  -DBATCHOL_CUDA_MAX_N=16 "$@" -isystem "$kk/include" -I"$root/src" -x cu \
  -c "$here/kokkos_cuda_check.cpp" -o "$out/kokkos_cuda_check.o"
"$kk/bin/nvcc_wrapper" -arch=sm_90 -Xcompiler -fopenmp "$out/kokkos_cuda_check.o" \
  -L"$kk/lib" -lkokkoscore -lcuda -ldl -o "$out/kokkos_cuda_check"
"$out/kokkos_cuda_check"
