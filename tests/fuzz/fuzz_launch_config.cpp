// Fuzz target: parse_launch_config, the block-shape text the launch panel and the CLI's --block take.
// Any text must give a valid shape or a message. A valid shape must print and parse back to itself,
// and whenever a kernel's launch validation accepts it for a problem size, the grid the runner would
// launch must fit CUDA's grid limits (validation and grid computation agree), at the extreme sizes.
#include "app/models/launch_config.h"
#include "fuzz_check.h"
#include "kernels/core/launch_limits.h"
#include "kernels/grayscale/grayscale_launch.h"
#include "kernels/matmul/matmul_launch.h"

using namespace cvz;

namespace {

struct Size2 {
    std::uint32_t w, h;
};

// Image sizes at and around the limits: the smallest, one line each way, the tallest the 2-D grid
// covers only with its grid-stride loop, and the largest ImageLimits and MatrixLimits allow.
constexpr Size2 kImageSizes[] = {{1, 1},         {1, 1u << 20},   {1u << 20, 1},    {3, 65535u * 1024u + 7},
                                 {16384, 16384}, {1u << 20, 256}, {256, 1u << 20}, {4097, 4095}};
constexpr std::uint32_t kMatrixSides[] = {1, 31, 1024, 65535, 65536, 1u << 24};

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) { return 0; }

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const QString text = QString::fromUtf8(reinterpret_cast<const char*>(data), qsizetype(size));
    const LaunchConfigParse parsed = parse_launch_config(text);
    if (!parsed.ok()) return 0;

    const LaunchShape& s = parsed.shape;
    FUZZ_CHECK(validate_launch_config(s).isEmpty());
    FUZZ_CHECK(validate_block(s.block).empty());
    FUZZ_CHECK(s.block.volume() >= 1 && s.block.volume() <= 1024);
    FUZZ_CHECK(s.block.z == 1);
    FUZZ_CHECK(s.kind == GrayscaleVariant::TwoD || s.block.y == 1);

    const LaunchConfigParse again = parse_launch_config(QString::fromStdString(to_string(s)));
    FUZZ_CHECK(again.ok() && again.shape.kind == s.kind && again.shape.block == s.block);

    for (const Size2 im : kImageSizes)
        if (validate_grayscale_launch(s, im.w, im.h).empty()) FUZZ_CHECK(validate_grid(grayscale_grid(s, im.w, im.h)).empty());

    if (s.kind == GrayscaleVariant::TwoD) {
        const MatmulLaunch naive = MatmulLaunch::naive(s.block.x, s.block.y);
        for (const std::uint32_t m : kMatrixSides)
            for (const std::uint32_t n : kMatrixSides)
                if (validate_matmul_launch(naive, m, 7, n).empty()) FUZZ_CHECK(validate_grid(matmul_grid(naive, m, n)).empty());
    }
    return 0;
}
