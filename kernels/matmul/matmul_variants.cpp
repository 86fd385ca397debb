#include "matmul_variants.h"

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

const KernelInfo* matmul_variant_info(MatmulVariant variant) {
    const std::vector<KernelInfo>& all = matmul_catalogue();
    const std::size_t i = std::size_t(variant);
    return i < all.size() ? &all[i] : nullptr;
}

}  // namespace cvz
