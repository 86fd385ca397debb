#pragma once
#include "matmul_problem.h"

namespace cvz {

// The independent CPU reference: each output accumulated in double, rounded once to float. The kernels
// (float accumulation with fma) agree with it to a relative error, not bit for bit.
void matmul_reference(const MatmulProblem& p);

// The kernels' own arithmetic as a plain loop: float accumulation, one fmaf per k in order, so its bytes
// are those of every matmul kernel on every backend. The benchmarks' plain loop and an exact reference.
void matmul_fma_loop(const MatmulProblem& p);

// The largest |got - ref| / max(1, |ref|) over all outputs, for comparing a kernel with the reference.
double matmul_max_relative_error(const float* got, const float* ref, std::uint64_t count);

}  // namespace cvz
