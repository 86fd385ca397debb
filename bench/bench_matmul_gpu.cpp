// The matmul kernels on the GPU against cuBLAS: naive (16x16 and 32x32 blocks) and every other
// variant of the catalogue (each TILE of the tiled kernel, the blocktiled ladder) at 1024^3 and 4096^3, kernel time by CUDA events (median of --repeats runs
// after a warm-up, run back to back), GFLOP/s = 2n^3 / t, and the fraction of cuBLAS SGEMM.
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
// tolerance instead, matmul_test_tolerance). On the sampled rows the relative error in the Frobenius
// norm against the exact product is printed too (the 3xTF32 goal: at most 2x fp32's, naive 16x16's).
//
//   bench_matmul_gpu [--repeats N>=10] [--quick] [--json FILE]      --quick: 1024^3 only
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
    std::uint32_t n = 0;
    std::string kernel;
    double median_ms = 0, min_ms = 0, gflops = 0, fraction_of_cublas = 0;
    double err_vs_cublas = 0;  // max relative error, all elements (0 for the cuBLAS row itself)
    double err_vs_fp64 = 0;    // max relative error on the sampled rows
    double frob_vs_exact = 0;  // ||C - exact||_F / ||exact||_F on the sampled rows
    double tolerance = 0;      // err_vs_fp64's bound
    bool identical_to_naive = false;
    bool exact = true;         // expected to equal naive 16x16 byte for byte
    bool is_ours = true;
};

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
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--repeats" && i + 1 < argc) repeats = std::max(10, std::stoi(argv[++i]));
        else if (a == "--quick") quick = true;
        else if (a == "--json" && i + 1 < argc) json = argv[++i];
        else {
            std::fprintf(stderr, "usage: bench_matmul_gpu [--repeats N>=10] [--quick] [--json FILE]\n");
            return 2;
        }
    }
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

    const std::vector<std::uint32_t> sizes = quick ? std::vector<std::uint32_t>{1024} : std::vector<std::uint32_t>{1024, 4096};
    // Every variant of the catalogue: naive at 16x16 (the byte reference) and 32x32, each TILE of a
    // tiled variant, the fixed block of a blocktiled one.
    std::vector<MatmulLaunch> ours{MatmulLaunch::naive(16, 16), MatmulLaunch::naive(32, 32)};
    for (const KernelInfo& info : matmul_catalogue()) {
        const MatmulVariant v = MatmulVariant(info.variant);
        if (info.block == BlockRule::Tile)
            for (unsigned t : info.tiles) ours.push_back(MatmulLaunch::of(v, Dim3{t, t, 1}, t));
        else if (info.block == BlockRule::Fixed)
            ours.push_back(MatmulLaunch::of(v, info.fixed_block, 0));
    }
    std::vector<Row> rows;
    for (const std::uint32_t n : sizes) {
        const std::size_t count = std::size_t(n) * n;
        std::vector<float> a(count), b(count), reference(count), got(count), naive(count);
        fill_random(a, n + 1);
        fill_random(b, n + 2);
        DeviceBuffer<float> da, db, dc;
        if (!check(da.allocate(count), "A") || !check(db.allocate(count), "B") || !check(dc.allocate(count), "C")) return 1;
        if (!check(cuda_status(cudaMemcpy(da.get(), a.data(), count * sizeof(float), cudaMemcpyHostToDevice), "upload A"), "upload") ||
            !check(cuda_status(cudaMemcpy(db.get(), b.data(), count * sizeof(float), cudaMemcpyHostToDevice), "upload B"), "upload"))
            return 1;
        const MatmulProblem dev{da.get(), db.get(), dc.get(), n, n, n};
        const double flop = 2.0 * double(n) * n * n;

        // The float64 reference on sampled rows (every 64th and the last), for every result.
        std::vector<std::uint32_t> sample;
        for (std::uint32_t r = 0; r < n; r += 64) sample.push_back(r);
        sample.push_back(n - 1);
        std::vector<float> ref64(sample.size() * n);
        for (std::size_t i = 0; i < sample.size(); ++i)
            matmul_reference({a.data() + std::size_t(sample[i]) * n, b.data(), ref64.data() + i * n, 1, n, n});
        std::vector<double> exact(sample.size() * n, 0.0);  // the same rows unrounded
        for (std::size_t i = 0; i < sample.size(); ++i)
            for (std::uint32_t kk = 0; kk < n; ++kk) {
                const double x = a[std::size_t(sample[i]) * n + kk];
                const float* brow = b.data() + std::size_t(kk) * n;
                double* erow = exact.data() + i * n;
                for (std::uint32_t j = 0; j < n; ++j) erow[j] += x * double(brow[j]);
            }
        const double fp32_tolerance = 1e-5 * std::max(1.0, double(n) / 64);

        // cuBLAS, default math (the reference), then pedantic.
        const float alpha = 1.0f, beta = 0.0f;
        auto sgemm = [&] {
            return cublas_status(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, int(n), int(n), int(n), &alpha, db.get(),
                                             int(n), da.get(), int(n), &beta, dc.get(), int(n)),
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
            r.n = n;
            r.kernel = mode == CUBLAS_DEFAULT_MATH ? "cuBLAS SGEMM" : "cuBLAS pedantic";
            r.is_ours = false;
            if (!check(cuda_status(cudaMemset(dc.get(), 0xFF, count * sizeof(float)), "poison C"), "poison")) return 1;
            if (!time_ms(n >= 4096 ? 3 : 5, repeats, sgemm, &r.median_ms, &r.min_ms)) return 1;
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
            r.n = n;
            r.kernel = "cuBLAS FAST_TF32";
            r.is_ours = false;
            auto tf32 = [&] {
                return cublas_status(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, int(n), int(n), int(n), &alpha, db.get(),
                                                  CUDA_R_32F, int(n), da.get(), CUDA_R_32F, int(n), &beta, dc.get(),
                                                  CUDA_R_32F, int(n), CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT),
                                     "cublasGemmEx FAST_TF32");
            };
            if (!check(cuda_status(cudaMemset(dc.get(), 0xFF, count * sizeof(float)), "poison C"), "poison")) return 1;
            if (!time_ms(n >= 4096 ? 3 : 5, repeats, tf32, &r.median_ms, &r.min_ms)) return 1;
            if (!check(cuda_status(cudaMemcpy(got.data(), dc.get(), count * sizeof(float), cudaMemcpyDeviceToHost), "download"),
                       "download"))
                return 1;
            r.gflops = flop / (r.median_ms * 1e6);
            r.fraction_of_cublas = cublas_ms / r.median_ms;
            r.err_vs_cublas = matmul_max_relative_error(got.data(), reference.data(), count);
            r.err_vs_fp64 = error_on_rows(got, ref64, sample, n);
            r.frob_vs_exact = frobenius_on_rows(got, exact, sample, n);
            r.tolerance = matmul_test_tolerance(MatmulVariant::Tf32, n);
            rows.push_back(r);
        }

        for (const MatmulLaunch& l : ours) {
            Row r;
            r.n = n;
            r.kernel = to_string(l);
            auto run = [&] { return launch_matmul_on_device(dev, l, nullptr); };
            if (!check(cuda_status(cudaMemset(dc.get(), 0xFF, count * sizeof(float)), "poison C"), "poison")) return 1;
            if (!time_ms(n >= 4096 ? 2 : 5, repeats, run, &r.median_ms, &r.min_ms)) return 1;
            std::vector<float>& out = l.kernel == MatmulVariant::Naive && l.block.x == 16 ? naive : got;
            if (!check(cuda_status(cudaMemcpy(out.data(), dc.get(), count * sizeof(float), cudaMemcpyDeviceToHost), "download"),
                       "download"))
                return 1;
            r.gflops = flop / (r.median_ms * 1e6);
            r.fraction_of_cublas = cublas_ms / r.median_ms;
            r.err_vs_cublas = matmul_max_relative_error(out.data(), reference.data(), count);
            r.err_vs_fp64 = error_on_rows(out, ref64, sample, n);
            r.frob_vs_exact = frobenius_on_rows(out, exact, sample, n);
            r.tolerance = matmul_test_tolerance(l.kernel, n);
            r.exact = matmul_variant_info(l.kernel)->exact;
            r.identical_to_naive = std::memcmp(out.data(), naive.data(), count * sizeof(float)) == 0;
            rows.push_back(r);
        }
    }

    std::printf("device: %s; medians of %d runs after warm-up, back to back, CUDA events\n", device.c_str(), repeats);
    std::printf("reference: cublasSgemm, CUBLAS_DEFAULT_MATH (fp32, no TF32); errors are max |x - ref| / max(1, |ref|)\n");
    std::printf("%-6s %-18s %10s %10s %9s %8s %12s %12s %12s %10s\n", "n", "kernel", "median ms", "min ms", "GFLOP/s",
                "%cuBLAS", "err/cuBLAS", "err/fp64", "frob/exact", "=naive16");
    bool all_good = true;
    for (const Row& r : rows) {
        std::printf("%-6u %-18s %10.3f %10.3f %9.0f %7.1f%% %12.2e %12.2e %12.2e %10s\n", r.n, r.kernel.c_str(),
                    r.median_ms, r.min_ms, r.gflops, 100 * r.fraction_of_cublas, r.err_vs_cublas, r.err_vs_fp64,
                    r.frob_vs_exact, r.is_ours ? (r.identical_to_naive ? "yes" : r.exact ? "NO" : "no (TF32)") : "-");
        // float accumulation over K = n products of magnitude <= 1, against a reference summed otherwise;
        // TF32 operands: matmul_test_tolerance
        if (r.err_vs_fp64 > r.tolerance || r.err_vs_cublas > r.tolerance + r.tolerance ||
            (r.is_ours && r.exact && !r.identical_to_naive))
            all_good = false;
    }
    // The 3xTF32 goal: its error at most 2x fp32's (naive 16x16, every exact kernel's bytes).
    for (const Row& r : rows) {
        if (r.kernel.rfind("3xTF32", 0) != 0) continue;
        for (const Row& base : rows)
            if (base.n == r.n && base.kernel == "naive 16x16")
                std::printf("n = %u: 3xTF32 / fp32 error (Frobenius, sampled rows): %.3g / %.3g = %.2f\n", r.n,
                            r.frob_vs_exact, base.frob_vs_exact, r.frob_vs_exact / base.frob_vs_exact);
    }
    double worst_1024 = 0;
    for (const Row& r : rows)
        if (r.n == 1024 && r.is_ours) worst_1024 = std::max(worst_1024, r.err_vs_cublas);
    std::printf("max relative error of our kernels against cuBLAS at 1024^3: %.3e\n", worst_1024);
    if (!all_good) std::printf("CHECK FAILED: a result is off (see err columns and =naive16)\n");

    if (!json.empty()) {
        std::ofstream f(json);
        f << "{\n  \"benchmark\": \"matmul_gpu\",\n  \"device\": \"" << device << "\",\n  \"repeats\": " << repeats
          << ",\n  \"cublas_math_mode\": \"CUBLAS_DEFAULT_MATH\",\n  \"max_rel_error_vs_cublas_1024\": " << worst_1024
          << ",\n  \"checks_passed\": " << (all_good ? "true" : "false") << ",\n  \"results\": [\n";
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const Row& r = rows[i];
            f << "    {\"n\": " << r.n << ", \"kernel\": \"" << r.kernel << "\", \"median_ms\": " << r.median_ms
              << ", \"min_ms\": " << r.min_ms << ", \"gflop_per_s\": " << r.gflops
              << ", \"fraction_of_cublas\": " << r.fraction_of_cublas << ", \"max_rel_error_vs_cublas\": " << r.err_vs_cublas
              << ", \"max_rel_error_vs_fp64_sampled\": " << r.err_vs_fp64
              << ", \"frobenius_rel_error_vs_exact_sampled\": " << r.frob_vs_exact;
            if (r.is_ours) f << ", \"identical_to_naive_16x16\": " << (r.identical_to_naive ? "true" : "false");
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
