#pragma once
// The matmul family's predictor for the performance model (app/models/perf_model.h): its launch's
// memory figures from traced samples (launch_sample.h), its compiled kernels' issue figures
// (matmul_compiled_issue.h) and the re-reads of B.
//
// The K loop is not sampled but extrapolated: two short traces, K' = 32 + K mod 32 and 64 + K mod 32
// (the same tails, the same alignment), give figures that are linear in K; K <= 96 is traced as it is.
#include <cstdint>

#include "app/models/launch_sample.h"
#include "app/models/perf_model.h"
#include "kernels/matmul/matmul_launch.h"

namespace cvz {

LaunchFigures matmul_launch_figures(const MatmulLaunch& launch, std::uint32_t m, std::uint32_t k, std::uint32_t n);

// The matmul launch for C (m x n) = A (m x k) @ B (k x n).
GpuPrediction predict_matmul(const DeviceProfile& profile, const MatmulLaunch& launch, std::uint32_t m,
                             std::uint32_t k, std::uint32_t n);

}  // namespace cvz
