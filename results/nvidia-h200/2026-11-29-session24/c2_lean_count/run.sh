#!/usr/bin/env bash
# Session 24, call 2: a leaner pre-scan count (ms_lean2: one shared red per
# key, no warp vote for the all-in-one-bucket case, the histogram's shared
# address computed once; ms_lz: plus the tile-counting flush zeroing what it
# stores, one barrier fewer per group) and key tiles in order too (ms_kio =
# ms_lz + the tile counter for keys). ms_base2 = main + the bench's --keys
# option. ncu times of the pre-scans, the constant-key case, whole splits.
# Builds: main + variants.patch with -DMS_LEAN=2 (lean2), -DMS_LEAN=2
# -DMS_ZF=1 (lz), -DMS_LEAN=2 -DMS_ZF=1 -DMS_KIO=1 (kio), no flags (base2).
# (The two "--keys constant" ncu lines failed on a quoting slip in the
# script; the constant-key whole splits below ran.)
set -uo pipefail
R=$PWD; O=/tmp/o24c2; rm -rf $O; mkdir -p $O
save() { tar czf $OUT/c2.tgz -C $O .; }
V=$R/var; mkdir -p $V; XZ_OPT=-T8 tar xJf .carry/c2.tar.xz -C $V
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/device.txt
MET=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active
prof() { local b=$1 kind=$2 m=$3 f=$4; shift 4
  timeout 90 ncu --clock-control none -k "regex:counting|Histogram" --metrics $MET --csv $V/$b --n-log2 28 --buckets $m --kinds $kind --functors $f --methods block --runs 1 --warmup 1 "$@" > $O/ncu_${b}_${kind}_${m}_$f$*.csv 2>&1
  echo "ncu $b $kind $m $f $* rc $? at ${SECONDS}s" | tee -a $O/summary.txt; }
for b in ms_base2 ms_lean2 ms_lz; do prof $b keys 256 delta; prof $b pairs 128 delta; prof $b keys 64 delta; prof $b keys 256 identity; done
for b in ms_base2 ms_lz; do prof $b keys 256 delta --keys constant; done
save
run_ms() { local b=$1 n=$2 r=$3; shift 3
  timeout 90 $V/$b --n-log2 $n "$@" > $O/${b}_${n}_$r.txt 2>&1; echo "$b $n r$r rc $? at ${SECONDS}s" | tee -a $O/summary.txt; }
for b in ms_base2 ms_lz; do run_ms $b 28 const --keys constant --functors delta --methods block --buckets 40 64 128 256 512 --kinds keys pairs --runs 5 --warmup 2; done
save
A="--functors delta identity --methods block cub --buckets 40 64 100 128 256 361 512 768 --kinds keys pairs --runs 10 --warmup 3"
for r in 1 2; do for b in ms_main ms_lz ms_kio; do run_ms $b 28 $r $A; done; save; done
for b in ms_main ms_lz ms_kio; do run_ms $b 25 1 $A; done
echo "done at ${SECONDS}s" | tee -a $O/summary.txt; save
