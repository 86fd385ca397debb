#!/usr/bin/env bash
# The compiled matmul kernels' issue figures behind the performance model (issue 15,
# docs/performance-model.md, app/models/compiled_issue.cpp): Nsight Compute at 1280^3 and 2048^3 (calibration sizes, kept out
# of the validation), under the sweeps' conditions: clocks not locked (--clock-control none, after
# 200 ms of every SM spinning) and caches not flushed between passes (--cache-control none).
# On the GPU machine, with ncu_compare packed by ../shared/gpu/pack.sh into DEST:
#   bash scripts/ncu_issue_profiles.sh DEST          (ONLY="tf32 tf32x3" ...: those kernels alone)
# Writes $OUT/issue/*.details.csv and $OUT/issue.tgz; then, here:
#   scripts/compiled_issue_table.py issue/
set -u
d=$(cd "${1:?usage: ncu_issue_profiles.sh DEST}" && pwd)
R=$OUT/issue; mkdir -p $R
N=/usr/local/cuda/bin/ncu
keep() { tar -C $OUT -czf $OUT/issue.tgz issue; }
S="--section SpeedOfLight --section SchedulerStats --section WarpStateStats --section InstructionStats --section LaunchStats --section Occupancy"
M="--metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__inst_executed_op_shared_ld.sum"
# file name : kernel (ncu_compare --run) : its body's name in the demangled kernel : block or TILE
for v in naive:matmul_naive:MatmulNaive:32x8 tiled8:matmul_tiled:MatmulTiledBody:8 \
         tiled16:matmul_tiled:MatmulTiledBody:16 tiled32:matmul_tiled:MatmulTiledBody:32 \
         blocktile_1d:matmul_blocktile_1d:MatmulBlocktile1dBody:32x8 blocktile_2d:matmul_blocktile_2d:MatmulBlocktile2dBody:16x16 \
         blocktile_vec:matmul_blocktile_vec:MatmulBlocktileVecBody:16x16 warptile:matmul_warptile:MatmulWarptileBody:128 \
         double_buffer:matmul_double_buffer:MatmulDoubleBufferBody:256 split_k:matmul_split_k:MatmulSplitKBody:1 \
         "tf32:matmul_tf32:MatmulTensorCoreBody<.unsigned int.1>:128" "tf32x3:matmul_3xtf32:MatmulTensorCoreBody<.unsigned int.3>:128" \
         "tf32_wgmma:matmul_tf32_wgmma:MatmulWgmmaBody<.unsigned int.1>:256" \
         "tf32x3_wgmma:matmul_3xtf32_wgmma:MatmulWgmmaBody<.unsigned int.3>:256"; do
  [ -n "${ONLY:-}" ] && [[ " $ONLY " != *" ${v%%:*} "* ]] && continue
  IFS=: read -r n kern b blk <<< "$v"
  for s in 1280 2048; do
    $N $S $M --clock-control none --cache-control none --kernel-name-base demangled \
      -k "regex:[^A-Za-z0-9_]$b[^A-Za-z0-9_]" --launch-count 1 -f -o $R/$n-$s \
      bash $d/run.sh ncu_compare --run --spin-up 200 matmul $kern $blk $s $s $s > $R/$n-$s.log 2>&1
    $N -i $R/$n-$s.ncu-rep --page details --csv > $R/$n-$s.details.csv 2>&1
    rm -f $R/$n-$s.ncu-rep; keep
  done
done
keep
