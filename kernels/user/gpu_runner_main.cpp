// cudaviz-gpu-runner REQUEST RESPONSE: runs a user's kernel on the GPU, isolated from the app (issue 27).
// The app (user_gpu.cpp) writes REQUEST, starts this program and reads RESPONSE; a fault, a hang or a
// broken context ends here. It loads the CUBIN with the driver API into the runtime's primary context,
// so that the built-ins' timing (kernels/cuda/launch_timer.h) times it the same way. Each buffer sits
// between two guard zones (guard_zone.h), checked after the first launch and before anything is copied
// back: a store past a buffer, which the GPU lets through, is a bounds fault. Loads are not seen.
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
std::string fault_message(const std::string& error, bool illegal_address) {
    std::string m = "the GPU stopped the kernel: " + error;
    if (illegal_address) m += "; a load or store outside its buffer (a missing guard?) or through an invalid pointer";
    return m;
}

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

// A buffer's place in its guarded allocation: [zone][bytes][zone], the kernel gets the middle.
struct GuardedBuffer {
    CUdeviceptr base = 0;
    std::size_t zone = 0, bytes = 0;
    CUdeviceptr data() const { return base + zone; }
};

// Fills both zones of `b` with the canary (`canary` holds at least b.zone bytes of it).
cudaError_t fill_zones(const GuardedBuffer& b, const std::vector<std::uint8_t>& canary) {
    if (cudaError_t e = cudaMemcpy(reinterpret_cast<void*>(b.base), canary.data(), b.zone, cudaMemcpyHostToDevice); e != cudaSuccess)
        return e;
    return cudaMemcpy(reinterpret_cast<void*>(b.data() + b.bytes), canary.data(), b.zone, cudaMemcpyHostToDevice);
}

// Reads both zones back: "" when untouched, else the bounds message; a failed copy is in *error.
std::string check_zones(const GuardedBuffer& b, const cvz::user::GpuRunnerArg& a, cudaError_t* error) {
    std::vector<std::uint8_t> front(b.zone), back(b.zone);
    *error = cudaMemcpy(front.data(), reinterpret_cast<void*>(b.base), b.zone, cudaMemcpyDeviceToHost);
    if (*error == cudaSuccess) *error = cudaMemcpy(back.data(), reinterpret_cast<void*>(b.data() + b.bytes), b.zone, cudaMemcpyDeviceToHost);
    if (*error != cudaSuccess) return {};
    return cvz::user::guard_zone_message(a.name, b.bytes, std::size_t(a.element_bytes), b.zone,
                                         cvz::user::find_zone_change(front.data(), b.zone),
                                         cvz::user::find_zone_change(back.data(), b.zone));
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
    set(out, GpuRunnerOutcome::DeviceFault, fault_message(rt_text(e), address));
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
    // each between its guard zones.
    DeviceMemory memory;
    std::vector<CUdeviceptr> pointers(q.args.size());
    std::vector<GuardedBuffer> guarded(q.args.size());
    std::vector<int> ints(q.args.size());
    std::size_t widest_zone = 0;
    for (const cvz::user::GpuRunnerArg& a : q.args)
        if (a.buffer) widest_zone = std::max(widest_zone, cvz::user::guard_zone_bytes(std::size_t(a.bytes)));
    std::vector<std::uint8_t> canary(widest_zone);
    cvz::user::fill_canary(canary.data(), canary.size());
    for (std::size_t i = 0; i < q.args.size(); ++i) {
        const cvz::user::GpuRunnerArg& a = q.args[i];
        if (a.buffer) {
            GuardedBuffer& g = guarded[i];
            g.bytes = std::size_t(a.bytes);
            g.zone = cvz::user::guard_zone_bytes(g.bytes);
            void* p = nullptr;
            if (cudaError_t e = memory.allocate(g.bytes + 2 * g.zone, &p); e != cudaSuccess)
                return set(out, GpuRunnerOutcome::Refused, "cannot allocate " + std::to_string(a.bytes) + " bytes for " + a.name + " on the GPU: " + rt_text(e));
            g.base = CUdeviceptr(p);
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
        return set(out, GpuRunnerOutcome::DeviceFault, fault_message(cu_text(r), r == CUDA_ERROR_ILLEGAL_ADDRESS));
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
