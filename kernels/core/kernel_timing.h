#pragma once
// Timing a kernel over a list of launch shapes (the block-size sweep): the options every sweep takes,
// what it reports per shape, and the loop they all share (progress after each shape, cancel checked
// between shapes, a shape's own failure recorded on its row while the sweep goes on).
//
// Rounds: a sweep of short kernels (a few microseconds, mostly launch cost) drifts with the GPU's
// clocks and whatever else the machine does, and a shape timed once at the wrong moment takes a rank
// it does not deserve. With rounds > 1 the loop passes over all the shapes that many times, each pass
// adding `repeats` launches to every shape's samples, so that a drift falls on all shapes alike; the
// median is over all of a shape's samples.
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
    int repeats = 20;         // timed launches per shape and round; the median of all is reported
    double budget_ms = 250;   // per shape and round: fewer repeats (never under 3) when one launch is this slow
    int rounds = 1;           // interleaved passes over the shapes (see above)
    double spin_up_ms = 100;  // GPU sweeps: keep the GPU busy this long first, so that its clocks leave idle
    bool hold = true;         // hold the stream while a shape's launches are queued (cuda/clock_spin_up.h)
    int device = 0;           // the CUDA device
    const CancelToken* cancel = nullptr;  // checked between shapes
    // After each shape of each round: how many are done (1..total) and how many there are (shapes x rounds).
    std::function<void(std::size_t done, std::size_t total)> progress;
    // After each shape of each round, with its result so far (before `progress`): lets a view fill in
    // as the sweep goes.
    std::function<void(std::size_t index, const ShapeTiming& timing)> shape_done;
};

struct ShapeTiming {
    Status status;         // why this shape was not timed (refused by our validator or by CUDA)
    bool timed = false;    // false: not reached (cancelled, the sweep failed) or refused
    double median_ms = 0;  // of the timed launches, kernel alone (CUDA events)
    int launches = 0;      // how many launches were timed
    std::vector<double> samples_ms;  // every timed launch, over all rounds (the median's data)
};

struct TimingSweep {
    Status status;                    // a failure of the whole sweep: no device, upload, a broken context
    std::vector<ShapeTiming> shapes;  // one per shape asked for, in order; untimed where the sweep stopped
    std::size_t completed = 0;        // shapes tried (in the first round)
    int rounds = 0;                   // rounds finished
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

// The loop of every sweep: for each round and each of `count` shapes, unless cancelled,
// `time_one(index, &timing)` adds that shape's timed launches to its timing and returns a non-ok
// Status only when the whole sweep must stop (the context is broken). A refused shape is not such a
// failure: it sets timing.status and returns ok, and later rounds skip it.
template <class TimeOne>
TimingSweep run_timing_loop(std::size_t count, const TimingOptions& options, TimeOne&& time_one) {
    TimingSweep sweep;
    sweep.shapes.resize(count);
    const int rounds = std::max(1, options.rounds);
    const std::size_t total = count * std::size_t(rounds);
    std::size_t done = 0;
    for (int round = 0; round < rounds; ++round) {
        for (std::size_t i = 0; i < count; ++i) {
            if (options.cancel && options.cancel->requested()) {
                sweep.cancelled = true;
                return sweep;
            }
            ShapeTiming& shape = sweep.shapes[i];
            Status fatal = Status::ok();
            if (round == 0 || shape.timed) fatal = time_one(i, &shape);
            if (round == 0) ++sweep.completed;
            ++done;
            if (options.shape_done) options.shape_done(i, shape);
            if (options.progress) options.progress(done, total);
            if (!fatal) {
                sweep.status = fatal;
                return sweep;
            }
        }
        sweep.rounds = round + 1;
    }
    return sweep;
}

}  // namespace cvz
