#!/usr/bin/env bash
# Call 6: radix sort digit width and tile by n (sort_bench at 89e9b69).
set -uo pipefail
R=$PWD; O=/tmp/o; mkdir -p $O
tar xJf .carry/c6bins.tar.xz -C "$R"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
timeout 300 var/sort_bench --n-log2 20 22 23 24 25 26 27 28 --radix-bits 6 7 8 --runs 10 --json $O/sort_by_n.json > $O/sort_by_n.txt 2>&1; echo "sort rc $? at ${SECONDS}s"
tar czf $OUT/c6.tgz -C $O .
