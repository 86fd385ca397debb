// The emulator's cost against the best plain loop this machine runs: grayscale 1920x1080 and 7680x4320
// (1-D 256 and 2-D 16x16) and matmul 512^3 (naive 16x16 and tiled TILE=16), each on one host thread and
// on all cores. The plain loops are the CPU references on the widest CPU path (vectorised, hardware
// FMA; kernels/core/cpu_dispatch.h), split by rows over the same threads for the all-core figure; the
// matmul loop is matmul_fma_loop, the kernels' own arithmetic. Every emulator result is checked byte
// for byte against its loop. Prints a table (wall and process CPU time, medians) and, with --json FILE,
// the same figures as JSON.
// Targets (issue 16): loop >= 2.5 Gpx/s; emulator grayscale within 3x of it on one thread and 8K on all
// cores <= 20 ms; matmul 512^3 naive <= 40 ms and tiled <= 100 ms.
//
//   bench_emulator [--repeats N] [--cpu-path baseline|avx2-fma] [--json FILE]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "bench/cpu_timing.h"
#include "kernels/core/cpu_features.h"
#include "kernels/emulator/block_scheduler.h"
#include "kernels/grayscale/grayscale_emulated.h"
#include "kernels/grayscale/grayscale_reference.h"
#include "kernels/matmul/matmul_emulated.h"
#include "kernels/matmul/matmul_reference.h"

using namespace cvz;

namespace {

using bench::median_ms;
using bench::Timing;

struct Row {
    std::string problem;
    std::string variant;
    unsigned threads;
    double median_ms;
    double cpu_ms;
    double rate;       // pixels/s or FLOP/s
    const char* unit;  // "Mpx/s" or "GFLOP/s" for the table
    double ratio_to_loop;
};





// The plain loop on `threads` threads: rows [0, rows) in chunks, each a call on a sub-problem.
void rows_in_parallel(std::uint32_t rows, unsigned threads, const std::function<void(std::uint32_t, std::uint32_t)>& run) {
    for_each_block_parallel(rows, threads, [&](std::uint64_t first, std::uint64_t last) {
        run(std::uint32_t(first), std::uint32_t(last));
    });
}

class Bench {
public:
    Bench(int repeats, unsigned cores) : repeats_(repeats), cores_(cores) {}

    bool grayscale(std::uint32_t w, std::uint32_t h) {
        const std::uint64_t n = std::uint64_t(w) * h;
        std::vector<std::uint8_t> rgb(3 * n), expected(n), got(n);
        std::mt19937 rng(1);
        for (auto& b : rgb) b = std::uint8_t(rng());
        const std::string problem = "grayscale " + std::to_string(w) + "x" + std::to_string(h);
        for (unsigned threads : {1u, cores_}) {
            const Timing loop = median_ms(repeats_, [&] {
                rows_in_parallel(h, threads, [&](std::uint32_t r0, std::uint32_t r1) {
                    grayscale_reference({rgb.data() + 3 * std::uint64_t(r0) * w, expected.data() + std::uint64_t(r0) * w,
                                         w, r1 - r0, PixelLayout::Interleaved});
                });
            });
            add(problem, "plain loop", threads, loop, double(n), "Mpx/s", loop);
            for (const LaunchShape& shape : {LaunchShape::one_d(256), LaunchShape::two_d(16, 16)}) {
                EmuOptions o;
                o.host_threads = threads;
                bool ok = true;
                std::fill(got.begin(), got.end(), 0);
                const Timing t = median_ms(repeats_, [&] {
                    ok = grayscale_emulated({rgb.data(), got.data(), w, h, PixelLayout::Interleaved}, shape, o).is_ok() && ok;
                });
                const std::string variant = "emulator " + std::string(shape.kind == GrayscaleVariant::OneD ? "1-D " : "2-D ") + to_string(shape);
                if (!ok || got != expected) return fail(problem + ", " + variant);
                add(problem, variant, threads, t, double(n), "Mpx/s", loop);
            }
            if (threads == cores_) break;  // one core: the all-core figures are the one-thread ones
        }
        return true;
    }

    bool matmul(std::uint32_t size) {
        const std::uint32_t m = size, k = size, n = size;
        std::vector<float> a(std::uint64_t(m) * k), b(std::uint64_t(k) * n), expected(std::uint64_t(m) * n),
            got(expected.size());
        std::mt19937 rng(2);
        std::uniform_real_distribution<float> u(-1.0f, 1.0f);
        for (float& x : a) x = u(rng);
        for (float& x : b) x = u(rng);
        const double flop = 2.0 * m * k * n;
        const std::string problem = "matmul " + std::to_string(m) + "x" + std::to_string(k) + "x" + std::to_string(n);
        for (unsigned threads : {1u, cores_}) {
            const Timing loop = median_ms(matmul_repeats(), [&] {
                rows_in_parallel(m, threads, [&](std::uint32_t r0, std::uint32_t r1) {
                    matmul_fma_loop({a.data() + std::uint64_t(r0) * k, b.data(), expected.data() + std::uint64_t(r0) * n,
                                     r1 - r0, k, n});
                });
            });
            add(problem, "plain loop (fma, k order)", threads, loop, flop, "GFLOP/s", loop);
            for (const MatmulLaunch& launch : {MatmulLaunch::naive(16, 16), MatmulLaunch::tiled(16)}) {
                EmuOptions o;
                o.host_threads = threads;
                bool ok = true;
                std::fill(got.begin(), got.end(), 0.0f);
                const Timing t = median_ms(matmul_repeats(), [&] {
                    ok = matmul_emulated({a.data(), b.data(), got.data(), m, k, n}, launch, o).is_ok() && ok;
                });
                const std::string variant = "emulator " + to_string(launch);
                if (!ok || std::memcmp(got.data(), expected.data(), got.size() * sizeof(float)) != 0)
                    return fail(problem + ", " + variant);
                add(problem, variant, threads, t, flop, "GFLOP/s", loop);
            }
            if (threads == cores_) break;
        }
        return true;
    }

    void print() const {
        std::printf("CPU path %s, %u cores, median of %d runs (matmul %d)\n", cpu_path_description().c_str(), cores_,
                    repeats_, matmul_repeats());
        std::printf("%-22s %-28s %7s %10s %10s %16s %12s\n", "problem", "variant", "threads", "ms", "cpu ms", "rate",
                    "x loop time");
        for (const Row& r : rows_) {
            const double shown = r.rate / (std::strcmp(r.unit, "Mpx/s") == 0 ? 1e6 : 1e9);
            std::printf("%-22s %-28s %7u %10.3f %10.3f %8.1f %-7s %12.2f\n", r.problem.c_str(), r.variant.c_str(),
                        r.threads, r.median_ms, r.cpu_ms, shown, r.unit, r.ratio_to_loop);
        }
    }

    bool write_json(const std::string& path) const {
        std::ofstream f(path);
        f << "{\n  \"benchmark\": \"emulator\",\n  \"cpu_path\": \"" << to_string(cpu_path()) << "\",\n  \"cores\": " << cores_
          << ",\n  \"repeats\": " << repeats_ << ",\n  \"results\": [\n";
        for (std::size_t i = 0; i < rows_.size(); ++i) {
            const Row& r = rows_[i];
            const bool pixels = std::strcmp(r.unit, "Mpx/s") == 0;
            f << "    {\"problem\": \"" << r.problem << "\", \"variant\": \"" << r.variant << "\", \"threads\": " << r.threads
              << ", \"median_ms\": " << r.median_ms << ", \"median_cpu_ms\": " << r.cpu_ms << ", \"" << (pixels ? "pixels_per_s" : "flop_per_s")
              << "\": " << r.rate << ", \"ratio_to_loop\": " << r.ratio_to_loop << "}" << (i + 1 < rows_.size() ? "," : "")
              << "\n";
        }
        f << "  ]\n}\n";
        return bool(f);
    }

private:
    int matmul_repeats() const { return std::max(1, repeats_ / 2); }  // its runs are long; half as many
    void add(const std::string& problem, const std::string& variant, unsigned threads, Timing t, double work,
             const char* unit, Timing loop) {
        rows_.push_back({problem, variant, threads, t.wall_ms, t.cpu_ms, work / (t.wall_ms / 1e3), unit,
                         t.wall_ms / loop.wall_ms});
    }
    static bool fail(const std::string& what) {
        std::fprintf(stderr, "%s: result differs from the plain loop\n", what.c_str());
        return false;
    }

    int repeats_;
    unsigned cores_;
    std::vector<Row> rows_;
};

}  // namespace

int main(int argc, char** argv) {
    int repeats = 11;
    std::string json;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--repeats" && i + 1 < argc) {
            repeats = std::max(1, std::atoi(argv[++i]));
        } else if (a == "--json" && i + 1 < argc) {
            json = argv[++i];
        } else if (a == "--cpu-path" && i + 1 < argc) {
            const std::optional<CpuPath> p = parse_cpu_path(argv[++i]);
            if (!p || !set_cpu_path(*p)) {
                std::fprintf(stderr, "--cpu-path %s: not a path this CPU and build can run\n", argv[i]);
                return 2;
            }
        } else {
            std::fprintf(stderr, "usage: bench_emulator [--repeats N] [--cpu-path baseline|avx2-fma] [--json FILE]\n");
            return 2;
        }
    }
    Bench bench(repeats, std::max(1u, std::thread::hardware_concurrency()));
    const bool ok = bench.grayscale(1920, 1080) && bench.grayscale(7680, 4320) && bench.matmul(512);
    bench.print();
    if (!ok) return 1;
    if (!json.empty() && !bench.write_json(json)) {
        std::fprintf(stderr, "cannot write %s\n", json.c_str());
        return 1;
    }
    return 0;
}
