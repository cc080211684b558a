#!/usr/bin/env bash
# Packs the release grundy with every shared library it loads (the dynamic
# loader and libc included) into one folder, for a machine where nothing can
# be installed:
#   tools/measure/bundle.sh DIR        # then, there: DIR/grundy bench ...
# DIR/grundy is a wrapper that starts the binary through the carried loader,
# so the libraries are this machine's (Debian 12) whatever the target has, and
# that sets GRUNDY_COMMIT so reports name the commit the binary was built from.
# DIR/grundy-x86-64 is the same for a target without AVX2 (-march=x86-64).
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=${1:?usage: tools/measure/bundle.sh DIR}
tools/ci/build.sh release
tools/ci/build.sh portable
commit=$(git rev-parse --short=12 HEAD)
[[ -z $(git status --porcelain --untracked-files=no) ]] || commit+=-dirty
rm -rf "$dir"
mkdir -p "$dir/lib"
cp build/release/engine/grundy "$dir/grundy.bin"
cp build/portable/engine/grundy "$dir/grundy-x86-64.bin"
# ldd prints "name => path (addr)" for libraries and "path (addr)" for the loader.
ldd build/release/engine/grundy | awk '/=> \// {print $3} /^\t\// {print $1}' |
  while read -r lib; do cp -L "$lib" "$dir/lib/"; done
loader=$(basename "$(ldd build/release/engine/grundy | awk '/^\t\// {print $1}')")
for flavour in grundy grundy-x86-64; do
  cat >"$dir/$flavour" <<WRAP
#!/bin/sh
here=\$(cd "\$(dirname "\$0")" && pwd)
GRUNDY_COMMIT=\${GRUNDY_COMMIT:-$commit} exec "\$here/lib/$loader" --library-path "\$here/lib" "\$here/$flavour.bin" "\$@"
WRAP
  chmod +x "$dir/$flavour"
done
echo "bundle.sh: $dir holds grundy at $commit ($(du -sh "$dir" | cut -f1))"
