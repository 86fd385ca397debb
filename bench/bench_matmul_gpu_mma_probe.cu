// What one mma.sync.m16n8k8 TF32 computes, against candidate models of its sum d = c + p0 + ... + p7
// (the products of TF32 values are exact): how many of the GPU's outputs each model reproduces bit for
// bit, over random trials of several kinds. The emulator's MMA (kernels/matmul/mma_tf32.h) should
// be the model that matches; this program is how that is established, on the GPU at hand.
//   exact-RN:        the exact sum, rounded once to nearest
//   fma-chain:       c, then fmaf(a_k, b_k, acc) for k = 0..7 in order
//   align-E-RZ/RN:   every term truncated to 23 + E fraction bits below the largest term's leading bit
//                    (E extra bits), summed exactly, then rounded toward zero / to nearest
//   2x4-align-E-RZ:  the same in two halves (k 0..3 with c, then k 4..7 with that result)
//   prod-align-E-then-c-RZ: the products aligned and summed alone, then c added, rounded toward zero
//   tree4-align-E-RZ: each half of the products aligned and summed, then c and the halves likewise
//
//   bench_matmul_gpu_mma_probe [--trials N] [--json FILE]
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "mma_sum_models.h"
#include "kernels/matmul/mma_fragment.h"
#include "kernels/matmul/mma_tf32.h"

using namespace cvz;

namespace {

// One warp per trial: A (16 x 8), B (8 x 8, row-major k x n), C (16 x 8) in, D out, all row-major.
__global__ void mma_trials(const float* a, const float* b, const float* c, float* d) {
    const unsigned t = blockIdx.x, lane = threadIdx.x;
    const float* at = a + t * 128;
    const float* bt = b + t * 64;
    const float* ct = c + t * 128;
    std::uint32_t ar[4], br[2];
    float acc[4];
    for (unsigned r = 0; r < 4; ++r) ar[r] = __float_as_uint(at[mma_a_row(lane, r) * 8 + mma_a_col(lane, r)]);
    for (unsigned r = 0; r < 2; ++r) br[r] = __float_as_uint(bt[mma_b_row(lane, r) * 8 + mma_b_col(lane, r)]);
    for (unsigned r = 0; r < 4; ++r) acc[r] = ct[mma_c_row(lane, r) * 8 + mma_c_col(lane, r)];
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
                 : "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3]), "r"(br[0]), "r"(br[1]));
    for (unsigned r = 0; r < 4; ++r) d[t * 128 + mma_c_row(lane, r) * 8 + mma_c_col(lane, r)] = acc[r];
}



struct Model {
    std::string name;
    std::function<float(float c, const double* p)> f;  // p: the 8 exact products
    std::uint64_t matches = 0;
};

}  // namespace

int main(int argc, char** argv) {
    int trials = 20000;
    std::string json;
    for (int i = 1; i < argc; ++i) {
        const std::string s = argv[i];
        if (s == "--trials" && i + 1 < argc) trials = std::max(100, std::stoi(argv[++i]));
        else if (s == "--json" && i + 1 < argc) json = argv[++i];
        else {
            std::fprintf(stderr, "usage: bench_matmul_gpu_mma_probe [--trials N] [--json FILE]\n");
            return 2;
        }
    }
    std::vector<Model> models;
    add_product_sum_models(models);

    // Kinds of trial: uniform [-1, 1]; wide exponents (cancellation and alignment matter); c large
    // against the products; c zero.
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::uniform_int_distribution<int> ex(-12, 12);
    const std::size_t na = std::size_t(trials) * 128, nb = std::size_t(trials) * 64;
    std::vector<float> a(na), b(nb), c(na), d(na);
    for (int t = 0; t < trials; ++t) {
        const int kind = t % 4;
        for (int i = 0; i < 128; ++i) {
            float x = u(rng), z = u(rng);
            if (kind == 1) x = std::ldexp(x, ex(rng)), z = std::ldexp(z, ex(rng));
            if (kind == 2) z = std::ldexp(z, 6);
            if (kind == 3) z = 0;
            a[std::size_t(t) * 128 + i] = round_to_tf32(x);
            c[std::size_t(t) * 128 + i] = z;
        }
        for (int i = 0; i < 64; ++i) {
            float y = u(rng);
            if (kind == 1) y = std::ldexp(y, ex(rng));
            b[std::size_t(t) * 64 + i] = round_to_tf32(y);
        }
    }
    float *da, *db, *dc, *dd;
    if (cudaMalloc(&da, na * 4) || cudaMalloc(&db, nb * 4) || cudaMalloc(&dc, na * 4) || cudaMalloc(&dd, na * 4)) {
        std::fprintf(stderr, "no device memory\n");
        return 1;
    }
    cudaMemcpy(da, a.data(), na * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(db, b.data(), nb * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dc, c.data(), na * 4, cudaMemcpyHostToDevice);
    mma_trials<<<trials, 32>>>(da, db, dc, dd);
    if (cudaDeviceSynchronize() != cudaSuccess || cudaMemcpy(d.data(), dd, na * 4, cudaMemcpyDeviceToHost) != cudaSuccess) {
        std::fprintf(stderr, "mma run failed: %s\n", cudaGetErrorString(cudaGetLastError()));
        return 1;
    }
    std::uint64_t outputs = 0;
    std::vector<std::uint64_t> per_kind_matches(models.size() * 4, 0);
    for (int t = 0; t < trials; ++t)
        for (int r = 0; r < 16; ++r)
            for (int col = 0; col < 8; ++col) {
                double p[8];
                for (int k = 0; k < 8; ++k)
                    p[k] = double(a[std::size_t(t) * 128 + r * 8 + k]) * double(b[std::size_t(t) * 64 + k * 8 + col]);
                const float cv = c[std::size_t(t) * 128 + r * 8 + col], got = d[std::size_t(t) * 128 + r * 8 + col];
                ++outputs;
                for (std::size_t m = 0; m < models.size(); ++m) {
                    const float want = models[m].f(cv, p);
                    if (std::memcmp(&want, &got, 4) == 0) {
                        ++models[m].matches;
                        ++per_kind_matches[m * 4 + std::size_t(t % 4)];
                    }
                }
            }
    std::printf("%llu outputs of %d single MMAs; share reproduced bit for bit (all; uniform, wide exponents, large c, c = 0)\n",
                static_cast<unsigned long long>(outputs), trials);
    const double per_kind = double(outputs) / 4;
    for (std::size_t m = 0; m < models.size(); ++m)
        std::printf("%-26s %8.4f%%   %8.4f%% %8.4f%% %8.4f%% %8.4f%%\n", models[m].name.c_str(),
                    100.0 * double(models[m].matches) / double(outputs), 100.0 * double(per_kind_matches[m * 4]) / per_kind,
                    100.0 * double(per_kind_matches[m * 4 + 1]) / per_kind, 100.0 * double(per_kind_matches[m * 4 + 2]) / per_kind,
                    100.0 * double(per_kind_matches[m * 4 + 3]) / per_kind);
    if (!json.empty()) {
        std::ofstream f(json);
        f << "{\"benchmark\": \"matmul_gpu_mma_probe\", \"outputs\": " << outputs << ", \"models\": [\n";
        for (std::size_t m = 0; m < models.size(); ++m)
            f << "  {\"model\": \"" << models[m].name << "\", \"bit_identical_share\": "
              << double(models[m].matches) / double(outputs) << "}" << (m + 1 < models.size() ? "," : "") << "\n";
        f << "]}\n";
    }
    return 0;
}
