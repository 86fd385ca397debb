#pragma once
// The list of kernel families. Adding a family: its trait (kernels/<family>/<family>_family.h), its
// KernelFamily enumerator (kernels/core/kernel_variant.h), and one entry in KernelFamilies below (with
// its include). Everything in kernels/catalogue, kernels/core and kernels/cuda iterates this list.
#include <utility>

#include "../convolution/convolution_family.h"
#include "../grayscale/grayscale_family.h"
#include "../matmul/matmul_family.h"

namespace cvz {

template <class... Families>
struct FamilyList {};

using KernelFamilies = FamilyList<GrayscaleFamily, MatmulFamily, ConvolutionFamily>;

// f(Body{}) with the body of variant `variant` (and `tile`) of family trait Family.
template <class Family, class F>
Status with_family_variant(std::uint8_t variant, unsigned tile, F&& f) {
    return with_variant(typename Family::Variants{}, Family::name, typename Family::Variant(variant), tile,
                        std::forward<F>(f));
}

// Calls f(Family{}) for every family trait, in order.
template <class... Families, class F>
void for_each_family(FamilyList<Families...>, F&& f) {
    (f(Families{}), ...);
}

}  // namespace cvz
