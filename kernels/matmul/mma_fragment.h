#pragma once
// The register fragments of the tensor cores' mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32, as
// the PTX ISA documents them ("Matrix Fragments for mma.m16n8k8", .tf32): a warp multiplies a 16 x 8
// tile of A by an 8 x 8 tile of B into a 16 x 8 tile of C, and each of its 32 lanes holds 4 elements
// of A, 2 of B and 4 of C. groupID = lane / 4 picks the row of A and C and the column of B;
// threadID_in_group = lane % 4 the column of A and the row of B (and, doubled, the column of C).
// Written once, for the kernels (GPU and emulator), the emulator's MMA and the views.
#include "../core/host_device.h"

namespace cvz {

struct MmaShape {
    static constexpr unsigned M = 16, N = 8, K = 8;
    static constexpr unsigned A_REGS = 4, B_REGS = 2, C_REGS = 4;
};

// A (16 x 8, row-major): a0 (g, t), a1 (g + 8, t), a2 (g, t + 4), a3 (g + 8, t + 4).
CVZ_HD constexpr unsigned mma_a_row(unsigned lane, unsigned reg) { return lane / 4 + 8 * (reg % 2); }
CVZ_HD constexpr unsigned mma_a_col(unsigned lane, unsigned reg) { return lane % 4 + 4 * (reg / 2); }
// B (8 x 8, "col": K down the rows): b0 (t, g), b1 (t + 4, g).
CVZ_HD constexpr unsigned mma_b_row(unsigned lane, unsigned reg) { return lane % 4 + 4 * reg; }
CVZ_HD constexpr unsigned mma_b_col(unsigned lane, unsigned /*reg*/) { return lane / 4; }
// C and D (16 x 8): c0 (g, 2t), c1 (g, 2t + 1), c2 (g + 8, 2t), c3 (g + 8, 2t + 1).
CVZ_HD constexpr unsigned mma_c_row(unsigned lane, unsigned reg) { return lane / 4 + 8 * (reg / 2); }
CVZ_HD constexpr unsigned mma_c_col(unsigned lane, unsigned reg) { return 2 * (lane % 4) + reg % 2; }

// The inverses: which lane and register hold element (row, col) of A, of B, of C.
CVZ_HD constexpr unsigned mma_a_lane(unsigned row, unsigned col) { return (row % 8) * 4 + col % 4; }
CVZ_HD constexpr unsigned mma_a_reg(unsigned row, unsigned col) { return row / 8 + 2 * (col / 4); }
CVZ_HD constexpr unsigned mma_b_lane(unsigned row, unsigned col) { return col * 4 + row % 4; }
CVZ_HD constexpr unsigned mma_b_reg(unsigned row, unsigned /*col*/) { return row / 4; }
CVZ_HD constexpr unsigned mma_c_lane(unsigned row, unsigned col) { return (row % 8) * 4 + col / 2; }
CVZ_HD constexpr unsigned mma_c_reg(unsigned row, unsigned col) { return col % 2 + 2 * (row / 8); }

}  // namespace cvz
