#pragma once
// The convolution family's table: one spec per variant (its name, title, launch rule, where it keeps
// the mask, what it stages, and its body), and its one dispatcher. Adding a variant: write its body
// (convolution_body.h), add its enumerator (convolution_launch.h) and its spec here, and list it in
// ConvolutionVariants.
#include <cstddef>
#include <vector>

#include "../core/kernel_variant.h"
#include "../core/variant_dispatch.h"
#include "convolution_body.h"
#include "convolution_launch.h"

namespace cvz {

// What a variant stages in shared memory.
enum class ConvolutionStaging { None, TileWithHalo, TileOnly };

struct ConvolutionVariantDefaults : VariantDefaults {
    static constexpr BlockRule block = BlockRule::TwoD;
    static constexpr bool constant_mask = true;
    static constexpr ConvolutionStaging staging = ConvolutionStaging::None;
};
// Each body gives its dynamic shared memory twice: shared_bytes(block, side) for a mask of side
// `side`, and shared_bytes(block) (variant_dispatch.h's) for the largest mask, kMaxMaskSide: the most
// a launch of that block can ask for.

// Global memory only: the window's pixels and the mask. The family's reference variant.
struct ConvNaive : ConvolutionVariantDefaults {
    static constexpr ConvolutionVariant id = ConvolutionVariant::Naive;
    static constexpr const char* name = "conv_naive";
    static constexpr const char* title = "one thread per output pixel, the window and the mask read from global memory";
    static constexpr const char* label = "naive";
    static constexpr bool constant_mask = false;
    static constexpr KernelResources ptxas{31, 0};
    static constexpr std::size_t shared_bytes(Dim3, std::uint32_t) { return 0; }
    static constexpr std::size_t shared_bytes(Dim3) { return 0; }
    template <unsigned> using body = ConvNaive;
    template <class Ctx>
    CVZ_HD static void run(const Ctx& ctx, const ConvolutionProblem& p) {
        conv_direct<MaskSpace::Global>(ctx, p);
    }
};

// The mask in __constant__ memory: a warp reads one mask value at a time, a broadcast.
struct ConvConstant : ConvolutionVariantDefaults {
    static constexpr ConvolutionVariant id = ConvolutionVariant::Constant;
    static constexpr const char* name = "conv_constant";
    static constexpr const char* title = "one thread per output pixel, the window from global memory, the mask from constant memory";
    static constexpr const char* label = "constant";
    static constexpr KernelResources ptxas{30, 0};
    static constexpr std::size_t shared_bytes(Dim3, std::uint32_t) { return 0; }
    static constexpr std::size_t shared_bytes(Dim3) { return 0; }
    template <unsigned> using body = ConvConstant;
    template <class Ctx>
    CVZ_HD static void run(const Ctx& ctx, const ConvolutionProblem& p) {
        conv_direct<MaskSpace::Constant>(ctx, p);
    }
};

// The input tile with its halo staged in shared memory (PMPP 7.4), the mask in constant memory.
struct ConvTiled : ConvolutionVariantDefaults {
    static constexpr ConvolutionVariant id = ConvolutionVariant::Tiled;
    static constexpr const char* name = "conv_tiled";
    static constexpr const char* title =
        "the block's input tile with its halo staged in shared memory, then every window read from there; mask in constant memory";
    static constexpr const char* label = "tiled";
    static constexpr bool barriers = true;
    static constexpr ConvolutionStaging staging = ConvolutionStaging::TileWithHalo;
    static constexpr KernelResources ptxas{28, 0};
    static constexpr std::size_t shared_bytes(Dim3 b, std::uint32_t side) {
        return std::size_t(b.x + side - 1) * (b.y + side - 1) * sizeof(float);
    }
    static constexpr std::size_t shared_bytes(Dim3 b) { return shared_bytes(b, kMaxMaskSide); }
    template <unsigned> using body = ConvTiled;
    template <class Ctx>
    CVZ_HD static void run(const Ctx& ctx, const ConvolutionProblem& p) {
        conv_tiled(ctx, p);
    }
};

// The tile without its halo in shared memory, the halo from global memory through the caches
// (PMPP 7.5), the mask in constant memory.
struct ConvTiledCached : ConvolutionVariantDefaults {
    static constexpr ConvolutionVariant id = ConvolutionVariant::TiledCached;
    static constexpr const char* name = "conv_tiled_cached";
    static constexpr const char* title =
        "the block's own pixels staged in shared memory, halo pixels read from global memory (the caches); mask in constant memory";
    static constexpr const char* label = "tiled cached";
    static constexpr bool barriers = true;
    static constexpr ConvolutionStaging staging = ConvolutionStaging::TileOnly;
    static constexpr KernelResources ptxas{27, 0};
    static constexpr std::size_t shared_bytes(Dim3 b, std::uint32_t) { return std::size_t(b.x) * b.y * sizeof(float); }
    static constexpr std::size_t shared_bytes(Dim3 b) { return shared_bytes(b, 1); }
    template <unsigned> using body = ConvTiledCached;
    template <class Ctx>
    CVZ_HD static void run(const Ctx& ctx, const ConvolutionProblem& p) {
        conv_tiled_cached(ctx, p);
    }
};

using ConvolutionVariants = VariantList<ConvNaive, ConvConstant, ConvTiled, ConvTiledCached>;

// The dispatcher: f(Body{}) with the body of `variant` (convolution variants take no TILE).
template <class F>
Status with_convolution_variant(ConvolutionVariant variant, F&& f) {
    return with_variant(ConvolutionVariants{}, "convolution", variant, 0, std::forward<F>(f));
}

// The family's catalogue entries, in table order.
const std::vector<KernelInfo>& convolution_catalogue();

// The entry of `variant`, or null when there is no such variant.
const KernelInfo* convolution_variant_info(ConvolutionVariant variant);

}  // namespace cvz
