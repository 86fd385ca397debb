#!/usr/bin/env bash
# compute-sanitizer (memcheck, racecheck, initcheck, synccheck) over every GPU test program, on the
# GPU machine (see /work/shared/gpu/README.md for how programs run there). Two halves:
#
#   here:   scripts/gpu_sanitize.sh pack [BUILD_DIR] [DEST]
#           packs the GPU test programs of BUILD_DIR (default build; configure it with
#           -DCMAKE_CUDA_ARCHITECTURES=90) into DEST (default .gpu, which .git/info/exclude must ignore)
#   there:  bash scripts/gpu_sanitize.sh run DEST OUT_DIR [TOOL...]
#           (device `run` with carry [".gpu"]: bash scripts/gpu_sanitize.sh run .gpu $OUT)
#           runs each packed tst_* program under each tool (default: all four), one log per pair, and
#           writes OUT_DIR/summary.txt (one line per pair: errors counted by the tool, exit status, time)
#           and OUT_DIR/logs.tar.xz (every log; a device run brings back at most 8 files).
# Exit status 1 when any tool reported an error or any program failed under it.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)

# Test programs with GPU cases (they QSKIP those without a device; here they run them).
GPU_TESTS=(tst_grayscale_cuda tst_matmul_cuda tst_gl_interop tst_measured_occupancy tst_block_sweep tst_occupancy
           tst_emulator tst_grayscale tst_matmul)

mode=${1:-}
case "$mode" in
  pack)
    build=${2:-build}; dest=${3:-.gpu}
    progs=()
    for t in "${GPU_TESTS[@]}"; do
      if [ -x "$build/tests/$t" ]; then progs+=("$build/tests/$t"); else echo "not built, skipped: $build/tests/$t" >&2; fi
    done
    [ ${#progs[@]} -gt 0 ] || { echo "nothing to pack: build the tests first" >&2; exit 2; }
    exec "$here/../shared/gpu/pack.sh" "$dest" "${progs[@]}"
    ;;
  run)
    dest=${2:?usage: gpu_sanitize.sh run DEST OUT_DIR [TOOL...]}; out=${3:?usage: gpu_sanitize.sh run DEST OUT_DIR [TOOL...]}
    shift 3
    tools=("$@")
    [ ${#tools[@]} -gt 0 ] || tools=(memcheck racecheck initcheck synccheck)
    sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
    [ -x "$sanitizer" ] || { echo "no compute-sanitizer on this machine" >&2; exit 2; }
    logs=$(mktemp -d)
    summary=$out/summary.txt
    mkdir -p "$out"
    : > "$summary"
    status=0
    for prog in "$dest"/bin/tst_*; do
      name=$(basename "$prog")
      for tool in "${tools[@]}"; do
        extra=()
        case $tool in
          memcheck) extra=(--leak-check full) ;;
          racecheck) extra=(--racecheck-report all) ;;
          initcheck) extra=(--track-unused-memory) ;;
        esac
        log=$logs/$name.$tool.log
        start=$(date +%s)
        # Per-program limit: racecheck slows a kernel a hundredfold; a hung run must not eat the lease.
        timeout 900 bash "$dest/run.sh" "$sanitizer" --tool "$tool" "${extra[@]}" --error-exitcode 99 \
          --print-limit 100 --target-processes all "$prog" -maxwarnings 0 >"$log" 2>&1
        rc=$?
        secs=$(( $(date +%s) - start ))
        errors=$(sed -n 's/^========= ERROR SUMMARY: \([0-9]*\) error.*/\1/p' "$log" | tail -1)
        hazards=$(sed -n 's/^========= RACECHECK SUMMARY: \([0-9]*\) hazard.*/\1/p' "$log" | tail -1)
        tests=$(grep -E '^Totals:' "$log" | tail -1)
        line="$name $tool: errors ${errors:-?}${hazards:+, hazards $hazards}, exit $rc, ${secs}s; ${tests:-no Qt Test totals}"
        echo "$line" | tee -a "$summary"
        if [ "$rc" -ne 0 ] || [ "${errors:-0}" != 0 ] || [ "${hazards:-0}" != 0 ]; then status=1; fi
      done
    done
    tar -C "$logs" -cJf "$out/logs.tar.xz" .
    rm -rf "$logs"
    exit $status
    ;;
  *)
    sed -n '2,14p' "$0" >&2
    exit 2
    ;;
esac
