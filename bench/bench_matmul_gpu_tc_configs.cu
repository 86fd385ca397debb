// The tensor-core body (kernels/matmul/matmul_tensor_core.h) in several tile configurations, for
// choosing the catalogue's: block tile, BK, warps and cp.async stages, one TF32 pass and three; and
// the fp32 double buffer (matmul_double_buffer.h) in several tilings. For each shape (MxKxN, default
// 4096^3): kernel time by CUDA events (median of --repeats after a warm-up), TFLOP/s, registers and
// spill (local) bytes, and whether each configuration gives the catalogue variant's bytes (it must:
// every output sums the same MMAs, or fmas, in the same order whatever the tiling).
// Configurations above 48 KiB of shared memory opt in. First, the mma.sync m16n8k8 TF32 rate alone
// (registers only, 16 independent MMAs per warp and step): the ceiling of these kernels.
//
//   bench_matmul_gpu_tc_configs [--shapes MxKxN,...] [--repeats R] [--only tf32|3xtf32|fp32] [--json FILE]
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "kernels/cuda/device_context.cuh"
#include "kernels/matmul/matmul_device_launch.h"
#include "kernels/matmul/matmul_pipelined.h"
#include "kernels/matmul/matmul_tensor_core.h"
#include "kernels/matmul/matmul_variants.h"
#include "matmul_config_sweep.h"

using namespace cvz;
using namespace cvz::bench;
using Result = ConfigResult;

namespace {

template <class S, unsigned PASSES>
__global__ void __launch_bounds__(S::THREADS) tc_kernel(MatmulProblem p) {
    matmul_tensor_core<S, PASSES>(DeviceContext{}, p);
}

template <class S, unsigned MIN_BLOCKS>
__global__ void __launch_bounds__(S::THREADS, MIN_BLOCKS) fp32_kernel(MatmulProblem p) {
    matmul_double_buffer<S>(DeviceContext{}, p);
}

template <class S, unsigned MIN_BLOCKS>
__global__ void __launch_bounds__(S::THREADS, MIN_BLOCKS) fp32p_kernel(MatmulProblem p) {
    matmul_pipelined<S>(DeviceContext{}, p);
}

// 16 independent MMAs per warp and step on register fragments, `steps` steps; the sums are stored so
// that nothing is optimized away.
__global__ void __launch_bounds__(256) mma_rate_kernel(float* out, int steps) {
#if defined(__CUDA_ARCH__)
    float acc[4][4][4] = {};
    float a[4][4], b[4][2];
    for (int i = 0; i < 4; ++i)
        for (int r = 0; r < 4; ++r) a[i][r] = round_to_tf32(float(threadIdx.x + i + r) * 1e-3f);
    for (int i = 0; i < 4; ++i)
        for (int r = 0; r < 2; ++r) b[i][r] = round_to_tf32(float(threadIdx.x + 3 * i + r) * 1e-3f);
    for (int s = 0; s < steps; ++s) {
#pragma unroll
        for (int mi = 0; mi < 4; ++mi)
#pragma unroll
            for (int ni = 0; ni < 4; ++ni) mma_tf32_m16n8k8(acc[mi][ni], a[mi], b[ni]);
    }
    float t = 0;
    for (int mi = 0; mi < 4; ++mi)
        for (int ni = 0; ni < 4; ++ni)
            for (int r = 0; r < 4; ++r) t += acc[mi][ni][r];
    out[blockIdx.x * blockDim.x + threadIdx.x] = t;
#else
    (void)out, (void)steps;
#endif
}

template <class Kernel>
Result time_kernel(Kernel kernel, std::string name, std::size_t shared, unsigned bm, unsigned bn, unsigned threads,
                   const MatmulProblem& p, const std::vector<float>& want, int repeats) {
    Result r;
    if (!prepare_kernel(kernel, std::move(name), shared, p, r)) return r;
    const dim3 grid((p.n + bn - 1) / bn, (p.m + bm - 1) / bm), block(threads);
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
    compare_bytes(p, want, r);
    return r;
}

template <class S, unsigned PASSES>
Result run_config(const char* name, const MatmulProblem& p, const std::vector<float>& want, int repeats) {
    return time_kernel(&tc_kernel<S, PASSES>, std::string(PASSES == 1 ? "tf32 " : "3xtf32 ") + name,
                       std::size_t(S::SHARED_FLOATS) * sizeof(float), S::BM, S::BN, S::THREADS, p, want, repeats);
}

template <class S, unsigned MIN_BLOCKS>
Result run_fp32(const char* name, const MatmulProblem& p, const std::vector<float>& want, int repeats) {
    return time_kernel(&fp32_kernel<S, MIN_BLOCKS>, std::string("fp32 ") + name,
                       2 * std::size_t(S::STAGE_FLOATS) * sizeof(float), S::BM, S::BN, S::THREADS, p, want, repeats);
}

template <class S, unsigned MIN_BLOCKS>
Result run_fp32p(const char* name, const MatmulProblem& p, const std::vector<float>& want, int repeats) {
    return time_kernel(&fp32p_kernel<S, MIN_BLOCKS>, std::string("fp32 cp.async ") + name,
                       std::size_t(S::SHARED_FLOATS) * sizeof(float), S::BM, S::BN, S::THREADS, p, want, repeats);
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::array<std::uint32_t, 3>> shapes{{4096, 4096, 4096}};
    int repeats = 10;
    std::string json, only;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--shapes" && i + 1 < argc) shapes = parse_shapes(argv[++i]);
        else if (a == "--repeats" && i + 1 < argc) repeats = std::max(3, std::stoi(argv[++i]));
        else if (a == "--only" && i + 1 < argc) only = argv[++i];
        else if (a == "--json" && i + 1 < argc) json = argv[++i];
        else shapes.clear();
        if (shapes.empty()) {
            std::fprintf(stderr, "usage: bench_matmul_gpu_tc_configs [--shapes MxKxN,...] [--repeats R] [--only tf32|3xtf32|fp32] [--json FILE]\n");
            return 2;
        }
    }
    // The MMA rate alone: 132 x 8 blocks of 8 warps.
    double mma_tflops = 0;
    {
        const int blocks = 132 * 8, steps = 4096;
        float* out = nullptr;
        cudaMalloc(&out, std::size_t(blocks) * 256 * 4);
        cudaEvent_t e0, e1;
        cudaEventCreate(&e0);
        cudaEventCreate(&e1);
        std::vector<float> t;
        for (int i = 0; i < 7; ++i) {
            cudaEventRecord(e0);
            mma_rate_kernel<<<blocks, 256>>>(out, steps);
            cudaEventRecord(e1);
            cudaEventSynchronize(e1);
            float ms = 0;
            cudaEventElapsedTime(&ms, e0, e1);
            if (i >= 2) t.push_back(ms);
        }
        std::sort(t.begin(), t.end());
        mma_tflops = double(blocks) * 8 * steps * 16 * 2.0 * 16 * 8 * 8 / (t[t.size() / 2] * 1e9);
        std::printf("mma.sync m16n8k8 TF32 alone (registers, 16 independent per warp and step): %.1f TFLOP/s (%s)\n",
                    mma_tflops, cudaGetErrorString(cudaGetLastError()));
        cudaFree(out);
    }

    std::vector<Result> rs;
    for (const auto& shape : shapes) {
        const std::uint32_t m = shape[0], k = shape[1], n = shape[2];
        const std::size_t na = std::size_t(m) * k, nb = std::size_t(k) * n, nc = std::size_t(m) * n;
        std::vector<float> a(na), b(nb);
        fill_operands(a, b);
        float *da = nullptr, *db = nullptr, *dc = nullptr;
        if (cudaMalloc(&da, na * 4) != cudaSuccess || cudaMalloc(&db, nb * 4) != cudaSuccess || cudaMalloc(&dc, nc * 4) != cudaSuccess) {
            std::fprintf(stderr, "no device memory\n");
            return 1;
        }
        cudaMemcpy(da, a.data(), na * 4, cudaMemcpyHostToDevice);
        cudaMemcpy(db, b.data(), nb * 4, cudaMemcpyHostToDevice);
        const MatmulProblem p{da, db, dc, m, k, n};

        // The catalogue's bytes for each pass count, and the double buffer's.
        std::vector<float> want1(nc), want3(nc), want32(nc);
        for (auto [v, out] : {std::pair{MatmulVariant::Tf32, &want1}, std::pair{MatmulVariant::Tf32x3, &want3},
                              std::pair{MatmulVariant::DoubleBuffer, &want32}}) {
            const Status st = launch_matmul_on_device(p, MatmulLaunch::of(v, matmul_variant_info(v)->fixed_block, 0), nullptr);
            if (!st || cudaMemcpy(out->data(), dc, nc * 4, cudaMemcpyDeviceToHost) != cudaSuccess) {
                std::fprintf(stderr, "catalogue run: %s\n", st.message().c_str());
                return 1;
            }
        }
        // BM, BN, BK, WARPS_M, WARPS_N, STAGES
        if (only.empty() || only == "tf32") {
            rs.push_back(run_config<TensorCoreTiles<128, 128, 16, 2, 4, 2>, 1>("128x128 BK16 2x4w 2st", p, want1, repeats));
            rs.push_back(run_config<TensorCoreTiles<128, 128, 32, 2, 4, 3>, 1>("128x128 BK32 2x4w 3st", p, want1, repeats));
            rs.push_back(run_config<TensorCoreTiles<128, 128, 16, 2, 2, 3>, 1>("128x128 BK16 2x2w 3st", p, want1, repeats));
            rs.push_back(run_config<TensorCoreTiles<128, 128, 32, 2, 2, 3>, 1>("128x128 BK32 2x2w 3st", p, want1, repeats));
            rs.push_back(run_config<TensorCoreTiles<128, 128, 32, 2, 2, 4>, 1>("128x128 BK32 2x2w 4st", p, want1, repeats));
            rs.push_back(run_config<TensorCoreTiles<128, 256, 16, 2, 4, 3>, 1>("128x256 BK16 2x4w 3st", p, want1, repeats));
            rs.push_back(run_config<TensorCoreTiles<128, 256, 32, 2, 4, 3>, 1>("128x256 BK32 2x4w 3st", p, want1, repeats));
            rs.push_back(run_config<TensorCoreTiles<256, 128, 32, 4, 2, 3>, 1>("256x128 BK32 4x2w 3st", p, want1, repeats));
            rs.push_back(run_config<TensorCoreTiles<128, 256, 32, 2, 4, 4>, 1>("128x256 BK32 2x4w 4st", p, want1, repeats));
            // at most 48 KiB
            rs.push_back(run_config<TensorCoreTiles<128, 128, 16, 2, 2, 2>, 1>("128x128 BK16 2x2w 2st", p, want1, repeats));
            rs.push_back(run_config<TensorCoreTiles<128, 128, 8, 2, 2, 4>, 1>("128x128 BK8 2x2w 4st", p, want1, repeats));
            rs.push_back(run_config<TensorCoreTiles<128, 128, 8, 2, 4, 4>, 1>("128x128 BK8 2x4w 4st", p, want1, repeats));
            rs.push_back(run_config<TensorCoreTiles<128, 256, 8, 2, 4, 3>, 1>("128x256 BK8 2x4w 3st", p, want1, repeats));
        }
        if (only.empty() || only == "3xtf32") {
            rs.push_back(run_config<TensorCoreTiles<128, 128, 16, 2, 4, 2>, 3>("128x128 BK16 2x4w 2st", p, want3, repeats));
            rs.push_back(run_config<TensorCoreTiles<128, 128, 32, 2, 4, 3>, 3>("128x128 BK32 2x4w 3st", p, want3, repeats));
            rs.push_back(run_config<TensorCoreTiles<128, 128, 32, 4, 4, 3>, 3>("128x128 BK32 4x4w 3st", p, want3, repeats));
            rs.push_back(run_config<TensorCoreTiles<128, 128, 16, 2, 2, 3>, 3>("128x128 BK16 2x2w 3st", p, want3, repeats));
            rs.push_back(run_config<TensorCoreTiles<128, 128, 32, 2, 2, 3>, 3>("128x128 BK32 2x2w 3st", p, want3, repeats));
            rs.push_back(run_config<TensorCoreTiles<128, 256, 32, 2, 4, 3>, 3>("128x256 BK32 2x4w 3st", p, want3, repeats));
            rs.push_back(run_config<TensorCoreTiles<256, 128, 32, 4, 2, 3>, 3>("256x128 BK32 4x2w 3st", p, want3, repeats));
            rs.push_back(run_config<TensorCoreTiles<128, 256, 16, 2, 4, 4>, 3>("128x256 BK16 2x4w 4st", p, want3, repeats));
            // at most 48 KiB
            rs.push_back(run_config<TensorCoreTiles<128, 128, 16, 2, 2, 2>, 3>("128x128 BK16 2x2w 2st", p, want3, repeats));
            rs.push_back(run_config<TensorCoreTiles<128, 128, 8, 2, 2, 4>, 3>("128x128 BK8 2x2w 4st", p, want3, repeats));
            rs.push_back(run_config<TensorCoreTiles<128, 128, 8, 2, 4, 4>, 3>("128x128 BK8 2x4w 4st", p, want3, repeats));
            rs.push_back(run_config<TensorCoreTiles<128, 256, 8, 2, 4, 3>, 3>("128x256 BK8 2x4w 3st", p, want3, repeats));
            rs.push_back(run_config<TensorCoreTiles<128, 64, 16, 2, 2, 3>, 3>("128x64 BK16 2x2w 3st", p, want3, repeats));
        }
        if (only.empty() || only == "fp32") {
            // BM, BN, BK, TM, TN, WX; min blocks an SM
            rs.push_back(run_fp32<DoubleBufferTiles<128, 128, 16, 8, 8, 16>, 2>("128x128 BK16 8x8 wx16 min2", p, want32, repeats));
            rs.push_back(run_fp32<DoubleBufferTiles<128, 128, 16, 8, 8, 16>, 1>("128x128 BK16 8x8 wx16 min1", p, want32, repeats));
            rs.push_back(run_fp32<DoubleBufferTiles<128, 128, 8, 8, 8, 16>, 2>("128x128 BK8 8x8 wx16 min2", p, want32, repeats));
            rs.push_back(run_fp32<DoubleBufferTiles<128, 256, 16, 8, 16, 16>, 1>("128x256 BK16 8x16 wx16 min1", p, want32, repeats));
            rs.push_back(run_fp32<DoubleBufferTiles<256, 128, 16, 16, 8, 8>, 1>("256x128 BK16 16x8 wx8 min1", p, want32, repeats));
            rs.push_back(run_fp32<DoubleBufferTiles<64, 128, 16, 8, 8, 16>, 3>("64x128 BK16 8x8 wx16 min3", p, want32, repeats));
            rs.push_back(run_fp32<DoubleBufferTiles<128, 64, 16, 8, 8, 8>, 3>("128x64 BK16 8x8 wx8 min3", p, want32, repeats));
            rs.push_back(run_fp32<DoubleBufferTiles<64, 64, 16, 4, 8, 8>, 4>("64x64 BK16 4x8 wx8 min4", p, want32, repeats));
            // BM, BN, BK, TM, TN, WX, STAGES; min blocks an SM
            rs.push_back(run_fp32p<PipelinedTiles<128, 128, 16, 8, 8, 16, 2>, 2>("128x128 BK16 2st min2", p, want32, repeats));
            rs.push_back(run_fp32p<PipelinedTiles<128, 128, 8, 8, 8, 16, 4>, 2>("128x128 BK8 4st min2", p, want32, repeats));
            rs.push_back(run_fp32p<PipelinedTiles<128, 128, 16, 8, 8, 16, 3>, 2>("128x128 BK16 3st min2", p, want32, repeats));
            rs.push_back(run_fp32p<PipelinedTiles<128, 128, 16, 8, 8, 16, 3>, 1>("128x128 BK16 3st min1", p, want32, repeats));
            rs.push_back(run_fp32p<PipelinedTiles<128, 128, 32, 8, 8, 16, 3>, 1>("128x128 BK32 3st min1", p, want32, repeats));
            rs.push_back(run_fp32p<PipelinedTiles<64, 128, 16, 8, 8, 16, 3>, 3>("64x128 BK16 3st min3", p, want32, repeats));
        }
        cudaFree(da);
        cudaFree(db);
        cudaFree(dc);
    }

    std::printf("medians of %d runs, CUDA events\n%-16s %-36s %10s %9s %5s %6s %8s %6s\n", repeats, "MxKxN", "config",
                "median ms", "TFLOP/s", "regs", "local", "smem", "bytes");
    for (const Result& r : rs)
        if (r.error.empty())
            std::printf("%-16s %-36s %10.4f %9.2f %5d %6d %8zu %6s\n", r.shape.c_str(), r.name.c_str(), r.median_ms, r.tflops,
                        r.registers, r.local, r.shared, r.same_bytes ? "same" : "DIFF");
        else
            std::printf("%-16s %-36s %s\n", r.shape.c_str(), r.name.c_str(), r.error.c_str());
    if (!json.empty()) {
        std::ofstream f(json);
        f << "{\"benchmark\": \"matmul_gpu_tc_configs\", \"mma_tf32_alone_tflop_per_s\": " << mma_tflops << ", \"results\": [\n";
        for (std::size_t i = 0; i < rs.size(); ++i)
            f << "  {\"shape\": \"" << rs[i].shape << "\", \"config\": \"" << rs[i].name << "\", \"median_ms\": " << rs[i].median_ms
              << ", \"tflop_per_s\": " << rs[i].tflops << ", \"registers\": " << rs[i].registers << ", \"local_bytes\": "
              << rs[i].local << ", \"shared_bytes\": " << rs[i].shared << ", \"same_bytes_as_catalogue\": "
              << (rs[i].same_bytes ? "true" : "false") << ", \"error\": \"" << rs[i].error << "\"}"
              << (i + 1 < rs.size() ? "," : "") << "\n";
        f << "]}\n";
    }
    return 0;
}
