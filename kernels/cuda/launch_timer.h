#pragma once
// For code built with the CUDA toolkit: time one launch shape of a sweep (kernels/core/kernel_timing.h)
// with CUDA events — warm-up launches, then timed launches back to back, the median.
#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <vector>

#include "../core/kernel_timing.h"
#include "clock_spin_up.h"
#include "cuda_check.h"
#include "cuda_event.h"

namespace cvz {

// After a launch failed: ok when the context survived it (a refused configuration: the sweep goes
// on), else the sticky error that breaks the context and ends the sweep.
inline Status context_after_failed_launch() {
    return cuda_status(cudaDeviceSynchronize(), "cudaDeviceSynchronize after a failed launch");
}

// Selects `device` and reads its name.
inline Status select_cuda_device(int device, std::string* name) {
    CVZ_CUDA_TRY(cudaSetDevice(device));
    cudaDeviceProp prop{};
    CVZ_CUDA_TRY(cudaGetDeviceProperties(&prop, device));
    *name = prop.name;
    return Status::ok();
}

// Times `launch` (a callable that queues one launch on `stream` and returns its Status): options.warmup
// untimed launches, then (behind a hold of the stream, when options.hold: clock_spin_up.h) options.repeats
// launches with an event between each two (fewer, never under
// 3, when one launch would overrun options.budget_ms), added to out's samples of earlier rounds, and
// the median of them all. A launch CUDA refuses sets
// out->status and returns ok when the context survived it; the returned Status is non-ok only when
// the sweep must stop (a fault while running, a broken context, an event that could not be made).
template <class Launch>
Status time_launch_shape(Launch&& launch, cudaStream_t stream, const TimingOptions& options, ShapeTiming* out) {
    CudaEvent warm_begin, warm_end;
    if (Status s = warm_begin.create(); !s) return s;
    if (Status s = warm_end.create(); !s) return s;
    const int warmup = std::max(1, options.warmup);
    if (Status s = warm_begin.record(stream); !s) return s;
    for (int i = 0; i < warmup; ++i) {
        if (Status s = launch(); !s) {
            out->status = s;
            return context_after_failed_launch();
        }
    }
    if (Status s = warm_end.record(stream); !s) return s;
    double warm_ms = 0;
    if (Status s = elapsed_ms(warm_begin, warm_end, &warm_ms); !s) {  // the kernel faulted while running
        out->status = s;
        return s;
    }

    const int most = std::max(1, options.repeats);
    int repeats = most;
    const double per_launch = warm_ms / warmup;
    if (options.budget_ms > 0 && per_launch > 0)
        repeats = int(std::clamp(options.budget_ms / per_launch, double(std::min(3, most)), double(most)));
    std::vector<CudaEvent> marks(std::size_t(repeats) + 1);
    for (CudaEvent& e : marks)
        if (Status s = e.create(); !s) return s;
    if (options.hold)
        if (Status s = hold_stream(stream, hold_us_for(repeats)); !s) return s;
    if (Status s = marks[0].record(stream); !s) return s;
    for (int r = 0; r < repeats; ++r) {
        if (Status s = launch(); !s) {
            out->status = s;
            return context_after_failed_launch();
        }
        if (Status s = marks[std::size_t(r) + 1].record(stream); !s) return s;
    }
    for (std::size_t r = 0; r < std::size_t(repeats); ++r) {
        double ms = 0;
        if (Status s = elapsed_ms(marks[r], marks[r + 1], &ms); !s) {
            out->status = s;
            return s;
        }
        out->samples_ms.push_back(ms);
    }
    out->status = Status::ok();
    out->timed = true;
    out->launches = int(out->samples_ms.size());
    out->median_ms = median_of(out->samples_ms);
    return Status::ok();
}

}  // namespace cvz
