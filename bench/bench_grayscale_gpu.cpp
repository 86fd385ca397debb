// The grayscale kernel on the GPU: kernel time (CUDA events, median of --repeats after a warm-up)
// and bandwidth (3n bytes read + n written) at 1920x1080, 3840x2160 and 7680x4320 for every variant
// of the catalogue (1-D ones with 256-thread blocks, 2-D ones with 16x16 and 32x8), both layouts; and,
// in the same run, a device-to-device copy of a large buffer as the bandwidth ceiling (bytes read +
// written), and at each size a copy of as many bytes as the kernel moves (2n copied: 4n read + written),
// which pays the same launch, ramp-up and tail as the kernel.
// "cold" times flush the L2 cache before each launch (what a new picture costs); "warm" times run
// back to back, so an image that fits the L2 cache is read from it.
//
//   bench_grayscale_gpu [--repeats N] [--copy-mib M] [--json FILE]
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "kernels/cuda/cuda_devices.h"
#include "kernels/cuda/cuda_event.h"
#include "kernels/cuda/device_buffer.h"
#include "kernels/grayscale/grayscale_device_launch.h"
#include "kernels/grayscale/grayscale_launch.h"
#include "kernels/grayscale/grayscale_reference.h"
#include "kernels/grayscale/grayscale_variants.h"

using namespace cvz;

namespace {

struct Row {
    std::uint32_t width, height;
    std::string shape, layout;
    double cold_ms, warm_ms;
    double cold_gbs, warm_gbs;
    double same_copy_cold_ms, same_copy_warm_ms;  // cudaMemcpy of 2n bytes at this size, same run
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

bool check(const Status& s, const char* what) {
    if (!s) std::fprintf(stderr, "%s: %s\n", what, s.message().c_str());
    return s.is_ok();
}

// Milliseconds of `work` on the default stream, measured with a pair of events around each run,
// median of `repeats` after `warmup` untimed runs; `before` runs untimed ahead of each one (the L2
// flush). All runs are queued before the first is waited for, so the GPU never idles between an
// event and the launch after it and the events bracket the GPU's work alone, not launch latency.
bool time_ms(int warmup, int repeats, const std::function<Status()>& before, const std::function<Status()>& work,
             double* ms) {
    const std::size_t count = std::size_t(repeats);
    std::vector<CudaEvent> a(count), b(count);
    for (std::size_t i = 0; i < count; ++i)
        if (!check(a[i].create(), "event") || !check(b[i].create(), "event")) return false;
    for (int i = 0; i < warmup; ++i)
        if (!check(work(), "warm-up")) return false;
    for (std::size_t i = 0; i < count; ++i) {
        if (before && !check(before(), "flush")) return false;
        if (!check(a[i].record(nullptr), "record") || !check(work(), "run") || !check(b[i].record(nullptr), "record"))
            return false;
    }
    std::vector<double> t(count);
    for (std::size_t i = 0; i < count; ++i)
        if (!check(elapsed_ms(a[i], b[i], &t[i]), "elapsed")) return false;
    *ms = median(t);
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    int repeats = 50;
    std::size_t copy_mib = 2048;
    std::string json;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--repeats" && i + 1 < argc) repeats = std::max(20, std::stoi(argv[++i]));
        else if (a == "--copy-mib" && i + 1 < argc) copy_mib = std::max<std::size_t>(64, std::stoul(argv[++i]));
        else if (a == "--json" && i + 1 < argc) json = argv[++i];
        else {
            std::fprintf(stderr, "usage: bench_grayscale_gpu [--repeats N>=20] [--copy-mib M] [--json FILE]\n");
            return 2;
        }
    }
    const CudaInventory inv = query_cuda_devices();
    if (!inv.status || inv.devices.empty()) {
        std::fprintf(stderr, "no CUDA device: %s\n", inv.status.message().c_str());
        return 1;
    }
    const std::string device = inv.devices.front().name;

    // The ceiling: one large device-to-device copy.
    const std::size_t copy_bytes = copy_mib << 20;
    DeviceBuffer<std::uint8_t> src, dst;
    if (!check(src.allocate(copy_bytes), "copy source") || !check(dst.allocate(copy_bytes), "copy target")) return 1;
    if (!check(cuda_status(cudaMemset(src.get(), 1, copy_bytes), "cudaMemset"), "fill")) return 1;
    double copy_ms = 0;
    if (!time_ms(3, 20, nullptr, [&] {
            return cuda_status(cudaMemcpyAsync(dst.get(), src.get(), copy_bytes, cudaMemcpyDeviceToDevice, nullptr),
                               "cudaMemcpyAsync");
        }, &copy_ms))
        return 1;
    const double copy_gbs = 2.0 * double(copy_bytes) / (copy_ms * 1e6);
    dst.reset();  // the rest of `src` serves as the L2 flush buffer
    const std::size_t flush_bytes = std::min<std::size_t>(copy_bytes, 256u << 20);
    auto flush = [&] { return cuda_status(cudaMemsetAsync(src.get(), 0, flush_bytes, nullptr), "L2 flush"); };

    struct Size {
        std::uint32_t w, h;
    };
    const Size sizes[] = {{1920, 1080}, {3840, 2160}, {7680, 4320}};
    // Every variant of the catalogue: 1-D ones with 256-thread blocks, 2-D ones with 16x16 and 32x8.
    std::vector<LaunchShape> shapes;
    for (const KernelInfo& info : grayscale_catalogue()) {
        const GrayscaleVariant v = GrayscaleVariant(info.variant);
        if (info.block == BlockRule::TwoD) {
            shapes.push_back(LaunchShape::of(v, Dim3{16, 16, 1}));
            shapes.push_back(LaunchShape::of(v, Dim3{32, 8, 1}));
        } else {
            shapes.push_back(LaunchShape::of(v, info.block == BlockRule::Fixed ? info.fixed_block : Dim3{256, 1, 1}));
        }
    }
    std::vector<Row> rows;
    std::mt19937 rng(1);
    for (const Size& sz : sizes) {
        const std::uint64_t n = std::uint64_t(sz.w) * sz.h;
        std::vector<std::uint8_t> rgb(3 * n), want(n), got(n);
        for (auto& b : rgb) b = std::uint8_t(rng());
        DeviceBuffer<std::uint8_t> d_rgb, d_gray;
        if (!check(d_rgb.allocate(3 * n), "rgb") || !check(d_gray.allocate(n), "gray")) return 1;
        if (!check(cuda_status(cudaMemcpy(d_rgb.get(), rgb.data(), 3 * n, cudaMemcpyHostToDevice), "upload"), "upload"))
            return 1;
        // A copy of 2n bytes (within the flush buffer `src`, whose first 256 MiB the L2 flush rewrites).
        double same_cold = 0, same_warm = 0;
        {
            std::uint8_t* from = src.get() + copy_bytes / 2;
            auto copy = [&] {
                return cuda_status(cudaMemcpyAsync(src.get() + flush_bytes, from, 2 * n, cudaMemcpyDeviceToDevice, nullptr),
                                   "cudaMemcpyAsync");
            };
            if (!time_ms(5, repeats, flush, copy, &same_cold) || !time_ms(5, repeats, nullptr, copy, &same_warm)) return 1;
        }
        for (PixelLayout layout : {PixelLayout::Interleaved, PixelLayout::Planar}) {
            // The bytes are random, so the same buffer serves as either layout; the reference says which.
            grayscale_reference({rgb.data(), want.data(), sz.w, sz.h, layout});
            const GrayscaleImage im{d_rgb.get(), d_gray.get(), sz.w, sz.h, layout};
            for (std::size_t si = 0; si < shapes.size(); ++si) {
                const LaunchShape& shape = shapes[si];
                auto run = [&] { return launch_grayscale_on_device(im, shape, nullptr); };
                if (!check(cuda_status(cudaMemset(d_gray.get(), 0xAB, n), "poison"), "poison")) return 1;
                Row r{sz.w, sz.h,
                      grayscale_variant_info(shape.kind)->name + " " + to_string(shape) + " grid " +
                          std::to_string(grayscale_grid(shape, sz.w, sz.h).x),
                      layout == PixelLayout::Planar ? "planar" : "interleaved", 0, 0, 0, 0, same_cold, same_warm};
                if (!time_ms(5, repeats, flush, run, &r.cold_ms) || !time_ms(5, repeats, nullptr, run, &r.warm_ms))
                    return 1;
                if (!check(cuda_status(cudaMemcpy(got.data(), d_gray.get(), n, cudaMemcpyDeviceToHost), "download"), "download"))
                    return 1;
                if (got != want) {
                    std::fprintf(stderr, "%ux%u %s %s: the GPU result differs from the CPU reference\n", sz.w, sz.h,
                                 r.shape.c_str(), r.layout.c_str());
                    return 1;
                }
                r.cold_gbs = 4.0 * double(n) / (r.cold_ms * 1e6);
                r.warm_gbs = 4.0 * double(n) / (r.warm_ms * 1e6);
                rows.push_back(r);
            }
        }
    }

    std::printf("device: %s; medians of %d launches after warm-up, CUDA events\n", device.c_str(), repeats);
    std::printf("ceiling: device-to-device copy of %zu MiB: %.3f ms = %.0f GB/s (read + write)\n", copy_mib, copy_ms,
                copy_gbs);
    std::printf("%%copy: of the large copy's GB/s; %%same: of the GB/s of a copy of 2n bytes at that size (cold with\n"
                "cold, warm with warm), which pays the same launch, ramp-up and tail\n");
    std::printf("%-10s %-36s %-12s %9s %7s %6s %6s %9s %7s %6s %6s\n", "size", "shape", "layout", "cold us", "GB/s",
                "%copy", "%same", "warm us", "GB/s", "%copy", "%same");
    for (const Row& r : rows)
        std::printf("%-10s %-36s %-12s %9.1f %7.0f %5.0f%% %5.0f%% %9.1f %7.0f %5.0f%% %5.0f%%\n",
                    (std::to_string(r.width) + "x" + std::to_string(r.height)).c_str(), r.shape.c_str(),
                    r.layout.c_str(), r.cold_ms * 1e3, r.cold_gbs, 100 * r.cold_gbs / copy_gbs,
                    100 * r.same_copy_cold_ms / r.cold_ms, r.warm_ms * 1e3, r.warm_gbs, 100 * r.warm_gbs / copy_gbs,
                    100 * r.same_copy_warm_ms / r.warm_ms);

    if (!json.empty()) {
        std::ofstream f(json);
        f << "{\n  \"benchmark\": \"grayscale_gpu\",\n  \"device\": \"" << device << "\",\n  \"repeats\": " << repeats
          << ",\n  \"copy\": {\"bytes\": " << copy_bytes << ", \"median_ms\": " << copy_ms << ", \"gb_per_s\": " << copy_gbs
          << "},\n  \"results\": [\n";
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const Row& r = rows[i];
            f << "    {\"width\": " << r.width << ", \"height\": " << r.height << ", \"shape\": \"" << r.shape
              << "\", \"layout\": \"" << r.layout << "\", \"cold_ms\": " << r.cold_ms << ", \"cold_gb_per_s\": "
              << r.cold_gbs << ", \"warm_ms\": " << r.warm_ms << ", \"warm_gb_per_s\": " << r.warm_gbs
              << ", \"fraction_of_copy\": " << r.cold_gbs / copy_gbs << ", \"warm_fraction_of_copy\": "
              << r.warm_gbs / copy_gbs << ", \"same_size_copy_cold_ms\": " << r.same_copy_cold_ms
              << ", \"same_size_copy_warm_ms\": " << r.same_copy_warm_ms << "}" << (i + 1 < rows.size() ? "," : "") << "\n";
        }
        f << "  ]\n}\n";
        if (!f) {
            std::fprintf(stderr, "cannot write %s\n", json.c_str());
            return 1;
        }
    }
    return 0;
}
