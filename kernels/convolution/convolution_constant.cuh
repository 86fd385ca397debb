#pragma once
// The constant variants' mask in __constant__ memory (64 KiB per module; 900 bytes here). In an
// anonymous namespace, like the kernels: each translation unit that launches a constant variant has
// its own copy, filled by that unit (set_convolution_constant_mask in convolution_cuda.cu, the
// schedule recorder in convolution_schedule.cu).
#include "convolution_problem.h"

namespace cvz {
namespace {

__constant__ float conv_constant_mask[kMaxMaskValues];

}  // namespace
}  // namespace cvz
