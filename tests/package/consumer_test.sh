#!/usr/bin/env bash
# consumer_test.sh BUILD_DIR SOURCE_DIR SCRATCH: installs the multisplit
# package from BUILD_DIR into SCRATCH/prefix, then configures and builds
# tests/package (find_package(multisplit) -> multisplit::multisplit) around
# multisplit/examples/multisplit_example.cu and block_multisplit_example.cu
# (a user's kernel with multisplit::BlockMultisplit). Fails if any step fails. Builds
# only: running the example needs a GPU (the GPU tests cover the library).
set -euo pipefail
build=$1 src=$2 scratch=$3
rm -rf "$scratch" && mkdir -p "$scratch"
cmake --install "$build" --prefix "$scratch/prefix" > "$scratch/install.log"
test -f "$scratch/prefix/include/multisplit/multisplit.cuh"
arch=$(sed -n 's/^CMAKE_CUDA_ARCHITECTURES:[A-Z]*=//p' "$build/CMakeCache.txt")
cmake -S "$src/tests/package" -B "$scratch/consumer" -G Ninja -DCMAKE_PREFIX_PATH="$scratch/prefix" \
  -DCMAKE_CUDA_ARCHITECTURES="${arch:-90}" -DMULTISPLIT_EXAMPLE="$src/multisplit/examples/multisplit_example.cu" \
  -DMULTISPLIT_BLOCK_EXAMPLE="$src/multisplit/examples/block_multisplit_example.cu" \
  > "$scratch/configure.log"
cmake --build "$scratch/consumer" > "$scratch/build.log"
test -x "$scratch/consumer/multisplit_consumer"
test -x "$scratch/consumer/multisplit_block_consumer"
test -f "$scratch/prefix/include/multisplit/block_multisplit.cuh"
test -f "$scratch/prefix/include/multisplit/warp_multisplit.cuh"
echo "installed multisplit package found and both examples (split_pairs; a kernel with BlockMultisplit) built against it"
