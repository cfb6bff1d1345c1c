#!/usr/bin/env bash
# Batchol against Debian sid's Kokkos 5 (OpenMP backend, g++ and CMake of sid),
# in a Debian sid root built next to the host system: Debian 12 cannot install
# sid's binaries, but debootstrap can build a root from Debian's registry.
#   bash cmake/sid_root.sh prepare   build the root (or reuse a complete one)
#   bash cmake/sid_root.sh test      copy the working tree in, build and run
#                                    every test, example and the benchmark
#                                    smoke test with 2 OpenMP threads
# Needs root (or sudo) and debootstrap. Environment:
#   BATCHOL_SID_ROOT   where the root lives (default /var/tmp/batchol-sid, ~1 GB)
#   BATCHOL_SID_MIRROR the Debian mirror (default http://deb.debian.org/debian)
#   BATCHOL_JOBS       parallel build jobs (default: nproc)
#   BATCHOL_WERROR     1: warnings are errors
set -euo pipefail

mode=${1:?usage: bash cmake/sid_root.sh prepare|test}
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
root=${BATCHOL_SID_ROOT:-/var/tmp/batchol-sid}
mirror=${BATCHOL_SID_MIRROR:-http://deb.debian.org/debian}
jobs=${BATCHOL_JOBS:-$(nproc)}
packages=(g++ cmake make libkokkos-dev liblapack-dev libblas-dev libgtest-dev libbenchmark-dev)
# Written when the root is complete: its content is the package list.
ready=$root/.batchol-sid-ready
# Written before debootstrap starts: a root with it but without $ready is an
# interrupted one of ours and may be deleted.
started=$root/.batchol-sid-started

sudo=""
[ "$(id -u)" -ne 0 ] && sudo=sudo

in_root() {
  $sudo chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
    LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}

unmount_proc() {
  if mountpoint -q "$root/proc"; then $sudo umount "$root/proc"; fi
}

prepare() {
  if [ -f "$ready" ] && [ "$(cat "$ready")" = "${packages[*]}" ]; then
    echo "== sid root: reusing $root"
  else
    if [ -e "$root" ] && [ ! -f "$started" ] && [ -n "$(ls -A "$root")" ]; then
      echo "sid root: $root exists and is not one of ours; set BATCHOL_SID_ROOT" >&2
      exit 1
    fi
    if [ -f "$started" ] && [ ! -f "$ready" ]; then
      echo "== sid root: removing the incomplete $root"
      unmount_proc
      $sudo rm -rf --one-file-system "$root"
    fi
    if [ ! -f "$started" ]; then
      echo "== sid root: debootstrap into $root"
      $sudo mkdir -p "$root"
      $sudo touch "$started"
      $sudo debootstrap --variant=minbase sid "$root" "$mirror"
    fi
    # The registry's sid index may be weeks old: its Valid-Until has passed.
    in_root apt-get -q -o Acquire::Check-Valid-Until=false update
    in_root apt-get install -y -q --no-install-recommends "${packages[@]}"
    in_root apt-get clean
    echo "${packages[*]}" | $sudo tee "$ready" >/dev/null
  fi
  # Debian's libkokkos-dev 5.2.2-2 exports Kokkos::kokkosalgorithms and
  # Kokkos::kokkossimd as the static archives libkokkosalgorithms.a and
  # libkokkossimd.a, which it does not ship (their code is header-only or in
  # libkokkoscore): find_package(Kokkos) fails on the missing files. Empty
  # archives of those names stand in for them.
  local libdir
  # shellcheck disable=SC2016  # expanded inside the root
  libdir=$(in_root sh -c 'dirname "$(readlink -f /usr/lib/*/libkokkoscore.so)"')
  for lib in kokkosalgorithms kokkossimd; do
    if [ ! -e "$root$libdir/lib$lib.a" ]; then
      $sudo ar rc "$root$libdir/lib$lib.a"
    fi
  done
}

# The working tree's files (tracked and untracked, not ignored), else the whole
# folder without build outputs, into $root/batchol/src.
copy_sources() {
  $sudo rm -rf "$root/batchol/src"
  $sudo mkdir -p "$root/batchol/src"
  if git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    (cd "$top" && git ls-files -z -co --exclude-standard |
      while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
      tar --null -T - -cf -) | $sudo tar -xf - -C "$root/batchol/src"
  else
    (cd "$top" && tar --exclude='./build*' --exclude=./.deps -cf - .) |
      $sudo tar -xf - -C "$root/batchol/src"
  fi
}

run_tests() {
  [ -f "$ready" ] || prepare
  copy_sources
  trap unmount_proc EXIT
  mountpoint -q "$root/proc" || $sudo mount -t proc proc "$root/proc"
  local werror=OFF
  [ "${BATCHOL_WERROR:-0}" = 1 ] && werror=ON
  # Kokkos 5 needs C++20. ctest runs tests side by side, 2 threads each, on a
  # machine shared with other work: unbound threads that sleep at a barrier
  # instead of spinning (three tests side by side on 2 cores took 8-10 s each
  # with spinning, 1.5-2.4 s passive; the suite 16 minutes instead of 1).
  in_root OMP_NUM_THREADS=2 OMP_PROC_BIND=false OMP_WAIT_POLICY=passive \
    BATCHOL_GIT_REVISION=sid-root sh -ec "
    cmake -S /batchol/src -B /batchol/build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_STANDARD=20 \
      -DBatchol_ENABLE_TESTS=ON -DBatchol_ENABLE_EXAMPLES=ON -DBatchol_ENABLE_BENCHMARKS=ON \
      -DBatchol_ENABLE_SANITIZERS=OFF -DBatchol_ENABLE_WERROR=$werror
    cmake --build /batchol/build -j $jobs
    ctest --test-dir /batchol/build --output-on-failure --no-tests=error -j $jobs --timeout 900"
}

case "$mode" in
  prepare)
    prepare
    echo "sid root prepared in $SECONDS s"
    ;;
  test) run_tests ;;
  *)
    echo "usage: bash cmake/sid_root.sh prepare|test" >&2
    exit 2
    ;;
esac
