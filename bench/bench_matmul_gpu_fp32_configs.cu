// The fp32 rungs' candidate configurations (issue 29, item 1), beside cuBLAS SGEMM in the same process:
// the double buffer (matmul_double_buffer.h) in several tilings, with and without its interior path
// (phases wholly inside A and B read without bounds checks), the cp.async stages with A transposed by
// 4-byte copies (matmul_async_stages.h), and split-K (matmul_split_k.h) over those tiles. For each
// shape (MxKxN): kernel time by CUDA events (median of --repeats back-to-back launches after a
// warm-up), TFLOP/s, the fraction of cuBLAS SGEMM (CUBLAS_DEFAULT_MATH, full fp32), registers and
// spill (local) bytes, and whether each configuration gives the catalogue's bytes (the exact ones:
// matmul_double_buffer's, i.e. matmul_naive's; split-K: the catalogue's split-K at the same slices,
// the same slice order since BK is the same).
//
//   bench_matmul_gpu_fp32_configs [--shapes MxKxN,...] [--repeats R] [--json FILE] [--only TEXT[,TEXT...]]
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "kernels/cuda/device_context.cuh"
#include "kernels/matmul/matmul_async_stages.h"
#include "kernels/matmul/matmul_device_launch.h"
#include "kernels/matmul/matmul_double_buffer.h"
#include "kernels/matmul/matmul_split_k.h"
#include "kernels/matmul/matmul_variants.h"
#include "matmul_config_sweep.h"

using namespace cvz;
using namespace cvz::bench;
using Result = ConfigResult;

namespace {

template <class S, unsigned MIN_BLOCKS>
__global__ void __launch_bounds__(S::THREADS, MIN_BLOCKS) double_buffer_kernel(MatmulProblem p) {
    matmul_double_buffer<S>(DeviceContext{}, p);
}

template <class S, unsigned MIN_BLOCKS>
__global__ void __launch_bounds__(S::THREADS, MIN_BLOCKS) async_kernel(MatmulProblem p) {
    matmul_async_stages<S>(DeviceContext{}, p);
}

template <class S, unsigned MIN_BLOCKS>
__global__ void __launch_bounds__(S::THREADS, MIN_BLOCKS) split_k_kernel(MatmulProblem p) {
    matmul_split_k<S>(DeviceContext{}, p);
}

// Median of `repeats` back-to-back runs of `work` (events around each), after 3 warm-ups.
bool time_work(const std::function<void()>& work, int repeats, double* median) {
    std::vector<cudaEvent_t> e(2 * std::size_t(repeats));
    for (cudaEvent_t& x : e) cudaEventCreate(&x);
    for (int i = 0; i < 3; ++i) work();
    for (int i = 0; i < repeats; ++i) {
        cudaEventRecord(e[2 * i]);
        work();
        cudaEventRecord(e[2 * i + 1]);
    }
    const bool fine = cudaEventSynchronize(e.back()) == cudaSuccess;
    std::vector<float> t(std::size_t(repeats), 0.0f);
    for (int i = 0; i < repeats; ++i) cudaEventElapsedTime(&t[i], e[2 * i], e[2 * i + 1]);
    for (cudaEvent_t& x : e) cudaEventDestroy(x);
    std::sort(t.begin(), t.end());
    *median = t[t.size() / 2];
    return fine;
}

// --only: the rows whose name holds this text alone are run (for Nsight Compute); several texts
// separated by commas: the rows holding any of them; empty: all of them
std::string g_only;
bool skipped(const std::string& name) {
    if (g_only.empty()) return false;
    for (std::size_t b = 0;;) {
        const std::size_t e = std::min(g_only.find(',', b), g_only.size());
        if (e > b && name.find(g_only.substr(b, e - b)) != std::string::npos) return false;
        if (e == g_only.size()) return true;
        b = e + 1;
    }
}

struct Shape {
    const MatmulProblem* p;
    const std::vector<float>* want;  // the exact rungs' bytes
    double cublas_ms;
    int repeats;
};

template <class Kernel>
Result time_kernel(Kernel kernel, std::string name, std::size_t shared, unsigned bm, unsigned bn, unsigned threads,
                   unsigned slices, const Shape& sh, const std::vector<float>& want) {
    const MatmulProblem& p = *sh.p;
    Result r;
    if (skipped(name)) {
        r.error = "skipped";
        return r;
    }
    if (!prepare_kernel(kernel, std::move(name), shared, p, r)) return r;
    const dim3 grid((p.n + bn - 1) / bn, (p.m + bm - 1) / bm, slices), block(threads);
    r.blocks = grid.x * grid.y * grid.z;
    auto work = [&] {
        kernel<<<grid, block, r.shared>>>(p);
        if (slices > 1) launch_matmul_split_k_reduce(p, slices, nullptr);
    };
    cudaMemset(p.c, 0xFF, std::size_t(p.m) * p.n * 4);
    if (!time_work(work, sh.repeats, &r.median_ms) && !ok(cudaGetLastError(), r, "run")) return r;
    if (!ok(cudaGetLastError(), r, "run")) return r;
    r.tflops = 2.0 * double(p.m) * p.n * p.k / (r.median_ms * 1e9);
    r.fraction = sh.cublas_ms / r.median_ms;
    compare_bytes(p, want, r);
    return r;
}

template <class S, unsigned MIN_BLOCKS>
Result double_buffer(const char* name, const Shape& sh) {
    return time_kernel(&double_buffer_kernel<S, MIN_BLOCKS>, std::string(S::INTERIOR ? "db+interior " : "db ") + name,
                       2 * std::size_t(S::STAGE_FLOATS) * sizeof(float), S::BM, S::BN, S::THREADS, 1, sh, *sh.want);
}

template <class S, unsigned MIN_BLOCKS>
Result async_stages(const char* name, const Shape& sh) {
    return time_kernel(&async_kernel<S, MIN_BLOCKS>, std::string(S::INTERIOR ? "async+interior " : "async ") + name, std::size_t(S::SHARED_FLOATS) * sizeof(float),
                       S::BM, S::BN, S::THREADS, 1, sh, *sh.want);
}

template <class S, unsigned MIN_BLOCKS>
Result split_k(const char* name, unsigned slices, const Shape& sh, const std::vector<float>& want) {
    return time_kernel(&split_k_kernel<S, MIN_BLOCKS>,
                       std::string(S::INTERIOR ? "split-K+interior " : "split-K ") + name + " z" + std::to_string(slices),
                       2 * std::size_t(S::STAGE_FLOATS) * sizeof(float), S::BM, S::BN, S::THREADS, slices, sh, want);
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::array<std::uint32_t, 3>> shapes{
        {4096, 4096, 4096}, {1537, 769, 1023}, {1024, 1024, 1024}, {2048, 2048, 2048}, {256, 4096, 256}};
    int repeats = 20;
    std::string json;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--shapes" && i + 1 < argc) shapes = parse_shapes(argv[++i]);
        else if (a == "--repeats" && i + 1 < argc) repeats = std::max(3, std::stoi(argv[++i]));
        else if (a == "--json" && i + 1 < argc) json = argv[++i];
        else if (a == "--only" && i + 1 < argc) g_only = argv[++i];
        else shapes.clear();
        if (shapes.empty()) {
            std::fprintf(stderr, "usage: bench_matmul_gpu_fp32_configs [--shapes MxKxN,...] [--repeats R] [--json FILE] [--only TEXT[,TEXT...]]\n");
            return 2;
        }
    }
    cublasHandle_t handle = nullptr;
    if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS || cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH) != CUBLAS_STATUS_SUCCESS) {
        std::fprintf(stderr, "cuBLAS did not start\n");
        return 1;
    }
    cudaDeviceProp prop{};
    cudaGetDeviceProperties(&prop, 0);

    std::vector<Result> rs;
    std::vector<std::pair<std::string, double>> cublas;
    for (const auto& shape : shapes) {
        const std::uint32_t m = shape[0], k = shape[1], n = shape[2];
        const std::size_t na = std::size_t(m) * k, nb = std::size_t(k) * n, nc = std::size_t(m) * n;
        std::vector<float> a(na), b(nb);
        fill_operands(a, b);
        float *da = nullptr, *db = nullptr, *dc = nullptr, *dw = nullptr;
        const std::size_t workspace = std::max<std::size_t>(7 * nc, std::min<std::size_t>(63 * nc, std::size_t(1) << 29));
        if (cudaMalloc(&da, na * 4) != cudaSuccess || cudaMalloc(&db, nb * 4) != cudaSuccess ||
            cudaMalloc(&dc, nc * 4) != cudaSuccess || cudaMalloc(&dw, workspace * 4) != cudaSuccess) {
            std::fprintf(stderr, "no device memory\n");
            return 1;
        }
        cudaMemcpy(da, a.data(), na * 4, cudaMemcpyHostToDevice);
        cudaMemcpy(db, b.data(), nb * 4, cudaMemcpyHostToDevice);
        const MatmulProblem p{da, db, dc, m, k, n, dw};
        const std::string name = std::to_string(m) + "x" + std::to_string(k) + "x" + std::to_string(n);

        // cuBLAS SGEMM, row-major C = A B as C^T = B^T A^T.
        const float alpha = 1.0f, beta = 0.0f;
        double cublas_ms = 0;
        time_work([&] { cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, int(n), int(m), int(k), &alpha, db, int(n), da, int(k), &beta, dc, int(n)); },
                  repeats, &cublas_ms);
        cublas.emplace_back(name, cublas_ms);
        std::printf("%s: cuBLAS SGEMM %.4f ms, %.2f TFLOP/s\n", name.c_str(), cublas_ms, 2.0 * double(m) * n * k / (cublas_ms * 1e9));
        std::fflush(stdout);

        // The reference bytes: matmul_naive's (every exact rung's), split-K's at 2, 3, 4 and 8 slices.
        std::vector<float> want(nc), want_split[9];
        auto catalogue = [&](MatmulVariant v, unsigned tile, std::vector<float>& out) {
            out.resize(nc);
            const Status st = launch_matmul_on_device(p, MatmulLaunch::of(v, matmul_variant_info(v)->fixed_block, tile), nullptr);
            return st && cudaMemcpy(out.data(), dc, nc * 4, cudaMemcpyDeviceToHost) == cudaSuccess;
        };
        {
            const Status st = launch_matmul_on_device(p, MatmulLaunch::naive(16, 16), nullptr);
            if (!st || cudaMemcpy(want.data(), dc, nc * 4, cudaMemcpyDeviceToHost) != cudaSuccess) return 1;
        }
        for (unsigned z : {2u, 3u, 4u, 8u})
            if (!catalogue(MatmulVariant::SplitK, z, want_split[z])) return 1;
        const Shape sh{&p, &want, cublas_ms, repeats};

        // The catalogue's rungs as the ladder launches them: the double buffer, split-K at each of its
        // slice counts (0: the automatic choice) whose workspace fits.
        {
            const MatmulLaunch db_launch = MatmulLaunch::of(MatmulVariant::DoubleBuffer, matmul_variant_info(MatmulVariant::DoubleBuffer)->fixed_block, 0);
            std::vector<MatmulLaunch> launches{db_launch};
            for (unsigned z : matmul_variant_info(MatmulVariant::SplitK)->tiles) {
                const MatmulLaunch l = MatmulLaunch::of(MatmulVariant::SplitK, matmul_variant_info(MatmulVariant::SplitK)->fixed_block, z);
                if (matmul_workspace_floats(l, m, n) <= workspace) launches.push_back(l);
            }
            for (const MatmulLaunch& l : launches) {
                if (skipped("catalogue " + to_string(l))) continue;
                Result r;
                r.name = "catalogue " + to_string(l);
                r.shape = name;
                r.shared = l.shared_bytes();
                const Dim3 g = matmul_grid(l, m, n);
                r.blocks = g.x * g.y * g.z;
                if (time_work([&] { launch_matmul_on_device(p, l, nullptr); }, repeats, &r.median_ms) && cudaGetLastError() == cudaSuccess) {
                    r.tflops = 2.0 * double(m) * n * k / (r.median_ms * 1e9);
                    r.fraction = cublas_ms / r.median_ms;
                    const std::vector<float>* ref = l.kernel == MatmulVariant::DoubleBuffer || l.tile == 1 ? &want
                                                    : l.tile < 9 && !want_split[l.tile].empty() ? &want_split[l.tile] : nullptr;
                    std::vector<float> got(nc);
                    cudaMemcpy(got.data(), dc, nc * 4, cudaMemcpyDeviceToHost);
                    r.same_bytes = ref && std::memcmp(got.data(), ref->data(), nc * 4) == 0;
                    if (!ref) r.error = "(bytes not compared)";
                } else {
                    r.error = "launch failed";
                }
                rs.push_back(r);
            }
        }
        // BM, BN, BK, TM, TN, WX, INTERIOR; min blocks an SM
        rs.push_back(double_buffer<DoubleBufferTiles<256, 128, 16, 16, 8, 8, true>, 1>("256x128 BK16 16x8 wx8 min1", sh));
        rs.push_back(double_buffer<DoubleBufferTiles<128, 256, 16, 8, 16, 8, true>, 1>("128x256 BK16 8x16 wx8 min1", sh));
        rs.push_back(double_buffer<DoubleBufferTiles<128, 128, 16, 8, 8, 16>, 2>("128x128 BK16 8x8 wx16 min2", sh));
        rs.push_back(double_buffer<DoubleBufferTiles<128, 128, 16, 8, 8, 16, true>, 2>("128x128 BK16 8x8 wx16 min2", sh));
        rs.push_back(double_buffer<DoubleBufferTiles<128, 128, 16, 8, 8, 8, true>, 2>("128x128 BK16 8x8 wx8 min2", sh));
        rs.push_back(double_buffer<DoubleBufferTiles<128, 128, 16, 8, 8, 16, true>, 1>("128x128 BK16 8x8 wx16 min1", sh));
        rs.push_back(double_buffer<DoubleBufferTiles<128, 128, 8, 8, 8, 16, true>, 2>("128x128 BK8 8x8 wx16 min2", sh));
        rs.push_back(double_buffer<DoubleBufferTiles<128, 128, 8, 8, 8, 8, true>, 2>("128x128 BK8 8x8 wx8 min2", sh));
        rs.push_back(double_buffer<DoubleBufferTiles<128, 256, 16, 8, 16, 16, true>, 1>("128x256 BK16 8x16 wx16 min1", sh));
        rs.push_back(double_buffer<DoubleBufferTiles<128, 256, 8, 8, 16, 16, true>, 1>("128x256 BK8 8x16 wx16 min1", sh));
        rs.push_back(double_buffer<DoubleBufferTiles<64, 128, 16, 8, 8, 16, true>, 3>("64x128 BK16 8x8 wx16 min3", sh));
        rs.push_back(double_buffer<DoubleBufferTiles<128, 64, 16, 8, 8, 8, true>, 3>("128x64 BK16 8x8 wx8 min3", sh));
        rs.push_back(double_buffer<DoubleBufferTiles<64, 64, 16, 4, 8, 8, true>, 4>("64x64 BK16 4x8 wx8 min4", sh));
        // 2026-12-03, second session: warps of 4 x 8 and 8 x 4 lanes on the 128 x 256 tiles, BK 32, and
        // the 8 x 16 thread tiles in blocks of 128 threads, two blocks an SM (barriers of one block hidden
        // behind the other's arithmetic)
        rs.push_back(double_buffer<DoubleBufferTiles<128, 256, 16, 8, 16, 4, true>, 1>("128x256 BK16 8x16 wx4 min1", sh));
        rs.push_back(double_buffer<DoubleBufferTiles<128, 256, 16, 8, 16, 2, true>, 1>("128x256 BK16 8x16 wx2 min1", sh));
        rs.push_back(double_buffer<DoubleBufferTiles<128, 256, 32, 8, 16, 16, true>, 1>("128x256 BK32 8x16 wx16 min1", sh));
        rs.push_back(double_buffer<DoubleBufferTiles<128, 128, 16, 8, 16, 8, true>, 2>("128x128 BK16 8x16 wx8 min2", sh));
        rs.push_back(double_buffer<DoubleBufferTiles<128, 128, 16, 8, 16, 4, true>, 2>("128x128 BK16 8x16 wx4 min2", sh));
        rs.push_back(double_buffer<DoubleBufferTiles<128, 128, 8, 8, 16, 8, true>, 2>("128x128 BK8 8x16 wx8 min2", sh));
        rs.push_back(double_buffer<DoubleBufferTiles<128, 128, 8, 8, 16, 4, true>, 2>("128x128 BK8 8x16 wx4 min2", sh));
        rs.push_back(double_buffer<DoubleBufferTiles<128, 128, 16, 16, 8, 16, true>, 2>("128x128 BK16 16x8 wx16 min2", sh));
        rs.push_back(double_buffer<DoubleBufferTiles<128, 128, 16, 16, 8, 8, true>, 2>("128x128 BK16 16x8 wx8 min2", sh));
        rs.push_back(double_buffer<DoubleBufferTiles<128, 128, 8, 16, 8, 8, true>, 2>("128x128 BK8 16x8 wx8 min2", sh));
        rs.push_back(double_buffer<DoubleBufferTiles<64, 256, 16, 8, 16, 16, true>, 2>("64x256 BK16 8x16 wx16 min2", sh));
        rs.push_back(double_buffer<DoubleBufferTiles<64, 256, 16, 8, 16, 8, true>, 2>("64x256 BK16 8x16 wx8 min2", sh));
        rs.push_back(double_buffer<DoubleBufferTiles<256, 64, 16, 16, 8, 8, true>, 2>("256x64 BK16 16x8 wx8 min2", sh));
        // the order of a k's fmas (DoubleBufferTiles' ORDER): 1 rows with every other one backwards,
        // 2 column by column, 3 columns with every other one backwards
        rs.push_back(double_buffer<DoubleBufferTiles<128, 256, 16, 8, 16, 16, true, 1>, 1>("128x256 BK16 8x16 wx16 min1 o1", sh));
        rs.push_back(double_buffer<DoubleBufferTiles<128, 256, 16, 8, 16, 16, true, 2>, 1>("128x256 BK16 8x16 wx16 min1 o2", sh));
        rs.push_back(double_buffer<DoubleBufferTiles<128, 256, 16, 8, 16, 16, true, 3>, 1>("128x256 BK16 8x16 wx16 min1 o3", sh));
        rs.push_back(double_buffer<DoubleBufferTiles<128, 256, 8, 8, 16, 16, true, 1>, 1>("128x256 BK8 8x16 wx16 min1 o1", sh));
        rs.push_back(double_buffer<DoubleBufferTiles<128, 256, 8, 8, 16, 16, true, 2>, 1>("128x256 BK8 8x16 wx16 min1 o2", sh));
        rs.push_back(double_buffer<DoubleBufferTiles<128, 128, 16, 8, 16, 8, true, 1>, 2>("128x128 BK16 8x16 wx8 min2 o1", sh));
        rs.push_back(double_buffer<DoubleBufferTiles<128, 128, 16, 8, 16, 8, true, 2>, 2>("128x128 BK16 8x16 wx8 min2 o2", sh));
        rs.push_back(double_buffer<DoubleBufferTiles<128, 128, 16, 8, 16, 8, true, 3>, 2>("128x128 BK16 8x16 wx8 min2 o3", sh));
        rs.push_back(double_buffer<DoubleBufferTiles<128, 256, 16, 16, 8, 32, true>, 1>("128x256 BK16 16x8 wx32 min1", sh));
        rs.push_back(double_buffer<DoubleBufferTiles<128, 256, 16, 16, 8, 16, true>, 1>("128x256 BK16 16x8 wx16 min1", sh));
        rs.push_back(double_buffer<DoubleBufferTiles<128, 256, 16, 16, 8, 32, true, 2>, 1>("128x256 BK16 16x8 wx32 min1 o2", sh));
        rs.push_back(double_buffer<DoubleBufferTiles<128, 128, 16, 8, 8, 16, true, 1>, 1>("128x128 BK16 8x8 wx16 min1 o1", sh));
        rs.push_back(double_buffer<DoubleBufferTiles<128, 128, 16, 8, 8, 16, true, 2>, 1>("128x128 BK16 8x8 wx16 min1 o2", sh));
        // BM, BN, BK, TM, TN, WX, STAGES; min blocks an SM
        rs.push_back(async_stages<AsyncStageTiles<128, 128, 8, 8, 8, 16, 3>, 2>("128x128 BK8 3st wx16 min2", sh));
        rs.push_back(async_stages<AsyncStageTiles<128, 128, 8, 8, 8, 16, 4>, 2>("128x128 BK8 4st wx16 min2", sh));
        rs.push_back(async_stages<AsyncStageTiles<128, 128, 8, 8, 8, 8, 4>, 2>("128x128 BK8 4st wx8 min2", sh));
        rs.push_back(async_stages<AsyncStageTiles<128, 128, 16, 8, 8, 16, 3>, 2>("128x128 BK16 3st wx16 min2", sh));
        rs.push_back(async_stages<AsyncStageTiles<128, 128, 16, 8, 8, 16, 4>, 2>("128x128 BK16 4st wx16 min2", sh));
        rs.push_back(async_stages<AsyncStageTiles<128, 256, 8, 8, 16, 16, 3>, 1>("128x256 BK8 3st wx16 min1", sh));
        rs.push_back(async_stages<AsyncStageTiles<64, 128, 16, 8, 8, 16, 3>, 3>("64x128 BK16 3st wx16 min3", sh));
        rs.push_back(async_stages<AsyncStageTiles<128, 64, 16, 8, 8, 8, 3>, 2>("128x64 BK16 3st wx8 min2", sh));
        rs.push_back(async_stages<AsyncStageTiles<64, 128, 16, 8, 8, 16, 3>, 2>("64x128 BK16 3st wx16 min2", sh));
        rs.push_back(async_stages<AsyncStageTiles<128, 128, 8, 8, 8, 8, 3>, 2>("128x128 BK8 3st wx8 min2", sh));
        rs.push_back(async_stages<AsyncStageTiles<128, 128, 16, 8, 8, 8, 3>, 2>("128x128 BK16 3st wx8 min2", sh));
        rs.push_back(async_stages<AsyncStageTiles<128, 128, 8, 8, 8, 16, 5>, 2>("128x128 BK8 5st wx16 min2", sh));
        // 2026-12-03, session 15: cuBLAS's shape (BK 8, three or four cp.async stages, 256 threads of
        // 8 x 16 at one block an SM) with the fma orders and the interior path; 128 x 256 and 256 x 128.
        // BM, BN, BK, TM, TN, WX, STAGES, ORDER, INTERIOR; min blocks an SM
        rs.push_back(async_stages<AsyncStageTiles<128, 256, 8, 8, 16, 16, 3, 1>, 1>("128x256 BK8 3st wx16 min1 o1", sh));
        rs.push_back(async_stages<AsyncStageTiles<128, 256, 8, 8, 16, 16, 3, 0, true>, 1>("128x256 BK8 3st wx16 min1 o0", sh));
        rs.push_back(async_stages<AsyncStageTiles<128, 256, 8, 8, 16, 16, 3, 1, true>, 1>("128x256 BK8 3st wx16 min1 o1", sh));
        rs.push_back(async_stages<AsyncStageTiles<128, 256, 8, 8, 16, 16, 3, 2, true>, 1>("128x256 BK8 3st wx16 min1 o2", sh));
        rs.push_back(async_stages<AsyncStageTiles<128, 256, 8, 8, 16, 16, 3, 3, true>, 1>("128x256 BK8 3st wx16 min1 o3", sh));
        rs.push_back(async_stages<AsyncStageTiles<128, 256, 8, 8, 16, 16, 4, 0, true>, 1>("128x256 BK8 4st wx16 min1 o0", sh));
        rs.push_back(async_stages<AsyncStageTiles<128, 256, 8, 8, 16, 16, 4, 1, true>, 1>("128x256 BK8 4st wx16 min1 o1", sh));
        rs.push_back(async_stages<AsyncStageTiles<128, 256, 8, 8, 16, 16, 4, 2, true>, 1>("128x256 BK8 4st wx16 min1 o2", sh));
        rs.push_back(async_stages<AsyncStageTiles<128, 256, 8, 8, 16, 8, 3, 1, true>, 1>("128x256 BK8 3st wx8 min1 o1", sh));
        rs.push_back(async_stages<AsyncStageTiles<128, 256, 8, 8, 16, 4, 3, 1, true>, 1>("128x256 BK8 3st wx4 min1 o1", sh));
        rs.push_back(async_stages<AsyncStageTiles<256, 128, 8, 8, 16, 8, 3, 0, true>, 1>("256x128 BK8 3st wx8 min1 o0", sh));
        rs.push_back(async_stages<AsyncStageTiles<256, 128, 8, 8, 16, 8, 3, 1, true>, 1>("256x128 BK8 3st wx8 min1 o1", sh));
        rs.push_back(async_stages<AsyncStageTiles<256, 128, 8, 8, 16, 8, 3, 2, true>, 1>("256x128 BK8 3st wx8 min1 o2", sh));
        rs.push_back(async_stages<AsyncStageTiles<256, 128, 8, 8, 16, 8, 4, 1, true>, 1>("256x128 BK8 4st wx8 min1 o1", sh));
        rs.push_back(async_stages<AsyncStageTiles<256, 128, 8, 8, 16, 4, 3, 1, true>, 1>("256x128 BK8 3st wx4 min1 o1", sh));
        rs.push_back(async_stages<AsyncStageTiles<128, 256, 16, 8, 16, 16, 3, 1, true>, 1>("128x256 BK16 3st wx16 min1 o1", sh));
        // split-K over BK 16 tiles (the catalogue's slice order), where a split may pay
        if (std::uint64_t(m) * n <= 2048ull * 2048ull)
            for (unsigned z : {1u, 2u, 3u, 4u, 8u}) {
                if (z == 1) want_split[1] = want;  // one slice: the double buffer's sums, matmul_naive's bytes
                rs.push_back(split_k<DoubleBufferTiles<128, 128, 16, 8, 8, 16, true>, 2>("128x128 min2", z, sh, want_split[z]));
                rs.push_back(split_k<DoubleBufferTiles<128, 128, 16, 8, 8, 16, true>, 1>("128x128 min1", z, sh, want_split[z]));
                rs.push_back(split_k<DoubleBufferTiles<64, 128, 16, 8, 8, 16, true>, 3>("64x128 min3", z, sh, want_split[z]));
                rs.push_back(split_k<DoubleBufferTiles<128, 64, 16, 8, 8, 8, true>, 3>("128x64 min3", z, sh, want_split[z]));
                rs.push_back(split_k<DoubleBufferTiles<128, 128, 16, 8, 16, 8, true>, 2>("128x128 8x16 wx8 min2", z, sh, want_split[z]));
                rs.push_back(split_k<DoubleBufferTiles<128, 128, 16, 8, 8, 16, true, 1>, 1>("128x128 min1 o1", z, sh, want_split[z]));
                rs.push_back(split_k<DoubleBufferTiles<128, 128, 16, 8, 8, 16, true, 2>, 1>("128x128 min1 o2", z, sh, want_split[z]));
                rs.push_back(split_k<DoubleBufferTiles<64, 128, 16, 8, 8, 16, true, 2>, 3>("64x128 min3 o2", z, sh, want_split[z]));
            }
        rs.erase(std::remove_if(rs.begin(), rs.end(), [](const Result& r) { return r.error == "skipped"; }), rs.end());
        for (auto it = rs.end() - 1; !rs.empty() && it >= rs.begin() && it->shape == name; --it) {
            std::printf("  %-40s %9.4f ms %7.2f TFLOP/s %6.1f%% %4d regs %4d local %4u blocks %s %s\n", it->name.c_str(), it->median_ms,
                        it->tflops, 100 * it->fraction, it->registers, it->local, it->blocks, it->same_bytes ? "same" : "DIFF",
                        it->error.c_str());
            if (it == rs.begin()) break;
        }
        std::fflush(stdout);
        cudaFree(da);
        cudaFree(db);
        cudaFree(dc);
        cudaFree(dw);
    }
    cublasDestroy(handle);

    if (!json.empty()) {
        std::ofstream f(json);
        f << "{\"benchmark\": \"matmul_gpu_fp32_configs\", \"device\": \"" << prop.name << "\", \"repeats\": " << repeats
          << ", \"cublas_sgemm_ms\": {";
        for (std::size_t i = 0; i < cublas.size(); ++i)
            f << (i ? ", " : "") << "\"" << cublas[i].first << "\": " << cublas[i].second;
        f << "}, \"results\": [\n";
        for (std::size_t i = 0; i < rs.size(); ++i)
            f << "  {\"shape\": \"" << rs[i].shape << "\", \"config\": \"" << rs[i].name << "\", \"median_ms\": " << rs[i].median_ms
              << ", \"tflop_per_s\": " << rs[i].tflops << ", \"fraction_of_cublas\": " << rs[i].fraction
              << ", \"registers\": " << rs[i].registers << ", \"local_bytes\": " << rs[i].local << ", \"shared_bytes\": "
              << rs[i].shared << ", \"blocks\": " << rs[i].blocks << ", \"same_bytes_as_catalogue\": "
              << (rs[i].same_bytes ? "true" : "false") << ", \"error\": \"" << rs[i].error << "\"}"
              << (i + 1 < rs.size() ? "," : "") << "\n";
        f << "]}\n";
    }
    return 0;
}
