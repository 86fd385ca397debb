#include "convolution_variants.h"

namespace cvz {

namespace {

std::vector<KernelInfo> build_catalogue() {
    std::vector<KernelInfo> entries;
    for_each_variant(ConvolutionVariants{}, [&entries](auto spec) {
        entries.push_back(variant_info<decltype(spec)>(KernelFamily::Convolution));
    });
    return entries;
}

}  // namespace

const std::vector<KernelInfo>& convolution_catalogue() {
    static const std::vector<KernelInfo> entries = build_catalogue();
    return entries;
}

const KernelInfo* convolution_variant_info(ConvolutionVariant variant) {
    const std::vector<KernelInfo>& all = convolution_catalogue();
    const std::size_t i = std::size_t(variant);
    return i < all.size() ? &all[i] : nullptr;
}

}  // namespace cvz
