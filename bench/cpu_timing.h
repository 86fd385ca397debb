#pragma once
// Median wall and CPU time of a run, for the CPU benchmarks. CPU time is printed beside wall time
// because these often run on a shared machine: when other processes take the cores, wall time grows
// but the CPU time a run needs barely does.
#include <time.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <vector>

namespace cvz::bench {

struct Timing {
    double wall_ms;  // median wall time
    double cpu_ms;   // median CPU time of the whole process over the same runs
};

inline double process_cpu_ms() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

// `run` once to warm up (page in the buffers, spin up the threads), then `repeats` timed runs.
inline Timing median_ms(int repeats, const std::function<void()>& run) {
    run();
    std::vector<double> wall, cpu;
    for (int i = 0; i < repeats; ++i) {
        const double c0 = process_cpu_ms();
        const auto a = std::chrono::steady_clock::now();
        run();
        wall.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - a).count());
        cpu.push_back(process_cpu_ms() - c0);
    }
    std::sort(wall.begin(), wall.end());
    std::sort(cpu.begin(), cpu.end());
    return {wall[wall.size() / 2], cpu[cpu.size() / 2]};
}

}  // namespace cvz::bench
