#include "matmul_variants.h"

#include <algorithm>
#include <cmath>

namespace cvz {

namespace {

std::vector<KernelInfo> build_catalogue() {
    std::vector<KernelInfo> entries;
    for_each_variant(MatmulVariants{}, [&entries](auto spec) {
        entries.push_back(variant_info<decltype(spec)>(KernelFamily::Matmul));
    });
    return entries;
}

}  // namespace

const std::vector<KernelInfo>& matmul_catalogue() {
    static const std::vector<KernelInfo> entries = build_catalogue();
    return entries;
}

double matmul_test_tolerance(MatmulVariant variant, std::uint32_t k) {
    const KernelInfo* info = matmul_variant_info(variant);
    if (!info) return 0;
    double tolerance = 0;
    with_matmul_variant(variant, info->tiles.empty() ? 0u : info->tiles.front(), [&](auto body) {
        using Body = decltype(body);
        unsigned bits = 24;
        if constexpr (has_operand_bits<Body>::value) bits = Body::operand_bits;
        tolerance = bits < 24 ? std::ldexp(1.0, -9) * std::sqrt(std::max(1.0, double(k)))
                              : 1e-5 * std::max(1.0, double(k) / 64);
    });
    return tolerance;
}

bool matmul_mma_shared_layout(const MatmulLaunch& launch, MmaSharedLayout* out) {
    bool found = false;
    (void)with_matmul_variant(launch, [&](auto body) {
        using Body = decltype(body);
        if constexpr (has_tensor_core_tiles<Body>::value) {
            *out = describe_mma_shared_layout<typename Body::Tiles>();
            found = true;
        }
    });
    return found;
}

const KernelInfo* matmul_variant_info(MatmulVariant variant) {
    const std::vector<KernelInfo>& all = matmul_catalogue();
    const std::size_t i = std::size_t(variant);
    return i < all.size() ? &all[i] : nullptr;
}

}  // namespace cvz
