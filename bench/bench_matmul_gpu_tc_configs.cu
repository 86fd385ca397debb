// The tensor-core body (kernels/matmul/matmul_tensor_core.h) in several tile configurations, for
// choosing the catalogue's: block tile, BK, warps and cp.async stages, one TF32 pass and three, at
// n^3 (default 4096), kernel time by CUDA events (median of --repeats after a warm-up), TFLOP/s, and
// whether each configuration gives the catalogue variant's bytes (it must: every output sums the same
// MMAs in the same order whatever the tiling). Configurations above 48 KiB of shared memory opt in.
//
//   bench_matmul_gpu_tc_configs [--n N] [--repeats R] [--json FILE]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "kernels/cuda/device_context.cuh"
#include "kernels/matmul/matmul_device_launch.h"
#include "kernels/matmul/matmul_tensor_core.h"
#include "kernels/matmul/matmul_variants.h"

using namespace cvz;

namespace {

template <class S, unsigned PASSES>
__global__ void __launch_bounds__(S::THREADS) tc_kernel(MatmulProblem p) {
    matmul_tensor_core<S, PASSES>(DeviceContext{}, p);
}

struct Result {
    std::string name;
    double median_ms = 0, tflops = 0;
    int registers = 0;
    std::size_t shared = 0;
    bool same_bytes = false;
    std::string error;
};

bool ok(cudaError_t e, Result& r, const char* what) {
    if (e == cudaSuccess) return true;
    r.error = std::string(what) + ": " + cudaGetErrorString(e);
    return false;
}

template <class S, unsigned PASSES>
Result run_config(const char* name, const MatmulProblem& p, const std::vector<float>& want, int repeats) {
    Result r;
    r.name = std::string(PASSES == 1 ? "tf32 " : "3xtf32 ") + name;
    const auto kernel = &tc_kernel<S, PASSES>;
    r.shared = std::size_t(S::SHARED_FLOATS) * sizeof(float);
    cudaFuncAttributes attr{};
    if (!ok(cudaFuncGetAttributes(&attr, kernel), r, "attributes")) return r;
    r.registers = attr.numRegs;
    if (!ok(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(r.shared)), r, "opt in")) return r;
    const dim3 grid((p.n + S::BN - 1) / S::BN, (p.m + S::BM - 1) / S::BM), block(S::THREADS);
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    std::vector<float> t;
    for (int i = 0; i < 2 + repeats; ++i) {
        cudaEventRecord(e0);
        kernel<<<grid, block, r.shared>>>(p);
        cudaEventRecord(e1);
        if (!ok(cudaEventSynchronize(e1), r, "run")) return r;
        float ms = 0;
        cudaEventElapsedTime(&ms, e0, e1);
        if (i >= 2) t.push_back(ms);
    }
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    std::sort(t.begin(), t.end());
    r.median_ms = t[t.size() / 2];
    r.tflops = 2.0 * double(p.m) * p.n * p.k / (r.median_ms * 1e9);
    std::vector<float> got(want.size());
    if (!ok(cudaMemcpy(got.data(), p.c, got.size() * sizeof(float), cudaMemcpyDeviceToHost), r, "download")) return r;
    r.same_bytes = std::memcmp(got.data(), want.data(), got.size() * sizeof(float)) == 0;
    return r;
}

}  // namespace

int main(int argc, char** argv) {
    std::uint32_t n = 4096;
    int repeats = 10;
    std::string json;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--n" && i + 1 < argc) n = std::uint32_t(std::stoul(argv[++i]));
        else if (a == "--repeats" && i + 1 < argc) repeats = std::max(3, std::stoi(argv[++i]));
        else if (a == "--json" && i + 1 < argc) json = argv[++i];
        else {
            std::fprintf(stderr, "usage: bench_matmul_gpu_tc_configs [--n N] [--repeats R] [--json FILE]\n");
            return 2;
        }
    }
    const std::size_t count = std::size_t(n) * n;
    std::vector<float> a(count), b(count);
    std::uint64_t s = 12345;
    for (float* v : {a.data(), b.data()})
        for (std::size_t i = 0; i < count; ++i) {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            v[i] = float(std::uint32_t(s >> 40)) / float(1u << 23) - 1.0f;
        }
    float *da = nullptr, *db = nullptr, *dc = nullptr;
    if (cudaMalloc(&da, count * 4) != cudaSuccess || cudaMalloc(&db, count * 4) != cudaSuccess ||
        cudaMalloc(&dc, count * 4) != cudaSuccess) {
        std::fprintf(stderr, "no device memory\n");
        return 1;
    }
    cudaMemcpy(da, a.data(), count * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(db, b.data(), count * 4, cudaMemcpyHostToDevice);
    const MatmulProblem p{da, db, dc, n, n, n};

    // The catalogue's bytes for each pass count.
    std::vector<float> want1(count), want3(count);
    for (auto [v, out] : {std::pair{MatmulVariant::Tf32, &want1}, std::pair{MatmulVariant::Tf32x3, &want3}}) {
        const Status st = launch_matmul_on_device(p, MatmulLaunch::of(v, matmul_variant_info(v)->fixed_block, 0), nullptr);
        if (!st || cudaMemcpy(out->data(), dc, count * 4, cudaMemcpyDeviceToHost) != cudaSuccess) {
            std::fprintf(stderr, "catalogue run: %s\n", st.message().c_str());
            return 1;
        }
    }

    std::vector<Result> rs;
    // BM, BN, BK, WARPS_M, WARPS_N, STAGES
    rs.push_back(run_config<TensorCoreTiles<128, 128, 16, 2, 4, 2>, 1>("128x128 BK16 2x4w 2st", p, want1, repeats));
    rs.push_back(run_config<TensorCoreTiles<128, 128, 16, 2, 4, 3>, 1>("128x128 BK16 2x4w 3st", p, want1, repeats));
    rs.push_back(run_config<TensorCoreTiles<128, 128, 32, 2, 4, 3>, 1>("128x128 BK32 2x4w 3st", p, want1, repeats));
    rs.push_back(run_config<TensorCoreTiles<128, 128, 16, 2, 4, 4>, 1>("128x128 BK16 2x4w 4st", p, want1, repeats));
    rs.push_back(run_config<TensorCoreTiles<128, 256, 16, 2, 4, 3>, 1>("128x256 BK16 2x4w 3st", p, want1, repeats));
    rs.push_back(run_config<TensorCoreTiles<256, 128, 16, 4, 2, 3>, 1>("256x128 BK16 4x2w 3st", p, want1, repeats));
    rs.push_back(run_config<TensorCoreTiles<128, 128, 16, 4, 4, 3>, 1>("128x128 BK16 4x4w 3st", p, want1, repeats));
    // 3xTF32 sums each K-tile apart (matmul_tensor_core.h): the same bytes for every BK = 16 configuration.
    rs.push_back(run_config<TensorCoreTiles<128, 128, 16, 4, 4, 2>, 3>("128x128 BK16 4x4w 2st", p, want3, repeats));
    rs.push_back(run_config<TensorCoreTiles<128, 128, 16, 4, 4, 3>, 3>("128x128 BK16 4x4w 3st", p, want3, repeats));
    rs.push_back(run_config<TensorCoreTiles<128, 128, 16, 2, 4, 2>, 3>("128x128 BK16 2x4w 2st", p, want3, repeats));
    rs.push_back(run_config<TensorCoreTiles<64, 128, 16, 2, 4, 2>, 3>("64x128 BK16 2x4w 2st", p, want3, repeats));
    rs.push_back(run_config<TensorCoreTiles<128, 64, 16, 4, 2, 2>, 3>("128x64 BK16 4x2w 2st", p, want3, repeats));
    rs.push_back(run_config<TensorCoreTiles<64, 128, 16, 2, 4, 3>, 3>("64x128 BK16 2x4w 3st", p, want3, repeats));
    rs.push_back(run_config<TensorCoreTiles<128, 256, 16, 4, 4, 2>, 3>("128x256 BK16 4x4w 2st", p, want3, repeats));

    std::printf("n = %u, medians of %d runs, CUDA events\n%-30s %10s %9s %5s %8s %6s\n", n, repeats, "config", "median ms",
                "TFLOP/s", "regs", "smem", "bytes");
    for (const Result& r : rs)
        if (r.error.empty())
            std::printf("%-30s %10.3f %9.1f %5d %8zu %6s\n", r.name.c_str(), r.median_ms, r.tflops, r.registers, r.shared,
                        r.same_bytes ? "same" : "DIFF");
        else
            std::printf("%-30s %s\n", r.name.c_str(), r.error.c_str());
    if (!json.empty()) {
        std::ofstream f(json);
        f << "{\"benchmark\": \"matmul_gpu_tc_configs\", \"n\": " << n << ", \"results\": [\n";
        for (std::size_t i = 0; i < rs.size(); ++i)
            f << "  {\"config\": \"" << rs[i].name << "\", \"median_ms\": " << rs[i].median_ms << ", \"tflop_per_s\": "
              << rs[i].tflops << ", \"registers\": " << rs[i].registers << ", \"shared_bytes\": " << rs[i].shared
              << ", \"same_bytes_as_catalogue\": " << (rs[i].same_bytes ? "true" : "false") << "}"
              << (i + 1 < rs.size() ? "," : "") << "\n";
        f << "]}\n";
    }
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    return 0;
}
