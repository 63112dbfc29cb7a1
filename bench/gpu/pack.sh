#!/usr/bin/env bash
# Packs what a GPU session runs into one folder, for a GPU host that has the driver but none of the
# build's libraries (the lent machines: Ubuntu 24.04, nothing to install from):
#   bench/gpu/pack.sh BUILD_DIR DEST
# DEST/build holds dumpcmp, dumpcmp_gen, dumpcmp_gpu_floors and test_parity_cuda where
# bench/gpu/run.sh looks for them (stripped), DEST/python the dumpcmp package's ctypes part
# (dumpcmp.resident and its library; the host's Python need not be the build's), DEST/lib the
# shared libraries they need beyond glibc, libstdc++ and libgomp (a newer host's own serve). On
# the GPU host, from the repository root, bench/gpu/measure.sh runs everything:
#   bash bench/gpu/measure.sh NEW_DEST [OLD_DEST] OUT_DIR
set -euo pipefail
build=$1 dest=$2
bins=(cli/dumpcmp bench/dumpcmp_gen bench/dumpcmp_gpu_floors tests/parity/test_parity_cuda)
mkdir -p "$dest/lib"
for b in "${bins[@]}"; do
  [ -x "$build/$b" ] || { echo "pack.sh: $build/$b is missing (a build with the cuda backend?)" >&2; exit 1; }
  mkdir -p "$dest/build/$(dirname "$b")"
  cp "$build/$b" "$dest/build/$b"
  strip "$dest/build/$b"
  for lib in $(ldd "$build/$b" | awk '$3 ~ /^\// {print $3}'); do
    [[ "$lib" =~ /(libc|libm|libstdc\+\+|libgcc_s|libgomp|libpthread|libdl|librt)\.so ]] && continue
    [ -e "$dest/lib/$(basename "$lib")" ] || cp -L "$lib" "$dest/lib/"
  done
done
# The ctypes part of the Python package, where a build has it.
if [ -e "$build/python/dumpcmp/libdumpcmp_resident.so" ]; then
  mkdir -p "$dest/python/dumpcmp"
  cp "$build"/python/dumpcmp/{__init__.py,resident.py,live.py,libdumpcmp_resident.so} "$dest/python/dumpcmp/"
  strip "$dest/python/dumpcmp/libdumpcmp_resident.so"
  for lib in $(ldd "$build/python/dumpcmp/libdumpcmp_resident.so" | awk '$3 ~ /^\// {print $3}'); do
    [[ "$lib" =~ /(libc|libm|libstdc\+\+|libgcc_s|libgomp|libpthread|libdl|librt)\.so ]] && continue
    [ -e "$dest/lib/$(basename "$lib")" ] || cp -L "$lib" "$dest/lib/"
  done
fi
du -sh "$dest"
