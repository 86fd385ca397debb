#!/usr/bin/env bash
# Nsight Compute profiles behind the explanations in docs/memory-figures.md (issue 10's bank conflicts)
# and docs/measurements/2026-12-02-perf-model-validation.md (issue 15's matmul misses). On the GPU machine, with ncu_compare packed by ../shared/gpu/pack.sh into DEST:
#   bash scripts/ncu_profiles.sh DEST
# Writes $OUT/ncu/*.details.csv (every section's figures) and *.sass.csv (the source page: each SASS
# instruction's executions and shared wavefronts, ideal and excessive), and $OUT/ncu.tgz.
set -u
d=$(cd "${1:?usage: ncu_profiles.sh DEST}" && pwd)
R=$OUT/ncu; mkdir -p $R
N=/usr/local/cuda/bin/ncu
keep() { tar -C $OUT -czf $OUT/ncu.tgz ncu; }
# prof NAME KERNEL_REGEX SECTION... -- ncu_compare --run ARGS
prof() {
  local name=$1 rx=$2; shift 2
  local secs=()
  while [ "$1" != "--" ]; do secs+=(--section "$1"); shift; done
  shift
  $N "${secs[@]}" --kernel-name-base demangled -k "regex:$rx" --launch-count 1 -f -o $R/$name \
    bash $d/run.sh ncu_compare --run "$@" > $R/$name.log 2>&1
  $N -i $R/$name.ncu-rep --page details --csv > $R/$name.details.csv 2>&1
}
# Shared-memory wavefronts per instruction: double_buffer's float4 loads and tiled TILE=8.
prof db 'MatmulDoubleBufferBody' SourceCounters MemoryWorkloadAnalysis_Tables -- matmul matmul_double_buffer 256 256 128 256
$N -i $R/db.ncu-rep --page source --csv --print-source sass > $R/db.sass.csv 2>&1
prof t8 'MatmulTiledBody<[^0-9]*8[^0-9]' SourceCounters MemoryWorkloadAnalysis_Tables -- matmul matmul_tiled 8 256 128 256
$N -i $R/t8.ncu-rep --page source --csv --print-source sass > $R/t8.sass.csv 2>&1
keep
# What bounds each matmul variant: issue rate, warp stalls, occupancy, cache hit rates.
S="SpeedOfLight ComputeWorkloadAnalysis MemoryWorkloadAnalysis WarpStateStats SchedulerStats Occupancy LaunchStats InstructionStats"
for n in 1024 2048 4096; do
  prof naive$n '[^A-Za-z0-9_]MatmulNaive[^A-Za-z0-9_]' $S -- matmul matmul_naive 32x8 $n $n $n; keep
done
prof tiled4096 'MatmulTiledBody<[^0-9]*16[^0-9]' $S -- matmul matmul_tiled 16 4096 4096 4096; keep
for v in blocktile_1d:MatmulBlocktile1dBody:32x8 blocktile_2d:MatmulBlocktile2dBody:16x16 \
         blocktile_vec:MatmulBlocktileVecBody:16x16 warptile:MatmulWarptileBody:128 double_buffer:MatmulDoubleBufferBody:256; do
  IFS=: read -r n b blk <<< "$v"
  for s in 4096 1024; do
    prof $n$s "[^A-Za-z0-9_]$b[^A-Za-z0-9_]" $S -- matmul matmul_$n $blk $s $s $s; keep
  done
done
rm -f $R/*.ncu-rep
keep
