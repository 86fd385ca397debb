#pragma once
// A kernel's time told honestly: the first launch of a process pays module loading and context
// creation (the CLI once printed 0.166 ms for a kernel whose warm time is a few µs), so the warm time
// (the median of repeats after a warm-up, as the benchmarks measure it) is reported, and the first
// launch's cost is named beside it.
#include <QString>

#include <functional>

#include "kernels/core/status.h"

namespace cvz {

struct KernelTimes {
    double first_ms = 0;       // the first run's kernel time
    double first_call_ms = 0;  // CUDA: the whole first call (context, module loading, copies); 0: not measured
    double warm_ms = 0;        // median of the warm runs; 0 when none was made
    int warm_launches = 0;     // how many warm runs the median is of
    bool gpu = false;

    // The time a table or a GFLOP/s figure should use: warm when measured, else the first run's.
    double kernel_ms() const { return warm_launches > 0 ? warm_ms : first_ms; }
    // "kernel 0.098 ms warm (median of 20 after a warm-up) · first launch 0.166 ms, its call 212.3 ms with
    // CUDA context creation and module loading", or "kernel 1.234 ms (one run, not warmed up)".
    QString text() const;
};

// The emulator's warm time: `run_once` (which returns the run's status and its time) repeated after
// the first run, at most `repeats` times and while the repeats have taken under `budget_ms`. The first
// failing run's status is returned.
Status measure_emulator_warm(int repeats, double budget_ms, const std::function<Status(double* ms)>& run_once,
                             KernelTimes* times);

// The emulator's times of `launch`: its first run (times->first_ms) and, when `repeats` > 0, the warm
// median of up to `repeats` more within 250 ms. The first failing run's status is returned.
Status time_emulator_runs(int repeats, const std::function<Status()>& launch, KernelTimes* times);

}  // namespace cvz
