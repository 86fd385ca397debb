// The memory trace's cost (issue 10, item 1): traced grayscale 1920x1080 (1-D 256 and 2-D 16x16, both
// layouts) against the untraced emulator of the same launch, on one host thread and on all cores.
// Target: the traced launch within 10x of the untraced one. Also a traced matmul 256^3 (naive 16x16
// and tiled TILE=16) for scale. Prints a table (wall and process CPU time, medians); --json FILE
// writes the same figures. --quick: grayscale 480x270 and matmul 64^3 on one host thread, a fixed
// small case to count instructions with (the machine's load does not change them):
//
//   valgrind --tool=callgrind --toggle-collect='cvz::trace_grayscale*' bench_memory_trace --quick --repeats 1
//
//   bench_memory_trace [--repeats N] [--json FILE] [--quick]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "bench/cpu_timing.h"
#include "kernels/emulator/block_scheduler.h"
#include "kernels/grayscale/grayscale_emulated.h"
#include "kernels/matmul/matmul_emulated.h"
#include "kernels/grayscale/grayscale_trace.h"
#include "kernels/matmul/matmul_trace.h"

using namespace cvz;

namespace {

using bench::median_ms;
using bench::Timing;





struct Row {
    std::string problem, launch;
    unsigned threads;
    Timing plain, traced;
    unsigned long long requests;
};

}  // namespace

int main(int argc, char** argv) {
    int repeats = 5;
    std::string json;
    bool quick = false;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--repeats") && i + 1 < argc) repeats = std::max(1, std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--json") && i + 1 < argc) json = argv[++i];
        else if (!std::strcmp(argv[i], "--quick")) quick = true;
        else {
            std::fprintf(stderr, "usage: bench_memory_trace [--repeats N] [--json FILE] [--quick]\n");
            return 2;
        }
    }
    const unsigned cores = host_workers(0);
    std::vector<Row> rows;
    const std::uint32_t w = quick ? 480 : 1920, h = quick ? 270 : 1080;
    const std::string image = std::to_string(w) + "x" + std::to_string(h);
    const std::uint64_t n = std::uint64_t(w) * h;
    std::vector<std::uint8_t> rgb(3 * n), gray(n);
    for (std::uint64_t i = 0; i < rgb.size(); ++i) rgb[i] = std::uint8_t(i * 2654435761u >> 24);
    for (unsigned threads : quick ? std::vector<unsigned>{1u} : std::vector<unsigned>{1u, cores}) {
        for (const LaunchShape& shape : {LaunchShape::one_d(256), LaunchShape::two_d(16, 16)})
            for (PixelLayout layout : {PixelLayout::Interleaved, PixelLayout::Planar}) {
                EmuOptions o;
                o.host_threads = threads;
                const GrayscaleImage im{rgb.data(), gray.data(), w, h, layout};
                TraceOptions t;
                t.host_threads = threads;
                t.keep_blocks = {0};
                unsigned long long requests = 0;
                Row r{"grayscale " + image, (shape.kind == GrayscaleVariant::Gray1d ? "gray_1d 256 " : "gray_2d 16x16 ") +
                                                 std::string(layout == PixelLayout::Planar ? "planar" : "interleaved"),
                      threads, median_ms(repeats, [&] { (void)grayscale_emulated(im, shape, o); }),
                      median_ms(repeats, [&] {
                          const TraceResult tr = trace_grayscale(rgb.data(), w, h, layout, shape, t);
                          requests = tr.trace.totals.global_ld.requests + tr.trace.totals.global_st.requests;
                      }),
                      0};
                r.requests = requests;
                rows.push_back(r);
            }
        const std::uint32_t s = quick ? 64 : 256;
        std::vector<float> a(std::size_t(s) * s, 1.0f), b(a), c(a);
        for (const MatmulLaunch& l : {MatmulLaunch::naive(16, 16), MatmulLaunch::tiled(16)}) {
            EmuOptions o;
            o.host_threads = threads;
            TraceOptions t;
            t.host_threads = threads;
            const MatmulProblem p{a.data(), b.data(), c.data(), s, s, s};
            unsigned long long requests = 0;
            Row r{"matmul " + std::to_string(s) + "^3", to_string(l), threads, median_ms(std::max(1, repeats / 2), [&] { (void)matmul_emulated(p, l, o); }),
                  median_ms(std::max(1, repeats / 2), [&] {
                      const TraceResult tr = trace_matmul(a.data(), b.data(), s, s, s, l, t);
                      requests = tr.trace.totals.global_ld.requests + tr.trace.totals.shared_ld.requests;
                  }),
                  0};
            r.requests = requests;
            rows.push_back(r);
        }
    }
    std::printf("median of %d runs; traced / plain is the cost of recording (target for grayscale 1080p: <= 10x)\n", repeats);
    std::printf("%-20s %-26s %7s %11s %11s %11s %11s %8s %8s\n", "problem", "launch", "threads", "plain ms", "cpu ms",
                "traced ms", "cpu ms", "x wall", "x cpu");
    for (const Row& r : rows)
        std::printf("%-20s %-26s %7u %11.2f %11.2f %11.2f %11.2f %8.2f %8.2f\n", r.problem.c_str(), r.launch.c_str(), r.threads,
                    r.plain.wall_ms, r.plain.cpu_ms, r.traced.wall_ms, r.traced.cpu_ms, r.traced.wall_ms / r.plain.wall_ms,
                    r.traced.cpu_ms / r.plain.cpu_ms);
    if (!json.empty()) {
        std::ofstream out(json);
        out << "{\"repeats\": " << repeats << ", \"rows\": [";
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const Row& r = rows[i];
            out << (i ? ",\n  " : "\n  ") << "{\"problem\": \"" << r.problem << "\", \"launch\": \"" << r.launch
                << "\", \"threads\": " << r.threads << ", \"plain_ms\": " << r.plain.wall_ms << ", \"plain_cpu_ms\": " << r.plain.cpu_ms
                << ", \"traced_ms\": " << r.traced.wall_ms << ", \"traced_cpu_ms\": " << r.traced.cpu_ms
                << ", \"ratio\": " << r.traced.wall_ms / r.plain.wall_ms << ", \"requests\": " << r.requests << "}";
        }
        out << "\n]}\n";
        if (!out) {
            std::fprintf(stderr, "bench_memory_trace: cannot write %s\n", json.c_str());
            return 1;
        }
    }
    return 0;
}
