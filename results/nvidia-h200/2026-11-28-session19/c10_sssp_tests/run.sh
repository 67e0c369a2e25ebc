#!/usr/bin/env bash
# Call 10: the SSSP GPU tests whose strategies split through the library
# (bucket-multisplit calls split_keys every split), at 6e26f9c.
set -uo pipefail
R=$PWD; O=/tmp/o10; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c10.tgz -C $O .; }
tar xJf .carry/c10bins.tar.xz -C "$R"
V=$R/var
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
for t in test_sssp_random_graphs test_sssp_batch; do
  timeout 240 $V/$t > $O/$t.txt 2>&1; rc=$?
  echo "$t rc $rc at ${SECONDS}s: $(grep -E '^\[  (PASSED|FAILED)  \]|tests? ran' $O/$t.txt | tr '\n' ' ') skipped: $(grep -c '^\[  SKIPPED' $O/$t.txt)" | tee -a $O/summary.txt
  save
done
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
