// cudaviz-gpu-runner REQUEST RESPONSE: runs a user's kernel on the GPU, isolated from the app (issue 27).
// The app (user_gpu.cpp) writes REQUEST, starts this program and reads RESPONSE; a fault, a hang or a
// broken context ends here. It loads the CUBIN with the driver API into the runtime's primary context,
// so that the built-ins' timing (kernels/cuda/launch_timer.h) times it the same way. Each buffer is placed
// with the driver's virtual memory API so that unmapped addresses follow its end: a load or store past
// it stops the kernel (an illegal address, which the app has the emulator name). Its front zone and the
// rounding after its end hold a canary (guard_zone.h), checked after the first launch and before
// anything is copied back: a store there, which the GPU lets through, is a bounds fault.
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "../cuda/clock_spin_up.h"
#include "../cuda/launch_timer.h"
#include "guard_zone.h"
#include "shared_buffer.h"
#include "user_gpu_protocol.h"

namespace {

using cvz::user::GpuRunnerOutcome;
using cvz::user::GpuRunnerRequest;
using cvz::user::GpuRunnerResponse;

std::string cu_text(CUresult r) {
    const char* name = nullptr;
    const char* text = nullptr;
    cuGetErrorName(r, &name);
    cuGetErrorString(r, &text);
    return std::string(name ? name : "CUDA_ERROR_UNKNOWN") + " (" + (text ? text : "unknown error") + ")";
}

std::string rt_text(cudaError_t e) { return std::string(cudaGetErrorName(e)) + " (" + cudaGetErrorString(e) + ")"; }

// A launch CUDA refused before running it: the user's launch configuration, not a fault of the kernel.
bool is_refusal(CUresult r) {
    return r == CUDA_ERROR_INVALID_VALUE || r == CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES ||
           r == CUDA_ERROR_INVALID_HANDLE;
}

// What an error while the kernel ran means for the user.
std::string fault_message(const std::string& error, bool illegal_address, bool unmapped_after) {
    std::string m = "the GPU stopped the kernel: " + error;
    if (illegal_address)
        m += unmapped_after ? "; a load or store outside its buffer (each buffer ends where unmapped memory begins: a missing guard?) "
                              "or through an invalid pointer"
                            : "; a load or store outside its buffer (a missing guard?) or through an invalid pointer";
    return m;
}

// Whether the buffers end at unmapped memory (the virtual memory API), for the fault's message.
bool g_unmapped_after = false;

// Device memory freed on exit.
class DeviceMemory {
public:
    ~DeviceMemory() {
        for (void* p : blocks_) cudaFree(p);
    }
    cudaError_t allocate(std::size_t bytes, void** out) {
        *out = nullptr;
        const cudaError_t e = cudaMalloc(out, bytes ? bytes : 1);  // a zero-sized buffer still gets a distinct address
        if (e == cudaSuccess) blocks_.push_back(*out);
        return e;
    }

private:
    std::vector<void*> blocks_;
};

// A buffer's place in its guarded memory: [front zone][bytes][back zone], the kernel gets the middle.
struct GuardedBuffer {
    CUdeviceptr base = 0;  // the front zone's start
    std::size_t front = 0, bytes = 0, back = 0;
    CUdeviceptr data() const { return base + front; }
};

// Address ranges reserved and memory mapped with the driver's virtual memory API (guard_zone.h's
// GuardedLayout), given back on exit.
class MappedMemory {
public:
    ~MappedMemory() {
        for (const Range& r : ranges_) {
            if (r.mapped_bytes) cuMemUnmap(r.base + r.map_offset, r.mapped_bytes);
            if (r.handle) cuMemRelease(r.handle);
            cuMemAddressFree(r.base, r.reserved);
        }
    }
    // "" when device `device` can map memory so; else why not (the runner then falls back to cudaMalloc).
    std::string prepare(int device) {
        int supported = 0;
        CUdevice dev = 0;
        if (CUresult r = cuDeviceGet(&dev, device); r != CUDA_SUCCESS) return "cuDeviceGet: " + cu_text(r);
        if (CUresult r = cuDeviceGetAttribute(&supported, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, dev); r != CUDA_SUCCESS)
            return "cuDeviceGetAttribute: " + cu_text(r);
        if (!supported) return "the device has no virtual memory management";
        prop_.type = CU_MEM_ALLOCATION_TYPE_PINNED;
        prop_.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
        prop_.location.id = dev;
        if (CUresult r = cuMemGetAllocationGranularity(&granularity_, &prop_, CU_MEM_ALLOC_GRANULARITY_MINIMUM); r != CUDA_SUCCESS)
            return "cuMemGetAllocationGranularity: " + cu_text(r);
        if (granularity_ == 0 || (granularity_ & (granularity_ - 1)) != 0) return "an allocation granularity of " + std::to_string(granularity_);
        return {};
    }
    std::size_t granularity() const { return granularity_; }
    // Places a buffer of `bytes` as guarded_layout() says; "" or the driver's refusal.
    std::string place(std::size_t bytes, GuardedBuffer* out) {
        const cvz::user::GuardedLayout l = cvz::user::guarded_layout(bytes, granularity_);
        Range r;
        r.reserved = l.reserved;
        r.map_offset = l.map_offset;
        if (CUresult e = cuMemAddressReserve(&r.base, l.reserved, granularity_, 0, 0); e != CUDA_SUCCESS)
            return "cuMemAddressReserve: " + cu_text(e);
        ranges_.push_back(r);
        Range& kept = ranges_.back();
        if (CUresult e = cuMemCreate(&kept.handle, l.mapped, &prop_, 0); e != CUDA_SUCCESS) {
            kept.handle = 0;
            return "cuMemCreate: " + cu_text(e);
        }
        if (CUresult e = cuMemMap(kept.base + l.map_offset, l.mapped, 0, kept.handle, 0); e != CUDA_SUCCESS) return "cuMemMap: " + cu_text(e);
        kept.mapped_bytes = l.mapped;
        CUmemAccessDesc access{};
        access.location = prop_.location;
        access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
        if (CUresult e = cuMemSetAccess(kept.base + l.map_offset, l.mapped, &access, 1); e != CUDA_SUCCESS) return "cuMemSetAccess: " + cu_text(e);
        out->base = kept.base + l.map_offset;
        out->front = l.front_zone;
        out->bytes = bytes;
        out->back = l.back_zone;
        return {};
    }

private:
    struct Range {
        CUdeviceptr base = 0;
        std::size_t reserved = 0, map_offset = 0, mapped_bytes = 0;
        CUmemGenericAllocationHandle handle = 0;
    };
    CUmemAllocationProp prop_{};
    std::size_t granularity_ = 0;
    std::vector<Range> ranges_;
};

// Fills both zones of `b` with the canary (`canary` holds at least as many bytes as the wider zone).
cudaError_t fill_zones(const GuardedBuffer& b, const std::vector<std::uint8_t>& canary) {
    if (cudaError_t e = cudaMemcpy(reinterpret_cast<void*>(b.base), canary.data(), b.front, cudaMemcpyHostToDevice); e != cudaSuccess)
        return e;
    if (b.back == 0) return cudaSuccess;
    return cudaMemcpy(reinterpret_cast<void*>(b.data() + b.bytes), canary.data(), b.back, cudaMemcpyHostToDevice);
}

// Reads both zones back: "" when untouched, else the bounds message; a failed copy is in *error.
std::string check_zones(const GuardedBuffer& b, const cvz::user::GpuRunnerArg& a, cudaError_t* error) {
    std::vector<std::uint8_t> front(b.front), back(b.back);
    *error = cudaMemcpy(front.data(), reinterpret_cast<void*>(b.base), b.front, cudaMemcpyDeviceToHost);
    if (*error == cudaSuccess && b.back)
        *error = cudaMemcpy(back.data(), reinterpret_cast<void*>(b.data() + b.bytes), b.back, cudaMemcpyDeviceToHost);
    if (*error != cudaSuccess) return {};
    return cvz::user::guard_zone_message(a.name, b.bytes, std::size_t(a.element_bytes), b.front,
                                         cvz::user::find_zone_change(front.data(), b.front),
                                         cvz::user::find_zone_change(back.data(), b.back));
}

struct Launcher {
    CUfunction function = nullptr;
    cvz::Dim3 grid, block;
    std::vector<void*> params;
    CUresult operator()(cudaStream_t stream) const {
        return cuLaunchKernel(function, grid.x, grid.y, grid.z, block.x, block.y, block.z, 0, CUstream(stream),
                              const_cast<void**>(params.data()), nullptr);
    }
};

void set(GpuRunnerResponse* out, GpuRunnerOutcome outcome, std::string message) {
    out->outcome = outcome;
    out->message = std::move(message);
}

// After a synchronising call failed while the kernel ran. An address far outside every allocation
// can come back as an invalid address space rather than an illegal address: both are a bad pointer.
void kernel_failed(GpuRunnerResponse* out, cudaError_t e) {
    const bool address = e == cudaErrorIllegalAddress || e == cudaErrorInvalidAddressSpace || e == cudaErrorMisalignedAddress;
    set(out, GpuRunnerOutcome::DeviceFault, fault_message(rt_text(e), address, g_unmapped_after));
}

void run(GpuRunnerRequest& q, GpuRunnerResponse* out) {
    // The buffers' files first: a request that cannot be mapped is refused before the GPU is touched.
    std::vector<cvz::user::SharedBuffer> shared(q.args.size());
    for (std::size_t i = 0; i < q.args.size(); ++i) {
        const cvz::user::GpuRunnerArg& a = q.args[i];
        if (!a.buffer) continue;
        std::string error;
        shared[i] = cvz::user::SharedBuffer::open(a.path, std::size_t(a.bytes), a.writable, &error);
        if (!shared[i].valid()) return set(out, GpuRunnerOutcome::BadRequest, "buffer " + a.name + ": " + error);
    }

    if (CUresult r = cuInit(0); r != CUDA_SUCCESS) return set(out, GpuRunnerOutcome::Unavailable, "no usable GPU: cuInit: " + cu_text(r));
    int count = 0;
    if (cudaError_t e = cudaGetDeviceCount(&count); e != cudaSuccess || count == 0)
        return set(out, GpuRunnerOutcome::Unavailable, "no CUDA device: " + (e == cudaSuccess ? std::string("none found") : rt_text(e)));
    if (q.device < 0 || q.device >= count)
        return set(out, GpuRunnerOutcome::Unavailable, "no CUDA device " + std::to_string(q.device) + " (there are " + std::to_string(count) + ")");
    cudaDeviceProp prop{};
    if (cudaError_t e = cudaSetDevice(q.device); e != cudaSuccess) return set(out, GpuRunnerOutcome::Unavailable, "cudaSetDevice: " + rt_text(e));
    if (cudaError_t e = cudaGetDeviceProperties(&prop, q.device); e != cudaSuccess) return set(out, GpuRunnerOutcome::Unavailable, rt_text(e));
    out->device = prop.name;
    out->sms = prop.multiProcessorCount;
    if (cudaError_t e = cudaFree(nullptr); e != cudaSuccess)  // makes the primary context current for the driver API
        return set(out, GpuRunnerOutcome::Unavailable, "cannot create a CUDA context: " + rt_text(e));

    CUmodule module = nullptr;
    if (CUresult r = cuModuleLoadData(&module, q.cubin.data()); r != CUDA_SUCCESS)
        return set(out, GpuRunnerOutcome::Unavailable, "the GPU cannot load the compiled kernel: " + cu_text(r));
    Launcher launch;
    launch.grid = q.grid;
    launch.block = q.block;
    if (CUresult r = cuModuleGetFunction(&launch.function, module, q.function.c_str()); r != CUDA_SUCCESS)
        return set(out, GpuRunnerOutcome::Unavailable, "no kernel " + q.function + " in the module: " + cu_text(r));
    int registers = 0, static_shared = 0;
    if (cuFuncGetAttribute(&registers, CU_FUNC_ATTRIBUTE_NUM_REGS, launch.function) == CUDA_SUCCESS) out->registers = registers;
    if (cuFuncGetAttribute(&static_shared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, launch.function) == CUDA_SUCCESS)
        out->static_shared_bytes = std::uint64_t(static_shared);

    // The arguments: a device copy of every buffer (outputs too: a kernel may leave elements unwritten),
    // each placed between its zones: unmapped memory after it where the driver can map memory so, else a
    // cudaMalloc'ed [zone][buffer][zone] (stores outside seen, loads not).
    DeviceMemory memory;
    MappedMemory mapped;
    const std::string no_mapping = mapped.prepare(q.device);
    g_unmapped_after = no_mapping.empty();
    std::vector<CUdeviceptr> pointers(q.args.size());
    std::vector<GuardedBuffer> guarded(q.args.size());
    std::vector<int> ints(q.args.size());
    for (std::size_t i = 0; i < q.args.size(); ++i) {
        const cvz::user::GpuRunnerArg& a = q.args[i];
        if (!a.buffer) continue;
        GuardedBuffer& g = guarded[i];
        if (g_unmapped_after) {
            if (std::string e = mapped.place(std::size_t(a.bytes), &g); !e.empty())
                return set(out, GpuRunnerOutcome::Refused, "cannot map " + std::to_string(a.bytes) + " bytes for " + a.name + " on the GPU: " + e);
        } else {
            g.bytes = std::size_t(a.bytes);
            g.front = g.back = cvz::user::guard_zone_bytes(g.bytes);
            void* p = nullptr;
            if (cudaError_t e = memory.allocate(g.bytes + g.front + g.back, &p); e != cudaSuccess)
                return set(out, GpuRunnerOutcome::Refused, "cannot allocate " + std::to_string(a.bytes) + " bytes for " + a.name + " on the GPU: " + rt_text(e));
            g.base = CUdeviceptr(p);
        }
    }
    std::size_t widest_zone = 0;
    for (const GuardedBuffer& g : guarded) widest_zone = std::max({widest_zone, g.front, g.back});
    std::vector<std::uint8_t> canary(widest_zone);
    cvz::user::fill_canary(canary.data(), canary.size());
    for (std::size_t i = 0; i < q.args.size(); ++i) {
        const cvz::user::GpuRunnerArg& a = q.args[i];
        if (a.buffer) {
            const GuardedBuffer& g = guarded[i];
            if (cudaError_t e = fill_zones(g, canary); e != cudaSuccess)
                return set(out, GpuRunnerOutcome::Unavailable, "preparing the guard zones of " + a.name + " on the GPU: " + rt_text(e));
            if (cudaError_t e = a.bytes ? cudaMemcpy(reinterpret_cast<void*>(g.data()), shared[i].data(), g.bytes, cudaMemcpyHostToDevice) : cudaSuccess;
                e != cudaSuccess)
                return set(out, GpuRunnerOutcome::Unavailable, "copying " + a.name + " to the GPU: " + rt_text(e));
            pointers[i] = g.data();
            launch.params.push_back(&pointers[i]);
        } else {
            ints[i] = a.value;
            launch.params.push_back(&ints[i]);
        }
    }
    cudaStream_t stream = nullptr;
    if (cudaError_t e = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking); e != cudaSuccess)
        return set(out, GpuRunnerOutcome::Unavailable, "cudaStreamCreate: " + rt_text(e));

    // The run whose output goes back.
    cudaEvent_t begin = nullptr, end = nullptr;
    cudaEventCreate(&begin);
    cudaEventCreate(&end);
    cudaEventRecord(begin, stream);
    if (CUresult r = launch(stream); r != CUDA_SUCCESS) {
        if (is_refusal(r)) return set(out, GpuRunnerOutcome::Refused, "CUDA refused the launch: " + cu_text(r));
        return set(out, GpuRunnerOutcome::DeviceFault, fault_message(cu_text(r), r == CUDA_ERROR_ILLEGAL_ADDRESS, g_unmapped_after));
    }
    cudaEventRecord(end, stream);
    if (cudaError_t e = cudaStreamSynchronize(stream); e != cudaSuccess) return kernel_failed(out, e);
    float ms = 0;
    cudaEventElapsedTime(&ms, begin, end);
    out->run_ms = ms;
    // The guard zones, after the timed events and before any output goes back.
    std::string outside;
    for (std::size_t i = 0; i < q.args.size(); ++i) {
        if (!q.args[i].buffer) continue;
        cudaError_t e = cudaSuccess;
        const std::string m = check_zones(guarded[i], q.args[i], &e);
        if (e != cudaSuccess) return kernel_failed(out, e);
        if (!m.empty()) outside += (outside.empty() ? "" : "; ") + m;
    }
    if (!outside.empty())
        return set(out, GpuRunnerOutcome::BoundsFault,
                   outside + " (found after the kernel in the guard zones around the buffers: the GPU lets such stores through)");
    for (std::size_t i = 0; i < q.args.size(); ++i) {
        const cvz::user::GpuRunnerArg& a = q.args[i];
        if (!a.buffer || !a.writable || a.bytes == 0) continue;
        if (cudaError_t e = cudaMemcpy(shared[i].data(), reinterpret_cast<void*>(pointers[i]), std::size_t(a.bytes), cudaMemcpyDeviceToHost);
            e != cudaSuccess)
            return kernel_failed(out, e);
    }
    set(out, GpuRunnerOutcome::Ran, "");

    // Timing, as the built-ins time a launch shape: spin the clocks up, warm up, hold the stream, median.
    if (q.time) {
        cvz::TimingOptions options;
        options.warmup = q.warmup;
        options.repeats = q.repeats;
        options.rounds = q.rounds;
        options.budget_ms = q.budget_ms;
        options.spin_up_ms = q.spin_up_ms;
        options.hold = q.hold;
        cvz::ShapeTiming timing;
        cvz::Status status = cvz::spin_up_clocks(stream, options.spin_up_ms);
        for (int round = 0; status && round < std::max(1, q.rounds); ++round)
            status = cvz::time_launch_shape(
                [&]() -> cvz::Status {
                    const CUresult r = launch(stream);
                    return r == CUDA_SUCCESS ? cvz::Status::ok() : cvz::Status::error(cvz::ErrorKind::Device, "cuLaunchKernel: " + cu_text(r));
                },
                stream, options, &timing);
        if (status && timing.status) out->samples_ms = timing.samples_ms;
        else out->message = "timing failed: " + (status ? timing.status : status).message();
    }

    // The schedule: the recording module's kernel takes the user's arguments plus three arrays.
    if (!q.recorded_cubin.empty()) {
        const std::uint64_t blocks = q.grid.volume();
        CUmodule recorded_module = nullptr;
        Launcher recorded = launch;
        void *start = nullptr, *finish = nullptr, *sm = nullptr;
        std::string failed;
        if (CUresult r = cuModuleLoadData(&recorded_module, q.recorded_cubin.data()); r != CUDA_SUCCESS)
            failed = "loading the recording module: " + cu_text(r);
        else if (CUresult r2 = cuModuleGetFunction(&recorded.function, recorded_module, "cudaviz_recorded"); r2 != CUDA_SUCCESS)
            failed = "no cudaviz_recorded in the recording module: " + cu_text(r2);
        else if (memory.allocate(blocks * 8, &start) != cudaSuccess || memory.allocate(blocks * 8, &finish) != cudaSuccess ||
                 memory.allocate(blocks * 4, &sm) != cudaSuccess)
            failed = "cannot allocate the schedule's " + std::to_string(blocks) + " records on the GPU";
        if (failed.empty()) {
            // Start at the largest value (atomicMin), end at 0 (atomicMax), SM at -1: a block that never
            // ran shows as such.
            cudaMemsetAsync(start, 0xFF, blocks * 8, stream);
            cudaMemsetAsync(finish, 0, blocks * 8, stream);
            cudaMemsetAsync(sm, 0xFF, blocks * 4, stream);
            CUdeviceptr extra[3] = {CUdeviceptr(start), CUdeviceptr(finish), CUdeviceptr(sm)};
            for (CUdeviceptr& p : extra) recorded.params.push_back(&p);
            if (CUresult r = recorded(stream); r != CUDA_SUCCESS) {
                failed = "launching the recording kernel: " + cu_text(r);
            } else if (cudaError_t e = cudaStreamSynchronize(stream); e != cudaSuccess) {
                return kernel_failed(out, e);
            } else {
                std::vector<unsigned long long> s(blocks), f(blocks);
                std::vector<int> m(blocks);
                cudaMemcpy(s.data(), start, blocks * 8, cudaMemcpyDeviceToHost);
                cudaMemcpy(f.data(), finish, blocks * 8, cudaMemcpyDeviceToHost);
                if (cudaError_t e = cudaMemcpy(m.data(), sm, blocks * 4, cudaMemcpyDeviceToHost); e != cudaSuccess) return kernel_failed(out, e);
                out->schedule.resize(blocks);
                for (std::uint64_t b = 0; b < blocks; ++b) out->schedule[b] = cvz::BlockTiming{m[b], s[b], f[b]};
            }
        }
        if (!failed.empty()) out->message += (out->message.empty() ? "" : "; ") + ("schedule not recorded: " + failed);
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: cudaviz-gpu-runner REQUEST RESPONSE\n"
                             "Runs a user's kernel for cudaviz (started by the app, not by hand).\n");
        return 2;
    }
    GpuRunnerRequest request;
    GpuRunnerResponse response;
    if (std::string error = cvz::user::read_gpu_request(argv[1], &request); !error.empty()) set(&response, GpuRunnerOutcome::BadRequest, error);
    else run(request, &response);
    if (std::string error = cvz::user::write_gpu_response(argv[2], response); !error.empty()) {
        std::fprintf(stderr, "cudaviz-gpu-runner: %s\n", error.c_str());
        return 1;
    }
    return 0;
}
