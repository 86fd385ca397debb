#pragma once
// How a compiled kernel's warps issue instructions, for the performance model's "issue" term
// (perf_model.h): what Nsight Compute measured of each kernel as nvcc compiles it for sm_90, on the
// H200, at 1280^3 and 2048^3 (calibration sizes, kept out of the validation), under the sweeps'
// conditions: boost clock, caches warm between passes (scripts/ncu_issue_profiles.sh; the figures below
// are scripts/compiled_issue_table.py's output).
//
// The instruction counts are exact properties of the compiled code. How its warps issue is a small
// model: one warp alone is ready to issue in a share `ready` of the cycles (waiting the rest on its
// loads, its shared-memory reads and its arithmetic), a scheduler of W such warps issues
//     rate(W) = ceiling * (1 - (1 - ready / ceiling)^W)   instructions a clock,
// at most `ceiling` (what the kernel's mix of instructions allows one scheduler). With ceiling 1 this
// is the chance that at least one of W independent warps is ready. The rates are the busiest SM's over
// the launch's elapsed cycles, as the model uses them (its time is the busiest SM's).
#include <optional>

#include "kernels/core/kernel_variant.h"

namespace cvz {

struct CompiledIssue {
    double instructions_per_k = 0;     // warp instructions a warp executes per step of K
    double instructions_fixed = 0;     // and once per warp (indices, guards, the store)
    double shared_wavefronts_per_k = 0;  // shared-memory load wavefronts per warp and step of K
    double ready = 1;                  // the share of cycles one warp alone is ready to issue
    double ceiling = 1;                // the most one scheduler issues of this kernel, per clock

    // Warp instructions of one warp of a launch with this K.
    double warp_instructions(double k) const { return instructions_per_k * k + instructions_fixed; }
    // Instructions a scheduler issues per clock with `warps` resident warps (0 with none).
    double rate(double warps) const;
};

// The figures of a compiled kernel, from its family's table (app/<family>/, registered in
// app_families.cpp); none for a family without one, an unknown variant or a TILE the catalogue does
// not compile.
std::optional<CompiledIssue> compiled_issue(const KernelRef& ref);

}  // namespace cvz
