#pragma once
// The shared-memory layout that feeds the tensor-core rungs' fragments (matmul_tensor_core.h), for
// the views (the memory view's banks) and the tests: where each element of a stage's A and B tiles
// sits, on which bank, and which shared rows one ldmatrix.x4 of an A fragment reads. Read from the
// body's own Tiles (describe_mma_shared_layout<S>), never re-typed.
//
// A stage holds the block's A tile as BM rows of BK floats, each row padded to LDA floats, then its B
// tile as BK rows of BN floats padded to LDB. No swizzle: the pads alone keep the fragment loads free
// of bank conflicts:
//  - A, by ldmatrix.x4: each of its four 8 x 4 matrices (8 rows of 16 bytes, one per lane of a
//    quarter warp's addresses) is one shared-memory wavefront; with LDA / 4 odd, rows r .. r + 7 start
//    on 8 different 16-byte groups of banks (4 banks each), so a matrix touches all 32 banks once;
//  - B, by one 32-bit load per register: lane (g, t) = (lane / 4, lane % 4) reads row t (or t + 4)
//    and column g of the 8 x 8 tile; LDB % 32 == 8 puts it on bank 8 t + g: 32 lanes, 32 banks.
#include <cstdint>

#include "../core/host_device.h"
#include "mma_fragment.h"

namespace cvz {

struct MmaSharedLayout {
    unsigned bm = 0, bn = 0, bk = 0;    // the block's A tile is bm x bk, its B tile bk x bn
    unsigned lda = 0, ldb = 0;          // padded row lengths in floats
    unsigned stages = 0;                // buffers (cp.async pipeline)
    unsigned stage_floats = 0;          // one stage: bm * lda of A, then bk * ldb of B
    unsigned warps_m = 0, warps_n = 0;  // warps along M and N; warp w owns rows (w / warps_n) * wm, columns (w % warps_n) * wn
    unsigned wm = 0, wn = 0;            // a warp's tile of C
    bool a_by_ldmatrix = true;          // A fragments by ldmatrix.x4 (on the GPU; the emulator's lanes load alike)
};

constexpr unsigned kSharedBanks = 32;  // 4-byte banks

template <class S>
constexpr MmaSharedLayout describe_mma_shared_layout() {
    MmaSharedLayout l;
    l.bm = S::BM, l.bn = S::BN, l.bk = S::BK, l.lda = S::LDA, l.ldb = S::LDB, l.stages = S::STAGES;
    l.stage_floats = S::STAGE_FLOATS, l.warps_m = S::WARPS_M, l.warps_n = S::WARPS_N, l.wm = S::WM, l.wn = S::WN;
    return l;
}

// Offsets in floats from the start of a stage: A (row, k) of the block's A tile, B (k, col).
CVZ_HD constexpr unsigned mma_shared_a_offset(const MmaSharedLayout& l, unsigned row, unsigned k) { return row * l.lda + k; }
CVZ_HD constexpr unsigned mma_shared_b_offset(const MmaSharedLayout& l, unsigned k, unsigned col) {
    return l.bm * l.lda + k * l.ldb + col;
}
// The bank of a float at `offset` floats from a stage's start (stages start on multiples of 32 floats
// when stage_floats is one; the dynamic shared memory itself starts on bank 0).
CVZ_HD constexpr unsigned mma_shared_bank(unsigned offset_floats) { return offset_floats % kSharedBanks; }

// ldmatrix.x4 of an A fragment: the row of the 16 x 8 tile whose 16 bytes lane `lane` points at, and
// the first of its 4 columns; the lane's register j then holds element (lane / 4, lane % 4) of matrix
// j (rows 8 (j % 2) .., columns 4 (j / 2) ..), which is a_j of mma_fragment.h.
CVZ_HD constexpr unsigned mma_ldmatrix_a_row(unsigned lane) { return 8 * ((lane / 8) % 2) + lane % 8; }
CVZ_HD constexpr unsigned mma_ldmatrix_a_col(unsigned lane) { return 4 * (lane / 16); }
// Which of the four matrices (one wavefront each) lane's address belongs to.
CVZ_HD constexpr unsigned mma_ldmatrix_matrix(unsigned lane) { return lane / 8; }

}  // namespace cvz
