#!/usr/bin/env bash
# Call 6: ms_c2 = ms_c (call 5's candidate) without the dead whole-tile path
# in the interleaved pair post-scan (21704 -> 11896 SASS instructions),
# against ms_c and ms_new (6fde04c); call 5 saw pairs at 100-128 lose 20%
# with fewer instructions. ncu stall reasons of the pair post-scan at 128.
set -uo pipefail
R=$PWD; O=/tmp/o; mkdir -p $O
save() { tar czf $OUT/c6.tgz -C $O .; }
tar xJf .carry/c6bins.tar.xz -C "$R"
V=$R/var
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
A="--functors delta identity --methods block --buckets 8 64 100 128 200 256 361 512 1024 --kinds keys pairs --runs 10 --warmup 3"
for r in 1 2; do
  for b in ms_new ms_c ms_c2; do
    timeout 100 $V/$b --n-log2 28 $A > $O/${b}_28_$r.txt 2>&1; echo "$b 28 r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt
  done
  save
done
for b in ms_c2 ms_c ms_new; do
  timeout 100 $V/$b --n-log2 25 $A > $O/${b}_25_1.txt 2>&1; echo "$b 25 rc $? at ${SECONDS}s" | tee -a $O/summary.txt
done
save
M="--metrics gpu__time_duration.sum,smsp__inst_executed.sum,smsp__pcsamp_warps_issue_stalled_no_instructions,smsp__pcsamp_warps_issue_stalled_branch_resolving,smsp__pcsamp_sample_count,smsp__pcsamp_warps_issue_stalled_short_scoreboard,smsp__pcsamp_warps_issue_stalled_barrier"
for b in ms_new ms_c ms_c2; do
  timeout 100 ncu -k 'regex:block_postscan' --section WarpStateStats $M --csv $V/$b --n-log2 26 --buckets 128 --kinds pairs --functors delta --methods block --runs 1 --warmup 0 > $O/ncu_$b.csv 2>$O/ncu_$b.err
  echo "ncu $b rc $? at ${SECONDS}s" | tee -a $O/summary.txt
done
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
