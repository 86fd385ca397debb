// The convolution kernels on the GPU: kernel time (CUDA events, median of --repeats after a warm-up)
// and bandwidth against the compulsory traffic (n bytes of grayscale read + 4n bytes of float32
// written) at 1920x1080 and 7680x4320, masks of side 3, 7 and 15, every variant of the catalogue with
// 16x16 and 32x8 blocks; and, in the same run, a device-to-device copy of a large buffer as the
// bandwidth ceiling (bytes read + written). "cold" times flush the L2 cache before each launch;
// "warm" times run back to back. Every launch's output is checked: byte for byte against the CPU
// reference at 1920x1080, and against conv_naive's GPU bytes at every size.
//
//   bench_convolution_gpu [--repeats N] [--copy-mib M] [--json FILE]
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "kernels/convolution/convolution_device_launch.h"
#include "kernels/convolution/convolution_reference.h"
#include "kernels/convolution/convolution_variants.h"
#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/cuda_devices.h"
#include "kernels/cuda/cuda_event.h"
#include "kernels/cuda/device_buffer.h"

using namespace cvz;

namespace {

struct Row {
    std::uint32_t width, height, side;
    std::string shape;
    double cold_ms, warm_ms, cold_gbs, warm_gbs;
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

bool check(const Status& s, const char* what) {
    if (!s) std::fprintf(stderr, "%s: %s\n", what, s.message().c_str());
    return s.is_ok();
}

// As bench_grayscale_gpu: every run queued before the first is waited for, events around each.
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
    int repeats = 20;
    std::size_t copy_mib = 2048;
    std::string json;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--repeats" && i + 1 < argc) repeats = std::max(5, std::stoi(argv[++i]));
        else if (a == "--copy-mib" && i + 1 < argc) copy_mib = std::max<std::size_t>(64, std::stoul(argv[++i]));
        else if (a == "--json" && i + 1 < argc) json = argv[++i];
        else {
            std::fprintf(stderr, "usage: bench_convolution_gpu [--repeats N>=5] [--copy-mib M] [--json FILE]\n");
            return 2;
        }
    }
    const CudaInventory inv = query_cuda_devices();
    if (!inv.status || inv.devices.empty()) {
        std::fprintf(stderr, "no CUDA device: %s\n", inv.status.message().c_str());
        return 1;
    }
    const std::string device = inv.devices.front().name;

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
    dst.reset();
    const std::size_t flush_bytes = std::min<std::size_t>(copy_bytes, 256u << 20);
    auto flush = [&] { return cuda_status(cudaMemsetAsync(src.get(), 0, flush_bytes, nullptr), "L2 flush"); };

    struct Size {
        std::uint32_t w, h;
    };
    const Size sizes[] = {{1920, 1080}, {7680, 4320}};
    const std::uint32_t sides[] = {3, 7, 15};
    std::vector<ConvolutionLaunch> launches;
    for (const KernelInfo& info : convolution_catalogue())
        for (Dim3 b : {Dim3{16, 16, 1}, Dim3{32, 8, 1}}) launches.push_back(ConvolutionLaunch::of(ConvolutionVariant(info.variant), b));

    std::vector<Row> rows;
    std::mt19937 rng(1);
    for (const Size& sz : sizes) {
        const std::uint64_t n = std::uint64_t(sz.w) * sz.h;
        std::vector<std::uint8_t> gray(n);
        for (auto& b : gray) b = std::uint8_t(rng());
        DeviceBuffer<std::uint8_t> d_gray;
        DeviceBuffer<float> d_mask, d_out;
        if (!check(d_gray.allocate(n), "gray") || !check(d_out.allocate(n), "out") || !check(d_mask.allocate(kMaxMaskValues), "mask"))
            return 1;
        if (!check(cuda_status(cudaMemcpy(d_gray.get(), gray.data(), n, cudaMemcpyHostToDevice), "upload"), "upload")) return 1;
        for (std::uint32_t side : sides) {
            std::vector<float> mask(std::size_t(side) * side);
            for (float& v : mask) v = float(int(rng() % 2001) - 1000) / 1000.0f;
            if (!check(cuda_status(cudaMemcpy(d_mask.get(), mask.data(), mask.size() * 4, cudaMemcpyHostToDevice), "mask"), "mask") ||
                !check(set_convolution_constant_mask(mask.data(), side), "constant mask"))
                return 1;
            std::vector<float> want;  // the reference's bytes (the smaller size), else conv_naive's on the GPU
            if (sz.w == 1920) {
                want.resize(n);
                ConvolutionProblem host{gray.data(), mask.data(), want.data(), sz.w, sz.h, side};
                convolution_reference(host);
            }
            const ConvolutionProblem dev{d_gray.get(), d_mask.get(), d_out.get(), sz.w, sz.h, side};
            std::vector<float> got(n);
            for (const ConvolutionLaunch& l : launches) {
                auto run = [&] { return launch_convolution_on_device(dev, l, nullptr); };
                if (!check(cuda_status(cudaMemset(d_out.get(), 0xAB, n * 4), "poison"), "poison")) return 1;
                Row r{sz.w, sz.h, side, convolution_variant_info(l.kernel)->name + " " + std::to_string(l.block.x) + "x" + std::to_string(l.block.y), 0, 0, 0, 0};
                if (!time_ms(3, repeats, flush, run, &r.cold_ms) || !time_ms(3, repeats, nullptr, run, &r.warm_ms)) return 1;
                if (!check(cuda_status(cudaMemcpy(got.data(), d_out.get(), n * 4, cudaMemcpyDeviceToHost), "download"), "download"))
                    return 1;
                if (want.empty()) want = got;  // conv_naive runs first
                if (std::memcmp(got.data(), want.data(), n * 4) != 0) {
                    std::fprintf(stderr, "%ux%u mask %u %s: the GPU result differs from the reference bytes\n", sz.w, sz.h,
                                 side, r.shape.c_str());
                    return 1;
                }
                r.cold_gbs = 5.0 * double(n) / (r.cold_ms * 1e6);
                r.warm_gbs = 5.0 * double(n) / (r.warm_ms * 1e6);
                rows.push_back(r);
            }
        }
    }

    std::printf("device: %s; medians of %d launches after warm-up, CUDA events\n", device.c_str(), repeats);
    std::printf("ceiling: device-to-device copy of %zu MiB: %.3f ms = %.0f GB/s (read + write)\n", copy_mib, copy_ms, copy_gbs);
    std::printf("GB/s: the compulsory 5 bytes a pixel (1 read, 4 written) over the kernel's time; %%copy of the ceiling\n");
    std::printf("%-10s %4s %-24s %9s %7s %6s %9s %7s %6s\n", "size", "mask", "kernel", "cold us", "GB/s", "%copy", "warm us",
                "GB/s", "%copy");
    for (const Row& r : rows)
        std::printf("%-10s %4u %-24s %9.1f %7.0f %5.0f%% %9.1f %7.0f %5.0f%%\n",
                    (std::to_string(r.width) + "x" + std::to_string(r.height)).c_str(), r.side, r.shape.c_str(),
                    r.cold_ms * 1e3, r.cold_gbs, 100 * r.cold_gbs / copy_gbs, r.warm_ms * 1e3, r.warm_gbs,
                    100 * r.warm_gbs / copy_gbs);

    if (!json.empty()) {
        std::ofstream f(json);
        f << "{\n  \"benchmark\": \"convolution_gpu\",\n  \"device\": \"" << device << "\",\n  \"repeats\": " << repeats
          << ",\n  \"copy\": {\"bytes\": " << copy_bytes << ", \"median_ms\": " << copy_ms << ", \"gb_per_s\": " << copy_gbs
          << "},\n  \"results\": [\n";
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const Row& r = rows[i];
            f << "    {\"width\": " << r.width << ", \"height\": " << r.height << ", \"mask_side\": " << r.side
              << ", \"kernel\": \"" << r.shape << "\", \"cold_ms\": " << r.cold_ms << ", \"cold_gb_per_s\": " << r.cold_gbs
              << ", \"warm_ms\": " << r.warm_ms << ", \"warm_gb_per_s\": " << r.warm_gbs
              << ", \"fraction_of_copy\": " << r.cold_gbs / copy_gbs << ", \"warm_fraction_of_copy\": " << r.warm_gbs / copy_gbs
              << "}" << (i + 1 < rows.size() ? "," : "") << "\n";
        }
        f << "  ]\n}\n";
        if (!f) {
            std::fprintf(stderr, "cannot write %s\n", json.c_str());
            return 1;
        }
    }
    return 0;
}
