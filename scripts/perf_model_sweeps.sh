#!/usr/bin/env bash
# The performance model's calibration and validation sweeps (issues 15 and 29, docs/performance-model.md).
# On the GPU machine, with cudaviz-cli packed by ../shared/gpu/pack.sh into DEST, test images in
# DEST/img (img_WxH.png; any content: only the size matters) and masks of side 7 and 15 in
# DEST/masks (m7.npy, m15.npy; any values: only the side matters):
#     bash scripts/perf_model_sweeps.sh DEST [grayscale|matmul|convolution|ncu]...   (default: all four)
# Every sweep times each shape in 3 interleaved rounds (the CLI's default --rounds) of 20 launches
# (10 for convolution and matmul's calibration sizes). Files named cal_* are calibration sizes: the
# model's constants are fitted on them; every other file is a validation size, never used to fit.
# Writes $OUT/sweeps/*.json (and ncu/*.csv: Nsight Compute's raw page of the convolution kernels at
# the calibration size), packed as $OUT/sweeps.tgz after each sweep. Then, here, with the same sweeps
# predicted again by the current model (--backend cpu; scripts/perf_model_validation.py --predict does it):
#     scripts/perf_model_validation.py --predicted PRED_DIR sweeps/*.json
d=$(cd "${1:?usage: perf_model_sweeps.sh DEST [PART...]}" && pwd); shift
parts=${*:-grayscale matmul convolution ncu}
C="bash $d/run.sh cudaviz-cli sweep"
R=$OUT/sweeps; mkdir -p $R
keep() { tar -C $OUT -czf $OUT/sweeps.tgz sweeps; }
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv > $R/gpu.txt 2>&1
mask() { case $1 in 3) echo box3;; 5) echo gauss5;; *) echo $d/masks/m$1.npy;; esac; }
for part in $parts; do case $part in
grayscale)
  for s in 480x360 1000x777 2560x1440; do
    $C grayscale $d/img/img_$s.png --backend cuda --device H200 --json $R/cal_gray_$s.json 2>&1 | tail -1; keep
  done
  for s in 640x480 800x600 1537x1023 1920x1080 3840x2160 7680x4320; do
    $C grayscale $d/img/img_$s.png --backend cuda --device H200 --json $R/gray_$s.json 2>&1 | tail -1; keep
  done
  # the same shapes measured twice: the ceiling of any model's rank correlation at a launch-bound size
  $C grayscale $d/img/img_640x480.png --backend cuda --device H200 --json $R/again_gray_640x480.json 2>&1 | tail -1; keep
  ;;
matmul)
  for s in 224x3000x288 384x3072x384 2304x640x1792 1100x1100x1100; do
    $C matmul --size $s --repeats 10 --backend cuda --device H200 --json $R/cal_matmul_$s.json 2>&1 | tail -1; keep
  done
  for s in 1000x1000x1000 3000x500x2000 256x4096x256 1024x1024x1024 1537x769x1023 2560x1280x640; do
    $C matmul --size $s --backend cuda --device H200 --json $R/matmul_$s.json 2>&1 | tail -1; keep
  done
  ;;
convolution)
  for m in 3 7 15; do
    $C convolution $d/img/img_1000x777.png --mask $(mask $m) --repeats 10 --backend cuda --device H200 --json $R/cal_conv_1000x777_m$m.json 2>&1 | tail -1; keep
  done
  for s in 640x480 1537x1023 1920x1080; do for m in 3 7 15; do
    $C convolution $d/img/img_$s.png --mask $(mask $m) --repeats 10 --backend cuda --device H200 --json $R/conv_${s}_m$m.json 2>&1 | tail -1; keep
  done; done
  ;;
ncu)
  # Nsight Compute's instruction counts and issue figures of the convolution kernels at the calibration
  # size, six blocks, three masks; as the sweeps: clocks not locked, caches kept between passes.
  N=/usr/local/cuda/bin/ncu; mkdir -p $OUT/sweeps/ncu
  M=smsp__inst_executed.sum,sm__inst_executed.max,sm__cycles_elapsed.max,gpu__time_duration.sum,smsp__warps_active.avg.per_cycle_active,launch__registers_per_thread,launch__block_size,launch__grid_size,launch__occupancy_limit_registers,smsp__inst_executed_op_global_ld.sum,smsp__inst_executed_op_shared_ld.sum
  for m in 3 7 15; do
    $N --metrics $M --clock-control none --cache-control none --kernel-name-base demangled -k regex:Conv -f -o $R/ncu/m$m \
      $C convolution $d/img/img_1000x777.png --mask $(mask $m) --block 32x8,16x16,8x8,32x32,4x4,128x2 \
      --repeats 1 --rounds 1 --backend cuda --device H200 --json $R/ncu/sweep_m$m.json > $R/ncu/m$m.log 2>&1
    $N -i $R/ncu/m$m.ncu-rep --page raw --csv > $R/ncu/m$m.csv 2>&1; rm -f $R/ncu/m$m.ncu-rep; keep
  done
  ;;
esac; done
keep
ls -la $R
