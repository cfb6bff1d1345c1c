#!/usr/bin/env bash
# One command from a fresh Debian 12 / Ubuntu machine to a result:
#   bash cmake/setup.sh demo   install what is missing, build and run the demo
#                              (build/demo; about 4 minutes on 2 cores)
#   bash cmake/setup.sh test   install what is missing, build and run every
#                              test, example and the benchmark smoke test
#                              (about 45 minutes on 2 cores), in:
#     release  the system's Kokkos, Release (build/test)
#     asan     the same tests under AddressSanitizer + UBSan (build/asan)
#     kokkos5  Debian sid's Kokkos 5 with OpenMP, in a Debian sid root
#              (cmake/sid_root.sh; needs root or sudo)
#     nvcc     the CUDA kernels compiled by nvcc, when nvcc is found (no GPU)
# Either command may run first, and again: each configures its own folder
# with every option it needs.
# Environment:
#   BATCHOL_TEST_CONFIGS  which of the above the test command runs
#                         (default: "release asan kokkos5 nvcc")
#   BATCHOL_KOKKOS_ROOT   an upstream Kokkos install (e.g. with OpenMP): the
#                         test command also builds and tests against it
#   BATCHOL_SID_ROOT      where the sid root lives (default /var/tmp/batchol-sid)
#   BATCHOL_JOBS          parallel build jobs (default: nproc)
#   BATCHOL_WERROR        1: warnings are errors (CI)
set -euo pipefail

mode=${1:-demo}
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
jobs=${BATCHOL_JOBS:-$(nproc)}
configs=${BATCHOL_TEST_CONFIGS:-release asan kokkos5 nvcc}
werror=OFF
[ "${BATCHOL_WERROR:-0}" = 1 ] && werror=ON

packages=(cmake make g++ pkg-config libtrilinos-kokkos-dev libtrilinos-kokkos-kernels-dev
  liblapack-dev libblas-dev libgtest-dev libbenchmark-dev libeigen3-dev
  libopenmpi-dev openmpi-bin python3)
[ "$mode" = test ] && [[ " $configs " == *" kokkos5 "* ]] && packages+=(debootstrap)

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

has_config() { [[ " $configs " == *" $1 "* ]]; }

# configure DIR [cmake args...]
configure() {
  local dir=$1
  shift
  cmake -S "$top" -B "$dir" -DBatchol_ENABLE_WERROR=$werror "$@"
}

run_tests() {
  ctest --test-dir "$1" --output-on-failure --no-tests=error -j "$jobs" --timeout 900
}

# Seconds each part took, printed as it ends and again at the end.
times=()
timed() {
  local name=$1 start=$SECONDS
  shift
  echo "== $name"
  "$@"
  times+=("$name $((SECONDS - start)) s")
  echo "== ${times[-1]}"
}

# The whole suite, Release, with the system's Kokkos.
release() {
  configure "$top/build/test" -DCMAKE_BUILD_TYPE=Release -DBatchol_ENABLE_TESTS=ON \
    -DBatchol_ENABLE_EXAMPLES=ON -DBatchol_ENABLE_BENCHMARKS=ON -DBatchol_ENABLE_SANITIZERS=OFF
  cmake --build "$top/build/test" -j "$jobs"
  run_tests "$top/build/test"
}

# The unit tests under AddressSanitizer + UBSan (at -O1, with debug
# information: see cmake/BatcholFlags.cmake). The examples and benchmarks
# are built and run in the other configurations.
asan() {
  configure "$top/build/asan" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBatchol_ENABLE_TESTS=ON \
    -DBatchol_ENABLE_SANITIZERS=ON -DBatchol_ENABLE_BENCHMARKS=OFF -DBatchol_ENABLE_EXAMPLES=OFF
  cmake --build "$top/build/asan" -j "$jobs"
  run_tests "$top/build/asan"
}

upstream_kokkos() {
  configure "$top/build/kokkos" -DCMAKE_BUILD_TYPE=Release -DKokkos_ROOT="$BATCHOL_KOKKOS_ROOT" \
    -DBatchol_ENABLE_TESTS=ON -DBatchol_ENABLE_EXAMPLES=ON -DBatchol_ENABLE_BENCHMARKS=OFF \
    -DBatchol_ENABLE_SANITIZERS=OFF
  cmake --build "$top/build/kokkos" -j "$jobs"
  run_tests "$top/build/kokkos"
}

# One nvcc per precision, side by side: each is a single-threaded compile
# of minutes.
nvcc_check() {
  local check=(nvcc -arch=sm_90 -std=c++17 -I"$top/src" -c "$top/unit_tests/cuda/compile_check.cu"
    -o /dev/null)
  "${check[@]}" -DBATCHOL_CHECK_FLOAT=0 &
  local double_pid=$!
  local float_status=0 double_status=0
  "${check[@]}" -DBATCHOL_CHECK_DOUBLE=0 || float_status=$?
  wait "$double_pid" || double_status=$?
  [ "$float_status" -eq 0 ] && [ "$double_status" -eq 0 ]
}

install_missing
case "$mode" in
  demo)
    configure "$top/build/demo" -DCMAKE_BUILD_TYPE=Release -DBatchol_ENABLE_TESTS=OFF \
      -DBatchol_ENABLE_EXAMPLES=OFF -DBatchol_ENABLE_BENCHMARKS=ON -DBatchol_ENABLE_SANITIZERS=OFF
    cmake --build "$top/build/demo" -j "$jobs" --target batchol_demo
    "$top/build/demo/perf_tests/batchol_demo"
    ;;
  test)
    # The sid root is downloaded while the first configuration builds.
    sid_log="$top/build/sid-prepare.log"
    sid_pid=""
    if has_config kokkos5; then
      mkdir -p "$top/build"
      bash "$top/cmake/sid_root.sh" prepare >"$sid_log" 2>&1 &
      sid_pid=$!
      # Stopped if a configuration fails first (the next run removes the
      # incomplete root and starts again).
      trap 'kill "$sid_pid" 2>/dev/null || true' EXIT
    fi
    has_config release && timed "release: system Kokkos, Release" release
    has_config asan && timed "asan: AddressSanitizer + UBSan" asan
    if [ -n "${BATCHOL_KOKKOS_ROOT:-}" ]; then
      timed "upstream Kokkos in BATCHOL_KOKKOS_ROOT=$BATCHOL_KOKKOS_ROOT" upstream_kokkos
    fi
    if has_config kokkos5; then
      start=$SECONDS
      if ! wait "$sid_pid"; then
        cat "$sid_log"
        echo "== the Debian sid root could not be prepared (above)" >&2
        exit 1
      fi
      trap - EXIT
      times+=("kokkos5: $(tail -n 1 "$sid_log"), waited $((SECONDS - start)) s for it")
      timed "kokkos5: Kokkos 5 OpenMP (2 threads) in a Debian sid root" \
        bash "$top/cmake/sid_root.sh" test
    fi
    if has_config nvcc; then
      if command -v nvcc >/dev/null 2>&1; then
        timed "nvcc: the CUDA kernels compiled by nvcc (sm_90, no GPU needed)" nvcc_check
      else
        echo "== nvcc not found: skipping the CUDA compile check"
      fi
    fi
    printf '== %s\n' "${times[@]}"
    ;;
  *)
    echo "usage: bash cmake/setup.sh demo|test" >&2
    exit 2
    ;;
esac
