// The matmul kernels on the GPU against cuBLAS: naive (16x16 and 32x32 blocks) and every other
// variant of the catalogue (each TILE of the tiled kernel, the blocktiled ladder, split-K at each of
// its slices whose workspace is at most 1 GiB) at 1024^3, 4096^3, 1537x769x1023 and 256x4096x256
// (MxKxN; --shapes picks others), kernel time by CUDA events (median of --repeats runs after a
// warm-up, run back to back), GFLOP/s = 2MNK / t, and the fraction of cuBLAS SGEMM. The fastest of
// our kernels per shape is named (the best configuration by timing).
//
// The reference is cublasSgemm in CUBLAS_DEFAULT_MATH, set explicitly: full fp32 (TF32 tensor cores
// are used for SGEMM only in CUBLAS_TF32_TENSOR_OP_MATH, which is never set here). It is also timed in
// CUBLAS_PEDANTIC_MATH, for information, and as cublasGemmEx with CUBLAS_COMPUTE_32F_FAST_TF32 (the
// tensor cores on TF32-rounded operands), the row the tensor-core rungs are measured beside. Row-major C = A B is computed as the column-major
// C^T = B^T A^T, i.e. cublasSgemm(N, N, n, m, k, B, n, A, k, C, n), with no copies.
//
// Every result is checked: against cuBLAS (max relative error, all elements), against a float64
// CPU reference on sampled rows, and byte for byte against naive 16x16 (all our exact kernels
// accumulate in the same order, so they must agree exactly; the tensor-core rungs are held to their
// tolerance instead, matmul_test_tolerance; split-K, which sums its slices in a fixed order, is
// compared byte for byte on the sampled rows with that order written out on the CPU). On the sampled
// rows the relative error in the Frobenius norm against the exact product is printed too (the 3xTF32
// goal: at most 2x fp32's, naive 16x16's).
//
//   bench_matmul_gpu [--repeats N>=10] [--quick] [--shapes MxKxN,...] [--json FILE]   --quick: 1024^3 only
#include <cublas_v2.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "kernels/cuda/cuda_devices.h"
#include "kernels/cuda/cuda_event.h"
#include "kernels/cuda/device_buffer.h"
#include "kernels/matmul/matmul_device_launch.h"
#include "kernels/matmul/matmul_reference.h"
#include "kernels/matmul/matmul_variants.h"

using namespace cvz;

namespace {

struct Row {
    std::uint32_t m = 0, k = 0, n = 0;
    std::string kernel;
    double median_ms = 0, min_ms = 0, gflops = 0, fraction_of_cublas = 0;
    double err_vs_cublas = 0;  // max relative error, all elements (0 for the cuBLAS row itself)
    double err_vs_fp64 = 0;    // max relative error on the sampled rows
    double frob_vs_exact = 0;  // ||C - exact||_F / ||exact||_F on the sampled rows
    double tolerance = 0;      // err_vs_fp64's bound
    bool identical_to_naive = false;
    bool exact = true;         // expected to equal naive 16x16 byte for byte
    bool is_ours = true;
    int split_order = -1;      // split-K: 1 when the sampled rows equal the slice order summed on the CPU, 0 not
};

struct Shape {
    std::uint32_t m = 0, k = 0, n = 0;
    std::string text() const { return std::to_string(m) + "x" + std::to_string(k) + "x" + std::to_string(n); }
};

// "MxKxN,..." as shapes; empty on a malformed list.
std::vector<Shape> parse_shapes(const std::string& list) {
    std::vector<Shape> shapes;
    std::size_t at = 0;
    while (at <= list.size()) {
        const std::size_t end = std::min(list.find(',', at), list.size());
        Shape s;
        if (std::sscanf(list.substr(at, end - at).c_str(), "%ux%ux%u", &s.m, &s.k, &s.n) != 3 || !s.m || !s.k || !s.n) return {};
        shapes.push_back(s);
        at = end + 1;
    }
    return shapes;
}

// Split-K's promise on rows `rows` of C: slice z sums its whole phases of BK in k order with fmaf
// from 0, and C = ((s0 + s1) + s2) + ... (matmul_split_k.h).
bool split_order_holds(const std::vector<float>& got, const std::vector<float>& a, const std::vector<float>& b,
                       const std::vector<std::uint32_t>& rows, const Shape& s, unsigned slices) {
    const std::uint32_t bk = MatmulSplitKBody::k_slice, phases = (s.k + bk - 1) / bk, per = (phases + slices - 1) / slices;
    std::vector<float> sum(s.n), total(s.n);
    for (std::uint32_t r : rows) {
        for (unsigned z = 0; z < slices; ++z) {
            const std::uint64_t k0 = std::min<std::uint64_t>(std::uint64_t(z) * per * bk, s.k);
            const std::uint64_t k1 = std::min<std::uint64_t>(std::uint64_t(z + 1) * per * bk, s.k);
            std::fill(sum.begin(), sum.end(), 0.0f);
            for (std::uint64_t i = k0; i < k1; ++i) {
                const float x = a[std::uint64_t(r) * s.k + i];
                const float* brow = b.data() + i * s.n;
                for (std::uint32_t j = 0; j < s.n; ++j) sum[j] = std::fmaf(x, brow[j], sum[j]);
            }
            for (std::uint32_t j = 0; j < s.n; ++j) total[j] = z == 0 ? sum[j] : total[j] + sum[j];
        }
        if (std::memcmp(total.data(), got.data() + std::uint64_t(r) * s.n, s.n * sizeof(float)) != 0) return false;
    }
    return true;
}

bool check(const Status& s, const char* what) {
    if (!s) std::fprintf(stderr, "%s: %s\n", what, s.message().c_str());
    return s.is_ok();
}

Status cublas_status(cublasStatus_t st, const char* what) {
    if (st == CUBLAS_STATUS_SUCCESS) return Status::ok();
    return Status::error(ErrorKind::Device,
                         std::string(what) + ": " + cublasGetStatusName(st) + " (" + cublasGetStatusString(st) + ")");
}

// Medians of `repeats` event-timed runs after `warmup` untimed ones; all runs are queued before the
// first is waited for, so the events bracket the GPU's work, not the launch latency.
bool time_ms(int warmup, int repeats, const std::function<Status()>& work, double* median_ms, double* min_ms) {
    const std::size_t count = std::size_t(repeats);
    std::vector<CudaEvent> a(count), b(count);
    for (std::size_t i = 0; i < count; ++i)
        if (!check(a[i].create(), "event") || !check(b[i].create(), "event")) return false;
    for (int i = 0; i < warmup; ++i)
        if (!check(work(), "warm-up")) return false;
    for (std::size_t i = 0; i < count; ++i)
        if (!check(a[i].record(nullptr), "record") || !check(work(), "run") || !check(b[i].record(nullptr), "record"))
            return false;
    std::vector<double> t(count);
    for (std::size_t i = 0; i < count; ++i)
        if (!check(elapsed_ms(a[i], b[i], &t[i]), "elapsed")) return false;
    std::sort(t.begin(), t.end());
    *median_ms = t[t.size() / 2];
    *min_ms = t.front();
    return true;
}

// Uniform in [-1, 1), from a 64-bit LCG: fast enough for 2 x 16M elements.
void fill_random(std::vector<float>& v, std::uint64_t seed) {
    std::uint64_t s = seed * 6364136223846793005ull + 1442695040888963407ull;
    for (float& x : v) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        x = float(std::uint32_t(s >> 40)) / float(1u << 23) - 1.0f;
    }
}

// Max relative error of `got` against the float64 reference rows `ref_rows` (rows `rows` of C).
double error_on_rows(const std::vector<float>& got, const std::vector<float>& ref_rows,
                     const std::vector<std::uint32_t>& rows, std::uint32_t n) {
    double worst = 0;
    for (std::size_t i = 0; i < rows.size(); ++i)
        worst = std::max(worst, matmul_max_relative_error(got.data() + std::size_t(rows[i]) * n,
                                                          ref_rows.data() + i * n, n));
    return worst;
}

// ||got - exact||_F / ||exact||_F over the sampled rows (exact: float64 sums of exact products).
double frobenius_on_rows(const std::vector<float>& got, const std::vector<double>& exact_rows,
                         const std::vector<std::uint32_t>& rows, std::uint32_t n) {
    double num = 0, den = 0;
    for (std::size_t i = 0; i < rows.size(); ++i)
        for (std::uint32_t j = 0; j < n; ++j) {
            const double e = exact_rows[i * n + j], d = double(got[std::size_t(rows[i]) * n + j]) - e;
            num += d * d;
            den += e * e;
        }
    return std::sqrt(num / std::max(den, 1e-300));
}

}  // namespace

int main(int argc, char** argv) {
    int repeats = 20;
    bool quick = false;
    std::string json;
    std::vector<Shape> shapes;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--repeats" && i + 1 < argc) repeats = std::max(10, std::stoi(argv[++i]));
        else if (a == "--quick") quick = true;
        else if (a == "--json" && i + 1 < argc) json = argv[++i];
        else if (a == "--shapes" && i + 1 < argc) {
            shapes = parse_shapes(argv[++i]);
            if (shapes.empty()) {
                std::fprintf(stderr, "bench_matmul_gpu: --shapes '%s': give MxKxN,... (positive numbers)\n", argv[i]);
                return 2;
            }
        } else {
            std::fprintf(stderr, "usage: bench_matmul_gpu [--repeats N>=10] [--quick] [--shapes MxKxN,...] [--json FILE]\n");
            return 2;
        }
    }
    if (shapes.empty())
        shapes = quick ? std::vector<Shape>{{1024, 1024, 1024}}
                       : std::vector<Shape>{{1024, 1024, 1024}, {4096, 4096, 4096}, {1537, 769, 1023}, {256, 4096, 256}};
    const CudaInventory inv = query_cuda_devices();
    if (!inv.status || inv.devices.empty()) {
        std::fprintf(stderr, "no CUDA device: %s\n", inv.status.message().c_str());
        return 1;
    }
    const std::string device = inv.devices.front().name;

    cublasHandle_t handle = nullptr;
    if (!check(cublas_status(cublasCreate(&handle), "cublasCreate"), "cuBLAS")) return 1;
    struct HandleGuard {
        cublasHandle_t h;
        ~HandleGuard() { cublasDestroy(h); }
    } guard{handle};
    if (!check(cublas_status(cublasSetStream(handle, nullptr), "cublasSetStream"), "cuBLAS")) return 1;

    // Every variant of the catalogue: naive at 16x16 (the byte reference) and 32x32, each TILE of a
    // tiled variant, the fixed block of a blocktiled one, each slice count of split-K (its list).
    std::vector<MatmulLaunch> ours{MatmulLaunch::naive(16, 16), MatmulLaunch::naive(32, 32)};
    for (const KernelInfo& info : matmul_catalogue()) {
        const MatmulVariant v = MatmulVariant(info.variant);
        if (info.block == BlockRule::Tile)
            for (unsigned t : info.tiles) ours.push_back(MatmulLaunch::of(v, Dim3{t, t, 1}, t));
        else if (info.block == BlockRule::Fixed && !info.tiles.empty())
            for (unsigned t : info.tiles) ours.push_back(MatmulLaunch::of(v, info.fixed_block, t));
        else if (info.block == BlockRule::Fixed)
            ours.push_back(MatmulLaunch::of(v, info.fixed_block, 0));
    }
    constexpr std::size_t kMaxWorkspaceBytes = std::size_t(1) << 30;
    std::vector<Row> rows;
    for (const Shape& shape : shapes) {
        const std::uint32_t m = shape.m, k = shape.k, n = shape.n;
        const std::size_t na = std::size_t(m) * k, nb = std::size_t(k) * n, count = std::size_t(m) * n;
        std::vector<float> a(na), b(nb), reference(count), got(count), naive(count);
        fill_random(a, n + 1);
        fill_random(b, n + 2);
        DeviceBuffer<float> da, db, dc;
        if (!check(da.allocate(na), "A") || !check(db.allocate(nb), "B") || !check(dc.allocate(count), "C")) return 1;
        if (!check(cuda_status(cudaMemcpy(da.get(), a.data(), na * sizeof(float), cudaMemcpyHostToDevice), "upload A"), "upload") ||
            !check(cuda_status(cudaMemcpy(db.get(), b.data(), nb * sizeof(float), cudaMemcpyHostToDevice), "upload B"), "upload"))
            return 1;
        const MatmulProblem dev{da.get(), db.get(), dc.get(), m, k, n};
        const double flop = 2.0 * double(m) * n * k;
        const bool big = flop >= 1e11;  // 4096^3: fewer warm-ups

        // The float64 reference on sampled rows (every 64th and the last), for every result.
        std::vector<std::uint32_t> sample;
        for (std::uint32_t r = 0; r < m; r += 64) sample.push_back(r);
        if (sample.back() != m - 1) sample.push_back(m - 1);
        std::vector<float> ref64(sample.size() * n);
        for (std::size_t i = 0; i < sample.size(); ++i)
            matmul_reference({a.data() + std::size_t(sample[i]) * k, b.data(), ref64.data() + i * n, 1, k, n});
        std::vector<double> exact(sample.size() * n, 0.0);  // the same rows unrounded
        for (std::size_t i = 0; i < sample.size(); ++i)
            for (std::uint32_t kk = 0; kk < k; ++kk) {
                const double x = a[std::size_t(sample[i]) * k + kk];
                const float* brow = b.data() + std::size_t(kk) * n;
                double* erow = exact.data() + i * n;
                for (std::uint32_t j = 0; j < n; ++j) erow[j] += x * double(brow[j]);
            }
        const double fp32_tolerance = 1e-5 * std::max(1.0, double(k) / 64);

        // cuBLAS, default math (the reference), then pedantic.
        const float alpha = 1.0f, beta = 0.0f;
        auto sgemm = [&] {
            return cublas_status(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, int(n), int(m), int(k), &alpha, db.get(),
                                             int(n), da.get(), int(k), &beta, dc.get(), int(n)),
                                 "cublasSgemm");
        };
        double cublas_ms = 0;
        for (cublasMath_t mode : {CUBLAS_DEFAULT_MATH, CUBLAS_PEDANTIC_MATH}) {
            if (!check(cublas_status(cublasSetMathMode(handle, mode), "cublasSetMathMode"), "cuBLAS")) return 1;
            cublasMath_t now{};
            if (!check(cublas_status(cublasGetMathMode(handle, &now), "cublasGetMathMode"), "cuBLAS")) return 1;
            if (now != mode) {
                std::fprintf(stderr, "cuBLAS did not take math mode %d (has %d)\n", int(mode), int(now));
                return 1;
            }
            Row r;
            r.m = m, r.k = k, r.n = n;
            r.kernel = mode == CUBLAS_DEFAULT_MATH ? "cuBLAS SGEMM" : "cuBLAS pedantic";
            r.is_ours = false;
            if (!check(cuda_status(cudaMemset(dc.get(), 0xFF, count * sizeof(float)), "poison C"), "poison")) return 1;
            if (!time_ms(big ? 3 : 5, repeats, sgemm, &r.median_ms, &r.min_ms)) return 1;
            std::vector<float>& out = mode == CUBLAS_DEFAULT_MATH ? reference : got;
            if (!check(cuda_status(cudaMemcpy(out.data(), dc.get(), count * sizeof(float), cudaMemcpyDeviceToHost), "download"),
                       "download"))
                return 1;
            if (mode == CUBLAS_DEFAULT_MATH) cublas_ms = r.median_ms;
            r.gflops = flop / (r.median_ms * 1e6);
            r.fraction_of_cublas = cublas_ms / r.median_ms;
            r.err_vs_cublas = matmul_max_relative_error(out.data(), reference.data(), count);
            r.err_vs_fp64 = error_on_rows(out, ref64, sample, n);
            r.frob_vs_exact = frobenius_on_rows(out, exact, sample, n);
            r.tolerance = fp32_tolerance;
            rows.push_back(r);
        }
        if (!check(cublas_status(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH), "cublasSetMathMode"), "cuBLAS")) return 1;

        // cuBLAS on the tensor cores with TF32-rounded operands (default math mode; the compute type asks for it).
        {
            Row r;
            r.m = m, r.k = k, r.n = n;
            r.kernel = "cuBLAS FAST_TF32";
            r.is_ours = false;
            auto tf32 = [&] {
                return cublas_status(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, int(n), int(m), int(k), &alpha, db.get(),
                                                  CUDA_R_32F, int(n), da.get(), CUDA_R_32F, int(k), &beta, dc.get(),
                                                  CUDA_R_32F, int(n), CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT),
                                     "cublasGemmEx FAST_TF32");
            };
            if (!check(cuda_status(cudaMemset(dc.get(), 0xFF, count * sizeof(float)), "poison C"), "poison")) return 1;
            if (!time_ms(big ? 3 : 5, repeats, tf32, &r.median_ms, &r.min_ms)) return 1;
            if (!check(cuda_status(cudaMemcpy(got.data(), dc.get(), count * sizeof(float), cudaMemcpyDeviceToHost), "download"),
                       "download"))
                return 1;
            r.gflops = flop / (r.median_ms * 1e6);
            r.fraction_of_cublas = cublas_ms / r.median_ms;
            r.err_vs_cublas = matmul_max_relative_error(got.data(), reference.data(), count);
            r.err_vs_fp64 = error_on_rows(got, ref64, sample, n);
            r.frob_vs_exact = frobenius_on_rows(got, exact, sample, n);
            r.tolerance = matmul_test_tolerance(MatmulVariant::Tf32, k);
            rows.push_back(r);
        }

        for (const MatmulLaunch& l : ours) {
            if (matmul_workspace_floats(l, m, n) * sizeof(float) > kMaxWorkspaceBytes) continue;
            Row r;
            r.m = m, r.k = k, r.n = n;
            r.kernel = to_string(l);
            auto run = [&] { return launch_matmul_on_device(dev, l, nullptr); };
            if (!check(cuda_status(cudaMemset(dc.get(), 0xFF, count * sizeof(float)), "poison C"), "poison")) return 1;
            if (!time_ms(big ? 2 : 5, repeats, run, &r.median_ms, &r.min_ms)) return 1;
            std::vector<float>& out = l.kernel == MatmulVariant::Naive && l.block.x == 16 ? naive : got;
            if (!check(cuda_status(cudaMemcpy(out.data(), dc.get(), count * sizeof(float), cudaMemcpyDeviceToHost), "download"),
                       "download"))
                return 1;
            r.gflops = flop / (r.median_ms * 1e6);
            r.fraction_of_cublas = cublas_ms / r.median_ms;
            r.err_vs_cublas = matmul_max_relative_error(out.data(), reference.data(), count);
            r.err_vs_fp64 = error_on_rows(out, ref64, sample, n);
            r.frob_vs_exact = frobenius_on_rows(out, exact, sample, n);
            r.tolerance = matmul_test_tolerance(l.kernel, k);
            r.exact = matmul_variant_info(l.kernel)->exact;
            r.identical_to_naive = std::memcmp(out.data(), naive.data(), count * sizeof(float)) == 0;
            if (l.kernel == MatmulVariant::SplitK)
                r.split_order = split_order_holds(out, a, b, sample, shape, matmul_split_slices(l, m, n)) ? 1 : 0;
            rows.push_back(r);
        }
    }

    std::printf("device: %s; medians of %d runs after warm-up, back to back, CUDA events\n", device.c_str(), repeats);
    std::printf("reference: cublasSgemm, CUBLAS_DEFAULT_MATH (fp32, no TF32); errors are max |x - ref| / max(1, |ref|)\n");
    std::printf("%-15s %-26s %10s %10s %9s %8s %12s %12s %12s %10s\n", "MxKxN", "kernel", "median ms", "min ms", "GFLOP/s",
                "%cuBLAS", "err/cuBLAS", "err/fp64", "frob/exact", "=naive16");
    bool all_good = true;
    for (const Row& r : rows) {
        const std::string shape = Shape{r.m, r.k, r.n}.text();
        std::printf("%-15s %-26s %10.3f %10.3f %9.0f %7.1f%% %12.2e %12.2e %12.2e %10s\n", shape.c_str(), r.kernel.c_str(),
                    r.median_ms, r.min_ms, r.gflops, 100 * r.fraction_of_cublas, r.err_vs_cublas, r.err_vs_fp64,
                    r.frob_vs_exact,
                    r.is_ours ? (r.identical_to_naive ? "yes"
                                 : r.exact          ? "NO"
                                 : r.split_order == 1 ? "no (split)"
                                 : r.split_order == 0 ? "ORDER?"
                                                      : "no (TF32)")
                              : "-");
        // float accumulation over K products of magnitude <= 1, against a reference summed otherwise;
        // TF32 operands: matmul_test_tolerance
        if (r.err_vs_fp64 > r.tolerance || r.err_vs_cublas > r.tolerance + r.tolerance ||
            (r.is_ours && r.exact && !r.identical_to_naive) || r.split_order == 0)
            all_good = false;
    }
    // The best configuration per shape, by timing: the fastest of our fp32-accurate kernels (3xTF32 among
    // them), and of all of ours.
    for (const Shape& s : shapes) {
        const Row* best32 = nullptr;
        const Row* best = nullptr;
        for (const Row& r : rows) {
            if (!r.is_ours || r.m != s.m || r.k != s.k || r.n != s.n) continue;
            if (!best || r.median_ms < best->median_ms) best = &r;
            const bool fp32 = r.tolerance <= 1e-5 * std::max(1.0, double(r.k) / 64);
            if (fp32 && (!best32 || r.median_ms < best32->median_ms)) best32 = &r;
        }
        if (best32)
            std::printf("%s: fastest fp32-accurate kernel %s, %.3f ms = %.1f%% of cuBLAS SGEMM; fastest of ours %s (%.1f%%)\n",
                        s.text().c_str(), best32->kernel.c_str(), best32->median_ms, 100 * best32->fraction_of_cublas,
                        best->kernel.c_str(), 100 * best->fraction_of_cublas);
    }
    // The 3xTF32 goal: its error at most 2x fp32's (naive 16x16, every exact kernel's bytes).
    for (const Row& r : rows) {
        if (r.kernel.rfind("3xTF32", 0) != 0) continue;
        for (const Row& base : rows)
            if (base.m == r.m && base.k == r.k && base.n == r.n && base.kernel == "naive 16x16")
                std::printf("%s: 3xTF32 / fp32 error (Frobenius, sampled rows): %.3g / %.3g = %.2f\n",
                            Shape{r.m, r.k, r.n}.text().c_str(), r.frob_vs_exact, base.frob_vs_exact,
                            r.frob_vs_exact / base.frob_vs_exact);
    }
    double worst_1024 = 0;
    for (const Row& r : rows)
        if (r.m == 1024 && r.k == 1024 && r.n == 1024 && r.is_ours) worst_1024 = std::max(worst_1024, r.err_vs_cublas);
    std::printf("max relative error of our kernels against cuBLAS at 1024^3: %.3e\n", worst_1024);
    if (!all_good) std::printf("CHECK FAILED: a result is off (see err columns and =naive16)\n");

    if (!json.empty()) {
        std::ofstream f(json);
        f << "{\n  \"benchmark\": \"matmul_gpu\",\n  \"device\": \"" << device << "\",\n  \"repeats\": " << repeats
          << ",\n  \"cublas_math_mode\": \"CUBLAS_DEFAULT_MATH\",\n  \"max_rel_error_vs_cublas_1024\": " << worst_1024
          << ",\n  \"checks_passed\": " << (all_good ? "true" : "false") << ",\n  \"results\": [\n";
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const Row& r = rows[i];
            f << "    {\"m\": " << r.m << ", \"k\": " << r.k << ", \"n\": " << r.n << ", \"kernel\": \"" << r.kernel << "\", \"median_ms\": " << r.median_ms
              << ", \"min_ms\": " << r.min_ms << ", \"gflop_per_s\": " << r.gflops
              << ", \"fraction_of_cublas\": " << r.fraction_of_cublas << ", \"max_rel_error_vs_cublas\": " << r.err_vs_cublas
              << ", \"max_rel_error_vs_fp64_sampled\": " << r.err_vs_fp64
              << ", \"frobenius_rel_error_vs_exact_sampled\": " << r.frob_vs_exact;
            if (r.is_ours) f << ", \"identical_to_naive_16x16\": " << (r.identical_to_naive ? "true" : "false");
            if (r.split_order >= 0) f << ", \"split_order_exact_sampled\": " << (r.split_order ? "true" : "false");
            f << "}" << (i + 1 < rows.size() ? "," : "") << "\n";
        }
        f << "  ]\n}\n";
        if (!f) {
            std::fprintf(stderr, "cannot write %s\n", json.c_str());
            return 1;
        }
    }
    return all_good ? 0 : 1;
}
