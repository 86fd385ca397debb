#!/usr/bin/env bash
# The H200 work that issues 27 and 29 still wait for, in one device call (each machine start costs a
# minute of the session's device time, so everything goes in one pack and one run).
#
#   scripts/gpu_pending.sh pack DEST      # here: pack the programs (build/ must be built with
#                                         # -DCMAKE_CUDA_ARCHITECTURES=90); DEST inside the checkout,
#                                         # ignored by git (e.g. .gpu-pending, listed in .git/info/exclude)
#   device run, carry [DEST]:  bash DEST/pending.sh "$OUT"     # there: runs it all, results under $OUT
#
# What it runs, and which item each answers:
#   tst_matmul_cuda             issue 29: the final tensor-core configurations exact to their bound on the GPU
#   bench_matmul_gpu --json     issue 29: TF32, 3xTF32, fp32 rungs against cuBLAS SGEMM and TF32, one run
#   tst_user_kernel_gpu         issue 27: the lecture's kernels on the GPU, bounds faults (missing guard, load)
#   tst_cli_user_kernel         issue 27: the CLI's GPU bounds fault (CUDAVIZ_CLI points at the packed CLI)
#   bench_user_kernel_gpu       issue 27: user copies against the built-ins, within 10%
# Each program's text output goes to $OUT/NAME.txt; the benchmarks' JSON to $OUT/NAME.json.
set -euo pipefail

case "${1:-}" in
pack)
    dest=${2:?usage: gpu_pending.sh pack DEST}
    root=$(cd "$(dirname "$0")/.." && pwd)
    cd "$root"
    shared=${CUDAVIZ_SHARED_GPU:-$root/../shared/gpu}
    programs=(build/tests/tst_matmul_cuda build/bench/bench_matmul_gpu build/tests/tst_user_kernel_gpu
              build/tests/tst_cli_user_kernel build/bench/bench_user_kernel_gpu build/app/cli/cudaviz-cli
              build/kernels/cudaviz-gpu-runner build/cudaviz-kernel-runner)
    for p in "${programs[@]}"; do
        [ -x "$p" ] || { echo "gpu_pending.sh: $p is not built (cmake --build build --target $(basename "$p"))" >&2; exit 1; }
    done
    # One pack call, so the library bundle holds what every program needs (libdw for the kernel runner).
    "$shared/pack.sh" "$root/$dest" "${programs[@]}"
    strip --strip-debug "$root/$dest"/bin/*
    rm -rf "$root/$dest/resources" && mkdir -p "$root/$dest/resources" && cp -r resources/kernels "$root/$dest/resources/kernels"
    cp "$0" "$root/$dest/pending.sh"
    du -sh "$root/$dest"
    ;;
*)
    out=${1:?usage: bash DEST/pending.sh OUT}
    d=$(cd "$(dirname "$0")" && pwd)
    run() { bash "$d/run.sh" "$@"; }
    export CUDAVIZ_GPU_RUNNER="$d/bin/cudaviz-gpu-runner" CUDAVIZ_KERNEL_RUNNER="$d/bin/cudaviz-kernel-runner"
    export CUDAVIZ_CLI="$d/bin/cudaviz-cli" CUDAVIZ_SOURCE_DIR="$d" CUDAVIZ_KERNELS_DIR="$d/resources/kernels"
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > "$out/device.txt" 2>&1 || true
    status=0
    run tst_matmul_cuda > "$out/tst_matmul_cuda.txt" 2>&1 || status=1
    run tst_user_kernel_gpu > "$out/tst_user_kernel_gpu.txt" 2>&1 || status=1
    run tst_cli_user_kernel > "$out/tst_cli_user_kernel.txt" 2>&1 || status=1
    run bench_matmul_gpu --json "$out/bench_matmul_gpu.json" > "$out/bench_matmul_gpu.txt" 2>&1 || status=1
    run bench_user_kernel_gpu --json "$out/bench_user_kernel_gpu.json" > "$out/bench_user_kernel_gpu.txt" 2>&1 || status=1
    grep -h "^Totals" "$out"/tst_*.txt || true
    exit $status
    ;;
esac
