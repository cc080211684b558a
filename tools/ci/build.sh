#!/usr/bin/env bash
# Configures and builds one flavour of grundy into build/<flavour>.
#   tools/ci/build.sh release   # the default: Release, -Werror
#   tools/ci/build.sh asan      # ASan + UBSan, every finding fatal (tests only)
#   tools/ci/build.sh tsan      # ThreadSanitizer into build/tsan/grundy (tsan.sh builds its oneTBB first)
#   tools/ci/build.sh portable  # Release for any x86-64 (no AVX2), to carry elsewhere
#   tools/ci/build.sh profile   # Release optimisation + symbols + frame pointers, for perf and callgrind
set -euo pipefail
cd "$(dirname "$0")/../.."
flavour=${1:-release}
# Sanitizer builds at -O1 with line tables only: compiling them is most of
# CI's time (docs/TUNING.md#ci-time).
sanitizer_opt="-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG"
dir=build/$flavour
case "$flavour" in
  release) flags=(-DCMAKE_BUILD_TYPE=Release -DGRUNDY_MPI=ON) ;;  # grundy-mpi too, and its tests (ctest -L mpi)
  asan) flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "$sanitizer_opt"
               -DGRUNDY_SANITIZE=address,undefined -DGRUNDY_BUILD_BENCH=OFF -DGRUNDY_MPI=ON) ;;
  tsan) dir=build/tsan/grundy
        flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "$sanitizer_opt" -DGRUNDY_SANITIZE=thread -DGRUNDY_BUILD_BENCH=OFF
               -DCMAKE_PREFIX_PATH="$PWD/build/tsan/tbb-install") ;;
  portable) flags=(-DCMAKE_BUILD_TYPE=Release -DGRUNDY_ARCH=x86-64) ;;  # runs on any x86-64
  profile) flags=(-DCMAKE_BUILD_TYPE=Profile -DGRUNDY_BUILD_TESTS=OFF) ;;
  *) echo "build.sh: unknown flavour '$flavour' (release, asan, tsan, portable, profile)" >&2; exit 2 ;;
esac
cmake -S . -B "$dir" -G Ninja -DGRUNDY_WERROR=ON "${flags[@]}" >/dev/null
cmake --build "$dir" -- --quiet
