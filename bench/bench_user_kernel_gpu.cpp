// The user's kernels on the GPU against the built-ins (issue 27): the lecture's kernels as the learner
// pastes them (resources/kernels/*.cu: the 1-D and 2-D grayscale, matmul_k, the tiled matmul) beside
// the built-in variant with the same launch (gray_1d, gray_2d, matmul_naive, matmul_tiled), and user
// copies of gray_2d and matmul_naive written as the built-ins compute them. Both are timed the same
// way: CUDA events around each launch, the clocks spun up, a warm-up, then the median of the timed
// launches over interleaved rounds (kernels/cuda/launch_timer.h); the built-in in this process, the
// user's kernel in cudaviz-gpu-runner (its buffers placed by guard_zone.h's layout), compiled by NVRTC
// as the app compiles it (--fmad=false) and, for comparison, with --fmad=true. Prints a table; --json
// FILE writes the same.
// Figures, never a pass/fail.
//
//   bench_user_kernel_gpu [--json FILE] [--quick] [--kernels DIR]
//     --quick: the smallest size of each kernel only; --kernels: the lecture's files (default: the
//     source tree's resources/kernels, or $CUDAVIZ_KERNELS_DIR)
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "bench/json_escape.h"
#include "kernels/core/index_math.h"
#include "kernels/grayscale/grayscale_cuda.h"
#include "kernels/grayscale/grayscale_timing.h"
#include "kernels/matmul/matmul_launch.h"
#include "kernels/matmul/matmul_timing.h"
#include "kernels/user/source_scan.h"
#include "kernels/user/user_gpu.h"
#include "tests/support/random_data.h"
#include "tests/support/user_kernel_texts.h"

using namespace cvz;
using namespace cvz::user;
using bench::json_escape;
using test::random_values;

namespace {

struct Row {
    std::string kernel, builtin, size, block;
    double builtin_ms = 0, user_ms = 0, user_fmad_ms = 0;
    int builtin_launches = 0, user_launches = 0, user_fmad_launches = 0;
    int registers = 0, registers_fmad = 0;
    double bytes = 0, flops = 0;  // moved and computed per launch, for GB/s and TFLOP/s
    std::string error;
};

// Compiles `text` (its only __global__ function) for the GPU, with and without fmad.
bool compile_both(const std::string& file, const std::string& text, GpuCompileOutput* plain, GpuCompileOutput* fmad, std::string* error) {
    const SourceFile source{file, text};
    KernelSignature sig;
    if (const Status s = select_kernel(source, find_kernels(source), "", &sig); !s) {
        *error = s.message();
        return false;
    }
    *plain = compile_for_gpu(source, sig, 0, false);
    *fmad = compile_for_gpu(source, sig, 0, true);
    for (const GpuCompileOutput* c : {plain, fmad})
        if (!c->compiled()) {
            *error = file + ": " + (c->diagnostics.empty() ? c->status.message() : c->diagnostics[0].message);
            return false;
        }
    return true;
}

// Times `compiled` over `launch` in the runner; 0 and *error on failure.
double time_user(const GpuCompileOutput& compiled, const UserLaunch& launch, const TimingOptions& t, int* launches, int* registers,
                 std::string* error) {
    GpuRunOptions o;
    o.time = true;
    o.timing = t;
    const GpuRunResult r = run_on_gpu(compiled, launch, o);
    if (!r.ran || !r.timing.timed) {
        *error = r.message.empty() ? r.status.message() : r.message;
        return 0;
    }
    *launches = r.timing.launches;
    *registers = r.registers;
    return r.timing.median_ms;
}

// A user kernel's text, compiled as the app compiles it (plain) and with --fmad=true.
struct Source {
    std::string file, text;
    GpuCompileOutput plain, fmad;
};

// The built-in's median into `row` (and the device's name), or why there is none into row->error.
void take_builtin(const TimingSweep& builtin, Row* row, std::string* device) {
    if (!builtin.status || !builtin.shapes[0].timed) {
        row->error = "built-in: " + (builtin.status ? builtin.shapes[0].status.message() : builtin.status.message());
        return;
    }
    *device = builtin.device;
    row->builtin_ms = builtin.shapes[0].median_ms;
    row->builtin_launches = builtin.shapes[0].launches;
}

// The user's kernel over `launch`, both compiles, unless the row has failed already; the first failure ends it.
void time_user_both(const Source& src, const UserLaunch& launch, const TimingOptions& t, Row* row) {
    std::string error;
    if (row->error.empty()) row->user_ms = time_user(src.plain, launch, t, &row->user_launches, &row->registers, &error);
    if (row->error.empty() && error.empty())
        row->user_fmad_ms = time_user(src.fmad, launch, t, &row->user_fmad_launches, &row->registers_fmad, &error);
    if (!error.empty()) row->error = "user: " + error;
}

}  // namespace

int main(int argc, char** argv) {
    std::string json;
    std::string dir = test::lecture_kernels_dir();
    bool quick = false;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--json") && i + 1 < argc) json = argv[++i];
        else if (!std::strcmp(argv[i], "--kernels") && i + 1 < argc) dir = argv[++i];
        else if (!std::strcmp(argv[i], "--quick")) quick = true;
        else {
            std::fprintf(stderr, "usage: bench_user_kernel_gpu [--json FILE] [--quick] [--kernels DIR]\n");
            return 2;
        }
    }
    TimingOptions t;
    t.warmup = 5;
    t.repeats = 30;
    t.rounds = 3;
    t.budget_ms = 300;

    std::vector<Source> sources = {{"grayscale_1d.cu", "", {}, {}}, {"grayscale_2d.cu", "", {}, {}}, {"gray_2d copy", test::kGray2dCopy, {}, {}},
                                   {"matmul.cu", "", {}, {}},       {"matmul_tiled.cu", "", {}, {}},
                                   {"matmul_naive copy", test::kMatmulNaiveCopyWide, {}, {}}};
    std::string device;
    for (Source& s : sources) {
        std::string error;
        if (s.text.empty() && !test::read_kernel_file(dir + "/" + s.file, &s.text, &error)) {
            std::fprintf(stderr, "bench_user_kernel_gpu: %s\n", error.c_str());
            return 1;
        }
        if (!compile_both(s.file, s.text, &s.plain, &s.fmad, &error)) {
            std::fprintf(stderr, "bench_user_kernel_gpu: %s\n", error.c_str());
            return 1;
        }
        std::printf("compiled %-16s in %6.1f ms (NVRTC), %d registers; with --fmad=true %d registers\n", s.file.c_str(), s.plain.compile_ms,
                    s.plain.registers, s.fmad.registers);
    }

    std::vector<Row> rows;
    struct Img {
        int w, h;
    };
    std::vector<Img> images = {{1920, 1080}, {3840, 2160}, {7680, 4320}, {1917, 1079}};
    if (quick) images = {{1917, 1079}};
    // Grayscale: the lecture's two (planar, double constants) and the copy of gray_2d (interleaved).
    for (int which = 0; which < 3; ++which) {
        const Source& src = sources[std::size_t(which)];
        const bool one_d = which == 0;
        const PixelLayout layout = which == 2 ? PixelLayout::Interleaved : PixelLayout::Planar;
        for (Img im : images) {
            Row row;
            row.kernel = src.file;
            row.builtin = one_d ? "gray_1d" : "gray_2d";
            row.size = std::to_string(im.w) + "x" + std::to_string(im.h) + (layout == PixelLayout::Planar ? " planar" : " interleaved");
            row.block = one_d ? "256" : "16x16";
            const std::size_t n = std::size_t(im.w) * std::size_t(im.h);
            row.bytes = 4.0 * double(n);
            std::vector<unsigned char> rgb = random_values<unsigned char>(3 * n, 8), out(n);
            const GrayscaleImage image{rgb.data(), out.data(), std::uint32_t(im.w), std::uint32_t(im.h), layout};
            const LaunchShape shape = one_d ? LaunchShape::one_d(256) : LaunchShape::two_d(16, 16);
            const TimingSweep builtin = time_grayscale_shapes(image, {shape}, t);
            take_builtin(builtin, &row, &device);
            const Dim3 grid = one_d ? Dim3{unsigned(cdiv(n, 256)), 1, 1} : Dim3{unsigned(cdiv(im.w, 16)), unsigned(cdiv(im.h, 16)), 1};
            const Dim3 block = one_d ? Dim3{256, 1, 1} : Dim3{16, 16, 1};
            std::vector<UserArg> args = {UserArg::buffer("x", rgb.data(), rgb.size(), 1, false), UserArg::buffer("out", out.data(), out.size(), 1, true)};
            if (one_d) args.push_back(UserArg::integer("n", int(n)));
            else args.insert(args.end(), {UserArg::integer("w", im.w), UserArg::integer("h", im.h)});
            const UserLaunch launch{grid, block, args};
            time_user_both(src, launch, t, &row);
            rows.push_back(row);
        }
    }
    // Matmul: matmul_k against matmul_naive (16x16 blocks), the tiled kernel against matmul_tiled (16), and
    // the copy of matmul_naive with its 64-bit indices against matmul_naive.
    std::vector<int> sizes = {1024, 2048, 4096, 1023};
    if (quick) sizes = {1023};
    for (int which = 3; which < 6; ++which) {
        const Source& src = sources[std::size_t(which)];
        const bool tiled = which == 4;
        for (int n : sizes) {
            Row row;
            row.kernel = src.file;
            row.builtin = tiled ? "matmul_tiled" : "matmul_naive";
            row.size = std::to_string(n) + "^3";
            row.block = "16x16";
            row.flops = 2.0 * double(n) * double(n) * double(n);
            const std::size_t count = std::size_t(n) * std::size_t(n);
            std::vector<float> a = random_values<float>(count, 9), b = random_values<float>(count, 10), c(count);
            const MatmulProblem p{a.data(), b.data(), c.data(), std::uint32_t(n), std::uint32_t(n), std::uint32_t(n)};
            const TimingSweep builtin = time_matmul_launches(p, {tiled ? MatmulLaunch::tiled(16) : MatmulLaunch::naive(16, 16)}, t);
            take_builtin(builtin, &row, &device);
            const UserLaunch launch{Dim3{unsigned(cdiv(n, 16)), unsigned(cdiv(n, 16)), 1}, Dim3{16, 16, 1},
                                    {UserArg::buffer("m", a.data(), count * 4, 4, false), UserArg::buffer("n", b.data(), count * 4, 4, false),
                                     UserArg::buffer("out", c.data(), count * 4, 4, true), UserArg::integer("h", n), UserArg::integer("w", n),
                                     UserArg::integer("k", n)}};
            time_user_both(src, launch, t, &row);
            rows.push_back(row);
        }
    }

    std::printf("\ndevice: %s; medians of the timed launches (CUDA events), after %d warm-up launches, %d rounds of up to %d\n",
                device.c_str(), t.warmup, t.rounds, t.repeats);
    std::printf("%-16s %-13s %-22s %-6s %11s %11s %7s %11s %7s  %s\n", "user kernel", "built-in", "size", "block", "built-in ms", "user ms",
                "ratio", "fmad ms", "ratio", "registers (user, fmad)");
    for (const Row& r : rows) {
        if (!r.error.empty()) {
            std::printf("%-16s %-13s %-22s %-6s FAILED: %s\n", r.kernel.c_str(), r.builtin.c_str(), r.size.c_str(), r.block.c_str(), r.error.c_str());
            continue;
        }
        std::printf("%-16s %-13s %-22s %-6s %11.4f %11.4f %7.3f %11.4f %7.3f  %d, %d\n", r.kernel.c_str(), r.builtin.c_str(), r.size.c_str(),
                    r.block.c_str(), r.builtin_ms, r.user_ms, r.user_ms / r.builtin_ms, r.user_fmad_ms, r.user_fmad_ms / r.builtin_ms, r.registers,
                    r.registers_fmad);
    }
    if (!json.empty()) {
        std::ofstream f(json);
        f << "{\"device\": \"" << json_escape(device) << "\", \"warmup\": " << t.warmup << ", \"rounds\": " << t.rounds
          << ", \"repeats\": " << t.repeats << ", \"compile_ms\": {";
        for (std::size_t i = 0; i < sources.size(); ++i)
            f << (i ? ", " : "") << "\"" << json_escape(sources[i].file) << "\": " << sources[i].plain.compile_ms;
        f << "}, \"rows\": [";
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const Row& r = rows[i];
            f << (i ? ",\n " : "\n ") << "{\"user\": \"" << json_escape(r.kernel) << "\", \"builtin\": \"" << r.builtin << "\", \"size\": \""
              << r.size << "\", \"block\": \"" << r.block << "\"";
            if (!r.error.empty()) {
                f << ", \"error\": \"" << json_escape(r.error) << "\"}";
                continue;
            }
            f << ", \"builtin_ms\": " << r.builtin_ms << ", \"user_ms\": " << r.user_ms << ", \"user_fmad_ms\": " << r.user_fmad_ms
              << ", \"ratio\": " << r.user_ms / r.builtin_ms << ", \"ratio_fmad\": " << r.user_fmad_ms / r.builtin_ms
              << ", \"builtin_launches\": " << r.builtin_launches << ", \"user_launches\": " << r.user_launches
              << ", \"registers\": " << r.registers << ", \"registers_fmad\": " << r.registers_fmad;
            if (r.bytes > 0) f << ", \"builtin_gbps\": " << r.bytes / r.builtin_ms / 1e6 << ", \"user_gbps\": " << r.bytes / r.user_ms / 1e6;
            if (r.flops > 0) f << ", \"builtin_tflops\": " << r.flops / r.builtin_ms / 1e9 << ", \"user_tflops\": " << r.flops / r.user_ms / 1e9;
            f << "}";
        }
        f << "\n]}\n";
        if (!f) {
            std::fprintf(stderr, "bench_user_kernel_gpu: cannot write %s\n", json.c_str());
            return 1;
        }
    }
    for (const Row& r : rows)
        if (!r.error.empty()) return 1;
    return 0;
}
