// The user kernel's CPU path (issue 27, item 5): how long the host compiler takes over a user's file
// (goal: a 30-line kernel in at most 2 s), and how the user's kernel, run isolated on the emulator by
// cudaviz-kernel-runner, compares with the built-in variant that makes the same accesses (goal: within
// 5x), untraced and traced. The user's time is run_emulated's whole wall clock: the runner's start,
// the buffers' copies in and out, the kernel, and the trace's way back. Prints a table (medians; CPU
// time is this process's plus its children's); --json FILE writes the same figures.
//
//   bench_user_kernel [--repeats N] [--json FILE] [--quick] [--only TEXT] [--untraced] [--own-runner]
//     --quick: 480x270 and 64^3; --only: the runs whose launch names TEXT ("gray_1d"), no compiles;
//     --untraced: the untraced runs only (--only and --untraced are for a profiler);
//     --own-runner: every run in a runner of its own (EmulatedRunOptions::keep_runner off), as before
//     runners were kept
#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "bench/cpu_timing.h"
#include "kernels/emulator/block_scheduler.h"
#include "kernels/grayscale/grayscale_emulated.h"
#include "kernels/grayscale/grayscale_trace.h"
#include "kernels/matmul/matmul_emulated.h"
#include "kernels/matmul/matmul_trace.h"
#include "kernels/user/source_scan.h"
#include "kernels/user/user_emulated.h"

using namespace cvz;
using namespace cvz::user;

namespace {

// A 30-line kernel: the tiled matmul with its comments, the size the goal names.
const char* const kThirtyLines = R"(// Tiled matrix multiply, 30 lines: out (h x w) = m (h x k) @ n (k x w).
#define TW 16

__device__ float tile_product(const float (&ms)[TW][TW], const float (&ns)[TW][TW], int tr, int tc) {
    float p = 0.0f;
    for (int i = 0; i < TW; ++i) p += ms[tr][i] * ns[i][tc];
    return p;
}

__global__ void matmul_tiled_k(float* m, float* n, float* out, int h, int w, int k) {
    int tc = threadIdx.x, tr = threadIdx.y;
    int r = blockIdx.y * blockDim.y + tr;
    int c = blockIdx.x * blockDim.x + tc;

    __shared__ float ms[TW][TW];
    __shared__ float ns[TW][TW];

    float p = 0.0f;
    for (int ph = 0; ph < (k + TW - 1) / TW; ++ph) {
        int idx = ph * TW;
        // Stage one tile of each input, zeros past the edges.
        ms[tr][tc] = (r < h && idx + tc < k) ? m[tc + idx + r * k] : 0.0f;
        ns[tr][tc] = (c < w && idx + tr < k) ? n[(tr + idx) * w + c] : 0.0f;
        __syncthreads();
        p += tile_product(ms, ns, tr, tc);
        __syncthreads();
    }
    if (r < h && c < w) out[r * w + c] = p;
}
)";

std::string lecture_kernel(const std::string& name) {
    std::ifstream in(std::string(CUDAVIZ_SOURCE_DIR) + "/resources/kernels/" + name);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

double children_cpu_ms() {
    rusage u{};
    getrusage(RUSAGE_CHILDREN, &u);
    return u.ru_utime.tv_sec * 1e3 + u.ru_utime.tv_usec / 1e3 + u.ru_stime.tv_sec * 1e3 + u.ru_stime.tv_usec / 1e3;
}

// The CPU time of a process that is still running (a kept runner: not a reaped child yet); 0 for pid 0.
double process_cpu_ms(int pid) {
    clockid_t clock;
    timespec t{};
    if (pid <= 0 || clock_getcpuclockid(pid, &clock) != 0 || clock_gettime(clock, &t) != 0) return 0;
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

// median_ms with the children's CPU time added (the runner and the compiler are children), the kept
// runner's of `kernel` included: its time so far is read from its clock, as it is not reaped between
// runs (one that ends during a run is reaped, and its whole time is then among the children's). Like
// the children's, it is averaged over the warm-up and the timed runs, so a kept runner's start counts.
bench::Timing timed(int repeats, const std::function<void()>& run, const EmulatedKernel* kernel = nullptr) {
    double children = 0;
    const bench::Timing t = bench::median_ms(repeats, [&] {
        const double c0 = children_cpu_ms(), r0 = kernel ? process_cpu_ms(kept_runner_pid(*kernel)) : 0;
        run();
        const double r1 = kernel ? process_cpu_ms(kept_runner_pid(*kernel)) : 0;
        children += children_cpu_ms() - c0 + r1 - r0;
    });
    return {t.wall_ms, t.cpu_ms + children / (repeats + 1)};
}

EmulatedKernel compile_or_die(const std::string& name, const std::string& text) {
    const SourceFile file{name, text};
    KernelSignature sig;
    if (!select_kernel(file, find_kernels(file), "", &sig)) {
        std::fprintf(stderr, "bench_user_kernel: %s has no kernel\n", name.c_str());
        std::exit(1);
    }
    CompileOutput out;
    EmulatedKernel k = EmulatedKernel::compile(file, sig, &out);
    if (!k.valid()) {
        for (const Diagnostic& d : out.diagnostics) std::fprintf(stderr, "%s\n", format(d).c_str());
        std::exit(1);
    }
    return k;
}

void check(const EmulatedRunResult& r, const char* what) {
    if (!r.ok()) {
        std::fprintf(stderr, "bench_user_kernel: %s: %s%s\n", what, r.status.message().c_str(), r.message.c_str());
        std::exit(1);
    }
}


struct CompileRow {
    std::string file;
    int lines;
    bench::Timing time;
};

struct RunRow {
    std::string problem, launch;
    bool traced;
    bench::Timing builtin, user;
    unsigned long long requests_builtin, requests_user;
};

}  // namespace

int main(int argc, char** argv) {
    int repeats = 5;
    std::string json;
    bool quick = false, untraced_only = false, own_runner = false;
    std::string only;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--repeats") && i + 1 < argc) repeats = std::max(1, std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--json") && i + 1 < argc) json = argv[++i];
        else if (!std::strcmp(argv[i], "--quick")) quick = true;
        else if (!std::strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
        else if (!std::strcmp(argv[i], "--untraced")) untraced_only = true;
        else if (!std::strcmp(argv[i], "--own-runner")) own_runner = true;
        else {
            std::fprintf(stderr, "usage: bench_user_kernel [--repeats N] [--json FILE] [--quick] [--only TEXT] [--untraced] "
                                 "[--own-runner]\n");
            return 2;
        }
    }

    std::vector<CompileRow> compiles;
    std::vector<std::pair<std::string, std::string>> files = {{"thirty_lines.cu", kThirtyLines}};
    for (const char* f : {"grayscale_1d.cu", "grayscale_2d.cu", "matmul.cu", "matmul_tiled.cu", "convolution.cu"})
        files.emplace_back(f, lecture_kernel(f));
    if (!only.empty()) files.clear();
    auto wanted = [&](const std::string& launch, bool traced) {
        return (only.empty() || launch.find(only) != std::string::npos) && !(traced && untraced_only);
    };
    for (const auto& [name, text] : files) {
        const int lines = int(std::count(text.begin(), text.end(), '\n'));
        compiles.push_back({name, lines, timed(repeats, [&] { (void)compile_or_die(name, text); })});
    }

    std::vector<RunRow> runs;
    const unsigned threads = host_workers(0);
    const std::uint32_t w = quick ? 480 : 1920, h = quick ? 270 : 1080;
    const std::uint64_t n = std::uint64_t(w) * h;
    std::vector<std::uint8_t> rgb(3 * n), gray(n);
    for (std::uint64_t i = 0; i < rgb.size(); ++i) rgb[i] = std::uint8_t(i * 2654435761u >> 24);
    const std::string image = "grayscale " + std::to_string(w) + "x" + std::to_string(h) + " planar";
    struct GrayCase {
        const char* file;
        LaunchShape shape;
    };
    for (const GrayCase& g : {GrayCase{"grayscale_1d.cu", LaunchShape::one_d(256)}, GrayCase{"grayscale_2d.cu", LaunchShape::two_d(16, 16)}}) {
        const EmulatedKernel k = compile_or_die(g.file, lecture_kernel(g.file));
        UserLaunch launch;
        launch.block = g.shape.block;
        const bool one_d = g.shape.kind == GrayscaleVariant::Gray1d;
        launch.grid = one_d ? Dim3{unsigned(cdiv(n, 256)), 1, 1} : Dim3{unsigned(cdiv(w, 16)), unsigned(cdiv(h, 16)), 1};
        launch.args = {UserArg::buffer("x", rgb.data(), rgb.size(), 1, false), UserArg::buffer("out", gray.data(), n, 1, true)};
        if (one_d) launch.args.push_back(UserArg::integer("n", int(n)));
        else launch.args.insert(launch.args.end(), {UserArg::integer("w", int(w)), UserArg::integer("h", int(h))});
        for (bool traced : {false, true}) {
            RunRow row{image, std::string(one_d ? "gray_1d 256" : "gray_2d 16x16"), traced, {}, {}, 0, 0};
            if (!wanted(row.launch, traced)) continue;
            EmuOptions eo;
            TraceOptions to;
            EmulatedRunOptions uo;
            uo.trace = traced;
            uo.keep_runner = !own_runner;
            const GrayscaleImage im{rgb.data(), gray.data(), w, h, PixelLayout::Planar};
            row.builtin = timed(repeats, [&] {
                if (!traced) {
                    (void)grayscale_emulated(im, g.shape, eo);
                    return;
                }
                const TraceResult t = trace_grayscale(rgb.data(), w, h, PixelLayout::Planar, g.shape, to);
                row.requests_builtin = t.trace.totals.global_ld.requests + t.trace.totals.global_st.requests;
            });
            row.user = timed(repeats, [&] {
                const EmulatedRunResult r = run_emulated(k, launch, uo);
                check(r, g.file);
                row.requests_user = r.trace.totals.global_ld.requests + r.trace.totals.global_st.requests;
            }, &k);
            runs.push_back(row);
        }
    }
    const std::uint32_t s = quick ? 64 : 256;
    std::vector<float> a(std::size_t(s) * s), b(a.size()), c(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = b[a.size() - 1 - i] = float(i % 17) * 0.25f;
    struct MatCase {
        const char* file;
        MatmulLaunch launch;
    };
    for (const MatCase& m : {MatCase{"matmul.cu", MatmulLaunch::naive(16, 16)}, MatCase{"matmul_tiled.cu", MatmulLaunch::tiled(16)}}) {
        const EmulatedKernel k = compile_or_die(m.file, lecture_kernel(m.file));
        UserLaunch launch;
        launch.block = Dim3{16, 16, 1};
        launch.grid = Dim3{unsigned(cdiv(s, 16)), unsigned(cdiv(s, 16)), 1};
        launch.args = {UserArg::buffer("m", a.data(), a.size() * 4, 4, false), UserArg::buffer("n", b.data(), b.size() * 4, 4, false),
                       UserArg::buffer("out", c.data(), c.size() * 4, 4, true), UserArg::integer("h", int(s)), UserArg::integer("w", int(s)),
                       UserArg::integer("k", int(s))};
        const int r2 = std::max(1, repeats / 2);
        for (bool traced : {false, true}) {
            RunRow row{"matmul " + std::to_string(s) + "^3", to_string(m.launch), traced, {}, {}, 0, 0};
            if (!wanted(row.launch, traced)) continue;
            EmulatedRunOptions uo;
            uo.trace = traced;
            uo.keep_runner = !own_runner;
            const MatmulProblem p{a.data(), b.data(), c.data(), s, s, s};
            row.builtin = timed(r2, [&] {
                if (!traced) {
                    (void)matmul_emulated(p, m.launch, {});
                    return;
                }
                const TraceResult t = trace_matmul(a.data(), b.data(), s, s, s, m.launch, {});
                row.requests_builtin = t.trace.totals.global_ld.requests + t.trace.totals.shared_ld.requests;
            });
            row.user = timed(r2, [&] {
                const EmulatedRunResult r = run_emulated(k, launch, uo);
                check(r, m.file);
                row.requests_user = r.trace.totals.global_ld.requests + r.trace.totals.shared_ld.requests;
            }, &k);
            runs.push_back(row);
        }
    }

    std::printf("compile and link with the host compiler (goal: a 30-line kernel <= 2000 ms), median of %d\n", repeats);
    std::printf("%-20s %6s %11s %11s\n", "file", "lines", "wall ms", "cpu ms");
    for (const CompileRow& r : compiles) std::printf("%-20s %6d %11.1f %11.1f\n", r.file.c_str(), r.lines, r.time.wall_ms, r.time.cpu_ms);
    std::printf("\nuser kernel (run_emulated, whole) against the built-in variant with the same accesses, %u host threads "
                "(goal: <= 5x)\n", threads);
    std::printf("%-30s %-16s %-7s %11s %11s %11s %11s %8s %8s %s\n", "problem", "launch", "traced", "builtin ms", "cpu ms",
                "user ms", "cpu ms", "x wall", "x cpu", "requests (builtin = user)");
    for (const RunRow& r : runs)
        std::printf("%-30s %-16s %-7s %11.1f %11.1f %11.1f %11.1f %8.2f %8.2f %s\n", r.problem.c_str(), r.launch.c_str(),
                    r.traced ? "yes" : "no", r.builtin.wall_ms, r.builtin.cpu_ms, r.user.wall_ms, r.user.cpu_ms,
                    r.user.wall_ms / r.builtin.wall_ms, r.user.cpu_ms / r.builtin.cpu_ms,
                    r.traced ? (std::to_string(r.requests_builtin) + (r.requests_builtin == r.requests_user ? " = " : " != ") +
                                std::to_string(r.requests_user)).c_str()
                             : "");
    if (!json.empty()) {
        std::ofstream out(json);
        out << "{\"repeats\": " << repeats << ", \"host_threads\": " << threads << ", \"compile\": [";
        for (std::size_t i = 0; i < compiles.size(); ++i)
            out << (i ? ",\n  " : "\n  ") << "{\"file\": \"" << compiles[i].file << "\", \"lines\": " << compiles[i].lines
                << ", \"wall_ms\": " << compiles[i].time.wall_ms << ", \"cpu_ms\": " << compiles[i].time.cpu_ms << "}";
        out << "\n], \"runs\": [";
        for (std::size_t i = 0; i < runs.size(); ++i) {
            const RunRow& r = runs[i];
            out << (i ? ",\n  " : "\n  ") << "{\"problem\": \"" << r.problem << "\", \"launch\": \"" << r.launch
                << "\", \"traced\": " << (r.traced ? "true" : "false") << ", \"builtin_ms\": " << r.builtin.wall_ms
                << ", \"builtin_cpu_ms\": " << r.builtin.cpu_ms << ", \"user_ms\": " << r.user.wall_ms
                << ", \"user_cpu_ms\": " << r.user.cpu_ms << ", \"ratio\": " << r.user.wall_ms / r.builtin.wall_ms
                << ", \"requests_builtin\": " << r.requests_builtin << ", \"requests_user\": " << r.requests_user << "}";
        }
        out << "\n]}\n";
        if (!out) {
            std::fprintf(stderr, "bench_user_kernel: cannot write %s\n", json.c_str());
            return 1;
        }
    }
    return 0;
}
