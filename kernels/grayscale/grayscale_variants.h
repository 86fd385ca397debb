#pragma once
// The grayscale family's table: one spec per variant (its name, title, launch rule, layouts, exactness
// and body), and its one dispatcher. Adding a variant: write its body, add its enumerator
// (grayscale_launch_shape.h) and its spec here, and list it in GrayscaleVariants. The GPU launcher,
// the emulator, the occupancy API, the register table, the sweep, the CLI and the catalogue tests
// pick it up from here.
#include <cstddef>
#include <vector>

#include "../core/kernel_variant.h"
#include "../core/variant_dispatch.h"
#include "grayscale_body.h"
#include "grayscale_ladder.h"
#include "grayscale_launch_shape.h"

namespace cvz {

// The layouts a grayscale variant reads, as a bit set of PixelLayout.
constexpr unsigned layout_bit(PixelLayout layout) { return 1u << unsigned(layout); }
constexpr unsigned kAllLayouts = layout_bit(PixelLayout::Interleaved) | layout_bit(PixelLayout::Planar);

struct GrayscaleVariantDefaults : VariantDefaults {
    static constexpr unsigned layouts = kAllLayouts;
    static constexpr std::size_t shared_bytes(Dim3) { return 0; }
};

// The lecture's 1-D launch: i = blockIdx.x*blockDim.x + threadIdx.x over the flattened image. The
// family's reference variant.
struct Gray1d : GrayscaleVariantDefaults {
    static constexpr GrayscaleVariant id = GrayscaleVariant::Gray1d;
    static constexpr const char* name = "gray_1d";
    static constexpr const char* title = "1-D grid over the flattened image, one pixel per thread";
    static constexpr const char* label = "1-D";
    static constexpr BlockRule block = BlockRule::OneD;
    static constexpr KernelResources ptxas{14, 0};
    template <unsigned> using body = Gray1d;
    template <class Ctx>
    CVZ_HD static void run(const Ctx& ctx, const GrayscaleImage& im) {
        grayscale_1d(ctx, im);
    }
};

// The lecture's 2-D launch: column from x, row from y, guarded on both, grid-stride in y.
struct Gray2d : GrayscaleVariantDefaults {
    static constexpr GrayscaleVariant id = GrayscaleVariant::Gray2d;
    static constexpr const char* name = "gray_2d";
    static constexpr const char* title = "2-D grid of 2-D blocks over rows and columns, one pixel per thread";
    static constexpr const char* label = "2-D";
    static constexpr BlockRule block = BlockRule::TwoD;
    static constexpr KernelResources ptxas{20, 0};
    template <unsigned> using body = Gray2d;
    template <class Ctx>
    CVZ_HD static void run(const Ctx& ctx, const GrayscaleImage& im) {
        grayscale_2d(ctx, im);
    }
};

// Ladder step: four consecutive pixels per thread (a quarter of the threads, each with more work).
struct Gray1dX4 : GrayscaleVariantDefaults {
    static constexpr GrayscaleVariant id = GrayscaleVariant::Gray1dX4;
    static constexpr const char* name = "gray_1d_x4";
    static constexpr const char* title = "1-D grid, four consecutive pixels per thread";
    static constexpr const char* label = "1-D x4";
    static constexpr BlockRule block = BlockRule::OneD;
    static constexpr unsigned items_per_thread = 4;
    static constexpr KernelResources ptxas{24, 0};
    template <unsigned> using body = Gray1dX4;
    template <class Ctx>
    CVZ_HD static void run(const Ctx& ctx, const GrayscaleImage& im) {
        grayscale_1d_items<4>(ctx, im);
    }
};

// Ladder step: 16 pixels per thread moved with 16-byte loads and stores (three in, one out), in a
// grid-stride loop; tails and misaligned buffers pixel by pixel.
struct GrayVec16 : GrayscaleVariantDefaults {
    static constexpr GrayscaleVariant id = GrayscaleVariant::GrayVec16;
    static constexpr const char* name = "gray_vec16";
    static constexpr const char* title = "1-D grid-stride loop, 16 pixels per thread with 16-byte loads and stores";
    static constexpr const char* label = "vec16";
    static constexpr BlockRule block = BlockRule::OneD;
    static constexpr unsigned items_per_thread = 16;
    static constexpr KernelResources ptxas{31, 0};
    template <unsigned> using body = GrayVec16;
    template <class Ctx>
    CVZ_HD static void run(const Ctx& ctx, const GrayscaleImage& im) {
        grayscale_vec16(ctx, im);
    }
};

// Ladder step: gray_vec16's body on a grid sized in waves of the device rather than to the image: four
// waves of the H200 at full occupancy (132 SMs x 2048 resident threads), the grid-stride loop covering
// the rest. A fixed grid whatever the image; on the H200 it costs 1% at 7680x4320 against gray_vec16's
// grid of one thread per 16 pixels (one wave: 6%), see the README.
struct GrayVec16Waves : GrayVec16 {
    static constexpr GrayscaleVariant id = GrayscaleVariant::GrayVec16Waves;
    static constexpr const char* name = "gray_vec16_waves";
    static constexpr const char* title =
        "gray_vec16 on a grid of four waves of the H200 (132 SMs x 2048 threads), grid-stride over the image";
    static constexpr const char* label = "vec16 waves";
    static constexpr std::uint64_t grid_threads = 4ull * 132 * 2048;
    template <unsigned> using body = GrayVec16Waves;
};

using GrayscaleVariants = VariantList<Gray1d, Gray2d, Gray1dX4, GrayVec16, GrayVec16Waves>;

// The dispatcher: f(Body{}) with the body of `variant` (grayscale variants take no TILE).
template <class F>
Status with_grayscale_variant(GrayscaleVariant variant, F&& f) {
    return with_variant(GrayscaleVariants{}, "grayscale", variant, 0, std::forward<F>(f));
}

// The family's catalogue entries, in table order.
const std::vector<KernelInfo>& grayscale_catalogue();

// The entry of `variant`, or null when there is no such variant.
const KernelInfo* grayscale_variant_info(GrayscaleVariant variant);

}  // namespace cvz
