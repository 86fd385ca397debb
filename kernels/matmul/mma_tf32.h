#pragma once
// The tensor-core pieces of the TF32 matmul bodies, each with a GPU form and an emulator form:
//  - round_to_tf32: cvt.rna.tf32.f32 on the GPU; on the host the same rounding by integer arithmetic
//    (10 mantissa bits kept, to nearest, ties away from zero; Inf and NaN unchanged);
//  - copy_async / async_commit / async_wait: cp.async from global to shared memory on the GPU (zero
//    fill past the matrix), an immediate traced copy on the emulator;
//  - warp_mma_tf32: a warp tile of mma.sync m16n8k8 TF32 MMAs. On the GPU the PTX instruction. On the
//    emulator the 32 lanes of a warp are fibers that each hold only their own fragments, so the
//    lanes publish their fragments in an exchange area, meet at a barrier, each computes its own
//    elements of the 16 x 8 tiles from the warp's fragments (mma_fragment.h), and meet again before
//    the area is reused. The exchange and its barriers are the emulator's machinery, not the
//    kernel's: they are not traced (a traced context's base() runs them), and the area is the host
//    thread's, not the block's shared memory, so no caller has to size shared memory for it (the
//    emulator runs a block's fibers on one host thread, one block at a time: emulate_fibers.cpp).
//
// The emulator's MMA arithmetic, as the H200 computes it: the products of TF32 values are exact; c and
// the 8 products are each truncated toward zero to a multiple of 2^(e - 25) and summed exactly, and the
// sum is truncated toward zero to float. e is the largest of c's exponent and the products' *nominal*
// exponents, ilogb(a) + ilogb(b) (one less than the product's own when the significands multiply to 2
// or more). bench_matmul_gpu_mma_probe established the truncations; bench_matmul_wgmma_sum_probe
// (docs/measurements/2026-12-03-wgmma-summation-h200.md) found the nominal exponent: this rule
// reproduced all 20.6 million outputs of single mma.sync and wgmma k8 steps and chains of them (random
// operands of seven kinds: uniform, exponents over 2^+-12 and 2^+-30, c large, c = 0, cancelling c,
// products cancelling in pairs), and mma.sync and wgmma gave the same bits on every one; the previous
// rule, with the product's own exponent, reproduced 89.8%. Not covered by those trials: subnormal
// operands, and Inf or NaN (here they follow IEEE rules, which the GPU matches on the tested cases).
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

#include "../core/dim3.h"
#include "../core/host_device.h"
#include "../core/vec16.h"
#include "mma_fragment.h"

namespace cvz {

CVZ_HD float round_to_tf32(float x) {
#if defined(__CUDA_ARCH__)
    std::uint32_t u;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(u) : "f"(x));
    return __uint_as_float(u);
#else
    std::uint32_t u;
    std::memcpy(&u, &x, sizeof u);
    if ((u & 0x7f800000u) != 0x7f800000u) {  // finite: add half of the 13 dropped bits' unit, then drop them
        u += 0x1000u;                          // on the magnitude (sign apart): ties go away from zero
        u &= 0xffffe000u;                      // a carry out of the mantissa rounds up to the next binade, or Inf
    }
    float r;
    std::memcpy(&r, &u, sizeof r);
    return r;
#endif
}

// x = big + small with both TF32 (3xTF32): small is x - big rounded again, and 0 when big is not finite
// (Inf - Inf would make a NaN where the product is Inf).
struct Tf32Split {
    float big, small;
};
CVZ_HD Tf32Split split_tf32(float x) {
    const float big = round_to_tf32(x);
    return {big, std::isfinite(big) ? round_to_tf32(x - big) : 0.0f};
}

// 16 bytes from global memory into shared memory, or zeros when `valid` is false. Both addresses are
// 16-byte aligned.
template <class Ctx>
CVZ_HD void copy_async16(const Ctx& ctx, float* shared_dst, const float* global_src, bool valid) {
#if defined(__CUDA_ARCH__)
    (void)ctx;
    const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(shared_dst));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(dst), "l"(global_src), "r"(valid ? 16 : 0));
#else
    ctx.store(reinterpret_cast<Float4*>(shared_dst),
              valid ? ctx.load(reinterpret_cast<const Float4*>(global_src)) : Float4{0.0f, 0.0f, 0.0f, 0.0f});
#endif
}

// 4 bytes likewise (the edges of a matrix whose rows are not whole 16-byte vectors).
template <class Ctx>
CVZ_HD void copy_async4(const Ctx& ctx, float* shared_dst, const float* global_src, bool valid) {
#if defined(__CUDA_ARCH__)
    (void)ctx;
    const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(shared_dst));
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(dst), "l"(global_src), "r"(valid ? 4 : 0));
#else
    ctx.store(shared_dst, valid ? ctx.load(global_src) : 0.0f);
#endif
}

// Ends a group of copies (cp.async.commit_group).
template <class Ctx>
CVZ_HD void async_commit(const Ctx&) {
#if defined(__CUDA_ARCH__)
    asm volatile("cp.async.commit_group;" ::);
#endif
}

// Waits until at most PENDING groups of this thread's copies are in flight (cp.async.wait_group).
// The emulator's copies are done when issued.
template <unsigned PENDING, class Ctx>
CVZ_HD void async_wait(const Ctx&) {
#if defined(__CUDA_ARCH__)
    asm volatile("cp.async.wait_group %0;" ::"n"(PENDING));
#endif
}

namespace detail {

template <class Ctx, class = void>
struct has_base_context : std::false_type {};
template <class Ctx>
struct has_base_context<Ctx, std::void_t<decltype(std::declval<const Ctx&>().base())>> : std::true_type {};

// The emulator's own barrier for the fragment exchange: the plain context's sync(), never a traced one
// (the GPU kernel has no such barrier, so the trace must not show one).
template <class Ctx>
void exchange_barrier(const Ctx& ctx) {
    if constexpr (has_base_context<Ctx>::value) ctx.base().sync();
    else ctx.sync();
}

// The binary exponent of a nonzero normal double (every float and every product of two floats is one).
inline int exponent_of(double x) {
    std::uint64_t u;
    std::memcpy(&u, &x, sizeof u);
    return int((u >> 52) & 0x7ff) - 1023;
}

// 2^e for e in double's normal range.
inline double power_of_two(int e) {
    const std::uint64_t u = std::uint64_t(e + 1023) << 52;
    double x;
    std::memcpy(&x, &u, sizeof x);
    return x;
}

// The sum of one MMA: c + a[0] b[0] + ... + a[7] b[7], the a and b TF32 values (see above: the
// products are exact in double, and the alignment takes each product's exponent as its factors' sum).
// Scaling by powers of two is exact here (exponents from about -300 to 256), so x * 2^(25 - e)
// truncated and scaled back is x truncated to a multiple of 2^(e - 25).
inline float tensor_core_sum(float c, const float (&a)[8], const float (&b)[8]) {
    double t[8];
    double plain = c;
    int emax = c != 0.0f ? exponent_of(double(c)) : INT_MIN;
    for (unsigned k = 0; k < 8; ++k) {
        t[k] = double(a[k]) * double(b[k]);  // exact: 11-bit significands
        plain += t[k];
        if (t[k] != 0) emax = std::max(emax, exponent_of(double(a[k])) + exponent_of(double(b[k])));
    }
    if (!std::isfinite(plain) || emax == INT_MIN) return float(plain);  // Inf, NaN (IEEE rules), or all zero
    const double up = power_of_two(25 - emax), down = power_of_two(emax - 25);
    double sum = std::trunc(double(c) * up);  // units of 2^(emax - 25): each term under 2^27, the sum under 2^31: exact
    for (double x : t) sum += std::trunc(x * up);
    sum *= down;
    float f = float(sum);  // to nearest, then back toward zero when that went up in magnitude
    if (std::fabs(double(f)) > std::fabs(sum)) f = std::nextafter(f, 0.0f);
    return f;
}

// One element of D = A B + C from the warp's published fragments: xa[(mi * 4 + reg) * 32 + lane],
// xb[(ni * 2 + reg) * 32 + lane].
inline float emulated_mma_element(const float* xa, const float* xb, unsigned mi, unsigned ni, unsigned row,
                                  unsigned col, float c) {
    float a[MmaShape::K], b[MmaShape::K];
    for (unsigned k = 0; k < MmaShape::K; ++k) {
        a[k] = xa[(mi * 4 + mma_a_reg(row, k)) * 32 + mma_a_lane(row, k)];
        b[k] = xb[(ni * 2 + mma_b_reg(k, col)) * 32 + mma_b_lane(k, col)];
    }
    return tensor_core_sum(c, a, b);
}

// The host thread's exchange area, at least `floats` long. Every fiber of the block asks for the
// same size, and the first asks before any fiber has written, so growing it loses nothing.
inline float* emulator_exchange(std::size_t floats) {
    thread_local std::vector<float> area;
    if (area.size() < floats) area.resize(floats);
    return area.data();
}

}  // namespace detail

// Floats of the emulator's exchange area for one warp of an MI x NI warp tile: `sets` copies of its
// A and B fragments (1 for TF32; 3 for 3xTF32: big, small, and big with Inf and NaN made 0).
template <unsigned MI, unsigned NI, unsigned SETS = 1>
constexpr unsigned mma_exchange_floats_per_warp() { return SETS * (MI * MmaShape::A_REGS + NI * MmaShape::B_REGS) * 32; }

namespace detail {

// Publishes this lane's fragments in its warp's exchange area (set `set` of them): A of tile mi
// register r at xa[(mi * 4 + r) * 32 + lane], B likewise at xb.
template <unsigned MI, unsigned NI>
void publish_fragments(float* xa, float* xb, unsigned lane, const float (&a)[MI][4], const float (&b)[NI][2]) {
    for (unsigned mi = 0; mi < MI; ++mi)
        for (unsigned r = 0; r < MmaShape::A_REGS; ++r) xa[(mi * 4 + r) * 32 + lane] = a[mi][r];
    for (unsigned ni = 0; ni < NI; ++ni)
        for (unsigned r = 0; r < MmaShape::B_REGS; ++r) xb[(ni * 2 + r) * 32 + lane] = b[ni][r];
}

// This warp's exchange area for `floats` floats a warp.
template <class Ctx>
float* warp_exchange(const Ctx& ctx, unsigned floats, unsigned* lane) {
    const unsigned tid = unsigned(linear_thread_id(ctx.thread_idx(), ctx.block_dim()));
    const unsigned warp = tid / kWarpSize, warps = (ctx.block_dim().volume() + kWarpSize - 1) / kWarpSize;
    *lane = tid % kWarpSize;
    return emulator_exchange(std::size_t(warps) * floats) + std::size_t(warp) * floats;
}

}  // namespace detail

#if defined(__CUDA_ARCH__)
// D = A B + D, one mma.sync m16n8k8 TF32 on this lane's fragments.
__device__ __forceinline__ void mma_tf32_m16n8k8(float (&d)[4], const float (&a)[4], const float (&b)[2]) {
    asm(  // not volatile: no effect but its outputs, so the compiler may schedule it
        "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(__float_as_uint(a[0])), "r"(__float_as_uint(a[1])), "r"(__float_as_uint(a[2])), "r"(__float_as_uint(a[3])),
          "r"(__float_as_uint(b[0])), "r"(__float_as_uint(b[1])));
}

// ldmatrix.sync.aligned.m8n8.x4.shared.b16 read as 32-bit elements: lane l gives the shared address of
// row l % 8 of matrix l / 8 (4 floats, 16 bytes); register j of lane l receives element
// (l / 4, l % 4) of matrix j. For an A fragment (mma_fragment.h) matrix j is the 8 x 4 block of rows
// 8 (j % 2) .. + 7 and columns 4 (j / 2) .. + 3 of the 16 x 8 tile: a0..a3 in one instruction.
__device__ __forceinline__ void ldmatrix_x4(float (&r)[4], const float* shared_row) {
    const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(shared_row));
    unsigned x0, x1, x2, x3;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(x0), "=r"(x1), "=r"(x2), "=r"(x3)
                 : "r"(addr));
    r[0] = __uint_as_float(x0), r[1] = __uint_as_float(x1), r[2] = __uint_as_float(x2), r[3] = __uint_as_float(x3);
}
#endif

// acc[mi][ni] += A[mi] B[ni] for a warp tile of MI x NI MMAs: a[mi] is this lane's A fragment of the
// mi-th 16 x 8 tile of A, b[ni] its B fragment of the ni-th 8 x 8 tile of B, all TF32 values (already
// rounded). Every thread of the block calls it at the same point (the emulator's barriers are the
// block's).
template <unsigned MI, unsigned NI, class Ctx>
CVZ_HD void warp_mma_tf32(const Ctx& ctx, float (&acc)[MI][NI][4], const float (&a)[MI][4], const float (&b)[NI][2]) {
#if defined(__CUDA_ARCH__)
    (void)ctx;
#pragma unroll
    for (unsigned mi = 0; mi < MI; ++mi)
#pragma unroll
        for (unsigned ni = 0; ni < NI; ++ni) mma_tf32_m16n8k8(acc[mi][ni], a[mi], b[ni]);
#else
    unsigned lane = 0;
    float* const xa = detail::warp_exchange(ctx, mma_exchange_floats_per_warp<MI, NI>(), &lane);
    float* const xb = xa + MI * MmaShape::A_REGS * 32;
    detail::publish_fragments(xa, xb, lane, a, b);
    detail::exchange_barrier(ctx);
    for (unsigned mi = 0; mi < MI; ++mi)
        for (unsigned ni = 0; ni < NI; ++ni)
            for (unsigned r = 0; r < MmaShape::C_REGS; ++r)
                acc[mi][ni][r] = detail::emulated_mma_element(xa, xb, mi, ni, mma_c_row(lane, r), mma_c_col(lane, r),
                                                              acc[mi][ni][r]);
    detail::exchange_barrier(ctx);
#endif
}

// The big part with Inf and NaN made 0: the factor of the terms with a small part (Inf x small would
// otherwise add an Inf of the small part's sign, Inf x 0 a NaN).
CVZ_HD float finite_or_zero(float big) { return std::isfinite(big) ? big : 0.0f; }

// 3xTF32 for a warp tile: for each tile, a sum of its own started at zero,
//   p = A_small B_fin, then p += A_fin B_small, then p += A_big B_big   (three MMAs, in this order),
// and acc += p in one fp32 add (rounded to nearest). a_big / a_small and b_big / b_small are this
// lane's fragments split by split_tf32; A_fin, B_fin the big parts through finite_or_zero. The
// tensor cores truncate each MMA's sum toward zero (mma_tf32.h): a running sum carried through the
// MMAs would lose a part of its last place at every step, always the same way; a sum per k-step of 8
// started at zero loses only its own (small) part's, and the fp32 add rounds.
template <unsigned MI, unsigned NI, class Ctx>
CVZ_HD void warp_mma_3xtf32(const Ctx& ctx, float (&acc)[MI][NI][4], const float (&a_big)[MI][4],
                            const float (&a_small)[MI][4], const float (&b_big)[NI][2], const float (&b_small)[NI][2]) {
    float a_fin[MI][4], b_fin[NI][2];
    for (unsigned mi = 0; mi < MI; ++mi)
        for (unsigned r = 0; r < MmaShape::A_REGS; ++r) a_fin[mi][r] = finite_or_zero(a_big[mi][r]);
    for (unsigned ni = 0; ni < NI; ++ni)
        for (unsigned r = 0; r < MmaShape::B_REGS; ++r) b_fin[ni][r] = finite_or_zero(b_big[ni][r]);
#if defined(__CUDA_ARCH__)
    (void)ctx;
#pragma unroll
    for (unsigned mi = 0; mi < MI; ++mi)
#pragma unroll
        for (unsigned ni = 0; ni < NI; ++ni) {
            float p[4] = {0.0f, 0.0f, 0.0f, 0.0f};
            mma_tf32_m16n8k8(p, a_small[mi], b_fin[ni]);
            mma_tf32_m16n8k8(p, a_fin[mi], b_small[ni]);
            mma_tf32_m16n8k8(p, a_big[mi], b_big[ni]);
#pragma unroll
            for (unsigned r = 0; r < 4; ++r) acc[mi][ni][r] += p[r];
        }
#else
    constexpr unsigned set = mma_exchange_floats_per_warp<MI, NI>(), a_floats = MI * MmaShape::A_REGS * 32;
    unsigned lane = 0;
    float* const x = detail::warp_exchange(ctx, 3 * set, &lane);
    float *const big = x, *const small = x + set, *const fin = x + 2 * set;
    detail::publish_fragments(big, big + a_floats, lane, a_big, b_big);
    detail::publish_fragments(small, small + a_floats, lane, a_small, b_small);
    detail::publish_fragments(fin, fin + a_floats, lane, a_fin, b_fin);
    detail::exchange_barrier(ctx);
    for (unsigned mi = 0; mi < MI; ++mi)
        for (unsigned ni = 0; ni < NI; ++ni)
            for (unsigned r = 0; r < MmaShape::C_REGS; ++r) {
                const unsigned row = mma_c_row(lane, r), col = mma_c_col(lane, r);
                float p = detail::emulated_mma_element(small, fin + a_floats, mi, ni, row, col, 0.0f);
                p = detail::emulated_mma_element(fin, small + a_floats, mi, ni, row, col, p);
                p = detail::emulated_mma_element(big, big + a_floats, mi, ni, row, col, p);
                acc[mi][ni][r] = acc[mi][ni][r] + p;
            }
    detail::exchange_barrier(ctx);
#endif
}

}  // namespace cvz
