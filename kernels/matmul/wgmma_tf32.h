#pragma once
// Hopper's warpgroup MMA for the wgmma rungs (matmul_wgmma.h), each piece with a GPU form and an
// emulator form:
//  - sw128_index: where element (row, k) of a K-major tile of 32-float rows lies under the 128-byte
//    swizzle (16-byte chunk c of row r stored at chunk c ^ (r % 8)), the layout wgmma's descriptors
//    read; the body's stores and the emulator's reads use this one function;
//  - warpgroup_mma_tf32: wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32, both operands from
//    shared memory, D += A B for the 128 threads of a warpgroup. On the GPU the PTX instruction. On the
//    emulator each lane computes its own 64 accumulators from shared memory (the operands are there
//    for every lane: no exchange) with mma_tf32.h's tensor_core_sum, which reproduced every output of
//    single wgmma k8 steps and chains of them on the H200 (bench_matmul_wgmma_sum_probe), bit for bit
//    the same as mma.sync's. The emulator's reads of the operands are the tensor core's, not a lane's:
//    they are not traced;
//  - wgmma_fence / wgmma_commit / wgmma_wait / fence_shared_async: the ordering wgmma needs on the GPU
//    (its reads go through the async proxy and finish later); the emulator's MMA is done when issued.
// wgmma needs the sm_90a target: the build compiles compute capability 9.0 as sm_90a (CMakeLists.txt);
// any other target (older GPUs, the compute_90 PTX kept for newer ones) gets a trap in its place, and
// the launchers refuse the rungs on a device other than 9.0 (KernelInfo::arch_specific).
#include <cstdint>

#include "../core/host_device.h"
#include "mma_tf32.h"

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define CVZ_WGMMA 1
#endif

namespace cvz {

// The shape of one wgmma: a warpgroup's 64 x N tile of C, K 8 a step; a shared tile row holds 32 floats
// (128 bytes) of K, so a K tile of 32 is four steps.
struct WgmmaShape {
    static constexpr unsigned M = 64, N = 128, K = 8;
    static constexpr unsigned THREADS = 128;               // a warpgroup
    static constexpr unsigned C_REGS = M * N / THREADS;   // 64 accumulators a thread
    static constexpr unsigned ROW_FLOATS = 32;            // one 128-byte swizzle row
};

// Float index of element (row, k) in a K-major tile of 32-float rows stored with the 128-byte swizzle
// (the tile 1024-byte aligned, so that the hardware's address bits give the same pattern).
CVZ_HD constexpr unsigned sw128_index(unsigned row, unsigned k) {
    return row * WgmmaShape::ROW_FLOATS + (((k / 4) ^ (row % 8)) * 4) + k % 4;
}

// Accumulator `reg` of thread `t` (0..127) of the warpgroup in the 64 x N tile of C: warp t / 32 holds
// rows 16 (t / 32) ..+15; within it as mma's C fragment, one 8-column block every 4 registers.
CVZ_HD constexpr unsigned wgmma_c_row(unsigned t, unsigned reg) { return 16 * (t / 32) + (t % 32) / 4 + 8 * ((reg / 2) % 2); }
CVZ_HD constexpr unsigned wgmma_c_col(unsigned t, unsigned reg) { return 8 * (reg / 4) + 2 * (t % 4) + reg % 2; }

#if defined(CVZ_WGMMA)
// Shared-memory matrix descriptor of a K-major tile of 128-byte rows under the 128-byte swizzle: start
// address >> 4 (bits 0-13), leading byte offset 1 (unused for swizzled K-major), stride byte offset
// 1024 >> 4 (bits 32-45: from one group of 8 rows to the next), layout 1 (bits 62-63: 128-byte swizzle).
__device__ __forceinline__ std::uint64_t wgmma_sw128_descriptor(const float* tile) {
    const std::uint32_t addr = static_cast<std::uint32_t>(__cvta_generic_to_shared(tile));
    return (std::uint64_t((addr & 0x3FFFF) >> 4)) | (std::uint64_t(1) << 16) | (std::uint64_t(1024 >> 4) << 32) |
           (std::uint64_t(1) << 62);
}

__device__ __forceinline__ void wgmma_m64n128k8_tf32(float (&d)[64], std::uint64_t da, std::uint64_t db) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 "
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, "
        "%23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, "
        "%44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, "
        "%64, %65, p, 1, 1;\n}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
          "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
          "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
          "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
          "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
          "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
          "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
        : "l"(da), "l"(db), "n"(1)  // scale-d 1: D += A B (the accumulators start at zero)
        : "memory");
}
#endif

// Orders this thread's earlier accesses to the accumulators before the wgmmas that follow
// (wgmma.fence).
template <class Ctx>
CVZ_HD void wgmma_fence(const Ctx&) {
#if defined(CVZ_WGMMA)
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#endif
}

// Closes a group of wgmmas (wgmma.commit_group).
template <class Ctx>
CVZ_HD void wgmma_commit(const Ctx&) {
#if defined(CVZ_WGMMA)
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
#endif
}

// Waits until at most PENDING groups are in flight (wgmma.wait_group): their accumulators are then
// readable and their shared operands free to overwrite.
template <unsigned PENDING, class Ctx>
CVZ_HD void wgmma_wait(const Ctx&) {
#if defined(CVZ_WGMMA)
    asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(PENDING) : "memory");
#endif
}

// Makes this thread's plain stores to shared memory visible to the async proxy that wgmma reads
// through (fence.proxy.async.shared::cta); a barrier then orders them for the whole block.
template <class Ctx>
CVZ_HD void fence_shared_async(const Ctx&) {
#if defined(CVZ_WGMMA)
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#endif
}

// D += A B for the warpgroup: A the 64 x 8 slice at column k0 of a 64-row swizzled tile, B the 128 x 8
// slice at k0 of a 128-row swizzled tile (B stored K-major: row n holds column n of B), both TF32
// values; d this thread's 64 accumulators (wgmma_c_row / wgmma_c_col); t its index in the warpgroup.
template <class Ctx>
CVZ_HD void warpgroup_mma_tf32(const Ctx& ctx, float (&d)[WgmmaShape::C_REGS], const float* a_tile, const float* b_tile,
                               unsigned k0, unsigned t) {
    (void)ctx;
    (void)t;
#if defined(CVZ_WGMMA)
    wgmma_m64n128k8_tf32(d, wgmma_sw128_descriptor(a_tile + k0), wgmma_sw128_descriptor(b_tile + k0));
#elif defined(__CUDA_ARCH__)
    (void)d, (void)a_tile, (void)b_tile, (void)k0;
    __trap();  // compiled for a target without wgmma; the launchers never run it there
#else
    for (unsigned r = 0; r < WgmmaShape::C_REGS; ++r) {
        const unsigned row = wgmma_c_row(t, r), col = wgmma_c_col(t, r);
        float a[WgmmaShape::K], b[WgmmaShape::K];
        for (unsigned k = 0; k < WgmmaShape::K; ++k) {
            a[k] = a_tile[sw128_index(row, k0 + k)];
            b[k] = b_tile[sw128_index(col, k0 + k)];
        }
        d[r] = detail::tensor_core_sum(d[r], a, b);
    }
#endif
}

}  // namespace cvz
