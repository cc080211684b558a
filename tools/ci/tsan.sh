#!/usr/bin/env bash
# The test suite under ThreadSanitizer, against a oneTBB built with TSan.
#
# Debian's libtbb is not instrumented (TSan then reports races inside the
# scheduler that are not there), so this builds the same version from
# Debian's source package with TBB_SANITIZE=thread. The machines list no
# deb-src lines: a private copy of the machine's own deb822 source files,
# with "Types: deb deb-src", is handed to apt-get through -o options, so no
# package host is written anywhere in this repository.
set -euo pipefail
cd "$(dirname "$0")/../.."
tools/ci/setup.sh
root=$PWD/build/tsan
tbb_prefix=$root/tbb-install
if [[ ! -f $tbb_prefix/lib/cmake/TBB/TBBConfig.cmake ]]; then
  apt_dir=$root/apt
  mkdir -p "$apt_dir/sources.list.d" "$apt_dir/lists/partial" "$root/src"
  for f in /etc/apt/sources.list.d/*.sources; do
    [[ -e $f ]] || continue
    sed -E 's/^Types:.*/Types: deb deb-src/' "$f" >"$apt_dir/sources.list.d/$(basename "$f")"
  done
  # One-line sources (/etc/apt/sources.list) get a deb-src twin per deb line.
  if [[ -f /etc/apt/sources.list ]]; then
    sed -nE 's/^deb (.*)/deb \1\ndeb-src \1/p' /etc/apt/sources.list >"$apt_dir/sources.list"
  else
    : >"$apt_dir/sources.list"
  fi
  apt_opts=(-o "Dir::Etc::sourcelist=$apt_dir/sources.list" -o "Dir::Etc::sourceparts=$apt_dir/sources.list.d"
            -o "Dir::State::lists=$apt_dir/lists")
  apt-get "${apt_opts[@]}" update -qq >/dev/null
  version=$(dpkg-query -W -f='${Version}' libtbb-dev)
  (cd "$root/src" && apt-get "${apt_opts[@]}" source -qq "onetbb=$version" >/dev/null 2>&1)
  src=$(find "$root/src" -maxdepth 1 -mindepth 1 -type d -name 'onetbb-*' | head -n 1)
  echo "== tsan: building oneTBB $version with TBB_SANITIZE=thread" >&2
  cmake -S "$src" -B "$root/tbb-build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTBB_SANITIZE=thread \
    -DTBB_TEST=OFF -DTBB_EXAMPLES=OFF -DTBB_STRICT=OFF -DCMAKE_INSTALL_PREFIX="$tbb_prefix" >/dev/null
  cmake --build "$root/tbb-build" -- --quiet
  cmake --install "$root/tbb-build" >/dev/null
fi
echo "== tsan: build" >&2
tools/ci/build.sh tsan  # into $root/grundy, against $tbb_prefix
echo "== tsan: test" >&2
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
  ctest --test-dir "$root/grundy" --output-on-failure -j "$(nproc)" -LE long
