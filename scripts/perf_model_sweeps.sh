#!/usr/bin/env bash
# The performance model's validation and calibration sweeps (issue 15, docs/performance-model.md).
# On the GPU machine, with cudaviz-cli packed by ../shared/gpu/pack.sh into DEST and test images in
# DEST/img (img_WxH.png; any content: only the size matters):  bash scripts/perf_model_sweeps.sh DEST
# Every sweep times each shape in 3 interleaved rounds of 20 launches (the CLI's default --rounds)
# after spinning the GPU's clocks up. Writes $OUT/sweeps/*.json and $OUT/sweeps.tgz. Then, here, with
# the same sweeps predicted again by the current model (--backend cpu):  scripts/perf_model_validation.py --predicted PRED_DIR sweeps/*.json
d=$(cd "${1:?usage: perf_model_sweeps.sh DEST}" && pwd)
C="bash $d/run.sh cudaviz-cli sweep"
R=$OUT/sweeps; mkdir -p $R
keep() { tar -C $OUT -czf $OUT/sweeps.tgz sweeps; }
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv > $R/gpu.txt 2>&1
for s in 1920x1080 3840x2160 7680x4320 1537x1023 2560x1440 1000x777; do
  $C grayscale $d/img/img_$s.png --backend cuda --device H200 --json $R/gray_$s.json 2>&1 | tail -1; keep
done
# Reproducibility: the small sizes (5-9 us a launch, mostly launch cost) once more, to compare two
# measurements of the same shapes with each other (the ceiling of any model's rank correlation).
for s in 1920x1080 1537x1023 1000x777; do
  $C grayscale $d/img/img_$s.png --backend cuda --device H200 --json $R/again_gray_$s.json 2>&1 | tail -1; keep
done
$C grayscale $d/img/img_3840x2160.png --layout planar --backend cuda --device H200 --json $R/grayplanar_3840x2160.json 2>&1 | tail -1; keep
$C matmul --size 1024x1024x1024 --backend cuda --device H200 --json $R/matmul_1024.json 2>&1 | tail -1; keep
$C matmul --size 1537x769x1023 --backend cuda --device H200 --json $R/matmul_1537x769x1023.json 2>&1 | tail -1; keep
$C matmul --size 2048x2048x2048 --backend cuda --device H200 --json $R/matmul_2048.json 2>&1 | tail -1; keep
B=8x8,16x16,32x32,32x8,8x32,32x4,64x4,128x2,4x64,32x1,2x16,16x2,64x8,128x4,256x1,32x16,16x32
for k in matmul_tiled matmul_blocktile_1d matmul_blocktile_2d matmul_blocktile_vec matmul_warptile matmul_double_buffer; do
  $C matmul --size 4096x4096x4096 --kernel $k --backend cuda --device H200 --json $R/matmul_4096_$k.json 2>&1 | tail -1; keep
done
$C matmul --size 4096x4096x4096 --kernel naive --block $B --backend cuda --device H200 --json $R/matmul_4096_matmul_naive.json 2>&1 | tail -1; keep
ls -la $R
