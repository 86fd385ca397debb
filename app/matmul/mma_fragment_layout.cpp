#include "app/matmul/mma_fragment_layout.h"

#include <type_traits>

#include "kernels/matmul/matmul_tensor_core.h"
#include "kernels/matmul/matmul_variants.h"
#include "kernels/matmul/mma_fragment.h"

namespace cvz {

namespace {

FragmentElement element_of(MmaOperand operand, unsigned lane, unsigned reg) {
    switch (operand) {
    case MmaOperand::A: return {lane, reg, mma_a_row(lane, reg), mma_a_col(lane, reg)};
    case MmaOperand::B: return {lane, reg, mma_b_row(lane, reg), mma_b_col(lane, reg)};
    case MmaOperand::C: break;
    }
    return {lane, reg, mma_c_row(lane, reg), mma_c_col(lane, reg)};
}

unsigned regs_of(MmaOperand operand) {
    return operand == MmaOperand::A ? MmaShape::A_REGS : operand == MmaOperand::B ? MmaShape::B_REGS : MmaShape::C_REGS;
}

}  // namespace

const char* to_string(MmaOperand operand) {
    return operand == MmaOperand::A ? "A" : operand == MmaOperand::B ? "B" : "C";
}

unsigned mma_tile_rows(MmaOperand operand) { return operand == MmaOperand::B ? MmaShape::K : MmaShape::M; }
unsigned mma_tile_cols(MmaOperand operand) { return operand == MmaOperand::A ? MmaShape::K : MmaShape::N; }

std::vector<FragmentElement> mma_fragment_layout(MmaOperand operand) {
    std::vector<FragmentElement> out;
    for (unsigned lane = 0; lane < 32; ++lane)
        for (unsigned reg = 0; reg < regs_of(operand); ++reg) out.push_back(element_of(operand, lane, reg));
    return out;
}

std::optional<FragmentElement> mma_fragment_at(MmaOperand operand, unsigned row, unsigned col) {
    if (row >= mma_tile_rows(operand) || col >= mma_tile_cols(operand)) return std::nullopt;
    switch (operand) {
    case MmaOperand::A: return FragmentElement{mma_a_lane(row, col), mma_a_reg(row, col), row, col};
    case MmaOperand::B: return FragmentElement{mma_b_lane(row, col), mma_b_reg(row, col), row, col};
    case MmaOperand::C: break;
    }
    return FragmentElement{mma_c_lane(row, col), mma_c_reg(row, col), row, col};
}

std::vector<WarpTile> mma_warp_tiles(const MatmulLaunch& launch) {
    std::vector<WarpTile> tiles;
    (void)with_matmul_variant(launch, [&](auto body) {
        using Body = decltype(body);
        if constexpr (has_tensor_core_tiles<Body>::value) {
            using S = typename Body::Tiles;
            for (unsigned w = 0; w < S::WARPS; ++w)  // as matmul_tensor_core: warps along N first
                tiles.push_back({w, (w / S::WARPS_N) * S::WM, (w % S::WARPS_N) * S::WN, S::WM, S::WN, S::MI, S::NI});
        }
    });
    return tiles;
}

std::optional<MmaOwner> mma_owner(const MatmulLaunch& launch, std::uint32_t m, std::uint32_t n, std::uint32_t row,
                                  std::uint32_t col) {
    if (row >= m || col >= n) return std::nullopt;
    const std::vector<WarpTile> tiles = mma_warp_tiles(launch);
    if (tiles.empty()) return std::nullopt;
    const Dim3 block_tile = matmul_output_tile(launch);  // columns x rows of C per block
    MmaOwner o;
    o.block = Dim3{col / block_tile.x, row / block_tile.y, 0};
    const unsigned r = row % block_tile.y, c = col % block_tile.x;
    for (const WarpTile& t : tiles)
        if (r >= t.row0 && r < t.row0 + t.rows && c >= t.col0 && c < t.col0 + t.cols) o.warp = t;
    const unsigned wr = r - o.warp.row0, wc = c - o.warp.col0;
    o.mi = wr / MmaShape::M;
    o.ni = wc / MmaShape::N;
    o.element = *mma_fragment_at(MmaOperand::C, wr % MmaShape::M, wc % MmaShape::N);
    return o;
}

}  // namespace cvz
