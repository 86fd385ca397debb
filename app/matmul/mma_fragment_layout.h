#pragma once
// What the matrices page shows of the tensor-core rungs (matmul_tf32, matmul_3xtf32): which lane of a
// warp holds which elements of the A, B and C fragments of one mma.sync m16n8k8 TF32, and which warp of
// which block owns an output of C (its warp tile, the MMA tile inside it, the lane and register). The
// layout is the kernels' own (kernels/matmul/mma_fragment.h), the warp tiles the body's (its Tiles).
#include <cstdint>
#include <optional>
#include <vector>

#include "kernels/core/dim3.h"
#include "kernels/matmul/matmul_launch.h"

namespace cvz {

enum class MmaOperand : std::uint8_t { A, B, C };

const char* to_string(MmaOperand operand);  // "A", "B", "C"

// One element of a fragment: the lane and register that hold it, and its place in the operand's tile
// (A and C: 16 x 8, B: 8 x 8, rows then columns; B's rows are K).
struct FragmentElement {
    unsigned lane = 0, reg = 0, row = 0, col = 0;
};

// Rows and columns of the operand's tile: 16 x 8, 8 x 8, 16 x 8.
unsigned mma_tile_rows(MmaOperand operand);
unsigned mma_tile_cols(MmaOperand operand);

// Every element of the operand's tile, in lane order and, within a lane, register order (32 x 4, 32 x 2,
// 32 x 4 elements).
std::vector<FragmentElement> mma_fragment_layout(MmaOperand operand);

// The element of the operand's tile at (row, col), with the lane and register holding it; nullopt
// outside the tile.
std::optional<FragmentElement> mma_fragment_at(MmaOperand operand, unsigned row, unsigned col);

// One warp's tile of C in a block of a tensor-core launch: rows x cols outputs from (row0, col0) of
// the block's tile, mma_rows x mma_cols MMA tiles of 16 x 8.
struct WarpTile {
    unsigned warp = 0;
    unsigned row0 = 0, col0 = 0, rows = 0, cols = 0;
    unsigned mma_rows = 0, mma_cols = 0;
};

// The warp tiles of one block, by warp; empty for a variant without tensor cores.
std::vector<WarpTile> mma_warp_tiles(const MatmulLaunch& launch);

// Who computes output (row, col) of C: the block, its warp and warp tile, the MMA tile within it
// (mi down, ni across), and the lane and register of that MMA's C fragment.
struct MmaOwner {
    Dim3 block;
    WarpTile warp;
    unsigned mi = 0, ni = 0;
    FragmentElement element;  // in the MMA tile's C: its row and column there, lane, register
};

// Nullopt for a variant without tensor cores, or (row, col) outside an m x n C.
std::optional<MmaOwner> mma_owner(const MatmulLaunch& launch, std::uint32_t m, std::uint32_t n, std::uint32_t row,
                                  std::uint32_t col);

}  // namespace cvz
