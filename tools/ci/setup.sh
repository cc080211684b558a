#!/usr/bin/env bash
# Installs the Debian packages that grundy's build, tests and benchmarks need.
# Idempotent: when every package is already present it prints nothing and
# touches nothing, so it is cheap to run before every build.
#
#   tools/ci/setup.sh            # build + test dependencies
#   tools/ci/setup.sh --extra    # also the tools for plots and process benchmarks
set -euo pipefail

# Build and tests, plus what the test suite's fuzzing (clang's libFuzzer) and
# ThreadSanitizer runs (Debian's oneTBB source, unpacked by dpkg-source) need.
packages=(git  # the build names its commit (grundy -V, reports)
          cmake g++ ninja-build libtbb-dev libboost-graph-dev libcli11-dev
          libbenchmark-dev libgtest-dev clang-14 libclang-rt-14-dev dpkg-dev
          time  # /usr/bin/time: a test reads a piped solve's peak memory
          libbenchmark-tools python3-scipy  # a test runs compare.py on `bench --format gbench`
          chromium  # a test renders bench's report.html headless
          zsh  # a test checks the generated zsh completion's syntax
          libopenmpi-dev openmpi-bin  # grundy-mpi and its mpirun tests
          pkg-config  # a test builds the C++ example against the installed grundy.pc
          pybind11-dev python3-dev python3-numpy python3-pytest  # the Python module and its tests
          python3-networkx python3-matplotlib)  # from_networkx's test and the Python example
if [[ "${1:-}" == "--extra" ]]; then
  packages+=(hyperfine gnuplot-nox valgrind)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "setup: installing ${missing[*]}" >&2
sudo=""
[[ $(id -u) -ne 0 ]] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >/dev/null
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
