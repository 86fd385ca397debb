#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "../core/dim3.h"
#include "../core/kernel_variant.h"
#include "matmul_problem.h"

namespace cvz {

// The matmul family's variants, by their index in the table of matmul_variants.h (which names them:
// "matmul_naive", "matmul_tiled", ...). A new variant adds its enumerator here and its spec there.
enum class MatmulVariant : std::uint8_t { Naive, Tiled, Blocktile1d, Blocktile2d, BlocktileVec, Warptile, DoubleBuffer,
                                        Tf32, Tf32x3, SplitK, Tf32Wgmma, Tf32x3Wgmma };

// How a matmul is launched: which variant, its block (for a 2-D variant) or its TILE (for a variant
// that takes one: the block is then TILE x TILE).
struct MatmulLaunch {
    MatmulVariant kernel = MatmulVariant::Naive;
    Dim3 block{16, 16, 1};     // variants with a 2-D block
    unsigned tile = 16;        // variants that take a TILE
    bool second_barrier = true;  // tiled, emulator only: false shows the race of a missing barrier

    static MatmulLaunch naive(unsigned bx, unsigned by) { return {MatmulVariant::Naive, Dim3{bx, by, 1}, 16, true}; }
    static MatmulLaunch tiled(unsigned tile) { return {MatmulVariant::Tiled, Dim3{tile, tile, 1}, tile, true}; }
    static MatmulLaunch of(MatmulVariant variant, Dim3 block, unsigned tile) { return {variant, block, tile, true}; }

    // The block launched, from the variant's rule: TILE x TILE, the fixed block, or `block`.
    Dim3 block_shape() const;
    // Dynamic shared memory, from the variant's body; 0 for an unknown variant or TILE.
    std::size_t shared_bytes() const;
    // The compiled kernel it runs (tile 0 when the variant takes none).
    KernelRef ref() const;
};

std::string to_string(const MatmulLaunch& launch);  // "naive 16x16" or "tiled TILE=16"

// The MMAs a tensor-core rung makes per product (1 TF32, 3 3xTF32); 0 for a rung on the FP32 lanes.
unsigned matmul_tensor_core_passes(const MatmulLaunch& launch);

// The outputs of C one block computes, columns x rows: blockDim for the lecture's kernels, the body's
// block_tile (BN x BM) for a blocktiled variant.
Dim3 matmul_output_tile(const MatmulLaunch& launch);

// How much of K one phase stages through shared memory: TILE for the tiled kernel, BK for the
// blocktiled ones; 0 for a kernel that reads A and B straight from global memory (the naive one).
unsigned matmul_k_slice(const MatmulLaunch& launch);

// How many slices of K a launch splits into (gridDim.z): its TILE for the split-K variant (0: the
// automatic choice, matmul_auto_split_slices), else 1.
unsigned matmul_split_slices(const MatmulLaunch& launch, std::uint32_t m, std::uint32_t n);
// The automatic split: as many slices as fill kSplitKTargetBlocks blocks (the H200's 132 SMs, one
// block each: split-K's body asks for one an SM) with the output tiles there are, at most
// kSplitKMaxSlices (no split from 67 tiles up: a second slice would start a second wave). A function
// of the shape alone, so that the GPU and the emulator split alike. Measured on the H200
// (bench_matmul_gpu_fp32_configs, 2026-12-03): 1024^3 (64 tiles) is fastest at 2 slices,
// 1537 x 769 x 1023 (104 tiles) and 2048^3 (256) at 1, 256 x 4096 x 256 (4) at 32.
constexpr unsigned kSplitKTargetBlocks = 132, kSplitKMaxSlices = 32;
unsigned matmul_auto_split_slices(std::uint64_t output_tiles);
// The floats of workspace a launch needs (split-K's partial sums of slices 1..): 0 for the others.
std::size_t matmul_workspace_floats(const MatmulLaunch& launch, std::uint32_t m, std::uint32_t n);

// The grid: cdiv(N, blockDim.x) columns of blocks by cdiv(M, blockDim.y) rows; for a blocktiled
// variant (its body has a block_tile of BN x BM outputs), cdiv(N, BN) by cdiv(M, BM); gridDim.z is
// the split's slices (1 but for split-K).
Dim3 matmul_grid(const MatmulLaunch& launch, std::uint32_t m, std::uint32_t n);

// Empty when the launch is valid for these shapes, else the reason (an unknown variant or a TILE the
// variant is not compiled for is one).
std::string validate_matmul_launch(const MatmulLaunch& launch, std::uint32_t m, std::uint32_t k, std::uint32_t n);

}  // namespace cvz
