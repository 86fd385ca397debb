#pragma once
// Schedule recording on the GPU: the device context a recorded launch passes to the kernel body (the
// same body as the plain launch, ARCHITECTURE.md invariant 1), and the device arrays it writes.
//
// What "start" and "end" mean: a block starts when its first warp starts and ends when its last warp
// has finished the body. Every warp records, through one global atomic per warp (the lowest active
// lane's): atomicMin of the timer before the body, atomicMax after it. Chosen over "thread 0 reads the
// timer, then a __syncthreads() after the body": no barrier is added (a barrier would make every warp
// wait for the slowest and change what a block with an early-exiting warp looks like), the end is the
// real last warp's, not thread 0's, and it holds when a warp's lanes leave the body at different times
// (__activemask: each group of lanes that arrives together records for itself). The cost is two
// atomics per warp on the block's own two words, against the body's hundreds of instructions.
// Thread 0 of the block writes %smid (every warp of a block runs on the same SM).
#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

#include "../core/block_schedule.h"
#include "device_buffer.h"
#include "device_context.cuh"

namespace cvz {

struct ScheduleRecordingContext : DeviceContext {
    unsigned long long* start = nullptr;  // per linear block id: earliest warp's timer before the body
    unsigned long long* end = nullptr;    // latest warp's timer after the body
    int* sm = nullptr;                    // %smid of the block

    // %globaltimer in ns, read hi, lo, hi: a lo that wrapped between the two halves is read again.
    __device__ __forceinline__ static unsigned long long global_timer() {
        unsigned hi, lo, hi_again;
        asm volatile("mov.u32 %0, %%globaltimer_hi;" : "=r"(hi));
        for (;;) {
            asm volatile("mov.u32 %0, %%globaltimer_lo;" : "=r"(lo));
            asm volatile("mov.u32 %0, %%globaltimer_hi;" : "=r"(hi_again));
            if (hi_again == hi) break;
            hi = hi_again;
        }
        return (static_cast<unsigned long long>(hi) << 32) | lo;
    }
    __device__ __forceinline__ static unsigned sm_id() {
        unsigned id;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
        return id;
    }
    __device__ __forceinline__ static unsigned lane_id() {
        unsigned id;
        asm volatile("mov.u32 %0, %%laneid;" : "=r"(id));
        return id;
    }
    __device__ __forceinline__ static bool warp_leader() {
        return lane_id() == unsigned(__ffs(__activemask()) - 1);
    }
    __device__ __forceinline__ std::uint64_t block_id() const { return linear_block_id(block_idx(), grid_dim()); }

    __device__ __forceinline__ void block_started() const {
        if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) sm[block_id()] = int(sm_id());
        if (warp_leader()) atomicMin(&start[block_id()], global_timer());
    }
    __device__ __forceinline__ void block_ended() const {
        if (warp_leader()) atomicMax(&end[block_id()], global_timer());
    }
};

// The device side of one recording: three arrays of `blocks` entries, reset before each launch.
class ScheduleRecording {
public:
    Status allocate(std::uint64_t blocks) {
        blocks_ = blocks;
        if (Status s = start_.allocate(blocks); !s) return s;
        if (Status s = end_.allocate(blocks); !s) return s;
        return sm_.allocate(blocks);
    }
    // Start at the largest value (atomicMin), end at 0 (atomicMax), SM at -1 (all bits set): a block
    // that never ran is seen as such by make_block_schedule.
    Status reset(cudaStream_t stream) {
        CVZ_CUDA_TRY(cudaMemsetAsync(start_.get(), 0xFF, start_.bytes(), stream));
        CVZ_CUDA_TRY(cudaMemsetAsync(end_.get(), 0, end_.bytes(), stream));
        CVZ_CUDA_TRY(cudaMemsetAsync(sm_.get(), 0xFF, sm_.bytes(), stream));
        return Status::ok();
    }
    ScheduleRecordingContext context() const {
        ScheduleRecordingContext ctx;
        ctx.start = start_.get();
        ctx.end = end_.get();
        ctx.sm = sm_.get();
        return ctx;
    }
    // After the launch: the raw records, synchronising with the device.
    Status download(std::vector<BlockTiming>* out) {
        std::vector<unsigned long long> start(blocks_), end(blocks_);
        std::vector<int> sm(blocks_);
        CVZ_CUDA_TRY(cudaMemcpy(start.data(), start_.get(), start_.bytes(), cudaMemcpyDeviceToHost));
        CVZ_CUDA_TRY(cudaMemcpy(end.data(), end_.get(), end_.bytes(), cudaMemcpyDeviceToHost));
        CVZ_CUDA_TRY(cudaMemcpy(sm.data(), sm_.get(), sm_.bytes(), cudaMemcpyDeviceToHost));
        out->resize(blocks_);
        for (std::uint64_t i = 0; i < blocks_; ++i) (*out)[i] = BlockTiming{sm[i], start[i], end[i]};
        return Status::ok();
    }

private:
    std::uint64_t blocks_ = 0;
    DeviceBuffer<unsigned long long> start_, end_;
    DeviceBuffer<int> sm_;
};

// The device's name and SM count for the schedule's header.
inline Status describe_schedule_device(int device, BlockSchedule* out) {
    cudaDeviceProp prop{};
    CVZ_CUDA_TRY(cudaGetDeviceProperties(&prop, device));
    out->backend = "cuda";
    out->device = prop.name;
    out->sms = prop.multiProcessorCount;
    return Status::ok();
}

}  // namespace cvz
