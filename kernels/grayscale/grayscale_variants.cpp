#include "grayscale_variants.h"

namespace cvz {

namespace {

std::vector<KernelInfo> build_catalogue() {
    std::vector<KernelInfo> entries;
    for_each_variant(GrayscaleVariants{}, [&entries](auto spec) {
        using Spec = decltype(spec);
        KernelInfo info = variant_info<Spec>(KernelFamily::Grayscale);
        if (Spec::layouts & layout_bit(PixelLayout::Interleaved)) info.layouts.push_back("interleaved");
        if (Spec::layouts & layout_bit(PixelLayout::Planar)) info.layouts.push_back("planar");
        entries.push_back(std::move(info));
    });
    return entries;
}

}  // namespace

const std::vector<KernelInfo>& grayscale_catalogue() {
    static const std::vector<KernelInfo> entries = build_catalogue();
    return entries;
}

const KernelInfo* grayscale_variant_info(GrayscaleVariant variant) {
    const std::vector<KernelInfo>& all = grayscale_catalogue();
    const std::size_t i = std::size_t(variant);
    return i < all.size() ? &all[i] : nullptr;
}

}  // namespace cvz
