#!/usr/bin/env bash
# Call 11: the delta-pair regression at 200-361 buckets (2^28), with ncu
# not locking clocks: kernel time, SM and DRAM clock rates, DRAM bytes,
# for main before the session (ms_base, a04c36a), the divide alone (ms_new,
# 6fde04c) and the final build (ms_fin, 6e26f9c); then the same with clocks
# locked, and nvidia-smi's clocks and power during a plain bench run.
set -uo pipefail
R=$PWD; O=/tmp/o11; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c11.tgz -C $O .; }
tar xJf .carry/c11bins.tar.xz -C "$R"
V=$R/var
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader | tee $O/device.txt
M="--metrics gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,dram__cycles_elapsed.avg.per_second,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_write.sum"
for cc in none base; do
  for b in ms_base ms_new ms_fin; do
    timeout 60 ncu --clock-control $cc -k 'regex:postscan|counting' $M --csv $V/$b --n-log2 28 --buckets 361 --kinds pairs --functors delta --methods block --runs 3 --warmup 1 > $O/ncu_${cc}_$b.csv 2>$O/ncu_${cc}_$b.err
    echo "ncu $cc $b rc $? at ${SECONDS}s" | tee -a $O/summary.txt
  done
  save
done
for b in ms_base ms_fin; do
  nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,clocks_throttle_reasons.active --format=csv,noheader -lms 100 > $O/smi_$b.csv &
  SMI=$!
  timeout 60 $V/$b --n-log2 28 --buckets 361 --kinds pairs --functors delta --methods block --runs 20 --warmup 3 > $O/${b}_bench.txt 2>&1
  kill $SMI; echo "smi $b at ${SECONDS}s" | tee -a $O/summary.txt
done
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
