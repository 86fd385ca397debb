#pragma once
// Timing a kernel over a list of launch shapes (the block-size sweep): the options every sweep takes,
// what it reports per shape, and the loop they all share (progress after each shape, cancel checked
// between shapes, a shape's own failure recorded on its row while the sweep goes on).
// Qt-free and CUDA-free, so that the GPU timers and the fakes the tests inject run the same loop.
#include <algorithm>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "cancel_token.h"
#include "status.h"

namespace cvz {

struct ShapeTiming;

struct TimingOptions {
    int warmup = 3;           // untimed launches before each shape's timed ones
    int repeats = 20;         // timed launches per shape; the median is reported
    double budget_ms = 250;   // per shape: fewer repeats (never under 3) when one launch is this slow
    int device = 0;           // the CUDA device
    const CancelToken* cancel = nullptr;  // checked between shapes
    // After each shape: how many are done (1..total) and how many there are.
    std::function<void(std::size_t done, std::size_t total)> progress;
    // After each shape, with its result (before `progress`): lets a view fill in as the sweep goes.
    std::function<void(std::size_t index, const ShapeTiming& timing)> shape_done;
};

struct ShapeTiming {
    Status status;         // why this shape was not timed (refused by our validator or by CUDA)
    bool timed = false;    // false: not reached (cancelled, the sweep failed) or refused
    double median_ms = 0;  // of the timed launches, kernel alone (CUDA events)
    int launches = 0;      // how many launches were timed
};

struct TimingSweep {
    Status status;                    // a failure of the whole sweep: no device, upload, a broken context
    std::vector<ShapeTiming> shapes;  // one per shape asked for, in order; untimed where the sweep stopped
    std::size_t completed = 0;        // shapes tried
    bool cancelled = false;
    std::string device;               // the GPU's name, e.g. "NVIDIA H200"
};

// The median of `samples` (the mean of the two middle ones for an even count); 0 when empty.
inline double median_of(std::vector<double> samples) {
    if (samples.empty()) return 0;
    std::sort(samples.begin(), samples.end());
    const std::size_t mid = samples.size() / 2;
    return samples.size() % 2 ? samples[mid] : (samples[mid - 1] + samples[mid]) / 2;
}

// The loop of every sweep: for each of `count` shapes, unless cancelled, `time_one(index, &timing)`
// fills that shape's timing and returns a non-ok Status only when the whole sweep must stop (the
// context is broken). A refused shape is not such a failure: it sets timing.status and returns ok.
template <class TimeOne>
TimingSweep run_timing_loop(std::size_t count, const TimingOptions& options, TimeOne&& time_one) {
    TimingSweep sweep;
    sweep.shapes.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
        if (options.cancel && options.cancel->requested()) {
            sweep.cancelled = true;
            break;
        }
        const Status fatal = time_one(i, &sweep.shapes[i]);
        ++sweep.completed;
        if (options.shape_done) options.shape_done(i, sweep.shapes[i]);
        if (options.progress) options.progress(i + 1, count);
        if (!fatal) {
            sweep.status = fatal;
            break;
        }
    }
    return sweep;
}

}  // namespace cvz
