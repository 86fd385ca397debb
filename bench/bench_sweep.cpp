// The block-size sweep on the GPU, without the GUI: every variant of the kernel catalogue over the
// blocks of its launch rule (2-D: every power-of-two block with x*y <= 1024; 1-D: 32..1024 threads;
// TILE: its tiles; fixed: its block), the grayscale family on a random image and the matmul family
// on random matrices; medians of
// --repeats launches after a warm-up (CUDA events, back to back: an image that fits the L2 cache is
// read from it). Prints the fastest and slowest shapes, all of them with --all, JSON with --json.
// --check also asserts what the sweep promises (every valid shape timed, a refused shape recorded
// with CUDA's own error while the sweep goes on, cancel between shapes) and exits 1 when one fails.
//
//   bench_sweep [--size WxH] [--mnk M K N] [--repeats N] [--all] [--check] [--json FILE]
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "kernels/catalogue/kernel_catalogue.h"
#include "kernels/grayscale/grayscale_timing.h"
#include "kernels/matmul/matmul_timing.h"

using namespace cvz;

namespace {

struct Row {
    std::string set, shape;
    ShapeTiming t;
    double rate = 0;  // GB/s or GFLOP/s
};

// The blocks of a variant's launch rule.
std::vector<Dim3> blocks_for(const KernelInfo& k) {
    std::vector<Dim3> b;
    switch (k.block) {
        case BlockRule::TwoD:
            for (unsigned y = 1; y <= 1024; y *= 2)
                for (unsigned x = 1; x * y <= 1024; x *= 2) b.push_back(Dim3{x, y, 1});
            break;
        case BlockRule::OneD:
            for (unsigned t = 32; t <= 1024; t += 32) b.push_back(Dim3{t, 1, 1});
            break;
        case BlockRule::Tile:
            for (unsigned t : k.tiles) b.push_back(Dim3{t, t, 1});
            break;
        case BlockRule::Fixed: b.push_back(k.fixed_block); break;
    }
    return b;
}

std::string label(const LaunchShape& s) {
    const KernelInfo* k = kernel_info(KernelFamily::Grayscale, std::uint8_t(s.kind));
    return (k ? k->label + " " : std::string()) + to_string(s);
}

void print(const std::vector<Row>& rows, const char* unit, bool all) {
    std::vector<const Row*> timed;
    for (const Row& r : rows)
        if (r.t.timed) timed.push_back(&r);
    std::sort(timed.begin(), timed.end(), [](const Row* a, const Row* b) { return a->t.median_ms < b->t.median_ms; });
    const std::size_t show = all ? timed.size() : std::min<std::size_t>(timed.size(), 8);
    std::printf("  %-16s %12s %12s\n", "shape", "median us", unit);
    for (std::size_t i = 0; i < show; ++i)
        std::printf("  %-16s %12.2f %12.1f\n", timed[i]->shape.c_str(), timed[i]->t.median_ms * 1e3, timed[i]->rate);
    if (!all && timed.size() > show) {
        std::printf("  ...\n");
        for (std::size_t i = std::max(show, timed.size() - 3); i < timed.size(); ++i)
            std::printf("  %-16s %12.2f %12.1f\n", timed[i]->shape.c_str(), timed[i]->t.median_ms * 1e3, timed[i]->rate);
    }
    for (const Row& r : rows)
        if (!r.t.timed) std::printf("  %-16s not timed: %s\n", r.shape.c_str(), r.t.status.message().c_str());
}

int failures = 0;
void expect(bool ok, const std::string& what) {
    std::printf("check: %-70s %s\n", what.c_str(), ok ? "ok" : "FAILED");
    failures += !ok;
}

}  // namespace

int main(int argc, char** argv) {
    std::uint32_t w = 1920, h = 1080, m = 1024, k = 1024, n = 1024;
    TimingOptions options;
    options.repeats = 20;
    bool all = false, check = false;
    std::string json;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--size" && i + 1 < argc && std::sscanf(argv[i + 1], "%ux%u", &w, &h) == 2) ++i;
        else if (a == "--mnk" && i + 3 < argc) {
            m = std::uint32_t(std::stoul(argv[++i]));
            k = std::uint32_t(std::stoul(argv[++i]));
            n = std::uint32_t(std::stoul(argv[++i]));
        } else if (a == "--repeats" && i + 1 < argc) options.repeats = std::max(3, std::stoi(argv[++i]));
        else if (a == "--all") all = true;
        else if (a == "--check") check = true;
        else if (a == "--json" && i + 1 < argc) json = argv[++i];
        else {
            std::fprintf(stderr, "usage: bench_sweep [--size WxH] [--mnk M K N] [--repeats N] [--all] [--check] [--json FILE]\n");
            return 2;
        }
    }

    std::mt19937 rng(1);
    const std::uint64_t pixels = std::uint64_t(w) * h;
    std::vector<std::uint8_t> rgb(3 * pixels);
    for (auto& b : rgb) b = std::uint8_t(rng());
    std::vector<LaunchShape> shapes;
    for (const KernelInfo& kernel : family_catalogue(KernelFamily::Grayscale))
        for (const Dim3& block : blocks_for(kernel)) shapes.push_back(LaunchShape::of(GrayscaleVariant(kernel.variant), block));
    const std::size_t valid_gray = shapes.size();
    shapes.push_back(LaunchShape::two_d(64, 32));  // 2048 threads: CUDA refuses it
    shapes.push_back(LaunchShape::one_d(256));     // and the sweep goes on

    const GrayscaleImage image{rgb.data(), nullptr, w, h, PixelLayout::Interleaved};
    const TimingSweep gray = time_grayscale_shapes(image, shapes, options);
    if (!gray.status) {
        std::fprintf(stderr, "grayscale sweep: %s\n", gray.status.message().c_str());
        return 1;
    }
    std::vector<Row> gray_rows;
    for (std::size_t i = 0; i < shapes.size(); ++i)
        gray_rows.push_back({"grayscale", label(shapes[i]), gray.shapes[i],
                             gray.shapes[i].timed ? 4.0 * double(pixels) / (gray.shapes[i].median_ms * 1e6) : 0});

    std::vector<float> a(std::size_t(m) * k), b(std::size_t(k) * n);
    std::uniform_real_distribution<float> d(-1, 1);
    for (float& f : a) f = d(rng);
    for (float& f : b) f = d(rng);
    std::vector<MatmulLaunch> launches;
    for (const KernelInfo& kernel : family_catalogue(KernelFamily::Matmul))
        for (const Dim3& block : blocks_for(kernel))
            launches.push_back(MatmulLaunch::of(MatmulVariant(kernel.variant), block, kernel.block == BlockRule::Tile ? block.x : 0));
    const MatmulProblem problem{a.data(), b.data(), nullptr, m, k, n};
    const TimingSweep mm = time_matmul_launches(problem, launches, options);
    if (!mm.status) {
        std::fprintf(stderr, "matmul sweep: %s\n", mm.status.message().c_str());
        return 1;
    }
    std::vector<Row> mm_rows;
    for (std::size_t i = 0; i < launches.size(); ++i)
        mm_rows.push_back({"matmul", to_string(launches[i]), mm.shapes[i],
                           mm.shapes[i].timed ? 2.0 * m * double(n) * k / (mm.shapes[i].median_ms * 1e6) : 0});

    std::printf("device: %s; medians of up to %d launches after %d warm-ups (CUDA events)\n", gray.device.c_str(),
                options.repeats, options.warmup);
    std::printf("grayscale %ux%u (%llu pixels, 4 bytes moved per pixel):\n", w, h, static_cast<unsigned long long>(pixels));
    print(gray_rows, "GB/s", all);
    std::printf("matmul %ux%u @ %ux%u:\n", m, k, k, n);
    print(mm_rows, "GFLOP/s", all);

    if (check) {
        bool all_timed = true;
        for (std::size_t i = 0; i < valid_gray; ++i) all_timed = all_timed && gray.shapes[i].timed;
        expect(all_timed, "grayscale: every valid shape timed");
        // CUDA 13 with driver 580 says cudaErrorInvalidValue where older releases said
        // cudaErrorInvalidConfiguration (seen on the H200): either is CUDA's own refusal.
        const std::string& refused = gray.shapes[valid_gray].status.message();
        expect(!gray.shapes[valid_gray].timed && (refused.find("cudaErrorInvalidConfiguration") != std::string::npos ||
                                                  refused.find("cudaErrorInvalidValue") != std::string::npos),
               "grayscale: 2-D 64x32 carries CUDA's own refusal");
        expect(gray.shapes[valid_gray + 1].timed, "grayscale: the shape after the refused one is timed");
        bool mm_timed = true;
        for (const ShapeTiming& t : mm.shapes) mm_timed = mm_timed && t.timed;
        expect(mm_timed, "matmul: every launch timed");
        CancelToken cancel;
        TimingOptions c = options;
        c.repeats = 3;
        c.cancel = &cancel;
        c.progress = [&](std::size_t done, std::size_t) {
            if (done == 3) cancel.request();
        };
        const TimingSweep cs = time_grayscale_shapes(image, shapes, c);
        std::size_t timed = 0;
        for (const ShapeTiming& t : cs.shapes) timed += t.timed;
        expect(cs.cancelled && cs.completed == 3 && timed == 3, "cancel after the 3rd shape: exactly 3 timed");
        const GrayscaleImage planar{rgb.data(), nullptr, w, h, PixelLayout::Planar};
        const TimingSweep ps = time_grayscale_shapes(planar, {LaunchShape::two_d(32, 8)}, options);
        expect(ps.status.is_ok() && ps.shapes[0].timed, "planar layout timed");
    }

    if (!json.empty()) {
        std::ofstream f(json);
        f << "{\n  \"benchmark\": \"sweep\",\n  \"device\": \"" << gray.device << "\",\n  \"repeats\": " << options.repeats
          << ",\n  \"grayscale\": {\"width\": " << w << ", \"height\": " << h << "},\n  \"matmul\": {\"m\": " << m
          << ", \"k\": " << k << ", \"n\": " << n << "},\n  \"results\": [\n";
        std::vector<Row> rows = gray_rows;
        rows.insert(rows.end(), mm_rows.begin(), mm_rows.end());
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const Row& r = rows[i];
            f << "    {\"set\": \"" << r.set << "\", \"shape\": \"" << r.shape << "\", \"timed\": "
              << (r.t.timed ? "true" : "false") << ", \"median_ms\": " << r.t.median_ms << ", \"launches\": " << r.t.launches
              << ", \"" << (r.set == "matmul" ? "gflop_per_s" : "gb_per_s") << "\": " << r.rate << "}"
              << (i + 1 < rows.size() ? "," : "") << "\n";
        }
        f << "  ]\n}\n";
        if (!f) {
            std::fprintf(stderr, "cannot write %s\n", json.c_str());
            return 1;
        }
    }
    return failures ? 1 : 0;
}
