#!/usr/bin/env bash
# One command from a fresh Debian/Ubuntu machine to a result:
#   bash cmake/setup.sh demo   install what is missing, build, run the demo
#   bash cmake/setup.sh test   install what is missing, build, run every test
#                              (then again under AddressSanitizer + UBSan)
# Environment:
#   BATCHOL_KOKKOS_ROOT   an upstream Kokkos 4.x install (e.g. with OpenMP): the
#                         test command also builds and tests against it
#   BATCHOL_JOBS          parallel build jobs (default: nproc)
set -euo pipefail

mode=${1:-demo}
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
jobs=${BATCHOL_JOBS:-$(nproc)}

packages=(cmake make g++ pkg-config libtrilinos-kokkos-dev libtrilinos-kokkos-kernels-dev
  liblapack-dev libblas-dev libgtest-dev libbenchmark-dev libeigen3-dev
  libopenmpi-dev openmpi-bin python3)

install_missing() {
  local missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "== installing: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# configure_build DIR [cmake args...]
configure_build() {
  local dir=$1
  shift
  cmake -S "$top" -B "$dir" -DCMAKE_BUILD_TYPE=Release "$@"
  cmake --build "$dir" -j "$jobs"
}

run_tests() {
  local dir=$1
  ctest --test-dir "$dir" --output-on-failure -j "$jobs" --timeout 900
}

install_missing
case "$mode" in
  demo)
    configure_build "$top/build" -DBatchol_ENABLE_TESTS=OFF -DBatchol_ENABLE_EXAMPLES=OFF
    "$top/build/perf_tests/batchol_demo"
    ;;
  test)
    configure_build "$top/build"
    run_tests "$top/build"
    echo "== again under AddressSanitizer + UndefinedBehaviorSanitizer"
    configure_build "$top/build-asan" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DBatchol_ENABLE_SANITIZERS=ON -DBatchol_ENABLE_BENCHMARKS=OFF -DBatchol_ENABLE_EXAMPLES=OFF
    run_tests "$top/build-asan"
    if [ -n "${BATCHOL_KOKKOS_ROOT:-}" ]; then
      echo "== against the Kokkos install in BATCHOL_KOKKOS_ROOT=$BATCHOL_KOKKOS_ROOT"
      configure_build "$top/build-kokkos" -DKokkos_ROOT="$BATCHOL_KOKKOS_ROOT" \
        -DBatchol_ENABLE_BENCHMARKS=OFF
      run_tests "$top/build-kokkos"
    else
      echo "== BATCHOL_KOKKOS_ROOT is not set: skipping the upstream-Kokkos configuration"
    fi
    if command -v nvcc >/dev/null 2>&1 && [ -f "$top/unit_tests/cuda/compile_check.cu" ]; then
      echo "== compiling the CUDA kernels with nvcc (no GPU needed)"
      nvcc -arch=sm_90 -std=c++17 -I"$top/src" -c "$top/unit_tests/cuda/compile_check.cu" \
        -o /dev/null
    fi
    ;;
  *)
    echo "usage: bash cmake/setup.sh demo|test" >&2
    exit 2
    ;;
esac
