#!/usr/bin/env bash
# consumer_test.sh BUILD_DIR SOURCE_DIR SCRATCH: installs the multisplit
# package from BUILD_DIR into SCRATCH/prefix, then configures and builds
# tests/package (find_package(multisplit) -> multisplit::multisplit) around
# multisplit/examples/multisplit_example.cu. Fails if any step fails. Builds
# only: running the example needs a GPU (the GPU tests cover the library).
set -euo pipefail
build=$1 src=$2 scratch=$3
rm -rf "$scratch" && mkdir -p "$scratch"
cmake --install "$build" --prefix "$scratch/prefix" > "$scratch/install.log"
test -f "$scratch/prefix/include/multisplit/multisplit.cuh"
arch=$(sed -n 's/^CMAKE_CUDA_ARCHITECTURES:[A-Z]*=//p' "$build/CMakeCache.txt")
cmake -S "$src/tests/package" -B "$scratch/consumer" -G Ninja -DCMAKE_PREFIX_PATH="$scratch/prefix" \
  -DCMAKE_CUDA_ARCHITECTURES="${arch:-90}" -DMULTISPLIT_EXAMPLE="$src/multisplit/examples/multisplit_example.cu" \
  > "$scratch/configure.log"
cmake --build "$scratch/consumer" > "$scratch/build.log"
test -x "$scratch/consumer/multisplit_consumer"
echo "installed multisplit package found and the example built against it"
