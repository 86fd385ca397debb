#include "matmul_launch.h"

#include <algorithm>

#include "../core/launch_limits.h"
#include "matmul_variants.h"

namespace cvz {

Dim3 MatmulLaunch::block_shape() const {
    const KernelInfo* info = matmul_variant_info(kernel);
    if (!info) return block;
    switch (info->block) {
        case BlockRule::Tile: return Dim3{tile, tile, 1};
        case BlockRule::Fixed: return info->fixed_block;
        case BlockRule::OneD:
        case BlockRule::TwoD: break;
    }
    return block;
}

std::size_t MatmulLaunch::shared_bytes() const {
    std::size_t bytes = 0;
    const Dim3 b = block_shape();
    with_matmul_variant(*this, [&](auto body) { bytes = decltype(body)::shared_bytes(b); });
    return bytes;
}

KernelRef MatmulLaunch::ref() const {
    const KernelInfo* info = matmul_variant_info(kernel);
    if (!info) return {KernelFamily::Matmul, std::uint8_t(kernel), tile};
    return info->ref(tile);
}

std::string to_string(const MatmulLaunch& l) {
    const KernelInfo* info = matmul_variant_info(l.kernel);
    if (!info) return "matmul variant " + std::to_string(int(l.kernel));
    if (info->block == BlockRule::Tile) return info->label + " TILE=" + std::to_string(l.tile);
    const Dim3 b = l.block_shape();
    const std::string shape = std::to_string(b.x) + "x" + std::to_string(b.y);
    // A fixed block with a TILE list (split-K: its slices): "split-K slices=4 256x1", 0 the automatic one.
    if (!info->tiles.empty()) return info->label + "=" + (l.tile == 0 ? std::string("auto") : std::to_string(l.tile)) + " " + shape;
    return info->label + " " + shape;
}

Dim3 matmul_output_tile(const MatmulLaunch& l) {
    const Dim3 b = l.block_shape();
    if (b.x == 0 || b.y == 0) return Dim3{0, 0, 1};
    const KernelInfo* info = matmul_variant_info(l.kernel);
    const unsigned items = info ? std::max(1u, info->items_per_thread) : 1u;
    Dim3 per{b.x * items, b.y, 1};  // outputs one block covers: columns, rows
    with_matmul_variant(l, [&](auto body) {
        using Body = decltype(body);
        if constexpr (has_block_tile<Body>::value) per = Body::block_tile;
    });
    return per;
}

unsigned matmul_k_slice(const MatmulLaunch& l) {
    unsigned slice = 0;
    with_matmul_variant(l, [&](auto body) {
        using Body = decltype(body);
        if constexpr (has_k_slice<Body>::value) slice = Body::k_slice;
    });
    return slice;
}

unsigned matmul_tensor_core_passes(const MatmulLaunch& launch) {
    unsigned passes = 0;
    (void)with_matmul_variant(launch, [&](auto body) {
        using Body = decltype(body);
        if constexpr (has_passes<Body>::value) passes = Body::passes;
    });
    return passes;
}

unsigned matmul_auto_split_slices(std::uint64_t output_tiles) {
    if (output_tiles == 0 || output_tiles >= kSplitKTargetBlocks) return 1;
    return unsigned(std::min<std::uint64_t>(kSplitKMaxSlices, kSplitKTargetBlocks / output_tiles));
}

unsigned matmul_split_slices(const MatmulLaunch& l, std::uint32_t m, std::uint32_t n) {
    bool split = false;
    with_matmul_variant(l, [&](auto body) { split = has_split_k<decltype(body)>::value; });
    if (!split) return 1;
    if (l.tile > 0) return l.tile;
    const Dim3 per = matmul_output_tile(l);
    if (per.x == 0 || per.y == 0) return 1;
    return matmul_auto_split_slices(cdiv(n, per.x) * cdiv(m, per.y));
}

std::size_t matmul_workspace_floats(const MatmulLaunch& l, std::uint32_t m, std::uint32_t n) {
    return std::size_t(matmul_split_slices(l, m, n) - 1) * m * n;
}

Dim3 matmul_grid(const MatmulLaunch& l, std::uint32_t m, std::uint32_t n) {
    const Dim3 per = matmul_output_tile(l);
    if (per.x == 0 || per.y == 0) return Dim3{0, 0, 1};
    return Dim3{unsigned(cdiv(n, per.x)), unsigned(cdiv(m, per.y)), matmul_split_slices(l, m, n)};
}

std::string validate_matmul_launch(const MatmulLaunch& l, std::uint32_t m, std::uint32_t k, std::uint32_t n) {
    const KernelInfo* info = matmul_variant_info(l.kernel);
    if (!info) return "there is no matmul kernel variant number " + std::to_string(int(l.kernel));
    if (m == 0 || k == 0 || n == 0)
        return "the matrices are empty (" + std::to_string(m) + "x" + std::to_string(k) + " @ " + std::to_string(k) +
               "x" + std::to_string(n) + ")";
    if (!info->tiles.empty()) {  // a TILE, or split-K's slices
        if (Status s = with_matmul_variant(l, [](auto) {}); !s)
            return (info->block == BlockRule::Tile ? std::string("TILE") : info->label) + " = " + std::to_string(l.tile) +
                   " is not one of " + tiles_text(info->tiles);
    }
    const Dim3 b = l.block_shape();
    if (b.z != 1) return "a matmul launch has blockDim.z = 1";
    if (std::string e = validate_block(b); !e.empty()) return e;
    return validate_grid(matmul_grid(l, m, n));
}

}  // namespace cvz
