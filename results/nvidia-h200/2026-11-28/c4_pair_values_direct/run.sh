#!/usr/bin/env bash
# Call 4: pair thread-counter tile with values read from global memory
# (one reorder buffer, three blocks per SM): v_dv (loaded when the tile is
# ranked), v_dv2 (loaded after the ranking), against ms_fin.
set -uo pipefail
R=$PWD; O=/tmp/o; mkdir -p $O
save() { tar czf $OUT/c4.tgz -C $O .; }
tar xJf .carry/c4bins.tar.xz -C "$R"
V=$R/var
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
A="--functors delta identity --methods block --buckets 2 3 4 8 16 32 --kinds pairs --runs 10 --warmup 3"
for r in 1 2; do
  for b in ms_fin v_dv v_dv2; do
    timeout 100 $V/$b --n-log2 28 $A > $O/${b}_28_$r.txt 2>&1; echo "$b 28 r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt
  done
done
for b in ms_fin v_dv v_dv2; do
  timeout 100 $V/$b --n-log2 25 $A > $O/${b}_25_1.txt 2>&1; echo "$b 25 rc $? at ${SECONDS}s" | tee -a $O/summary.txt
done
save
S="--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section InstructionStats"
for b in v_dv v_dv2; do
  timeout 100 ncu -k 'regex:postscan' $S --launch-count 2 -o $O/rep_$b $V/$b --n-log2 26 --buckets 8 --kinds pairs --functors delta --methods block --runs 1 --warmup 0 > $O/ncu_$b.log 2>&1
  ncu -i $O/rep_$b.ncu-rep --page details --csv > $O/details_$b.csv 2>/dev/null; rm -f $O/rep_$b.ncu-rep
done
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
