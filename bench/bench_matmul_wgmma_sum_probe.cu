// A probe, not wired into the app (issue 29): what ONE Hopper wgmma k8 step computes, per output element
// d = c + p0 + ... + p7 (the products of TF32 values are exact), against the candidate models of
// bench_matmul_gpu_mma_probe (the same model code, copied below, and the emulator's own
// cvz::detail::tensor_core_sum from kernels/matmul/mma_tf32.h). For each set of trials the program runs
//   - wgmma.mma_async.sync.aligned.m64nNk8.f32.tf32.tf32 (N = 8 and N = 128), both operands K-major in
//     shared memory with the 128-byte swizzle (the layout and descriptor of bench_matmul_wgmma_probe),
//     one warpgroup per trial, D read back with the documented m64nN accumulator layout;
//   - mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 on the same A, B, C (the 64 x N tile as 4 x N/8
//     tiles of 16 x 8), so the two instructions can be compared bit for bit directly;
// and counts, per model and kind of trial, the outputs each model reproduces bit for bit. "Chains":
// STEPS = 8 wgmmas (scale-d = 1) accumulating into the same D over k = 0..63, against each model applied
// step by step (and two whole-chain models); the mma.sync side runs the same 8 steps.
// Models added here (not in the mma.sync probe): nominal-exp-E-RZ / -RN, the alignment taken from the
// factors' exponents (see nominal_sum).
// A first self-check with small integers (every sum exact, so every model agrees) stops the run when the
// shared-memory layout, the descriptors or the D read-back are wrong.
//
//   bench_matmul_wgmma_sum_probe [--trials N] [--seed S] [--json FILE]
// N: trials of the m64n8k8 single-step set (default 4200, 2.15 M outputs); the other sets scale with it.
// Built for sm_90a only (wgmma needs the "a" target).
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "mma_sum_models.h"
#include "wgmma_ptx.cuh"

#include "kernels/matmul/mma_fragment.h"
#include "kernels/matmul/mma_tf32.h"

using namespace cvz;

namespace {


constexpr int M = 64;  // rows of a wgmma (one warpgroup)

// ---------------------------------------------------------------------------------------------------
// Layout pieces (the PTX wrappers are in wgmma_ptx.cuh)
// ---------------------------------------------------------------------------------------------------

// Byte offset of element (r, k) in tiles of `rows` rows x 32 floats of k, 128-byte swizzled; tile k / 32.
__host__ __device__ constexpr unsigned sw128_offset(int rows, int r, int k) {
    return unsigned((k / 32) * rows * 128 + r * 128 + ((((k % 32) / 4) ^ (r % 8)) * 16) + (k % 4) * 4);
}

// The m64nN accumulator layout: warp w of the warpgroup holds rows 16w..16w+15; register j of lane l
// holds row 16w + l/4 + 8((j/2)%2), column 8(j/4) + 2(l%4) + j%2.
__host__ __device__ constexpr int wg_d_row(int thread, int j) { return 16 * (thread / 32) + (thread % 32) / 4 + 8 * ((j / 2) % 2); }
__host__ __device__ constexpr int wg_d_col(int thread, int j) { return 8 * (j / 4) + 2 * (thread % 4) + j % 2; }

template <int N, int STEPS>
constexpr int smem_bytes() {
    return ((8 * STEPS + 31) / 32) * (M + N) * 128 + 1024;  // tiles of 32 floats of k, A then B, + alignment
}

// One warpgroup per trial. Per trial, row-major in global memory: A (64 x KT), Bt (N x KT: B's columns,
// K-major), C (64 x N); D (64 x N) out. KT = 8 STEPS. D = C, then STEPS wgmmas with scale-d 1 over
// k = 8s .. 8s + 7.
template <int N, int STEPS>
__global__ void __launch_bounds__(128) wgmma_trials(const float* a, const float* bt, const float* c, float* d) {
    constexpr int KT = 8 * STEPS, TILES = (KT + 31) / 32;
    constexpr int A_BYTES = TILES * M * 128, B_BYTES = TILES * N * 128;
    extern __shared__ unsigned char smem_raw[];
    const std::uint32_t raw = smem_u32(smem_raw);
    unsigned char* const sa = smem_raw + (((raw + 1023u) & ~1023u) - raw);
    unsigned char* const sb = sa + A_BYTES;
    const std::size_t t = blockIdx.x;
    const float* at = a + t * M * KT;
    const float* btt = bt + t * N * KT;
    const float* ct = c + t * M * N;
    for (int i = threadIdx.x; i < (A_BYTES + B_BYTES) / 4; i += 128) reinterpret_cast<float*>(sa)[i] = 0.0f;
    __syncthreads();
    for (int i = threadIdx.x; i < M * KT; i += 128)
        *reinterpret_cast<float*>(sa + sw128_offset(M, i / KT, i % KT)) = at[i];
    for (int i = threadIdx.x; i < N * KT; i += 128)
        *reinterpret_cast<float*>(sb + sw128_offset(N, i / KT, i % KT)) = btt[i];
    fence_proxy_async();
    __syncthreads();
    float acc[N / 2];
#pragma unroll
    for (int j = 0; j < N / 2; ++j) acc[j] = ct[wg_d_row(threadIdx.x, j) * N + wg_d_col(threadIdx.x, j)];
    const std::uint32_t a0 = smem_u32(sa), b0 = smem_u32(sb);
    wgmma_fence();
#pragma unroll
    for (int s = 0; s < STEPS; ++s)
        wgmma_tf32<N>(acc, sw128_desc(a0 + (s / 4) * M * 128 + (s % 4) * 32), sw128_desc(b0 + (s / 4) * N * 128 + (s % 4) * 32), 1);
    wgmma_commit();
    wgmma_wait<0>();
    float* dt = d + t * M * N;
#pragma unroll
    for (int j = 0; j < N / 2; ++j) dt[wg_d_row(threadIdx.x, j) * N + wg_d_col(threadIdx.x, j)] = acc[j];
}

// The same products with mma.sync m16n8k8: grid (trials, 4 * N / 8), one warp per 16 x 8 tile of D,
// STEPS MMAs accumulating into its registers.
template <int N, int STEPS>
__global__ void mma_sync_trials(const float* a, const float* bt, const float* c, float* d) {
    constexpr int KT = 8 * STEPS;
    const std::size_t t = blockIdx.x;
    const unsigned mt = blockIdx.y % 4, nt = blockIdx.y / 4, lane = threadIdx.x;
    const float* at = a + t * M * KT;
    const float* btt = bt + t * N * KT;
    const float* ct = c + t * M * N;
    float acc[4];
    for (unsigned r = 0; r < 4; ++r) acc[r] = ct[(mt * 16 + mma_c_row(lane, r)) * N + nt * 8 + mma_c_col(lane, r)];
    for (int s = 0; s < STEPS; ++s) {
        std::uint32_t ar[4], br[2];
        for (unsigned r = 0; r < 4; ++r) ar[r] = __float_as_uint(at[(mt * 16 + mma_a_row(lane, r)) * KT + 8 * s + mma_a_col(lane, r)]);
        for (unsigned r = 0; r < 2; ++r) br[r] = __float_as_uint(btt[(nt * 8 + mma_b_col(lane, r)) * KT + 8 * s + mma_b_row(lane, r)]);
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                     : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
                     : "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3]), "r"(br[0]), "r"(br[1]));
    }
    float* dt = d + t * M * N;
    for (unsigned r = 0; r < 4; ++r) dt[(mt * 16 + mma_c_row(lane, r)) * N + nt * 8 + mma_c_col(lane, r)] = acc[r];
}

// ---------------------------------------------------------------------------------------------------
// The candidate models (the mma.sync probe's, mma_sum_models.h, and the nominal-exponent ones)
// ---------------------------------------------------------------------------------------------------


struct Model {
    std::string name;
    std::function<float(float c, const double* p)> f;  // p: the 8 exact products of one k8 step
    // Models that need the factors themselves (a[k], b[k] of the step) instead: used when set.
    std::function<float(float c, const double* a, const double* b)> g = nullptr;
};

// Not in bench_matmul_gpu_mma_probe (added here after the first H200 run of this probe reproduced all
// 56 recorded misses of the emulator's model with it): like align-E-RZ, but a product's exponent for
// the alignment is the sum of its factors' exponents, ilogb(a) + ilogb(b), not the product's own
// (which is one more when the significands' product is 2 or more); c's is its own. Every term truncated
// toward zero to a multiple of 2^(emax - 23 - E), summed exactly, the sum truncated toward zero (RZ) or
// rounded to nearest (RN) to float.
float nominal_sum(float c, const double* a, const double* b, int extra, bool nearest) {
    int emax = c != 0.0f ? std::ilogb(c) : INT_MIN;
    for (int k = 0; k < 8; ++k)
        if (a[k] != 0 && b[k] != 0) emax = std::max(emax, std::ilogb(a[k]) + std::ilogb(b[k]));
    if (emax == INT_MIN) return 0.0f;
    const double unit = std::ldexp(1.0, emax - 23 - extra);
    double s = 0.0;  // +0 when everything cancels
    s += std::trunc(double(c) / unit) * unit;
    for (int k = 0; k < 8; ++k) s += std::trunc(a[k] * b[k] / unit) * unit;  // exact: < 2^31 units in all
    return nearest ? float(s) : to_float_rz(s);
}

std::vector<Model> candidate_models() {
    std::vector<Model> models;
    // The emulator's MMA sum itself (kernels/matmul/mma_tf32.h), the function the app's mma_tf32 calls.
    // Since this probe's second run it is the nominal-exponent rule (nominal-exp-2-RZ below); the runs
    // recorded in docs/measurements/2026-12-03-wgmma-summation-h200.md had the product's own exponent.
    models.push_back({"emulator tensor_core_sum", nullptr, [](float c, const double* a, const double* b) {
                          float fa[8], fb[8];  // TF32 values: exact as float
                          for (int k = 0; k < 8; ++k) fa[k] = float(a[k]), fb[k] = float(b[k]);
                          return cvz::detail::tensor_core_sum(c, fa, fb);
                      }});
    add_product_sum_models(models);
    for (int extra : {1, 2, 3})
        models.push_back({"nominal-exp-" + std::to_string(extra) + "-RZ", nullptr,
                          [extra](float c, const double* a, const double* b) { return nominal_sum(c, a, b, extra, false); }});
    models.push_back({"nominal-exp-2-RN", nullptr,
                      [](float c, const double* a, const double* b) { return nominal_sum(c, a, b, 2, true); }});
    return models;
}

// Whole-chain models (chains only): c and all 8 STEPS products in one sum.
constexpr int WHOLE_CHAIN_MODELS = 2;
const char* const kWholeChainNames[WHOLE_CHAIN_MODELS] = {"chain-as-one-align-2-RZ", "chain-as-one-double-RN"};
float whole_chain(int which, float c, const std::vector<double>& p) {
    std::vector<double> t(p.size() + 1);
    t[0] = c;
    std::copy(p.begin(), p.end(), t.begin() + 1);
    if (which == 0) return to_float_rz(aligned_sum(t.data(), int(t.size()), 2));
    double s = 0;
    for (double x : t) s += x;  // a double sum, rounded to nearest: not exact for wide data, a rough candidate
    return float(s);
}

// ---------------------------------------------------------------------------------------------------
// Trials
// ---------------------------------------------------------------------------------------------------
constexpr int KINDS = 7;
const char* const kKindNames[KINDS] = {"uniform",        "wide 2^+-12",   "c 64x",          "c = 0",
                                       "c cancels sum", "prod. cancel", "wide 2^+-30"};

struct Set {
    std::string name;
    int n = 8, steps = 1, trials = 0;
    bool integers = false;  // the self-check's small integers
    std::vector<float> a, bt, c, dw, dm;  // A (trials x 64 x KT), Bt (trials x N x KT), C, D of wgmma, of mma.sync
    int kt() const { return 8 * steps; }
    std::size_t outputs() const { return std::size_t(trials) * M * n; }
};

Set make_set(const char* name, int n, int steps, int trials, bool integers = false) {
    Set s;
    s.name = name, s.n = n, s.steps = steps, s.trials = trials, s.integers = integers;
    return s;
}

void generate(Set& s, std::mt19937& rng) {
    const int kt = s.kt(), n = s.n;
    s.a.assign(std::size_t(s.trials) * M * kt, 0.0f);
    s.bt.assign(std::size_t(s.trials) * n * kt, 0.0f);
    s.c.assign(s.outputs(), 0.0f);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::uniform_int_distribution<int> ex12(-12, 12), ex30(-30, 30), small(-8, 8), cint(-64, 64);
    for (int t = 0; t < s.trials; ++t) {
        float* a = &s.a[std::size_t(t) * M * kt];
        float* bt = &s.bt[std::size_t(t) * n * kt];
        float* c = &s.c[std::size_t(t) * M * n];
        const int kind = t % KINDS;
        if (s.integers) {
            for (int i = 0; i < M * kt; ++i) a[i] = float(small(rng));
            for (int i = 0; i < n * kt; ++i) bt[i] = float(small(rng));
            for (int i = 0; i < M * n; ++i) c[i] = float(cint(rng));
            continue;
        }
        auto value = [&](int k) {
            float x = u(rng);
            if (k == 1) x = std::ldexp(x, ex12(rng));
            if (k == 6) x = std::ldexp(x, ex30(rng));
            return x;
        };
        for (int i = 0; i < M * kt; ++i) a[i] = round_to_tf32(value(kind));
        for (int i = 0; i < n * kt; ++i) bt[i] = round_to_tf32(value(kind));
        for (int i = 0; i < M * n; ++i) {
            float z = value(kind);
            if (kind == 2) z = std::ldexp(z, 6);
            if (kind == 3) z = 0.0f;
            if (kind == 5) z = std::ldexp(z, -8);
            c[i] = z;
        }
        if (kind == 5)  // per step: products k + 4 are about -(products k), 6 bits apart
            for (int st = 0; st < s.steps; ++st)
                for (int k = 0; k < 4; ++k) {
                    for (int r = 0; r < M; ++r) a[r * kt + 8 * st + k + 4] = -a[r * kt + 8 * st + k];
                    for (int col = 0; col < n; ++col)
                        bt[col * kt + 8 * st + k + 4] = round_to_tf32(bt[col * kt + 8 * st + k] * (1.0f + std::ldexp(u(rng), -6)));
                }
        if (kind == 4)  // c is about minus the first step's sum, 10 bits apart
            for (int r = 0; r < M; ++r)
                for (int col = 0; col < n; ++col) {
                    double sum = 0;
                    for (int k = 0; k < 8; ++k) sum += double(a[r * kt + k]) * double(bt[col * kt + k]);
                    c[r * n + col] = float(-sum * (1.0 + std::ldexp(double(u(rng)), -10)));
                }
    }
}

template <int N, int STEPS>
void run_set(Set& s) {
    const std::size_t na = s.a.size(), nb = s.bt.size(), nc = s.c.size();
    float *da, *db, *dc, *dw, *dm;
    CK(cudaMalloc(&da, na * 4));
    CK(cudaMalloc(&db, nb * 4));
    CK(cudaMalloc(&dc, nc * 4));
    CK(cudaMalloc(&dw, nc * 4));
    CK(cudaMalloc(&dm, nc * 4));
    CK(cudaMemcpy(da, s.a.data(), na * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, s.bt.data(), nb * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dc, s.c.data(), nc * 4, cudaMemcpyHostToDevice));
    CK(cudaMemset(dw, 0xff, nc * 4));  // NaNs: an output never written shows
    CK(cudaMemset(dm, 0xff, nc * 4));
    constexpr int smem = smem_bytes<N, STEPS>();
    CK(cudaFuncSetAttribute(wgmma_trials<N, STEPS>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    wgmma_trials<N, STEPS><<<s.trials, 128, smem>>>(da, db, dc, dw);
    CK(cudaGetLastError());
    mma_sync_trials<N, STEPS><<<dim3(s.trials, 4 * N / 8), 32>>>(da, db, dc, dm);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    s.dw.resize(nc);
    s.dm.resize(nc);
    CK(cudaMemcpy(s.dw.data(), dw, nc * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(s.dm.data(), dm, nc * 4, cudaMemcpyDeviceToHost));
    for (float* p : {da, db, dc, dw, dm}) CK(cudaFree(p));
}

void run(Set& s) {
    if (s.n == 8 && s.steps == 1) run_set<8, 1>(s);
    else if (s.n == 128 && s.steps == 1) run_set<128, 1>(s);
    else if (s.n == 8 && s.steps == 8) run_set<8, 8>(s);
    else if (s.n == 128 && s.steps == 8) run_set<128, 8>(s);
    else std::abort();
}

bool same_bits(float x, float y) { return std::memcmp(&x, &y, 4) == 0; }

// Distance in units in the last place between two finite floats of the same sign (else a large number).
std::int64_t ulps(float x, float y) {
    std::int32_t i, j;
    std::memcpy(&i, &x, 4);
    std::memcpy(&j, &y, 4);
    if ((i < 0) != (j < 0)) return (x == y) ? 0 : (std::int64_t(1) << 40);
    return std::llabs(std::int64_t(i) - std::int64_t(j));
}

struct Counts {
    std::vector<std::uint64_t> w, m;  // [model * KINDS + kind]: matches of the wgmma / mma.sync outputs
    std::vector<std::uint64_t> w1ulp;  // [model]: wgmma outputs off by exactly one ulp
    std::vector<std::int64_t> wmaxulp;  // [model]: the most ulps off, over misses of the same sign
    std::vector<std::uint64_t> wzerosign, wsign;  // [model]: misses that are zeros of the other sign; of the other sign
    std::uint64_t same[KINDS] = {}, per_kind[KINDS] = {};  // wgmma == mma.sync; outputs per kind
    void init(std::size_t models) {
        w.assign(models * KINDS, 0);
        m.assign(models * KINDS, 0);
        w1ulp.assign(models, 0);
        wmaxulp.assign(models, 0);
        wzerosign.assign(models, 0);
        wsign.assign(models, 0);
    }
    void add(const Counts& o) {
        for (std::size_t i = 0; i < w.size(); ++i) w[i] += o.w[i], m[i] += o.m[i];
        for (std::size_t i = 0; i < w1ulp.size(); ++i) {
            w1ulp[i] += o.w1ulp[i], wmaxulp[i] = std::max(wmaxulp[i], o.wmaxulp[i]);
            wzerosign[i] += o.wzerosign[i], wsign[i] += o.wsign[i];
        }
        for (int k = 0; k < KINDS; ++k) same[k] += o.same[k], per_kind[k] += o.per_kind[k];
    }
};

struct Example {  // an output a model does not reproduce
    int model, kind;
    float c, got_wgmma, got_mma_sync, value;
    std::vector<float> a, b;  // the step's 8 a and 8 b (first step of a chain: only single steps recorded)
};

std::string hexf(float x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%a", double(x));
    return buf;
}

// examples: up to 4 outputs per kind that each of models example_models[] does not reproduce (single
// steps only).
Counts evaluate(const Set& s, const std::vector<Model>& models, const std::vector<int>& example_models,
                std::vector<Example>* examples) {
    const std::size_t nm = models.size() + (s.steps > 1 ? WHOLE_CHAIN_MODELS : 0);
    const unsigned threads = std::max(1u, std::min(32u, std::thread::hardware_concurrency()));
    std::vector<Counts> part(threads);
    std::mutex mu;
    std::vector<std::thread> pool;
    for (unsigned th = 0; th < threads; ++th)
        pool.emplace_back([&, th] {
            Counts& cnt = part[th];
            cnt.init(nm);
            const int kt = s.kt(), n = s.n;
            std::vector<double> all(std::size_t(8) * s.steps), fa(all.size()), fb(all.size());
            for (int t = int(th); t < s.trials; t += int(threads)) {
                const int kind = t % KINDS;
                const float* a = &s.a[std::size_t(t) * M * kt];
                const float* bt = &s.bt[std::size_t(t) * n * kt];
                for (int r = 0; r < M; ++r)
                    for (int col = 0; col < n; ++col) {
                        const std::size_t o = std::size_t(t) * M * n + std::size_t(r) * n + col;
                        const float cv = s.c[o], gw = s.dw[o], gm = s.dm[o];
                        for (int i = 0; i < 8 * s.steps; ++i) {
                            fa[i] = a[r * kt + i], fb[i] = bt[col * kt + i];
                            all[i] = fa[i] * fb[i];
                        }
                        ++cnt.per_kind[kind];
                        if (same_bits(gw, gm)) ++cnt.same[kind];
                        for (std::size_t mi = 0; mi < nm; ++mi) {
                            float want;
                            if (mi < models.size()) {
                                want = cv;
                                for (int st = 0; st < s.steps; ++st)
                                    want = models[mi].g ? models[mi].g(want, &fa[8 * st], &fb[8 * st])
                                                        : models[mi].f(want, &all[8 * st]);
                            } else {
                                want = whole_chain(int(mi - models.size()), cv, all);
                            }
                            if (same_bits(want, gw)) ++cnt.w[mi * KINDS + kind];
                            else {
                                if (want == 0.0f && gw == 0.0f) ++cnt.wzerosign[mi];
                                else if ((want < 0.0f) != (gw < 0.0f)) ++cnt.wsign[mi];
                                else {
                                    const std::int64_t d = ulps(want, gw);
                                    if (d == 1) ++cnt.w1ulp[mi];
                                    cnt.wmaxulp[mi] = std::max(cnt.wmaxulp[mi], d);
                                }
                                if (examples && s.steps == 1 &&
                                    std::find(example_models.begin(), example_models.end(), int(mi)) != example_models.end()) {
                                    std::lock_guard<std::mutex> lock(mu);
                                    int of_kind = 0;
                                    for (const Example& e : *examples) of_kind += e.kind == kind && e.model == int(mi);
                                    if (of_kind < 4) {
                                        Example e{int(mi), kind, cv, gw, gm, want, {}, {}};
                                        for (int k = 0; k < 8; ++k) e.a.push_back(a[r * kt + k]), e.b.push_back(bt[col * kt + k]);
                                        examples->push_back(e);
                                    }
                                }
                            }
                            if (same_bits(want, gm)) ++cnt.m[mi * KINDS + kind];
                        }
                    }
            }
        });
    for (auto& th : pool) th.join();
    Counts total;
    total.init(nm);
    for (const Counts& c : part) total.add(c);
    return total;
}

// The self-check: small integers, so every sum is exact and every model gives the same; the wgmma and
// mma.sync outputs must equal the exact sums. Prints the first mismatches.
bool self_check(Set& s) {
    std::uint64_t bad_w = 0, bad_m = 0;
    const int kt = s.kt(), n = s.n;
    for (int t = 0; t < s.trials; ++t)
        for (int r = 0; r < M; ++r)
            for (int col = 0; col < n; ++col) {
                double sum = s.c[std::size_t(t) * M * n + r * n + col];
                for (int k = 0; k < kt; ++k)
                    sum += double(s.a[std::size_t(t) * M * kt + r * kt + k]) * double(s.bt[std::size_t(t) * n * kt + col * kt + k]);
                const std::size_t o = std::size_t(t) * M * n + std::size_t(r) * n + col;
                const bool ow = double(s.dw[o]) == sum, om = double(s.dm[o]) == sum;
                if (!ow && bad_w < 6)
                    std::printf("  self-check %s: wgmma trial %d row %d col %d: got %g, want %g\n", s.name.c_str(), t, r, col,
                                double(s.dw[o]), sum);
                if (!om && bad_m < 6)
                    std::printf("  self-check %s: mma.sync trial %d row %d col %d: got %g, want %g\n", s.name.c_str(), t, r,
                                col, double(s.dm[o]), sum);
                bad_w += !ow;
                bad_m += !om;
            }
    std::printf("self-check %-22s %6zu outputs: wgmma %s (%llu wrong), mma.sync %s (%llu wrong)\n", s.name.c_str(),
                s.outputs(), bad_w ? "FAILED" : "ok", (unsigned long long)bad_w, bad_m ? "FAILED" : "ok",
                (unsigned long long)bad_m);
    return bad_w == 0 && bad_m == 0;
}

int round_to_kinds(int x) { return std::max(KINDS, (x + KINDS - 1) / KINDS * KINDS); }

}  // namespace

int main(int argc, char** argv) {
    int trials = 4200;
    unsigned seed = 7;
    std::string json;
    for (int i = 1; i < argc; ++i) {
        const std::string s = argv[i];
        if (s == "--trials" && i + 1 < argc) trials = std::max(KINDS, std::stoi(argv[++i]));
        else if (s == "--seed" && i + 1 < argc) seed = unsigned(std::stoul(argv[++i]));
        else if (s == "--json" && i + 1 < argc) json = argv[++i];
        else {
            std::fprintf(stderr, "usage: bench_matmul_wgmma_sum_probe [--trials N] [--seed S] [--json FILE]\n");
            return 2;
        }
    }
    cudaDeviceProp prop{};
    CK(cudaGetDeviceProperties(&prop, 0));
    int clock_khz = 0;
    cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0);
    std::printf("device: %s (sm_%d%d, %d SMs, %d MHz)\n", prop.name, prop.major, prop.minor, prop.multiProcessorCount,
                clock_khz / 1000);
    if (prop.major != 9) {
        std::fprintf(stderr, "needs compute capability 9.0 (wgmma, sm_90a)\n");
        return 2;
    }
    std::mt19937 rng(seed);

    // 1. Self-check: every shape and chain length with small integers.
    bool ok = true;
    std::vector<Set> checks = {make_set("m64n8k8", 8, 1, 14, true), make_set("m64n128k8", 128, 1, 7, true),
                               make_set("m64n8k8 x8 chain", 8, 8, 14, true),
                               make_set("m64n128k8 x8 chain", 128, 8, 7, true)};
    for (Set& s : checks) {
        generate(s, rng);
        run(s);
        ok = self_check(s) && ok;
    }
    std::string json_checks;
    for (const Set& s : checks) json_checks += std::string(json_checks.empty() ? "" : ", ") + "\"" + s.name + "\"";
    if (!ok) {
        std::printf("self-check failed: layout, descriptor or read-back wrong; no model counts\n");
        if (!json.empty()) {
            std::ofstream f(json);
            f << "{\"benchmark\": \"matmul_wgmma_sum_probe\", \"device\": \"" << prop.name
              << "\", \"self_check\": \"failed\"}\n";
        }
        return 1;
    }

    // 2. Random trials.
    std::vector<Set> sets = {make_set("m64n8k8", 8, 1, round_to_kinds(trials)),
                             make_set("m64n128k8", 128, 1, round_to_kinds(trials / 15)),
                             make_set("m64n8k8 x8 chain", 8, 8, round_to_kinds(trials / 6)),
                             make_set("m64n128k8 x8 chain", 128, 8, round_to_kinds(trials / 100))};
    const std::vector<Model> models = candidate_models();
    std::vector<Counts> counts;
    std::vector<std::vector<Example>> examples(sets.size());
    std::vector<int> example_models = {0};  // the emulator's, and the nominal-exponent model
    for (std::size_t mi = 0; mi < models.size(); ++mi)
        if (models[mi].name == "nominal-exp-2-RZ") example_models.push_back(int(mi));
    for (std::size_t si = 0; si < sets.size(); ++si) {
        Set& s = sets[si];
        generate(s, rng);
        run(s);
        counts.push_back(evaluate(s, models, example_models, &examples[si]));
    }

    auto model_name = [&](std::size_t mi) {
        return mi < models.size() ? models[mi].name : std::string(kWholeChainNames[mi - models.size()]);
    };
    for (std::size_t si = 0; si < sets.size(); ++si) {
        const Set& s = sets[si];
        const Counts& c = counts[si];
        std::printf("\n%s: %zu outputs of %d trials (%d wgmma%s each); share reproduced bit for bit\n", s.name.c_str(),
                    s.outputs(), s.trials, s.steps, s.steps > 1 ? "s, scale-d 1, models applied step by step" : "");
        std::printf("%-28s %9s |", "model", "wgmma");
        for (int k = 0; k < KINDS; ++k) std::printf(" %13s", kKindNames[k]);
        std::printf(" | %9s | %8s %7s %7s %7s\n", "mma.sync", "1ulp", "maxulp", "0-sign", "sign");
        std::uint64_t same = 0;
        for (int k = 0; k < KINDS; ++k) same += c.same[k];
        std::printf("%-28s %8.4f%% |", "wgmma == mma.sync", 100.0 * double(same) / double(s.outputs()));
        for (int k = 0; k < KINDS; ++k) std::printf(" %12.4f%%", 100.0 * double(c.same[k]) / double(c.per_kind[k]));
        std::printf(" |\n");
        for (std::size_t mi = 0; mi < c.w1ulp.size(); ++mi) {
            std::uint64_t w = 0, m = 0;
            for (int k = 0; k < KINDS; ++k) w += c.w[mi * KINDS + k], m += c.m[mi * KINDS + k];
            std::printf("%-28s %8.4f%% |", model_name(mi).c_str(), 100.0 * double(w) / double(s.outputs()));
            for (int k = 0; k < KINDS; ++k)
                std::printf(" %12.4f%%", 100.0 * double(c.w[mi * KINDS + k]) / double(c.per_kind[k]));
            std::printf(" | %8.4f%% | %8.4f%% %7lld %7llu %7llu\n", 100.0 * double(m) / double(s.outputs()),
                        100.0 * double(c.w1ulp[mi]) / double(s.outputs()), (long long)c.wmaxulp[mi],
                        (unsigned long long)c.wzerosign[mi], (unsigned long long)c.wsign[mi]);
        }
    }
    for (std::size_t si = 0; si < sets.size(); ++si)
        for (std::size_t i = 0; i < examples[si].size(); ++i) {
            const Example& e = examples[si][i];
            bool first = true;  // on the screen: the first miss per model and kind of the first set; all in the JSON
            for (std::size_t j = 0; j < i; ++j) first = first && !(examples[si][j].model == e.model && examples[si][j].kind == e.kind);
            if (si > 0 || !first) continue;
            std::printf("\n%s, %s: %s %s, wgmma %s, mma.sync %s, c %s\n  a:", sets[si].name.c_str(),
                        kKindNames[e.kind], model_name(std::size_t(e.model)).c_str(), hexf(e.value).c_str(), hexf(e.got_wgmma).c_str(), hexf(e.got_mma_sync).c_str(),
                        hexf(e.c).c_str());
            for (float x : e.a) std::printf(" %s", hexf(x).c_str());
            std::printf("\n  b:");
            for (float x : e.b) std::printf(" %s", hexf(x).c_str());
            std::printf("\n");
        }

    if (!json.empty()) {
        std::ofstream f(json);
        f << "{\"benchmark\": \"matmul_wgmma_sum_probe\", \"device\": \"" << prop.name << "\", \"clock_mhz\": "
          << clock_khz / 1000 << ", \"seed\": " << seed << ", \"self_check\": \"passed\", \"self_check_sets\": ["
          << json_checks << "],\n \"kinds\": [";
        for (int k = 0; k < KINDS; ++k) f << (k ? ", " : "") << "\"" << kKindNames[k] << "\"";
        f << "],\n \"sets\": [\n";
        for (std::size_t si = 0; si < sets.size(); ++si) {
            const Set& s = sets[si];
            const Counts& c = counts[si];
            f << "  {\"set\": \"" << s.name << "\", \"n\": " << s.n << ", \"steps\": " << s.steps << ", \"trials\": " << s.trials
              << ", \"outputs\": " << s.outputs() << ", \"outputs_per_kind\": [";
            for (int k = 0; k < KINDS; ++k) f << (k ? ", " : "") << c.per_kind[k];
            f << "], \"wgmma_equals_mma_sync_per_kind\": [";
            for (int k = 0; k < KINDS; ++k) f << (k ? ", " : "") << c.same[k];
            f << "],\n   \"models\": [\n";
            for (std::size_t mi = 0; mi < c.w1ulp.size(); ++mi) {
                f << "    {\"model\": \"" << model_name(mi) << "\", \"wgmma_matches_per_kind\": [";
                for (int k = 0; k < KINDS; ++k) f << (k ? ", " : "") << c.w[mi * KINDS + k];
                f << "], \"mma_sync_matches_per_kind\": [";
                for (int k = 0; k < KINDS; ++k) f << (k ? ", " : "") << c.m[mi * KINDS + k];
                f << "], \"wgmma_one_ulp_off\": " << c.w1ulp[mi] << ", \"wgmma_max_ulps\": " << c.wmaxulp[mi]
                  << ", \"wgmma_zero_of_other_sign\": " << c.wzerosign[mi] << ", \"wgmma_other_sign\": " << c.wsign[mi] << "}"
                  << (mi + 1 < c.w1ulp.size() ? "," : "") << "\n";
            }
            f << "   ],\n   \"misses\": [";
            for (std::size_t i = 0; i < examples[si].size(); ++i) {
                const Example& e = examples[si][i];
                f << (i ? ",\n     " : "\n     ") << "{\"kind\": \"" << kKindNames[e.kind] << "\", \"c\": \"" << hexf(e.c)
                  << "\", \"wgmma\": \"" << hexf(e.got_wgmma) << "\", \"mma_sync\": \"" << hexf(e.got_mma_sync)
                  << "\", \"model\": \"" << model_name(std::size_t(e.model)) << "\", \"model_value\": \"" << hexf(e.value)
                  << "\", \"a\": [";
                for (int k = 0; k < 8; ++k) f << (k ? ", " : "") << "\"" << hexf(e.a[k]) << "\"";
                f << "], \"b\": [";
                for (int k = 0; k < 8; ++k) f << (k ? ", " : "") << "\"" << hexf(e.b[k]) << "\"";
                f << "]}";
            }
            f << "]}" << (si + 1 < sets.size() ? "," : "") << "\n";
        }
        f << "]}\n";
    }
    return 0;
}
