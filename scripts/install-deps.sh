#!/usr/bin/env bash
# Installs dumpcmp's build and test dependencies from Debian packages. The CUDA toolkit (nvcc, CCCL)
# is used when already present and is never installed here.
set -euo pipefail
packages=(
  cmake ninja-build g++ pkg-config clang-format
  clang libclang-rt-dev libomp-dev  # scripts/fuzz.sh: libFuzzer with ASan+UBSan (docs/reliability.md)
  libcli11-dev libgtest-dev libgmock-dev libprotobuf-dev protobuf-compiler
  libsimdjson-dev libhdf5-dev
  libyaml-cpp-dev  # msprobe's mapping files (compare -dm; host/probe/probe_mapping.cpp)
  zlib1g-dev  # the CRC32 of the zip records convert -t pt writes (host/convert/torch_file.cpp)
  libhwy-dev  # Highway: the CPU kernels for every SIMD target, chosen at run time (host/simd/)
  libopenmpi-dev openmpi-bin  # scale-out over MPI ranks (docs/scale-out.md); tests run mpirun on loopback
  hdf5-tools chromium  # tests: h5dump reads --hdf5 files back; headless Chromium opens --html
  python3-venv  # scripts/python-env.sh: the project's .venv for Python test tools
  gdb  # tests: truncates a dump while dumpcmp has it mapped (test_shrink_while_read.sh)
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
