// The emulator's memory figures against Nsight Compute's on the GPU (issue 10, item 6). For every
// kernel of the catalogue and a launch on odd sizes, this program
//   1. traces the launch on the emulator (kernels/trace/) for the ten metrics of memory_trace.h;
//   2. runs itself under `ncu --csv --metrics <the ten> --kernel-name-base demangled -k regex:<kernel>
//      --launch-count 1` in its --run mode, which makes exactly that launch on the GPU;
//   3. parses ncu's CSV and prints, per metric, the emulator's figure beside the measured one, as a
//      table and (with --json FILE) as JSON.
// Qt-free, so it runs on the GPU machine as built here. Needs a CUDA build and a device.
//
//   ncu_compare [--ncu PATH] [--json FILE] [--only NAME] [--family NAME]   the comparison
//   ncu_compare --user [--ncu PATH] [--json FILE] [--no-ncu]   the user's kernels (issue 27): the lecture's
//       (resources/kernels, or $CUDAVIZ_KERNELS_DIR) and a copy of gray_2d, run by cudaviz-gpu-runner
//       (ncu follows it: --target-processes all); their figures on the emulator (the user's own kernel
//       traced by cudaviz-kernel-runner, when it and a host compiler are here) and the built-in's with
//       the same launch, beside ncu's. --no-ncu: the emulator's two columns only (no GPU needed).
//   ncu_compare --run grayscale VARIANT BLOCK W H LAYOUT         one GPU launch (what ncu profiles)
//   ncu_compare --run matmul VARIANT BLOCK|TILE M K N
//   ncu_compare --run convolution VARIANT BLOCK W H MASK_SIDE
//   ncu_compare --run --spin-up MS grayscale|matmul|convolution ...  the same after MS ms of every SM spinning
//   ncu_compare --run user FILE gray1d|gray2d|matmul BLOCK A B [C] [LAYOUT]   a user kernel in the GPU runner
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "bench/json_escape.h"
#include "kernels/catalogue/kernel_catalogue.h"
#include "kernels/convolution/convolution_cuda.h"
#include "kernels/convolution/convolution_launch.h"
#include "kernels/convolution/convolution_trace.h"
#include "kernels/cuda/clock_spin_up.h"
#include "kernels/grayscale/grayscale_cuda.h"
#include "kernels/grayscale/grayscale_launch.h"
#include "kernels/matmul/matmul_cuda.h"
#include "kernels/matmul/matmul_launch.h"
#include "kernels/grayscale/grayscale_trace.h"
#include "kernels/matmul/matmul_trace.h"
#include "kernels/user/source_scan.h"
#include "kernels/user/user_emulated.h"
#include "kernels/user/user_gpu.h"
#include "tests/support/user_kernel_texts.h"

using namespace cvz;
using bench::json_escape;

namespace {

// One launch to compare: how to run it (the --run arguments), how ncu finds its kernel, and the
// emulator's figures for it.
struct Case {
    std::string name;                  // e.g. "gray_2d 16x16 1537x1023 planar"
    std::vector<std::string> run_args;  // after --run
    std::string kernel_regex;          // matched against ncu's demangled kernel name
    MemoryMetrics emulator;
    // --user: the user's kernel traced on the emulator (its own figures), when it could be.
    bool has_user_emulator = false;
    MemoryMetrics user_emulator;
    std::string user_emulator_error;
};

// The GPU kernels are templates over the variant's body type (grayscale_kernels.cuh,
// matmul_kernels.cuh): the body's class name, bounded by non-identifier characters, picks one.
std::string body_class(KernelFamily f, const std::string& name, unsigned tile) {
    static const std::map<std::string, std::string> classes = {
        {"gray_1d", "Gray1d"},
        {"gray_2d", "Gray2d"},
        {"gray_1d_x4", "Gray1dX4"},
        {"gray_vec16", "GrayVec16"},
        {"gray_vec16_waves", "GrayVec16Waves"},
        {"matmul_naive", "MatmulNaive"},
        {"matmul_tiled", "MatmulTiledBody"},
        {"matmul_blocktile_1d", "MatmulBlocktile1dBody"},
        {"matmul_blocktile_2d", "MatmulBlocktile2dBody"},
        {"matmul_blocktile_vec", "MatmulBlocktileVecBody"},
        {"matmul_warptile", "MatmulWarptileBody"},
        {"matmul_double_buffer", "MatmulDoubleBufferBody"},
        {"conv_naive", "ConvNaive"},
        {"conv_constant", "ConvConstant"},
        {"conv_tiled", "ConvTiled"},
        {"conv_tiled_cached", "ConvTiledCached"},
    };
    auto it = classes.find(name);
    const std::string cls = it == classes.end() ? name : it->second;
    const std::string fn = std::string(to_string(f)) + "_kernel";  // grayscale_kernel, matmul_kernel, convolution_kernel
    if (name == "matmul_tiled") return fn + "<.*MatmulTiledBody<[^0-9]*" + std::to_string(tile) + "[^0-9]";
    // Grayscale is also compiled for the surface-store context (the display path): not the one run here.
    return fn + "<.*[^A-Za-z0-9_]" + cls + "[^A-Za-z0-9_]" + (f == KernelFamily::Grayscale ? ".*DeviceContext" : "");
}

std::string dims(Dim3 b) {
    return b.y == 1 && b.z == 1 ? std::to_string(b.x) : std::to_string(b.x) + "x" + std::to_string(b.y);
}

std::vector<Case> cases(const std::string& only, const std::string& family) {
    std::vector<Case> out;
    struct Img {
        std::uint32_t w, h;
    };
    const auto wanted = [&](const KernelInfo& k) {
        return (only.empty() || k.name == only) && (family.empty() || family == to_string(k.family));
    };
    for (const KernelInfo& k : family_catalogue(KernelFamily::Grayscale)) {
        if (!wanted(k)) continue;
        const Dim3 block = k.block == BlockRule::OneD ? Dim3{256, 1, 1} : Dim3{16, 16, 1};
        for (Img im : {Img{1537, 1023}, Img{97, 33}})
            for (const char* layout : {"interleaved", "planar"}) {
                const PixelLayout pl = std::strcmp(layout, "planar") ? PixelLayout::Interleaved : PixelLayout::Planar;
                const LaunchShape shape = LaunchShape::of(GrayscaleVariant(k.variant), block);
                const TraceResult t = trace_grayscale(nullptr, im.w, im.h, pl, shape);
                if (!t.status) {
                    std::fprintf(stderr, "trace %s: %s\n", k.name.c_str(), t.status.message().c_str());
                    continue;
                }
                Case c;
                c.name = k.name + " " + dims(block) + " " + std::to_string(im.w) + "x" + std::to_string(im.h) + " " + layout;
                c.run_args = {"grayscale", k.name, dims(block), std::to_string(im.w), std::to_string(im.h), layout};
                c.kernel_regex = body_class(KernelFamily::Grayscale, k.name, 0);
                c.emulator = t.trace.totals;
                out.push_back(c);
            }
    }
    struct Mat {
        std::uint32_t m, k, n;
    };
    for (const KernelInfo& k : family_catalogue(KernelFamily::Matmul)) {
        if (!wanted(k)) continue;
        std::vector<MatmulLaunch> launches;
        if (k.block == BlockRule::TwoD) launches.push_back(MatmulLaunch::of(MatmulVariant(k.variant), Dim3{16, 16, 1}, 16));
        else if (k.block == BlockRule::Tile)
            for (unsigned t : k.tiles) launches.push_back(MatmulLaunch::of(MatmulVariant(k.variant), Dim3{t, t, 1}, t));
        else launches.push_back(MatmulLaunch::of(MatmulVariant(k.variant), k.fixed_block, 0));
        // Odd sizes (the float4 kernels take their scalar staging), and multiples of 4 (their float4 path).
        for (const MatmulLaunch& l : launches)
            for (Mat s : {Mat{97, 33, 61}, Mat{257, 129, 255}, Mat{256, 128, 256}}) {
                const TraceResult t = trace_matmul(nullptr, nullptr, s.m, s.k, s.n, l);
                if (!t.status) {
                    std::fprintf(stderr, "trace %s: %s\n", k.name.c_str(), t.status.message().c_str());
                    continue;
                }
                const std::string shape = std::to_string(s.m) + "x" + std::to_string(s.k) + "@" + std::to_string(s.k) + "x" + std::to_string(s.n);
                Case c;
                const std::string launch = k.block == BlockRule::Tile ? "TILE=" + std::to_string(l.tile) : dims(l.block_shape());
                c.name = k.name + " " + launch + " " + shape;
                c.run_args = {"matmul", k.name, k.block == BlockRule::Tile ? std::to_string(l.tile) : dims(l.block_shape()),
                              std::to_string(s.m), std::to_string(s.k), std::to_string(s.n)};
                c.kernel_regex = body_class(KernelFamily::Matmul, k.name, l.tile);
                c.emulator = t.trace.totals;
                out.push_back(c);
            }
    }
    // Convolution on odd sizes (partial blocks on both edges, ghost cells on every border), 3x3 and
    // 7x7 masks. The mask's constant-memory reads are not among the ten figures.
    for (const KernelInfo& k : family_catalogue(KernelFamily::Convolution)) {
        if (!wanted(k)) continue;
        const ConvolutionLaunch l = ConvolutionLaunch::of(ConvolutionVariant(k.variant), Dim3{16, 16, 1});
        for (Img im : {Img{97, 61}, Img{1537, 1023}})
            for (std::uint32_t side : {3u, 7u}) {
                const TraceResult t = trace_convolution(nullptr, nullptr, side, im.w, im.h, l);
                if (!t.status) {
                    std::fprintf(stderr, "trace %s: %s\n", k.name.c_str(), t.status.message().c_str());
                    continue;
                }
                Case c;
                c.name = k.name + " " + dims(l.block) + " " + std::to_string(im.w) + "x" + std::to_string(im.h) + " mask " +
                         std::to_string(side);
                c.run_args = {"convolution", k.name, dims(l.block), std::to_string(im.w), std::to_string(im.h), std::to_string(side)};
                c.kernel_regex = body_class(KernelFamily::Convolution, k.name, 0);
                c.emulator = t.trace.totals;
                out.push_back(c);
            }
    }
    return out;
}

Dim3 parse_block(const std::string& s) {
    unsigned x = 0, y = 1;
    if (std::sscanf(s.c_str(), "%ux%u", &x, &y) < 1) return Dim3{0, 0, 0};
    return Dim3{x, y, 1};
}

int run_user(int argc, char** argv);

// --run: one launch on the GPU, nothing else that ncu's -k filter would match. With --spin-up MS first,
// every SM spins for MS milliseconds before it (for ncu --clock-control none: the launch then runs at
// the boost clock the sweeps time it at, not from the idle clock).
int run_one(int argc, char** argv) {
    if (argc >= 4 && !std::strcmp(argv[2], "--spin-up")) {
        const double ms = std::atof(argv[3]);
        if (!(ms > 0 && ms <= 10000)) return 2;
        if (const Status s = spin_up_clocks(nullptr, ms); !s) {
            std::fprintf(stderr, "%s\n", s.message().c_str());
            return 1;
        }
        argv[3] = argv[1];  // "--run", then the launch's arguments as without --spin-up
        return run_one(argc - 2, argv + 2);
    }
    if (argc < 3) return 2;
    const std::string family = argv[2];
    if (family == "user") return run_user(argc, argv);
    if (family == "grayscale" && argc == 8) {
        const KernelInfo* k = find_kernel(KernelFamily::Grayscale, argv[3]);
        if (!k) return 2;
        const std::uint32_t w = std::uint32_t(std::atoi(argv[5])), h = std::uint32_t(std::atoi(argv[6]));
        const PixelLayout layout = std::strcmp(argv[7], "planar") ? PixelLayout::Interleaved : PixelLayout::Planar;
        std::vector<std::uint8_t> rgb(3ull * w * h), gray(std::size_t(w) * h);
        for (std::size_t i = 0; i < rgb.size(); ++i) rgb[i] = std::uint8_t(i * 2654435761u >> 24);
        const GrayscaleImage im{rgb.data(), gray.data(), w, h, layout};
        const Status s = grayscale_cuda(im, LaunchShape::of(GrayscaleVariant(k->variant), parse_block(argv[4])));
        if (!s) std::fprintf(stderr, "%s\n", s.message().c_str());
        return s ? 0 : 1;
    }
    if (family == "matmul" && argc == 8) {
        const KernelInfo* k = find_kernel(KernelFamily::Matmul, argv[3]);
        if (!k) return 2;
        const std::uint32_t m = std::uint32_t(std::atoi(argv[5])), kk = std::uint32_t(std::atoi(argv[6])),
                            n = std::uint32_t(std::atoi(argv[7]));
        std::vector<float> a(std::size_t(m) * kk, 0.5f), b(std::size_t(kk) * n, 0.25f), c(std::size_t(m) * n);
        MatmulLaunch l;
        if (k->block == BlockRule::Tile) {
            const unsigned t = unsigned(std::atoi(argv[4]));
            l = MatmulLaunch::of(MatmulVariant(k->variant), Dim3{t, t, 1}, t);
        } else {
            l = MatmulLaunch::of(MatmulVariant(k->variant), parse_block(argv[4]), 0);
        }
        const Status s = matmul_cuda(MatmulProblem{a.data(), b.data(), c.data(), m, kk, n}, l);
        if (!s) std::fprintf(stderr, "%s\n", s.message().c_str());
        return s ? 0 : 1;
    }
    if (family == "convolution" && argc == 8) {
        const KernelInfo* k = find_kernel(KernelFamily::Convolution, argv[3]);
        if (!k) return 2;
        const std::uint32_t w = std::uint32_t(std::atoi(argv[5])), h = std::uint32_t(std::atoi(argv[6])),
                            side = std::uint32_t(std::atoi(argv[7]));
        std::vector<std::uint8_t> gray(std::size_t(w) * h);
        for (std::size_t i = 0; i < gray.size(); ++i) gray[i] = std::uint8_t(i * 2654435761u >> 24);
        std::vector<float> mask(std::size_t(side) * side, 0.125f), out(gray.size());
        const ConvolutionProblem p{gray.data(), mask.data(), out.data(), w, h, side};
        const Status s = convolution_cuda(p, ConvolutionLaunch::of(ConvolutionVariant(k->variant), parse_block(argv[4])));
        if (!s) std::fprintf(stderr, "%s\n", s.message().c_str());
        return s ? 0 : 1;
    }
    std::fprintf(stderr, "ncu_compare --run [--spin-up MS]: grayscale VARIANT BLOCK W H LAYOUT | matmul VARIANT BLOCK|TILE M K N"
                         " | convolution VARIANT BLOCK W H MASK_SIDE\n");
    return 2;
}

// --- The user's kernels (--user) -------------------------------------------------------------------

// "copy:gray_2d" is the user copy of the built-in (tests/support/user_kernel_texts.h); anything else a
// file of the lecture's folder.
bool user_source(const std::string& file, user::SourceFile* out, std::string* error) {
    if (file == "copy:gray_2d") {
        *out = user::SourceFile{"gray_2d_copy.cu", test::kGray2dCopy};
        return true;
    }
    std::string text;
    if (!test::read_kernel_file(test::lecture_kernels_dir() + "/" + file, &text, error)) return false;
    *out = user::SourceFile{file, text};
    return true;
}

// The buffers of one user launch, owned here, and the launch over them. Contents do not matter to the
// figures (no address depends on data), but are set.
struct UserProblem {
    std::vector<std::uint8_t> bytes_in, bytes_out;
    std::vector<float> a, b, c;
    user::UserLaunch launch;
};

// kind gray1d: A x B pixels, planar or interleaved (LAYOUT), x then out then n; gray2d: the same with w, h;
// matmul: h = A, w = B, k = C.
bool make_user_problem(const std::string& kind, Dim3 block, std::uint32_t A, std::uint32_t B, std::uint32_t C, UserProblem* p) {
    if (kind == "gray1d" || kind == "gray2d") {
        const std::size_t n = std::size_t(A) * B;
        p->bytes_in.resize(3 * n);
        for (std::size_t i = 0; i < p->bytes_in.size(); ++i) p->bytes_in[i] = std::uint8_t(i * 2654435761u >> 24);
        p->bytes_out.assign(n, 0);
        p->launch.block = block;
        p->launch.args = {user::UserArg::buffer("x", p->bytes_in.data(), p->bytes_in.size(), 1, false),
                          user::UserArg::buffer("out", p->bytes_out.data(), n, 1, true)};
        if (kind == "gray1d") {
            p->launch.grid = Dim3{unsigned(cdiv(n, block.x)), 1, 1};
            p->launch.args.push_back(user::UserArg::integer("n", int(n)));
        } else {
            p->launch.grid = Dim3{unsigned(cdiv(A, block.x)), unsigned(cdiv(B, block.y)), 1};
            p->launch.args.push_back(user::UserArg::integer("w", int(A)));
            p->launch.args.push_back(user::UserArg::integer("h", int(B)));
        }
        return true;
    }
    if (kind == "matmul") {
        p->a.assign(std::size_t(A) * C, 0.5f);
        p->b.assign(std::size_t(C) * B, 0.25f);
        p->c.assign(std::size_t(A) * B, 0.f);
        p->launch.block = block;
        p->launch.grid = Dim3{unsigned(cdiv(B, block.x)), unsigned(cdiv(A, block.y)), 1};
        p->launch.args = {user::UserArg::buffer("m", p->a.data(), p->a.size() * 4, 4, false),
                          user::UserArg::buffer("n", p->b.data(), p->b.size() * 4, 4, false),
                          user::UserArg::buffer("out", p->c.data(), p->c.size() * 4, 4, true), user::UserArg::integer("h", int(A)),
                          user::UserArg::integer("w", int(B)), user::UserArg::integer("k", int(C))};
        return true;
    }
    return false;
}

bool user_signature(const user::SourceFile& source, user::KernelSignature* sig, std::string* error) {
    if (const Status s = user::select_kernel(source, user::find_kernels(source), "", sig); !s) {
        *error = s.message();
        return false;
    }
    return true;
}

// --run user FILE KIND BLOCK A B C: the user's kernel compiled as the app compiles it, one launch in the runner.
int run_user(int argc, char** argv) {
    if (argc != 9) return 2;
    user::SourceFile source;
    user::KernelSignature sig;
    std::string error;
    UserProblem p;
    if (!user_source(argv[3], &source, &error) || !user_signature(source, &sig, &error)) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return 1;
    }
    if (!make_user_problem(argv[4], parse_block(argv[5]), std::uint32_t(std::atoi(argv[6])), std::uint32_t(std::atoi(argv[7])),
                           std::uint32_t(std::atoi(argv[8])), &p))
        return 2;
    const user::GpuCompileOutput c = user::compile_for_gpu(source, sig);
    if (!c.compiled()) {
        std::fprintf(stderr, "%s: does not compile\n", source.name.c_str());
        return 1;
    }
    const user::GpuRunResult r = user::run_on_gpu(c, p.launch);
    if (!r.ran) std::fprintf(stderr, "%s\n", r.message.c_str());
    return r.ran ? 0 : 1;
}

std::vector<Case> user_cases() {
    std::vector<Case> out;
    struct U {
        std::string file, kind, builtin, block;
        std::uint32_t a, b, c;
        PixelLayout layout;
    };
    std::vector<U> us;
    for (auto [w, h] : {std::pair{1537u, 1023u}, std::pair{97u, 33u}}) {
        us.push_back({"grayscale_1d.cu", "gray1d", "gray_1d", "256", w, h, 0, PixelLayout::Planar});
        us.push_back({"grayscale_2d.cu", "gray2d", "gray_2d", "16x16", w, h, 0, PixelLayout::Planar});
        us.push_back({"copy:gray_2d", "gray2d", "gray_2d", "16x16", w, h, 0, PixelLayout::Interleaved});
    }
    for (auto [m, k, n] : {std::array<std::uint32_t, 3>{97, 33, 61}, std::array<std::uint32_t, 3>{257, 129, 255}}) {
        us.push_back({"matmul.cu", "matmul", "matmul_naive", "16x16", m, n, k, PixelLayout::Planar});
        us.push_back({"matmul_tiled.cu", "matmul", "matmul_tiled", "16x16", m, n, k, PixelLayout::Planar});
    }
    for (const U& u : us) {
        Case c;
        const Dim3 block = parse_block(u.block);
        // The built-in with the same launch, traced as the comparison above traces it.
        TraceResult t;
        if (u.kind == "matmul") {
            const MatmulLaunch l = u.builtin == "matmul_tiled" ? MatmulLaunch::tiled(16) : MatmulLaunch::naive(16, 16);
            t = trace_matmul(nullptr, nullptr, u.a, u.c, u.b, l);
            c.name = u.file + " " + u.block + " " + std::to_string(u.a) + "x" + std::to_string(u.c) + "@" + std::to_string(u.c) + "x" +
                     std::to_string(u.b) + " (built-in " + u.builtin + ")";
        } else {
            const KernelInfo* k = find_kernel(KernelFamily::Grayscale, u.builtin);
            t = trace_grayscale(nullptr, u.a, u.b, u.layout, LaunchShape::of(GrayscaleVariant(k->variant), block));
            c.name = u.file + " " + u.block + " " + std::to_string(u.a) + "x" + std::to_string(u.b) +
                     (u.layout == PixelLayout::Planar ? " planar" : " interleaved") + " (built-in " + u.builtin + ")";
        }
        if (!t.status) {
            std::fprintf(stderr, "trace %s: %s\n", u.builtin.c_str(), t.status.message().c_str());
            continue;
        }
        c.emulator = t.trace.totals;
        c.run_args = {"user", u.file, u.kind, u.block, std::to_string(u.a), std::to_string(u.b), std::to_string(u.c)};
        // The user's kernel on the emulator, traced: its own figures.
        user::SourceFile source;
        user::KernelSignature sig;
        std::string error;
        UserProblem p;
        if (user_source(u.file, &source, &error) && user_signature(source, &sig, &error)) {
            c.kernel_regex = "^" + sig.name + "([^A-Za-z0-9_]|$)";
            make_user_problem(u.kind, block, u.a, u.b, u.c, &p);
            user::CompileOutput co;
            const user::EmulatedKernel k = user::EmulatedKernel::compile(source, sig, &co);
            if (!k.valid()) {
                c.user_emulator_error = "the emulator's compile failed: " + (co.diagnostics.empty() ? co.log : co.diagnostics[0].message);
            } else {
                user::EmulatedRunOptions o;
                o.trace = true;
                const user::EmulatedRunResult r = user::run_emulated(k, p.launch, o);
                if (r.ok()) {
                    c.has_user_emulator = true;
                    c.user_emulator = r.trace.totals;
                } else {
                    c.user_emulator_error = r.message.empty() ? r.status.message() : r.message;
                }
            }
        } else {
            std::fprintf(stderr, "%s: %s\n", u.file.c_str(), error.c_str());
            continue;
        }
        out.push_back(c);
    }
    return out;
}

// One CSV record (RFC 4180: quoted fields, doubled quotes inside them).
std::vector<std::string> csv_fields(const std::string& line) {
    std::vector<std::string> f;
    std::string cur;
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char ch = line[i];
        if (quoted) {
            if (ch == '"' && i + 1 < line.size() && line[i + 1] == '"') cur += '"', ++i;
            else if (ch == '"') quoted = false;
            else cur += ch;
        } else if (ch == '"') {
            quoted = true;
        } else if (ch == ',') {
            f.push_back(cur);
            cur.clear();
        } else if (ch != '\r') {
            cur += ch;
        }
    }
    f.push_back(cur);
    return f;
}

// "1,234" or "1234" or "1.234e+03" -> 1234; -1 when not a number (n/a).
long long metric_value(std::string s) {
    s.erase(std::remove(s.begin(), s.end(), ','), s.end());
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (s.empty() || end == s.c_str()) return -1;
    return (long long)(v + 0.5);
}

std::string shell_quote(const std::string& s) {
    std::string q = "'";
    for (char ch : s) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    return q + "'";
}

struct Measured {
    std::map<std::string, long long> values;
    std::string kernel;  // the name ncu reported
    std::string error;
};

// Runs the case under ncu and reads the "details" CSV page: one record per metric, with the columns
// "Kernel Name", "Metric Name" and "Metric Value" found by their header.
Measured measure(const std::string& ncu, const std::string& self, const Case& c) {
    std::string metrics;
    for (const char* m : kNsightMetricNames) metrics += (metrics.empty() ? "" : ",") + std::string(m);
    std::string cmd = shell_quote(ncu) + " --csv --page details --metrics " + metrics +
                      " --target-processes all --kernel-name-base demangled -k " + shell_quote("regex:" + c.kernel_regex) + " --launch-count 1 " +
                      shell_quote(self) + " --run";
    for (const std::string& a : c.run_args) cmd += " " + shell_quote(a);
    cmd += " 2>&1";
    Measured out;
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) {
        out.error = "cannot run ncu";
        return out;
    }
    std::string text;
    std::array<char, 4096> buf;
    while (std::fgets(buf.data(), int(buf.size()), p)) text += buf.data();
    const int status = pclose(p);
    std::istringstream lines(text);
    std::string line;
    int col_kernel = -1, col_name = -1, col_value = -1;
    while (std::getline(lines, line)) {
        if (line.empty() || line[0] != '"') continue;  // ==PROF== lines and the program's own output
        const std::vector<std::string> f = csv_fields(line);
        if (col_name < 0) {
            for (int i = 0; i < int(f.size()); ++i) {
                if (f[i] == "Kernel Name") col_kernel = i;
                if (f[i] == "Metric Name") col_name = i;
                if (f[i] == "Metric Value") col_value = i;
            }
            continue;
        }
        if (col_value >= int(f.size()) || col_name >= int(f.size())) continue;
        if (col_kernel >= 0 && col_kernel < int(f.size())) out.kernel = f[col_kernel];
        out.values[f[col_name]] = metric_value(f[col_value]);
    }
    if (out.values.empty()) {
        out.error = "no metrics in ncu's output (exit status " + std::to_string(status) + "); its last lines:\n";
        const std::size_t from = text.size() > 1500 ? text.size() - 1500 : 0;
        out.error += text.substr(from);
    }
    return out;
}

std::string self_path() {
    std::array<char, 4096> buf{};
    const ssize_t n = readlink("/proc/self/exe", buf.data(), buf.size() - 1);
    return n > 0 ? std::string(buf.data(), std::size_t(n)) : std::string("ncu_compare");
}

}  // namespace

int main(int argc, char** argv) {
    if (argc >= 2 && !std::strcmp(argv[1], "--run")) return run_one(argc, argv);
    std::string ncu = "/usr/local/cuda/bin/ncu", json, only, family;
    bool user_mode = false, no_ncu = false;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--ncu") && i + 1 < argc) ncu = argv[++i];
        else if (!std::strcmp(argv[i], "--json") && i + 1 < argc) json = argv[++i];
        else if (!std::strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
        else if (!std::strcmp(argv[i], "--family") && i + 1 < argc) family = argv[++i];
        else if (!std::strcmp(argv[i], "--user")) user_mode = true;
        else if (!std::strcmp(argv[i], "--no-ncu")) no_ncu = true;
        else {
            std::fprintf(stderr, "usage: ncu_compare [--ncu PATH] [--json FILE] [--only KERNEL] [--family NAME]\n"
                                 "       ncu_compare --user [--ncu PATH] [--json FILE] [--no-ncu]\n");
            return 2;
        }
    }
    const std::string self = self_path();
    std::ostringstream js;
    js << "{\"cases\": [";
    int differ = 0, failed = 0, user_differ = 0, user_unknown = 0;
    bool first = true;
    for (const Case& c : user_mode ? user_cases() : cases(only, family)) {
        Measured m;
        if (!no_ncu) m = measure(ncu, self, c);
        std::printf("\n%s   [ncu: %s]\n", c.name.c_str(), no_ncu ? "not run" : m.kernel.empty() ? "?" : m.kernel.c_str());
        js << (first ? "\n " : ",\n ") << "{\"case\": \"" << json_escape(c.name) << "\", \"kernel\": \"" << json_escape(m.kernel) << "\"";
        first = false;
        if (user_mode && !c.has_user_emulator) {
            ++user_unknown;
            std::printf("  the user's kernel on the emulator: %s\n", c.user_emulator_error.c_str());
            js << ", \"user_emulator_error\": \"" << json_escape(c.user_emulator_error) << "\"";
        }
        if (!m.error.empty()) {
            ++failed;
            std::printf("  FAILED: %s\n", m.error.c_str());
            js << ", \"error\": \"" << json_escape(m.error) << "\"}";
            continue;
        }
        // The built-in's emulated figures are the reference column; --user adds the user's own emulated ones.
        const char* ref_title = user_mode ? "emu built-in" : "emulator";
        if (user_mode) std::printf("  %-58s %14s %14s %14s %8s\n", "metric", ref_title, "emu user", "ncu user", "");
        else std::printf("  %-58s %14s %14s %8s\n", "metric", ref_title, "ncu", "");
        js << ", \"metrics\": {";
        const auto values = c.emulator.nsight();
        const auto user_values = c.user_emulator.nsight();
        for (std::size_t i = 0; i < kNsightMetricCount; ++i) {
            auto it = m.values.find(kNsightMetricNames[i]);
            const long long measured = it == m.values.end() ? -1 : it->second;
            const bool same = no_ncu || measured == (long long)values[i];
            const bool user_same = !user_mode || !c.has_user_emulator || user_values[i] == values[i];
            differ += !same;
            user_differ += !user_same;
            const char* mark = same && user_same ? "" : "DIFFERS";
            if (user_mode) {
                const std::string uv = c.has_user_emulator ? std::to_string(user_values[i]) : std::string("n/a");
                std::printf("  %-58s %14llu %14s %14lld %8s\n", kNsightMetricNames[i], (unsigned long long)values[i], uv.c_str(), measured, mark);
            } else {
                std::printf("  %-58s %14llu %14lld %8s\n", kNsightMetricNames[i], (unsigned long long)values[i], measured, mark);
            }
            js << (i ? ", " : "") << "\"" << kNsightMetricNames[i] << "\": {\"emulator\": " << values[i];
            if (user_mode && c.has_user_emulator) js << ", \"emulator_user\": " << user_values[i];
            js << ", \"ncu\": " << measured << "}";
        }
        js << "}}";
    }
    js << "\n], \"differences\": " << differ << ", \"failed\": " << failed;
    if (user_mode) js << ", \"user_emulator_differences\": " << user_differ << ", \"user_emulator_missing\": " << user_unknown;
    js << "}\n";
    std::printf("\n%d metric values differ%s, %d launches failed\n", differ, no_ncu ? " (ncu not run)" : "", failed);
    if (user_mode)
        std::printf("the user's emulated figures: %d values differ from the built-in's, %d cases not emulated\n", user_differ, user_unknown);
    if (!json.empty()) {
        std::ofstream f(json);
        f << js.str();
        if (!f) {
            std::fprintf(stderr, "ncu_compare: cannot write %s\n", json.c_str());
            return 1;
        }
    }
    return failed ? 1 : 0;
}
