#pragma once
#include <QString>

#include "kernels/core/launch_shape.h"
#include "kernels/matmul/matmul_launch.h"
#include "occupancy_model.h"

namespace cvz {

// Registers per thread of each kernel as ptxas reports them for sm_90 (nvcc 13.0, -Xptxas -v on
// kernels/grayscale/grayscale_cuda.cu and kernels/matmul/matmul_cuda.cu). The occupancy model needs
// them when there is no device to ask (cudaFuncGetAttributes).
struct KernelRegisterTable {
    static constexpr int kGrayscale1d = 16;
    static constexpr int kGrayscale2d = 20;
    static constexpr int kMatmulNaive = 32;
    static constexpr int kMatmulTiled8 = 32;
    static constexpr int kMatmulTiled16 = 32;
    static constexpr int kMatmulTiled32 = 31;
    static int matmul_tiled(unsigned tile) { return tile == 32 ? kMatmulTiled32 : tile == 16 ? kMatmulTiled16 : kMatmulTiled8; }
};

BlockResources grayscale_block_resources(const LaunchShape& shape);
BlockResources matmul_block_resources(const MatmulLaunch& launch);

}  // namespace cvz
