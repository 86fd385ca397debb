// The emulator's cost: grayscale at 1920x1080 through the CPU emulator (one host thread, and all
// cores) against a plain C++ loop over the same pixels (the CPU reference). Prints pixels per second
// and, with --json FILE, writes the same figures as JSON. Target: emulator within 3x of the loop.
//
//   bench_emulator [--width W] [--height H] [--repeats N] [--json FILE]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "kernels/grayscale/grayscale_emulated.h"
#include "kernels/grayscale/grayscale_reference.h"

using namespace cvz;

namespace {

struct Row {
    std::string name;
    double median_ms;
    double pixels_per_s;
    double ratio_to_loop;
};

double median_ms(int repeats, const std::function<void()>& run) {
    run();  // warm-up: page in the buffers, spin up the threads once
    std::vector<double> t;
    for (int i = 0; i < repeats; ++i) {
        const auto a = std::chrono::steady_clock::now();
        run();
        t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - a).count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    std::uint32_t w = 1920, h = 1080;
    int repeats = 21;
    std::string json;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--width" && i + 1 < argc) w = std::uint32_t(std::stoul(argv[++i]));
        else if (a == "--height" && i + 1 < argc) h = std::uint32_t(std::stoul(argv[++i]));
        else if (a == "--repeats" && i + 1 < argc) repeats = std::max(1, std::stoi(argv[++i]));
        else if (a == "--json" && i + 1 < argc) json = argv[++i];
        else {
            std::fprintf(stderr, "usage: bench_emulator [--width W] [--height H] [--repeats N] [--json FILE]\n");
            return 2;
        }
    }
    const std::uint64_t n = std::uint64_t(w) * h;
    std::vector<std::uint8_t> rgb(3 * n), expected(n), got(n);
    std::mt19937 rng(1);
    for (auto& b : rgb) b = std::uint8_t(rng());
    const GrayscaleImage ref{rgb.data(), expected.data(), w, h, PixelLayout::Interleaved};
    const GrayscaleImage emu{rgb.data(), got.data(), w, h, PixelLayout::Interleaved};
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());

    const double loop_ms = median_ms(repeats, [&] { grayscale_reference(ref); });
    std::vector<Row> rows{{"plain loop (reference)", loop_ms, n / (loop_ms / 1e3), 1.0}};
    struct Case {
        const char* name;
        LaunchShape shape;
        unsigned threads;
    };
    const Case cases[] = {{"emulator 1-D 256, 1 host thread", LaunchShape::one_d(256), 1},
                          {"emulator 2-D 16x16, 1 host thread", LaunchShape::two_d(16, 16), 1},
                          {"emulator 1-D 256, all cores", LaunchShape::one_d(256), cores},
                          {"emulator 2-D 16x16, all cores", LaunchShape::two_d(16, 16), cores}};
    for (const Case& c : cases) {
        EmuOptions o;
        o.host_threads = c.threads;
        bool ok = true;
        const double ms = median_ms(repeats, [&] { ok = grayscale_emulated(emu, c.shape, o).is_ok() && ok; });
        if (!ok || got != expected) {
            std::fprintf(stderr, "%s: result differs from the reference\n", c.name);
            return 1;
        }
        rows.push_back({c.name, ms, n / (ms / 1e3), ms / loop_ms});
    }

    std::printf("grayscale %ux%u (%llu pixels), median of %d runs, %u cores\n", w, h,
                static_cast<unsigned long long>(n), repeats, cores);
    std::printf("%-36s %10s %14s %12s\n", "variant", "ms", "Mpixel/s", "x loop time");
    for (const Row& r : rows)
        std::printf("%-36s %10.3f %14.1f %12.2f\n", r.name.c_str(), r.median_ms, r.pixels_per_s / 1e6, r.ratio_to_loop);

    if (!json.empty()) {
        std::ofstream f(json);
        f << "{\n  \"benchmark\": \"emulator_grayscale\",\n  \"width\": " << w << ",\n  \"height\": " << h
          << ",\n  \"repeats\": " << repeats << ",\n  \"cores\": " << cores << ",\n  \"results\": [\n";
        for (std::size_t i = 0; i < rows.size(); ++i)
            f << "    {\"variant\": \"" << rows[i].name << "\", \"median_ms\": " << rows[i].median_ms
              << ", \"pixels_per_s\": " << rows[i].pixels_per_s << ", \"ratio_to_loop\": " << rows[i].ratio_to_loop
              << "}" << (i + 1 < rows.size() ? "," : "") << "\n";
        f << "  ]\n}\n";
        if (!f) {
            std::fprintf(stderr, "cannot write %s\n", json.c_str());
            return 1;
        }
    }
    return 0;
}
