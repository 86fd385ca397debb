#pragma once
// The shared memory that feeds a tensor-core rung's fragments (the memory view's shared layout): which
// element of the A and B tiles sits in which 4-byte word of a stage (so in which of the 32 banks),
// which words are padding, and which words each fragment load of one warp reads, with its wavefronts.
// Nothing here is re-typed from the kernel: the layout is read by running the kernel's own staging
// (copy_tile_async) on an A and a B whose elements carry their indices, and the loads by running its
// own fragment loads (load_fragments) for each lane on a context that records the addresses. A
// different padding, or a swizzle, shows as it is. Where the kernel describes its layout
// (kernels/matmul/mma_shared_layout.h) and reads A by ldmatrix.x4 on the GPU, A's loads are shown as
// the GPU makes them, from that description's ldmatrix rows (the emulator's lanes load the same
// elements one by one).
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "app/matmul/mma_fragment_layout.h"
#include "kernels/matmul/matmul_launch.h"

namespace cvz {

// One 4-byte word of a stage: an element of A's tile (BM x BK, row = M, col = K), of B's (BK x BN,
// row = K, col = N), or a word the staging never writes (padding).
struct StageWord {
    enum class Kind : std::uint8_t { Padding, A, B };
    Kind kind = Kind::Padding;
    unsigned row = 0, col = 0;
};

// One fragment load of one warp: register `reg` of MMA tile `tile` (mi for A, ni for B), one 4-byte
// word per lane (offsets in words from the stage's start), and its cost as the trace counts it
// (memory_trace.h: wavefronts = the most distinct words in one bank; ideal 1).
struct FragmentLoad {
    MmaOperand operand = MmaOperand::A;
    unsigned tile = 0, reg = 0;
    std::array<unsigned, 32> word{};  // each lane's (first) word
    unsigned bytes = 4;               // per lane
    // A's four registers by one ldmatrix.x4 (as the GPU loads them when the kernel says so): each lane
    // points at one 16-byte row of the tile; lanes 8j..8j+7 give matrix j's rows, which land in aj.
    bool ldmatrix = false;
    unsigned wavefronts = 0, ideal_wavefronts = 0;
    // The same load with rows packed (no padding: BK floats a row of A, BN a row of B), by the same
    // code: what the padding buys. Nullopt when the layout has no padding to remove.
    std::optional<unsigned> unpadded_wavefronts;
};

struct MmaStageView {
    unsigned stages = 0;        // buffers the K-tiles cycle through
    unsigned stage_words = 0;   // 4-byte words per stage; stage s starts at word s * stage_words
    unsigned bm = 0, bn = 0, bk = 0;  // A's tile is bm x bk, B's bk x bn
    std::vector<StageWord> words;    // one per word of a stage
    unsigned warp = 0, k_step = 0;    // whose loads, at which k-step (a column of the stage's A: 0, 8, ...)
    std::vector<FragmentLoad> loads;  // in the kernel's order: A's MI x 4, then B's NI x 2

    bool empty() const { return words.empty(); }
    // The word holding element (row, col) of A's or B's tile; nullopt outside it.
    std::optional<unsigned> word_of(MmaOperand operand, unsigned row, unsigned col) const;
    unsigned padding_words() const;
};

constexpr unsigned kStageBanks = 32;
inline unsigned stage_bank(unsigned word) { return word % kStageBanks; }

// The layout of `launch`'s variant and the loads of warp `warp` at k-step `k_step` (a multiple of 8
// below BK); empty for a variant without tensor cores, or a warp or k-step out of range.
MmaStageView mma_stage_view(const MatmulLaunch& launch, unsigned warp = 0, unsigned k_step = 0);

}  // namespace cvz
