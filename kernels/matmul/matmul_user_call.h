#pragma once
// The matmul family's side of a user kernel (issue 27): the lecture's `matmul_k` signature, its grid
// rule and the binding of two matrices to it. Qt-free.
//   matmul  (float* m, float* n, float* out, int h, int w, int k)
//           h = rows of A and C, w = columns of B and C, k = the inner size; grid cdiv(w, bx) x cdiv(h, by)
// The output is compared with the family's independent reference (double accumulation, rounded once)
// within 1e-5 relative to max(1, |reference|).
#include <cstdint>
#include <memory>
#include <vector>

#include "../user/user_call.h"

namespace cvz {

const std::vector<user::CallForm>& matmul_call_forms();
// The same with which forms launch 1-D blocks.
user::FamilyForms matmul_user_forms();

// C (rows x cols) = A (rows x inner) @ B (inner x cols), row-major float32.
std::unique_ptr<user::FamilyCall> matmul_user_call(std::vector<float> a, std::vector<float> b, std::uint32_t rows,
                                                   std::uint32_t inner, std::uint32_t cols);

}  // namespace cvz
