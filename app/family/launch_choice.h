#pragma once
// A launch as the controls choose it and the models take it: which compiled kernel (family, variant
// and TILE, a KernelRef) and its block. One typed value from a slider to a family's session; text is
// only for display. What else a family's launch needs (a pixel layout, a mask)
// belongs to its problem, not to the choice.
#include "kernels/catalogue/kernel_catalogue.h"
#include "kernels/core/dim3.h"
#include "kernels/core/kernel_variant.h"

namespace cvz {

struct LaunchChoice {
    KernelRef ref;
    Dim3 block{16, 16, 1};  // as chosen; the block launched follows the variant's rule (launched_block)

    const KernelInfo* info() const { return kernel_info(ref); }
};

inline bool operator==(const LaunchChoice& a, const LaunchChoice& b) { return a.ref == b.ref && a.block == b.block; }
inline bool operator!=(const LaunchChoice& a, const LaunchChoice& b) { return !(a == b); }

// The block the kernel is launched with: TILE x TILE for a variant that takes a TILE, the variant's
// fixed block for a fixed one, else the chosen block.
inline Dim3 launched_block(const LaunchChoice& choice) {
    const KernelInfo* info = choice.info();
    if (!info) return choice.block;
    switch (info->block) {
        case BlockRule::Tile: return Dim3{choice.ref.tile, choice.ref.tile, 1};
        case BlockRule::Fixed: return info->fixed_block;
        case BlockRule::OneD: return Dim3{choice.block.x, 1, 1};
        case BlockRule::TwoD: break;
    }
    return choice.block;
}

}  // namespace cvz
